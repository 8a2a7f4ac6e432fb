"""A partie as a board with a move stack, in the manner of python-chess.

A rule core ("game", the protocol rules.core.Core) is a set of pure functions over immutable states:

    game.parse_header(header: dict) -> settings      (raises HeaderError)
    game.initial(settings) -> state
    game.step(state, cmd: dict) -> state            (raises IllegalCommand, never mutates)
    game.summary(state) -> dict                      (JSON-ready; the ``replay`` output)
    game.finished(state) -> bool

The Board keeps the stack of states, so ``undo`` restores the previous state exactly and
``redo`` re-applies what undo took back. ``undo``/``redo`` are record commands like any other.
A state worked out by ``state_after`` is kept while the board stands on the state before it, so
the check and the push of that command (the counter's everyday strokes) do not step again, and
the state pushed is that very object.
"""
from typing import Any

from rules.core import JSONObject
from rules.errors import IllegalCommand, NothingToRedo, NothingToUndo
from rules.games import game_for

STACK_COMMANDS = ("undo", "redo")
STEPS_KEPT = 8      # states state_after worked out from the current one (Keys.ahead: a few)


class Board:
    def __init__(self, header: JSONObject):
        self.header = dict(header)
        self.game = game_for(self.header.get("game")).core
        self.settings = self.game.parse_header(self.header)
        self._states = [self.game.initial(self.settings)]
        self.move_stack: list[JSONObject] = []   # commands in effect (undo removes from here)
        self._redo: list[tuple[JSONObject, Any]] = []
        self.history: list[JSONObject] = []      # every accepted command as entered, undo/redo included
        self._after: list[tuple[Any, JSONObject, Any]] = []     # (state, command, the state after it)

    # -- reading ---------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def finished(self) -> bool:
        return self.game.finished(self.state)

    def summary(self) -> JSONObject:
        return self.game.summary(self.state)

    def state_after(self, cmd: JSONObject) -> Any:
        """The state ``push(cmd)`` would leave, for a command of the game's own (not undo or
        redo); raises what ``push`` would, and changes nothing but what it keeps: a push of the
        same command (same_command) from this state pushes this very state."""
        before = self.state
        after = self.game.step(before, cmd)
        if self._after and self._after[0][0] is not before:
            self._after.clear()
        self._after.append((before, dict(cmd), after))
        del self._after[:-STEPS_KEPT]
        return after

    def summary_after(self, cmd: JSONObject) -> JSONObject:
        """The summary ``push(cmd)`` would leave (``state_after``)."""
        return self.game.summary(self.state_after(cmd))

    def _step(self, cmd: JSONObject) -> Any:
        """``game.step`` from the current state, or the state state_after worked out for the
        same command (same_command) from it."""
        before = self._states[-1]      # self.state, read for every line a replay pushes
        for state, known, after in self._after:
            if state is before and same_command(cmd, known):
                return after
        return self.game.step(before, cmd)

    def can_undo(self) -> bool:
        return bool(self.move_stack)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def check(self, cmd: JSONObject) -> None:
        """Raise the error ``push(cmd)`` would raise, without changing anything."""
        name = command_name(cmd)
        if name == "undo":
            if not self.move_stack:
                raise NothingToUndo("nothing to undo")
        elif name == "redo":
            if not self._redo:
                raise NothingToRedo("nothing to redo")
        else:
            self._step(cmd)

    # -- changing --------------------------------------------------------
    def push(self, cmd: JSONObject) -> None:
        """Apply one record command (undo and redo included); on error nothing changes."""
        self._apply(command_name(cmd), dict(cmd))   # the board's own copy, in the history and the move stack

    def push_own(self, cmd: JSONObject) -> None:
        """``push`` of a command nobody else holds (a replay's line, read into a dict of its own):
        the board keeps it as it is, with no copy."""
        self._apply(command_name(cmd), cmd)

    def _apply(self, name: str, entered: JSONObject) -> None:
        if name == "undo":
            self.pop()
        elif name == "redo":
            self._redo_one()
        else:
            self._states.append(self._step(entered))
            self.move_stack.append(entered)
            self._redo.clear()
        self.history.append(entered)

    def pop(self) -> JSONObject:
        """Take back the last command in effect and return it."""
        if not self.move_stack:
            raise NothingToUndo("nothing to undo")
        cmd = self.move_stack.pop()
        self._redo.append((cmd, self._states.pop()))
        return cmd

    def _redo_one(self) -> None:
        if not self._redo:
            raise NothingToRedo("nothing to redo")
        cmd, state = self._redo.pop()
        self.move_stack.append(cmd)
        self._states.append(state)


def same_command(cmd: JSONObject, other: JSONObject) -> bool:
    """Equal, and every value of the same type (``True == 1``, but a record with ``true`` is
    another record, and the rule core may refuse it)."""
    return cmd == other and all(type(value) is type(other[key]) for key, value in cmd.items())


def command_name(cmd: object) -> str:
    name = cmd.get("cmd") if isinstance(cmd, dict) else None
    if not isinstance(name, str):
        raise IllegalCommand("a command is an object with a \"cmd\" name", code="bad_command")
    return name
