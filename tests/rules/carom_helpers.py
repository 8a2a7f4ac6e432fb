"""A short notation for carom command sequences, shared by the carom tests in tests/rules/.

A number is a stroke of that value, m miss, f foul, z frozen, Fa/Fb forfeit, u undo, r redo.
"""
import pytest

from rules.board import Board
from rules.errors import IllegalCommand

SHORT = {"m": {"cmd": "miss"}, "f": {"cmd": "foul"}, "z": {"cmd": "frozen"},
         "Fa": {"cmd": "forfeit", "by": "a"}, "Fb": {"cmd": "forfeit", "by": "b"},
         "u": {"cmd": "undo"}, "r": {"cmd": "redo"}}


def command(token: str) -> dict:
    """Test shorthand: a number is a stroke of that value, m miss, f foul, z frozen, Fa/Fb forfeit,
    u undo, r redo."""
    return {"cmd": "score", "value": int(token)} if token.isdigit() else dict(SHORT[token])


def board(moves: str = "", **settings) -> Board:
    header = {"game": "carom", "a": "Novák", "b": "Dvořák", **settings}
    b = Board(header)
    for token in moves.split():
        b.push(command(token))
    return b


def refused(b: Board, token_or_cmd, code: str) -> IllegalCommand:
    """Push a command that must be refused with ``code`` and leave the board unchanged."""
    cmd = command(token_or_cmd) if isinstance(token_or_cmd, str) else token_or_cmd
    before_state, before_summary = b.state, b.summary()
    with pytest.raises(IllegalCommand) as caught:
        b.push(cmd)
    assert caught.value.code == code
    assert b.state is before_state and b.summary() == before_summary
    return caught.value


def players(b: Board) -> dict:
    return b.summary()["players"]
