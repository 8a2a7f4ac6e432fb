"""Regenerate the live page's pictures in docs/img/ (a script, not a test):

    .venv/bin/python bench/live_screenshots.py

A match night on the emulator player (the bundled emulator config, a league whose fixture is
tonight), keys pressed through the referee, the device's live endpoint on 127.0.0.1, and Debian's
Chromium through Playwright: the live page on a phone (390x844) and on a 1080p TV, the overlay
(transparent, as OBS composes it) and an 8-ball table on a phone.
"""
import json
import sys
import tempfile
from argparse import Namespace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
IMG = ROOT / "docs" / "img"
MATCH = "\n4\n\n\n\n\n"                      # tonight's fixture, everybody present, lot draw, A starts
# partie 1: A 7+1 then a miss, B 2 and a miss, A 10+10+2 running (series 22, inning 2 of 15)
CAROM = "710" + "20" + "772"
EIGHTBALL = "\n1\n\n"


def player(folder: Path, config_name: str, clock):
    from cli.commands import emulate
    from conftest import EXAMPLES, league_text

    league = folder / "league.toml"
    league.write_text(league_text(clock.today()), encoding="utf-8")
    text = (EXAMPLES / config_name).read_text(encoding="utf-8")
    config = folder / config_name
    config.write_text(text.replace('league = "league.toml"', f"league = {json.dumps(str(league))}"),
                      encoding="utf-8")
    args = Namespace(config=str(config), data=str(folder / "data"), keys="script", frames=None)
    return emulate.ScriptPlayer(emulate.emulator_config(args), clock=clock)


def shoot(url: str, name: str, width: int, height: int, *, clip=None, transparent=False) -> None:
    from browser_helpers import chromium

    with chromium(viewport={"width": width, "height": height}) as browser:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("() => Number(document.body.dataset.seq) > 0", timeout=10_000)
        page.screenshot(path=str(IMG / name), clip=clip, omit_background=transparent)
    print(f"docs/img/{name}")


def main() -> None:
    from browser_helpers import missing
    from cli.commands.emulate import script_clock
    from live_helpers import serve

    why = missing()
    if why:
        raise SystemExit(why)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "carom").mkdir()
        carom = player(Path(tmp) / "carom", "emulator.toml", script_clock())
        carom.play(MATCH + CAROM)
        live = serve(carom)
        url = "http://%s:%s" % live.address
        try:
            shoot(url + "/", "live-phone.png", 390, 844)
            shoot(url + "/", "live-1080p.png", 1920, 1080)
            shoot(url + "/overlay", "live-overlay.png", 1920, 1080, transparent=True,
                  clip={"x": 400, "y": 880, "width": 1120, "height": 200})
        finally:
            live.stop()
        (Path(tmp) / "8ball").mkdir()
        eight = player(Path(tmp) / "8ball", "emulator-8ball.toml", script_clock())
        eight.play(EIGHTBALL)
        live = serve(eight)
        try:
            shoot("http://%s:%s/" % live.address, "live-8ball-phone.png", 390, 844)
        finally:
            live.stop()


if __name__ == "__main__":
    main()
