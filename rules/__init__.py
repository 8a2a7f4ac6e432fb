"""Pure rule cores: the state of a partie is the fold of referee commands.

Nothing in this package touches hardware, files, clocks or the network.
"""
from rules.board import Board
from rules.errors import IllegalCommand, RecordError, RuleError
from rules.games import game_for

__all__ = ["Board", "IllegalCommand", "RecordError", "RuleError", "game_for"]
