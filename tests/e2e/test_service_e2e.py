"""A whole carom match night through mock GPIO buttons, frames captured, records checked.

Buttons on gpiozero's MockFactory pins → input.buttons → referee (debounce on an injected clock)
→ service → night → journal → counter on luma.emulator's capture device (PNG per frame) →
outbox. RULES 1.6 (4 partie drawn by lot, team points summed), 1.4.1 (limit and equaliser).
"""
import json

import pytest
from gpiozero.pins.mock import MockFactory

from cli.commands.run import assemble
from delivery.outbox import Outbox
from firmware_host.match_night import TAKE_BACK_SECONDS
from firmware_host.settings import load
from rules.record import replay_lines

pytestmark = pytest.mark.e2e

TEAMS = (("Sokol Dvůr", "Hospoda U Lva", ("Novák", "Dvořák", "Svoboda", "Černý")),
         ("Jiskra Hořice", None, ("Kučera", "Veselý", "Horák", "Němec", "Pokorný")))
PINS = {"1": 17, "2": 27, "7": 5, "0": 22, "enter": 25, "-": 24, "+": 23}


@pytest.fixture
def night_config(tmp_path, league_file):
    league_file(((0, "Sokol Dvůr", "Jiskra Hořice"),), teams=TEAMS)
    pins = "\n".join(f'"{key}" = {pin}' for key, pin in PINS.items())
    (tmp_path / "config.toml").write_text(f"""
[device]
venue = "Hospoda U Lva"
league = "league.toml"
data_dir = "data"
[rules.carom]
points_limit = 20
innings_limit = 3
[display]
driver = "capture"
width = 64
height = 16
file_template = "{tmp_path / 'frames' / 'frame_{0:04}.png'}"
[keypad]
devices = ["buttons"]
[keypad.buttons.pins]
{pins}
[sync]
outbox = "outbox"
""", encoding="utf-8")
    (tmp_path / "frames").mkdir()
    return load(tmp_path / "config.toml")


class Table:
    """The referee's fingers on the mock pins; the service's loop run by hand on a fake clock."""

    def __init__(self, config, clock):
        self.factory = MockFactory()
        self.clock = clock
        self.service, self.devices, self.syncer = assemble(config, pin_factory=self.factory, clock=clock)
        self.service.display.start(clock.monotonic())
        self.service.show()
        self.screens = []

    def run_queue(self):
        while not self.service.queue.empty():
            self.service.handle(self.service.queue.get())
        self.service.tick()

    def wait(self, seconds):
        self.clock.advance(seconds)
        self.service.tick()

    def tap(self, key, held: float = 0.05):
        """Press and release a button; ``held``: how long (past the debounce time; 1.0 is a long
        press: the menu key's hold, "Ano" to an irreversible question, issue 12)."""
        pin = self.factory.pin(PINS[key])
        pin.drive_low()                       # pull-up buttons: pressed = low
        self.run_queue()
        self.wait(held)
        pin.drive_high()
        self.run_queue()
        self.wait(0.05)
        self.screens.append(self.service.screen())

    def hold(self, key):
        self.tap(key, held=1.0)

    def keys(self, *keys):
        for key in keys:
            self.tap(key)

    def close(self):
        for device in self.devices:
            device.close()


def test_match_night_through_mock_buttons(night_config, tmp_path, clock):
    table = Table(night_config, clock)
    try:
        assert table.service.screen()["screen"] == "ready"
        table.keys("enter")                                   # setup
        menu = table.service.screen()
        assert menu["items"][menu["selected"]] == "4 Sokol Dvůr – Jiskra Hořice"
        table.keys("enter", "enter", "enter")                 # tonight's fixture, all present
        table.keys("enter", "enter")                          # the captains (A.6.1): the first present
        lot = table.service.screen()
        assert lot["screen"] == "lotdraw" and len(lot["pairs"]) == 4
        table.keys("enter")
        for number in range(1, 5):
            assert table.service.screen()["title"] == f"Partie {number}: kdo začíná?"
            table.keys("enter")                               # the home player won the lag
            table.keys("7", "1", "2", "0")                    # 13, miss
            table.keys("1", "0")                              # b: 1, miss
            table.keys("7", "2", "2")                         # a: 20 is the limit (RULES 1.4.1)
            summary = table.service.screen()["summary"]
            assert summary["counter"]["equalising"] and summary["players"]["a"]["points"] == 20
            table.keys("0")                                   # b misses the equalising inning
            assert table.service.night.board.finished
            table.keys("enter", "1")                          # close the partie? 1 Ano …
            table.hold("enter")                               # … by the long press (issue 12)
        result = table.service.screen()
        assert result["screen"] == "match" and result["points"] == {"home": 8, "away": 0}
        table.keys("enter")                                   # A.6.9d: the captains sign, home …
        table.keys("enter", "enter")                          # (habitual Enter presses sign nothing)
        table.hold("enter")                                   # … by the long press (issue 24) …
        table.hold("enter")                                   # … then away: the match is sent
        assert table.service.screen()["screen"] == "ready"
        assert table.service.screen()["unsent"] == 3          # partie 4 and the match can be taken back
        table.wait(TAKE_BACK_SECONDS)                         # nobody did: they are final
        assert table.service.screen()["unsent"] == 5
        frames = table.service.display.counter.frames
    finally:
        table.close()

    pngs = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert len(pngs) == frames > 40                              # a frame for each change, no more
    outbox = Outbox(tmp_path / "outbox")
    items = outbox.pending()
    partie = [i.content for i in items if i.kind == "partie"]
    match = [i.content for i in items if i.kind == "match"]
    assert len(partie) == 4 and len(match) == 1
    for number, item in enumerate(sorted(partie, key=lambda c: c["id"]), start=1):
        lines = item["record"].splitlines()
        header = json.loads(lines[0])
        assert header["partie"] == number and header["home"] == "a"
        assert header["a"] == lot["pairs"][number - 1]["home"] and header["match"]["seed"] == lot["seed"]
        replayed = replay_lines(lines)
        assert replayed.rejected == []
        assert replayed.board.summary() == item["summary"]
        assert item["summary"]["result"] == "a" and item["summary"]["players"]["a"]["series"] == [13, 7]
    assert match[0]["summary"]["points"] == {"home": 8, "away": 0}
    assert match[0]["summary"]["seed"] == lot["seed"]
