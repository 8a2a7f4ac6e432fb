"""Power cut at every write of a whole match night: the records still close, once each.

Each write the night makes — a journal line, an outbox file, a rename of the archive — is a crash
point, cut before or after the write. After the cut a fresh Night is folded from the disk and a
referee who just keeps going (confirm, "Ano" by the long press; in a partie: 10s until the limit,
then misses) finishes the night; a closing becomes final as it would (the next stroke, the window's
end, a restart). Then the outbox must hold the 4 partie and the match exactly once, each partie record must
replay to its own summary, and the match points must be the sum of the partie team points
(RULES 1.6).
"""
import json
import os

import pytest
from night_helpers import TONIGHT, write_night

from clock import ManualClock
from delivery.outbox import Outbox
from firmware_host.journal import Journal
from firmware_host.league import load_league
from firmware_host.match_night import TAKE_BACK_SECONDS, Night
from firmware_host.settings import load
from rules.errors import RuleError
from rules.record import replay_lines


class PowerCut(BaseException):
    """Not an Exception: nothing in the product may catch it, as nothing catches a power cut."""


class Writes:
    """Counts the writes and cuts the power at write number ``at`` (before or after it)."""

    def __init__(self, at: int | None = None, after: bool = False):
        self.at, self.after, self.count = at, after, 0

    def wrap(self, real):
        def write(*args, **kwargs):
            self.count += 1
            number = self.count                  # writes nest: Outbox.add renames a file
            if number == self.at and not self.after:
                raise PowerCut
            result = real(*args, **kwargs)
            if number == self.at and self.after:
                raise PowerCut
            return result
        return write


def make(path) -> Night:
    config = load(path / "config.toml")
    counter = iter(range(1, 10**6))
    return Night(config, load_league(path / "league.toml"), outbox=Outbox(path / "outbox"),
                 clock=ManualClock(TONIGHT), urandom=lambda n: next(counter).to_bytes(n, "big"))


def referee_step(night: Night) -> None:
    """What a referee who just wants to finish does next."""
    if night.phase == "partie" and not night.board.finished:
        for cmd in ({"cmd": "score", "value": 10}, {"cmd": "miss"}):
            try:
                night.command(cmd)
                return
            except RuleError:
                continue
    screen = night.screen()
    if screen["screen"] == "menu" and screen["items"][0] == "1 Ano":
        night.ui(1), night.ui("menu")            # closing: "Ano" is taken by the long press (issue 12)
        return
    if screen["screen"] == "menu" and screen["items"][0] == "1 Podepisuji":
        night.ui("menu")                         # a captain signs by the long press (issue 24)
        return
    night.ui("confirm")


def play_night(night: Night, steps: int = 400) -> bool:
    """Drive the night until the match is closed; True when it was."""
    started = False
    for _ in range(steps):
        started = started or night.match is not None
        if started and night.match is None:
            night.clock.advance(TAKE_BACK_SECONDS)      # nobody takes the closing back: it is final
            night.tick()
            return True
        referee_step(night)
    return False


@pytest.fixture
def night_dir(tmp_path):
    def fresh(name: str):
        path = tmp_path / name
        path.mkdir()
        write_night(path, points_limit=20)
        return path
    return fresh


def run_with_cut(path, monkeypatch, writes: Writes) -> bool:
    """Play the night with the power cut armed; True when the cut happened."""
    monkeypatch.setattr(Journal, "append", writes.wrap(Journal.append))
    monkeypatch.setattr(Outbox, "add", writes.wrap(Outbox.add))
    monkeypatch.setattr(os, "replace", writes.wrap(os.replace))
    try:
        assert play_night(make(path))
        return False
    except PowerCut:
        return True
    finally:
        monkeypatch.undo()


def check_records(path) -> None:
    items = Outbox(path / "outbox").pending()
    kinds = sorted(item.kind for item in items)
    assert kinds == ["match", "partie", "partie", "partie", "partie"], kinds
    assert len({item.id for item in items}) == 5
    team = {"home": 0, "away": 0}
    for item in items:
        content = item.content
        if item.kind == "partie":
            lines = content["record"].splitlines()
            replayed = replay_lines(lines)
            assert replayed.rejected == [] and replayed.board.summary() == content["summary"]
            home = json.loads(lines[0])["home"]
            players = content["summary"]["players"]
            team["home"] += players[home]["team_points"]
            team["away"] += players["b" if home == "a" else "a"]["team_points"]
        else:
            match = content["summary"]
    assert match["points"] == team and match["finished"]


def test_the_uncut_night_has_this_many_writes(night_dir, monkeypatch):
    path = night_dir("count")
    writes = Writes()
    assert not run_with_cut(path, monkeypatch, writes)
    check_records(path)
    assert writes.count > 40


@pytest.mark.slow
@pytest.mark.parametrize("after", [False, True], ids=["before-write", "after-write"])
def test_power_cut_at_every_write_still_closes_every_record_once(night_dir, monkeypatch, after):
    writes = Writes()
    run_with_cut(night_dir("count"), monkeypatch, writes)
    for at in range(1, writes.count + 1):
        path = night_dir(f"cut{at}")
        assert run_with_cut(path, monkeypatch, Writes(at, after)), f"write {at} was never reached"
        night = make(path)                                   # the power is back
        if night.match is not None or not (path / "outbox" / "pending").exists() or \
                len(Outbox(path / "outbox").pending()) < 5:
            assert play_night(night), f"cut at write {at}: the night cannot be finished"
        check_records(path)
