"""The one clock: the only module that reads the wall clock.

Everything that needs the date or the time of day takes a clock object and asks it; nothing else
calls ``time.time()``, ``datetime.now()`` or ``date.today()`` (a test keeps it so). The service, the
emulator, the outbox, the syncer and the receiver get one ``SystemClock`` at start; tests and
benches give them a ``ManualClock`` they move by hand.

A clock answers in one time zone: ``SystemClock`` in the machine's (TZ, /etc/localtime), a
``ManualClock`` in the zone it was made with, so a test's "tonight" never depends on where it runs.
"""
import time as _time
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Protocol


class SystemClock:
    """The real wall clock, in the machine's local time zone."""

    def __init__(self) -> None:
        self._minute: tuple[int, str, str] | None = None     # see iso_seconds

    def time(self) -> float:
        """Seconds since the epoch."""
        return _time.time()

    def monotonic(self) -> float:
        """Seconds for deadlines: never jumps with the wall clock."""
        return _time.monotonic()

    def now(self) -> datetime:
        """The current local time, time-zone aware."""
        return datetime.now().astimezone()

    def today(self) -> date:
        return self.now().date()

    def utc(self) -> datetime:
        return datetime.now(timezone.utc)

    def iso_seconds(self) -> str:
        """``now().isoformat(timespec="seconds")``: the time every journal line carries. Read on
        the way from a key to its frame, where datetime's code (the local time, the zone, the
        text) costs a slowed core more than the rest of the line; so the text of the minute is
        kept and a second of it is the text's seconds — ``local_iso_seconds``."""
        return self._iso_at(_time.time_ns() // 1_000_000_000)     # datetime.now()'s floor of the same clock

    def _iso_at(self, second: int) -> str:
        minute = self._minute
        if minute is None or not minute[0] <= second < minute[0] + 60:
            minute = local_minute(second)
            if minute is None:                            # the zone's offset changes within it
                return datetime.fromtimestamp(second).astimezone().isoformat(timespec="seconds")
            self._minute = minute
        return f"{minute[1]}{second - minute[0]:02d}{minute[2]}"


def local_minute(second: int) -> tuple[int, str, str] | None:
    """(its first second, "YYYY-MM-DDTHH:MM:", the offset "+01:00") of the local minute holding the
    epoch's ``second``, as ``datetime.fromtimestamp(…).astimezone().isoformat()`` writes them; None
    when the zone's offset (or its name) is not the same at the minute's first and last second."""
    start = second - datetime.fromtimestamp(second).astimezone().second    # an offset may hold seconds
    first = datetime.fromtimestamp(start).astimezone()
    last = datetime.fromtimestamp(start + 59).astimezone()
    if (first.utcoffset(), first.tzname(), first.second, last.second) != (last.utcoffset(), last.tzname(), 0, 59):
        return None
    text = first.isoformat(timespec="seconds")            # YYYY-MM-DDTHH:MM:00+hh:mm[:ss]
    return start, text[:17], text[19:]


class ManualClock:
    """A clock that stands still until moved: ``ManualClock(datetime(2026, 3, 4, 19, 0))``.

    A naive start is taken in ``zone`` (UTC unless given). Its monotonic time is its wall time, so
    moving it runs deadlines and the time of day together.
    """

    def __init__(self, start: datetime | float = 0.0, zone: tzinfo = timezone.utc):
        self.zone = zone
        if isinstance(start, datetime):
            start = (start if start.tzinfo else start.replace(tzinfo=zone)).timestamp()
        self._t = float(start)

    def time(self) -> float:
        return self._t

    def monotonic(self) -> float:
        return self._t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.time(), self.zone)

    def today(self) -> date:
        return self.now().date()

    def utc(self) -> datetime:
        return datetime.fromtimestamp(self.time(), timezone.utc)

    def iso_seconds(self) -> str:
        return self.now().isoformat(timespec="seconds")

    def advance(self, seconds: float | timedelta) -> None:
        self._t += seconds.total_seconds() if isinstance(seconds, timedelta) else float(seconds)

    def set(self, when: datetime) -> None:
        self._t = (when if when.tzinfo else when.replace(tzinfo=self.zone)).timestamp()


class Clock(Protocol):
    """What a module that is given a clock may ask it: ``SystemClock``, ``ManualClock`` or a test's own."""

    def time(self) -> float: ...

    def monotonic(self) -> float: ...

    def now(self) -> datetime: ...

    def today(self) -> date: ...

    def utc(self) -> datetime: ...

    def iso_seconds(self) -> str:
        """``now().isoformat(timespec="seconds")``: the time a journal line carries."""
        ...
