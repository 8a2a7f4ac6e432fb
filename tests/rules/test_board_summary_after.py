"""Board.summary_after: the summary a stroke would leave, the board untouched (what the counter's
frames drawn ahead are made of: Night.screens_ahead)."""
from carom_strategies import commands as carom_commands
from carom_strategies import headers as carom_headers
from eightball_helpers import HEADER as EIGHTBALL_HEADER
from eightball_strategies import SETTINGS, header, sequences
from hypothesis import given

from rules.board import Board
from rules.errors import RuleError
from rules.games import game_for


def agrees_with_push(board: Board) -> None:
    """Each stroke of the game's Keys.ahead: summary_after is the summary after push, or raises
    what push raises; nothing of the board changes."""
    keys = game_for(board.header["game"]).keys
    for action in keys.ahead:
        cmd = keys.commands[action]
        state, history, stack = board.state, list(board.history), list(board.move_stack)
        try:
            ahead = board.summary_after(cmd)
        except RuleError as exc:
            refused = exc
        else:
            refused = None
        assert board.state is state and board.history == history and board.move_stack == stack
        try:
            board.push(cmd)
        except RuleError as exc:
            assert refused is not None and type(exc) is type(refused) and str(exc) == str(refused)
            continue
        assert refused is None and ahead == board.summary()
        board.pop()
        assert board.state is state


def played(board: Board, cmds: list[dict]) -> None:
    """Push ``cmds`` (refusals skipped), checking agrees_with_push before each."""
    for cmd in cmds:
        agrees_with_push(board)
        try:
            board.push(cmd)
        except RuleError:
            pass
    agrees_with_push(board)


@given(carom_headers, carom_commands)
def test_carom_summary_after_each_stroke_drawn_ahead_is_the_pushed_one(head, cmds):
    played(Board(head), cmds)


@SETTINGS
@given(header, sequences)
def test_8ball_summary_after_each_stroke_drawn_ahead_is_the_pushed_one(extra, cmds):
    played(Board({**EIGHTBALL_HEADER, **extra}), cmds)
