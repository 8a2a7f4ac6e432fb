"""Undo and redo of carom commands through the Board (issue 2; docs/record-format.md)."""
import pytest
from carom_helpers import board, command, players

from rules.errors import IllegalCommand, NothingToRedo, NothingToUndo

PARTIE = "10 2 m z 1 m 20 f 1 1 m m"


def test_undo_goes_back_any_depth_to_the_start():
    """Undo takes back one command at a time, back to the very start."""
    b = board()
    states, summaries = [b.state], [b.summary()]
    for token in PARTIE.split():
        b.push(command(token))
        states.append(b.state)
        summaries.append(b.summary())
    for expected_state, expected_summary in zip(reversed(states[:-1]), reversed(summaries[:-1])):
        b.push(command("u"))
        assert b.state == expected_state and b.summary() == expected_summary
    with pytest.raises(NothingToUndo) as caught:
        b.push(command("u"))
    assert caught.value.code == "nothing_to_undo"


def test_undo_after_the_end_reopens_the_partie():
    """RULES 1.4.3 partie over; undo takes back the stroke that ended it."""
    b = board("10 m 20 1", points_limit=21)
    assert b.finished
    b.push(command("u"))
    s = b.summary()
    assert s["finished"] is False and s["to_play"] == "b" and s["counter"]["series"] == 20
    b.push(command("1"))
    assert b.summary()["result"] == "b"


def test_undo_takes_back_a_forfeit():
    """RULES 1.4.8: a forfeit entered by mistake can be taken back."""
    b = board("10 Fa")
    b.push(command("u"))
    s = b.summary()
    assert s["forfeit"] is None and s["counter"]["series"] == 10 and s["to_play"] == "a"


def test_undo_takes_back_the_frozen_announcement():
    """RULES 1.2: after undoing the announcement 10 scores again."""
    b = board("1 z u 10")
    assert b.summary()["counter"]["series"] == 11


def test_redo_reapplies_what_undo_took_back():
    b = board(PARTIE)
    after = b.summary()
    for _ in range(4):
        b.push(command("u"))
    for _ in range(4):
        b.push(command("r"))
    assert b.summary() == after
    with pytest.raises(NothingToRedo) as caught:
        b.push(command("r"))
    assert caught.value.code == "nothing_to_redo"


def test_a_new_command_clears_redo():
    b = board("10 m u 1")
    assert not b.can_redo()
    with pytest.raises(NothingToRedo):
        b.push(command("r"))
    assert players(b)["a"]["points"] == 11 and b.summary()["counter"]["series"] == 11


def test_a_refused_command_does_not_clear_redo():
    """A refused command changes nothing, the redo stack included."""
    b = board("10 m u")
    with pytest.raises(IllegalCommand):
        b.push({"cmd": "score", "value": 7})
    b.push(command("r"))
    assert b.summary()["to_play"] == "b"


def test_history_keeps_every_accepted_command_as_entered():
    b = board("20 u r m")
    assert [c["cmd"] for c in b.history] == ["score", "undo", "redo", "miss"]
    assert [c["cmd"] for c in b.move_stack] == ["score", "miss"]


def test_the_board_keeps_its_own_copy_of_a_command():
    """What the caller does with its command afterwards changes neither the history nor the move stack."""
    b = board()
    cmd = {"cmd": "score", "value": 10}
    b.push(cmd)
    cmd["value"] = 20
    assert b.history == b.move_stack == [{"cmd": "score", "value": 10}] and b.state.running == 10
