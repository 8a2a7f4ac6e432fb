"""The partie's screens after its everyday strokes, worked out while the referee is about to press.

The loop has the counter draw them (Service.draw_ahead), and the stroke that then comes, if it is
one of them, takes its screen from here rather than summarising the board again. Each screen is
kept with the state it shows (``Board.state_after``), and the board pushes that very state for the
same command from the same state (rules.board.same_command): a board standing on it shows it.
"""
from collections.abc import Iterator
from typing import Any

from firmware_host import night_screens as screens
from rules.errors import RuleError
from rules.games import game_for


class ScreensAhead:
    def __init__(self):
        self._screens: list[tuple[Any, Any, dict]] = []    # (night state, board state, its screen)

    def screens(self, night_state, board, match) -> Iterator[dict]:
        """The screens after each of the game's ``Keys.ahead`` strokes the board takes now, one at a time."""
        keys = game_for(board.header["game"]).keys
        self._screens = []
        for action in keys.ahead:
            try:
                after = board.state_after(keys.commands[action])
            except RuleError:
                continue                    # not a stroke this partie takes now (it is over)
            screen = screens.partie_model(board, match, board.game.summary(after))
            self._screens.append((night_state, after, screen))
            yield screen

    def screen(self, night_state, board) -> dict | None:
        """The screen of ``board`` as it stands, if it is one worked out ahead."""
        state = board.state
        for night, after, screen in self._screens:
            if after is state and night is night_state:
                return screen
        return None
