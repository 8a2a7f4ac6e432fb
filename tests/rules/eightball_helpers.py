"""A short notation for 8-ball command sequences, shared by the 8-ball tests in tests/rules/.

Tokens, separated by spaces:
  .        shot                   s / s3   pot a solid (into pocket 3)    t / t5   pot a stripe
  8@4      pot8 into pocket 4     x        scratch                       f / f:b  foul (code b)
  nc       nocushion              c:solids choose                        n8@3     pocket8 3
  pat      stalemate              g:a      game won by a                  ff:b     forfeit by b
  u / r    undo / redo
"""
import pytest

from rules.board import Board
from rules.errors import IllegalCommand

HEADER = {"game": "8ball", "a": "Novák", "b": "Dvořák", "games_to_win": 3, "sets_to_win": 2,
          "first_break": "b"}


def cmd(token: str) -> dict:
    simple = {".": "shot", "x": "scratch", "nc": "nocushion", "pat": "stalemate", "u": "undo",
              "r": "redo", "f": "foul"}
    if token in simple:
        return {"cmd": simple[token]}
    if token[0] in "st" and (len(token) == 1 or token[1:].isdigit()):
        out = {"cmd": "pot", "ball": "solid" if token[0] == "s" else "stripe"}
        if token[1:]:
            out["pocket"] = int(token[1:])
        return out
    if token.startswith("8@"):
        return {"cmd": "pot8", "pocket": int(token[2:])}
    if token.startswith("n8@"):
        return {"cmd": "pocket8", "pocket": int(token[3:])}
    key, _, value = token.partition(":")
    named = {"f": ("foul", "code"), "c": ("choose", "group"), "g": ("game", "winner"),
             "ff": ("forfeit", "by")}
    if key in named and value:
        name, arg = named[key]
        return {"cmd": name, arg: value}
    raise ValueError(f"bad test token {token!r}")


def play(tokens: str = "", **header) -> Board:
    """A Board after the tokens; header keys override HEADER (None removes a key)."""
    full = {k: v for k, v in {**HEADER, **header}.items() if v is not None}
    board = Board(full)
    for token in tokens.split():
        board.push(cmd(token))
    return board


def current(board: Board) -> dict:
    return board.summary()["current"]


def refused(board: Board, token_or_cmd, code: str) -> IllegalCommand:
    """Assert the command is refused with ``code`` and that nothing changed."""
    before = board.state
    command = cmd(token_or_cmd) if isinstance(token_or_cmd, str) else token_or_cmd
    with pytest.raises(IllegalCommand) as info:
        board.push(command)
    assert info.value.code == code, info.value
    assert board.state is before
    return info.value


# b breaks and pots a solid (b: solids, a: stripes) and misses; a is at the table.
B_SOLIDS_A_TO_PLAY = "s . ."
# ... then a clears six stripes and misses, b clears six solids (the last into pocket 3) and misses:
# a has one stripe left, b has only the 8 left (required pocket 6), a is at the table.
B_NEEDS_EIGHT = B_SOLIDS_A_TO_PLAY + " t t t t t t . . s s s s s s3 . ."
