"""Board.summary_after: the summary a stroke would leave, the board untouched, and a board that
worked strokes out ahead playing exactly as one that did not (what the counter's frames drawn
ahead are made of: Night.screens_ahead)."""
from carom_strategies import commands as carom_commands
from carom_strategies import headers as carom_headers
from eightball_helpers import HEADER as EIGHTBALL_HEADER
from eightball_strategies import SETTINGS, header, sequences
from hypothesis import given

from rules.board import Board, same_command
from rules.errors import RuleError
from rules.games import game_for


def outcome(call, *args):
    """What ``call(*args)`` gave: its value, or the refusal's type and text."""
    try:
        return call(*args)
    except RuleError as exc:
        return type(exc), str(exc)


def work_ahead(board: Board, plain: Board) -> None:
    """Each stroke of the game's Keys.ahead: summary_after on ``board`` is the rule core's summary
    of the state after it from ``plain``'s (or the same refusal), and nothing of ``board`` changes."""
    keys = game_for(board.header["game"]).keys
    core = plain.game
    for action in keys.ahead:
        cmd = keys.commands[action]
        state, history, stack = board.state, list(board.history), list(board.move_stack)
        ahead = outcome(board.summary_after, cmd)
        assert board.state is state and board.history == history and board.move_stack == stack
        assert ahead == outcome(lambda c: core.summary(core.step(plain.state, c)), cmd)


def played(board: Board, plain: Board, cmds: list[dict]) -> None:
    """Push ``cmds`` on both boards, ``board`` working the strokes out ahead before each: every
    check, push and summary the same on both."""
    for cmd in cmds:
        work_ahead(board, plain)
        for probe in (cmd, *({**cmd, key: True} for key, value in cmd.items() if value == 1)):
            assert outcome(board.check, probe) == outcome(plain.check, probe)
        assert outcome(board.push, cmd) == outcome(plain.push, cmd)
        assert board.summary() == plain.summary() and board.history == plain.history
    work_ahead(board, plain)


@given(carom_headers, carom_commands)
def test_carom_plays_the_same_with_strokes_worked_out_ahead(head, cmds):
    played(Board(head), Board(head), cmds)


@SETTINGS
@given(header, sequences)
def test_8ball_plays_the_same_with_strokes_worked_out_ahead(extra, cmds):
    played(Board({**EIGHTBALL_HEADER, **extra}), Board({**EIGHTBALL_HEADER, **extra}), cmds)


def test_a_stroke_worked_out_ahead_is_pushed_without_stepping_again():
    board = Board({"game": "carom", "a": "A", "b": "B", "points_limit": 30, "innings_limit": 3})
    after = board.state_after({"cmd": "score", "value": 1})
    steps = []
    board.game = _Counting(board.game, steps)
    board.check({"cmd": "score", "value": 1})
    board.push({"cmd": "score", "value": 1})
    assert steps == [] and board.state is after         # the very state: its screen is known by it
    board.push({"cmd": "score", "value": 1})            # from another state: stepped
    assert len(steps) == 1


def test_a_look_alike_of_another_type_is_stepped_and_refused_as_ever():
    """``{"value": true}`` equals ``{"value": 1}`` in Python, not in the record: it is checked by
    the rule core, never taken for the stroke worked out ahead."""
    board = Board({"game": "carom", "a": "A", "b": "B", "points_limit": 30, "innings_limit": 3})
    board.summary_after({"cmd": "score", "value": 1})
    for call in (board.check, board.push):
        assert outcome(call, {"cmd": "score", "value": True})[1] == "a stroke scores 1, 2, 10 or 20, not True"
    assert board.history == []


def test_the_same_command_means_the_same_values_of_the_same_types():
    assert same_command({"cmd": "score", "value": 1}, {"value": 1, "cmd": "score"})
    assert not same_command({"cmd": "score", "value": True}, {"cmd": "score", "value": 1})
    assert not same_command({"cmd": "score", "value": 1.0}, {"cmd": "score", "value": 1})
    assert not same_command({"cmd": "score", "value": 2}, {"cmd": "score", "value": 1})


class _Counting:
    """A rule core whose steps are counted."""

    def __init__(self, core, steps: list):
        self._core, self._steps = core, steps

    def step(self, state, cmd):
        self._steps.append(cmd)
        return self._core.step(state, cmd)

    def __getattr__(self, name):
        return getattr(self._core, name)
