"""Draw the counter pictures and key cards that README.md and docs/*.md show, with the real display
code: `pocitadlo render`'s drawing (cli/commands/render.py, luma's capture and gifanim emulator
devices) of the sample states in tests/display_samples.py, and `pocitadlo keycard`'s card.

    .venv/bin/python docs/make_images.py                    # all of them, into docs/img
    .venv/bin/python docs/make_images.py carom-64x16-draw.gif --out /tmp/pictures

Run it after any change to what the counter or the key card shows, and look at the pictures.
tests/docs/test_make_images.py fails when a picture drawn now differs from the committed one, and
when the docs show a picture this script does not draw (the live pages' screenshots come from
bench/live_screenshots.py).
"""
import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"

# picture → (sample state of tests/display_samples.py, `pocitadlo render` options)
COUNTER = {
    "carom-64x16-series.png": ("carom-series", "--size 64x16"),
    "carom-64x16-last-two.gif": ("carom-last-two", "--size 64x16"),
    "carom-64x16-to-go.gif": ("carom-to-go", "--size 64x16"),
    "carom-64x16-draw.gif": ("carom-draw", "--size 64x16"),
    "carom-64x16-frozen.png": ("carom-frozen", "--size 64x16"),
    "carom-64x16-match-night.gif": ("carom-match-night", "--size 64x16"),
    "carom-32x8-series.gif": ("carom-series", "--size 32x8"),
    "carom-32x8-league.gif": ("carom-league-end", "--size 32x8"),
    "carom-96x16-equalising.gif": ("carom-equalising", "--size 96x16"),
    "carom-128x32-series.png": ("carom-series", "--size 128x32"),
    "carom-7seg8-league.gif": ("carom-league-end", "--driver sevensegment --digits 8"),
    "carom-7seg16-series.png": ("carom-series", "--driver sevensegment --digits 16"),
    "8ball-64x16-pocket.png": ("8ball-pocket", "--size 64x16"),
    "8ball-64x16-pocket-choice.png": ("8ball-pocket-choice", "--size 64x16"),
    "8ball-128x32-ws2812-in-hand.png": ("8ball-in-hand", "--size 128x32 --driver ws2812 --scale 8"),
    "carom-32x8-match-night.gif": ("carom-match-night", "--size 32x8"),
    "carom-128x32-match-night.gif": ("carom-match-night", "--size 128x32"),
    "carom-32x8-draw.gif": ("carom-draw", "--size 32x8"),
    "carom-7seg16-league.png": ("carom-league-end", "--driver sevensegment --digits 16"),
    "8ball-32x8-in-hand.gif": ("8ball-in-hand", "--size 32x8"),
    "8ball-64x16-sets.png": ("8ball-sets", "--size 64x16"),
    "8ball-7seg8-sets.png": ("8ball-sets", "--driver sevensegment --digits 8"),
}
# picture → `pocitadlo keycard` options (the built-in key maps, Czech)
KEYCARDS = {
    "keycard-carom.png": "--game carom",
    "keycard-8ball.png": "--game 8ball",
}
# picture → drawn by docs/spectator_sheet.py (a whole match night played from the referee's keys)
SHEETS = ("spectator-sheet.png",)
NAMES = tuple(COUNTER) + tuple(KEYCARDS) + SHEETS


def make(name: str, folder: Path) -> Path:
    """Draw one picture of NAMES into ``folder``; its path."""
    from cli.parser import build_parser

    path = Path(folder) / name
    if name in SHEETS:
        return _spectator_sheet().draw(path)
    if name in KEYCARDS:
        args = build_parser().parse_args(["keycard", "--png", str(path), *KEYCARDS[name].split()])
        args._run(args)
        return path
    from cli.commands.render import draw_gif, draw_png
    from display_samples import sample

    state, options = COUNTER[name]
    kind = "--gif" if name.endswith(".gif") else "--png"
    args = build_parser().parse_args(["render", "-", *options.split(), kind, str(path)])
    (draw_gif if kind == "--gif" else draw_png)(args, sample(state))
    return path


def _spectator_sheet():
    import importlib.util

    spec = importlib.util.spec_from_file_location("spectator_sheet", ROOT / "docs" / "spectator_sheet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def picture_command(argv, description: str, names, make_all) -> int:
    """The command line of a pictures script: ``make_all(names, folder)`` draws some of ``names``
    (all by default) into --out (docs/img) and returns their paths, printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("names", nargs="*", metavar="PICTURE", help=f"some of: {', '.join(names)} (default: all)")
    parser.add_argument("--out", default=str(IMG), help="the folder to write to (default: docs/img)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(names))
    if unknown:
        parser.error(f"no such picture: {', '.join(unknown)}")
    os.makedirs(args.out, exist_ok=True)
    for path in make_all(args.names or names, Path(args.out)):
        print(path)
    return 0


def main(argv=None) -> int:
    return picture_command(argv, __doc__.split("\n\n")[0], NAMES,
                           lambda names, folder: [make(name, folder) for name in names])


if __name__ == "__main__":
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    sys.exit(main())
