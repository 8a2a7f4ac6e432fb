"""What the carom core refuses. Every class has a stable ``code`` the counter translates."""
from rules.errors import IllegalCommand


class UnknownCommand(IllegalCommand):
    code = "unknown_command"


class BadArgument(IllegalCommand):
    """A command's argument is missing or of the wrong kind (``by``, ``player``, ``inning``...)."""

    code = "bad_argument"


class BadValue(IllegalCommand):
    """A stroke value other than 1, 2, 10 or 20 (RULES 1.2)."""

    code = "bad_value"


class FrozenBalls(IllegalCommand):
    """10 or 20 while frozen balls are announced (RULES 1.2, B.1.7)."""

    code = "frozen"


class PartieOver(IllegalCommand):
    """A stroke, announcement or forfeit after the partie has ended."""

    code = "partie_over"


class EndStands(IllegalCommand):
    """A correction after the stroke that ended the partie: the result is final (B.9.2, RULES 1.4
    item 9); only undoing that stroke at once reopens the partie."""

    code = "end_stands"


class SeriesRunning(IllegalCommand):
    """A correction while an inning is being played: finish the inning first."""

    code = "series_running"


class Inconsistent(IllegalCommand):
    """A correction that would leave innings no partie could have produced (B.4.1, RULES 1.4)."""

    code = "inconsistent"


class OverLimit(IllegalCommand):
    """A correction that would credit more than the points limit (RULES 1.4.6)."""

    code = "over_limit"


class LimitKept(IllegalCommand):
    """A correction that would take the points limit from a player who reached it (B.9.2)."""

    code = "limit_kept"
