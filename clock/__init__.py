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
