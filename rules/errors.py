"""Errors raised by the rule cores and the record reader.

Every error carries a stable ``code`` so that the counter and the keypad can show a
translated message (Czech by default) without parsing English text.
"""
from typing import Any


class RuleError(Exception):
    """Base class of everything the rule cores refuse."""

    code = "rule"
    why: str | None = None      # a finer reason within the code, e.g. which limit a correction breaks
    values: dict[str, Any] = {}       # what the reason's text names (player, limit, points …)

    def __init__(self, message: str, code: str | None = None, *, why: str | None = None, **values: Any):
        super().__init__(message)
        if code is not None:
            self.code = code
        if why is not None:
            self.why, self.values = why, values

    @property
    def message(self) -> str:
        return str(self)


class IllegalCommand(RuleError):
    """A referee command that is not allowed in the current state; nothing changed."""

    code = "illegal"


class NothingToUndo(IllegalCommand):
    code = "nothing_to_undo"


class NothingToRedo(IllegalCommand):
    code = "nothing_to_redo"


class HeaderError(RuleError):
    """The first line of a record does not describe a partie this core can play."""

    code = "bad_header"


class RecordError(RuleError):
    """A record line cannot be read at all (not JSON, bad checksum, unknown game...)."""

    code = "bad_record"

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message
