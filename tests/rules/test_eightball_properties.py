"""Invariants of the 8-ball core over random command sequences through the Board (RULES Part 2)."""
import json

import pytest
from eightball_helpers import HEADER
from eightball_strategies import SETTINGS, header, run, sequences
from hypothesis import given

from rules.record import encode_line, replay_lines

pytestmark = pytest.mark.slow           # each test plays 100 random matches


@SETTINGS
@given(header, sequences)
def test_ball_counts_stay_in_range_and_never_rise_within_a_rack(extra, cmds):
    """RULES 2.1, 2.7: 0..7 balls per group; a rack's counts rise only by undo or a new rack."""
    for board, cmd, before, accepted in run(extra, cmds):
        cur = board.summary()["current"]
        left = cur["left"]
        assert all(0 <= n <= 7 for n in left.values())
        old = before.rack.left
        rose = left["solids"] > old[0] or left["stripes"] > old[1]
        if rose and accepted and cmd["cmd"] not in ("undo", "redo"):
            assert cur["break_shot"] and left == {"solids": 7, "stripes": 7}


@SETTINGS
@given(header, sequences)
def test_undo_restores_exactly_the_previous_state(extra, cmds):
    """Board undo: the state before the last accepted command comes back, equal in every field."""
    for board, cmd, before, accepted in run(extra, cmds):
        if accepted and cmd["cmd"] not in ("undo", "redo"):
            after = board.state
            board.push({"cmd": "undo"})
            assert board.state == before
            board.push({"cmd": "redo"})
            assert board.state == after


@SETTINGS
@given(header, sequences)
def test_replaying_twice_gives_the_same_state(extra, cmds):
    """rules.record: one record, replayed twice, gives equal states and summaries."""
    lines = [encode_line({**HEADER, **extra})] + [encode_line(c, checksum=True) for c in cmds]
    first, second = replay_lines(lines), replay_lines(lines)
    assert first.board.state == second.board.state
    assert first.summary() == second.summary()


@SETTINGS
@given(header, sequences)
def test_summary_is_consistent(extra, cmds):
    """RULES 2.9: games and sets never exceed the races; a finished match has a winner; JSON-ready."""
    boards = [board for board, *_ in run(extra, cmds)]
    if not boards:
        return
    s = boards[-1].summary()
    assert json.loads(json.dumps(s)) == s
    assert max(s["games"].values()) <= s["games_to_win"]
    assert max(s["sets"].values()) <= s["sets_to_win"]
    assert s["finished"] == (s["winner"] is not None)
    assert len(s["games_log"]) >= sum(s["sets"].values()) * 1
    groups = s["current"]["groups"]
    assert (groups["a"] is None) == (groups["b"] is None) and (groups["a"] != groups["b"] or groups["a"] is None)
