"""The receiver's log cannot be flooded: ``Quieter``, a logging filter on its loggers.

Warnings and errors of one kind — the same logger, level and message template ("refused %s from
%s …") — pass BURST times per INTERVAL seconds; the rest are not logged but counted, and the next
line of that kind after the interval says how many were held back. Information lines (an item
stored, a duplicate) come from authenticated devices only and always pass. A traceback of a
failure (a 500) is kept in the lines that pass, so a bug still shows, but a client that makes
the same failure again and again writes it BURST times per interval at most.
"""
import logging
import threading
import time
from collections import OrderedDict

BURST = 20              # lines of one kind per interval
INTERVAL = 60.0         # seconds
KINDS = 1000            # kinds tracked at most (the message templates are the code's, so few)
LOGGERS = ("pocitadlo.server", "uvicorn.error")


class Quieter(logging.Filter):
    def __init__(self, burst: int = BURST, interval: float = INTERVAL, clock=time.monotonic):
        super().__init__()
        self.burst, self.interval, self._clock = burst, interval, clock
        self._kinds: OrderedDict = OrderedDict()        # kind -> [interval start, passed, held back]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        kind, now = (record.name, record.levelno, str(record.msg)), self._clock()
        with self._lock:
            seen = self._kinds.get(kind)
            if seen is None or now - seen[0] >= self.interval:
                held = seen[2] if seen else 0
                self._kinds[kind] = [now, 1, 0]
                self._kinds.move_to_end(kind)
                while len(self._kinds) > KINDS:
                    self._kinds.popitem(last=False)
                if held:
                    record.msg = (f"{record.getMessage()} (and {held} more like it in the "
                                  f"{self.interval:g} s before, not logged)")
                    record.args = None
                return True
            if seen[1] < self.burst:
                seen[1] += 1
                return True
            seen[2] += 1
            return False


def install(quieter: Quieter | None = None) -> Quieter:
    """A Quieter on each of the receiver's loggers (``pocitadlo serve`` puts one there at start;
    once, however often called); it is returned (``uninstall`` takes it off)."""
    quieter = quieter or Quieter()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, Quieter) for f in logger.filters):
            logger.addFilter(quieter)
    return quieter


def uninstall(quieter: Quieter) -> None:
    for name in LOGGERS:
        logging.getLogger(name).removeFilter(quieter)
