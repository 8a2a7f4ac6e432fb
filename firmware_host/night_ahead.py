"""The partie's screens after its everyday strokes, worked out while the referee is about to press.

The loop has the counter draw them (Service.draw_ahead), and the stroke that then comes, if it is
one of them, takes its screen from here rather than summarising the board again: the screen of a
board state is the same whenever it is asked for, and a stroke's state after the same command from
the same state is the same (the rule core is pure; the same command: rules.board.same_command).
"""
from collections.abc import Iterator
from typing import Any

from firmware_host import night_screens as screens
from rules.board import same_command
from rules.errors import RuleError
from rules.games import game_for


class ScreensAhead:
    def __init__(self):
        self._from: tuple[Any, Any] | None = None      # (night state, board state) they were worked out on
        self._screens: list[tuple[dict, dict]] = []     # (command, the screen after it)
        self._known: tuple[Any, Any, dict] | None = None   # (night state, board state, its screen)

    def screens(self, night_state, board, match) -> Iterator[dict]:
        """The screens after each of the game's ``Keys.ahead`` strokes the board takes now, one at a time."""
        keys = game_for(board.header["game"]).keys
        self._from, self._screens = (night_state, board.state), []
        for action in keys.ahead:
            cmd = keys.commands[action]
            try:
                summary = board.summary_after(cmd)
            except RuleError:
                continue                    # not a stroke this partie takes now (it is over)
            screen = screens.partie_model(board, match, summary)
            self._screens.append((cmd, screen))
            yield screen

    def pushed(self, night_state, before, cmd: dict, board) -> None:
        """``cmd`` was pushed on ``board`` from its state ``before``: its screen is known if it was worked out."""
        if self._from is not None and self._from[0] is night_state and self._from[1] is before:
            for known, screen in self._screens:
                if same_command(cmd, known):
                    self._known = (night_state, board.state, screen)
                    return

    def screen(self, night_state, board) -> dict | None:
        """The screen of ``board`` as it stands, if it is one worked out ahead."""
        known = self._known
        if known is not None and known[0] is night_state and known[1] is board.state:
            return known[2]
        return None

