"""A third game needs its registry entry and its own modules only (issue 25): a toy game defined in
tests/toy_game.py is registered here and played through every layer of the device — its records
(rules), the config naming it, the referee's keys and key line (input), the counter (display), the
match night and the service with its outbox (firmware_host, cli's emulator) — with no product
file knowing it.
"""
import json
from argparse import Namespace
from pathlib import Path

import pytest

import toy_game
from delivery.outbox import Outbox
from display.layouts import MatrixLayout, SegmentLayout
from input.key_line import KeyLine
from input.settings import KeypadSettings
from rules import night
from rules.board import Board
from rules.games import GAMES, game_names
from rules.record import replay_lines

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("rules", "clock", "config", "wire", "delivery", "input", "display", "firmware_host", "cli")
# What the toy game needed: this list is the point of the test.
NEEDED = ["tests/toy_game.py"]


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(GAMES, toy_game.NAME, toy_game.GAME)
    return toy_game.GAME


def test_the_toy_game_needed_only_its_own_module():
    """Which files define a game: the two of the league and the toy's; no product file names the toy."""
    defining = sorted(path.relative_to(ROOT).as_posix()
                      for folder in PRODUCT + ("tests",) for path in (ROOT / folder).rglob("*.py")
                      if "\nGAME = Game(" in path.read_text(encoding="utf-8"))
    assert defining == ["rules/carom/game.py", "rules/eightball/game.py"] + NEEDED
    naming = [path for folder in PRODUCT for path in (ROOT / folder).rglob("*.py")
              if f'"{toy_game.NAME}"' in path.read_text(encoding="utf-8")]
    assert naming == []


def test_a_toy_partie_is_a_record_the_board_replays(toy):
    board = Board({"game": "toy", "a": "Ann", "b": "Bob", "race": 2})
    for cmd in ({"cmd": "point"}, {"cmd": "miss"}, {"cmd": "point"}, {"cmd": "point"}):
        board.push(cmd)
    assert board.finished and board.summary()["result"] == "b"
    assert "toy" in game_names()


def test_the_referee_keys_and_the_counter_come_from_the_toy_entry(toy):
    board = Board({"game": "toy", "a": "Ann", "b": "Bob"})
    keymap = KeypadSettings().keymap("toy")
    assert keymap.tap["1"] == "point" and keymap.tap["-"] == "undo" and keymap.hold["enter"] == "menu"
    line = KeyLine(keymap)({"screen": "toy", "summary": board.summary()}, board=board)
    assert line.startswith("1 ") and " · 0 " in line
    for layout in (MatrixLayout(64, 16), SegmentLayout(8)):
        assert layout.screen({"screen": "toy"}) == layout.carom


def test_a_toy_team_match_sums_its_partie_and_a_no_show_forfeits_each(toy):
    match = {"ev": "match", "id": "m", "game": "toy", "date": "2026-11-29", "home": "H", "away": "W",
             "present": {"home": ["h1"], "away": ["w1"]}, "partie_count": night.partie_count("toy")}
    state = night.apply(night.NightState(), match)
    assert not state.match.needs_lot and night.min_players("toy") == 1
    for number, home in ((1, "a"), (2, "b")):
        board = Board(night.partie_header(state.match, "h1", "w1", home, {}, {}))
        for _ in range(3):
            board.push({"cmd": "point"})                     # "a" wins the race to 3
        state = night.apply(state, night.closed_event(number, board.header, board.summary()))
    assert state.match.over
    summary = night.match_summary(state.match, {"venue": "V", "table": "1"})
    assert summary["points"] == {"home": 1, "away": 1} and summary["finished"]
    forfeit = night.apply(night.NightState(), dict(match, present={}, forfeit="away"))
    assert night.points(forfeit.match) == {"home": 2, "away": 0}


def test_a_toy_single_partie_is_played_on_the_emulator_and_reaches_the_outbox(toy, tmp_path, clock):
    from cli.commands import emulate

    config = (ROOT / "config" / "examples" / "emulator.toml").read_text(encoding="utf-8")
    path = tmp_path / "toy.toml"
    path.write_text(config.replace('game = "carom"', 'game = "toy"').replace(
        'league = "league.toml"', f'league = {json.dumps(str(ROOT / "config" / "examples" / "league.toml"))}'),
        encoding="utf-8")
    player = emulate.ScriptPlayer(emulate.emulator_config(Namespace(config=str(path), data=str(tmp_path / "d"),
                                                                    keys="script", frames=None)), clock=clock)
    shown = player.play("\n1\n\n111")                       # a single partie, Ann starts, three points
    assert shown[-1]["screen"] == "toy" and shown[-1]["summary"]["result"] == "a"
    assert player.service.display.counter.frames > 0
    player.play("\n1h\n")                                    # close it: "Ano" by the long press
    service = player.service
    assert service.night.phase == "ready"
    service.night.finalize()                                 # nobody takes the closing back
    items = Outbox(tmp_path / "d" / "outbox").pending()
    assert [item.kind for item in items] == ["partie"]
    replay = replay_lines(items[0].content["record"].splitlines())
    assert replay.board.header["game"] == "toy" and replay.summary()["result"] == "a"
