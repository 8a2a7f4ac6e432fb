"""A 4x4 membrane matrix keypad on 8 GPIO pins, scanned with gpiozero (which has no such class).

Columns are inputs with pull-ups (``input.gpio.InputLine``, a ``DigitalInputDevice``). Rows are
``RowLine``s: high impedance while idle, driven low one at a time while scanning — so two keys
pressed in one column never short a high row against a low one. Between rows the scan sleeps
``scan_interval``; while no key is down all rows are driven low and the thread sleeps until a
column falls (no busy loop).

Membrane keypads have no diodes, so three keys held at three corners of a rectangle make the
fourth corner read as pressed too ("ghosting"). Such a reading is ambiguous: the keys of the
rectangle keep the state they had before it, so a ghost is never reported and the result does
not depend on timing. Several keys changing in one scan are reported in row-major order.
"""
import threading
import time
from itertools import combinations

from input.events import DeviceStatus, KeyEvent
from input.gpio import GPIODevice, InputLine, factory_or_default

IDLE_CHECK = 1.0       # seconds: rescan now and then even without an edge (a missed interrupt)


class RowLine(GPIODevice):
    """A row wire: ``select()`` drives it low, ``release()`` leaves it floating (input)."""

    def __init__(self, pin=None, *, pin_factory=None):
        super().__init__(pin, pin_factory=pin_factory)
        self.release()

    def select(self) -> None:
        self.pin.function = "output"
        self.pin.state = False

    def release(self) -> None:
        self.pin.function = "input"

    @property
    def selected(self) -> bool:
        return self.pin.function == "output"


def ghost_free(pressed: frozenset, before: frozenset) -> frozenset:
    """``pressed`` with every key of a full rectangle set back to its state in ``before``."""
    doubtful = set()
    for (r1, c1), (r2, c2) in combinations(sorted(pressed), 2):
        if r1 != r2 and c1 != c2 and (r1, c2) in pressed and (r2, c1) in pressed:
            doubtful |= {(r1, c1), (r1, c2), (r2, c1), (r2, c2)}
    return frozenset((pressed - doubtful) | (before & doubtful))


class MatrixKeypad:
    def __init__(self, rows, cols, keys, *, scan_interval: float = 0.005, clock=time.monotonic,
                 pin_factory=None, name: str = "matrix"):
        if len(keys) != len(rows) * len(cols):
            raise ValueError("one key name per row and column is needed")
        self.name, self.clock, self.scan_interval = name, clock, scan_interval
        self.keys = [list(keys[r * len(cols):(r + 1) * len(cols)]) for r in range(len(rows))]
        self._rows, self._cols = [], []
        self._stop, self._wake = threading.Event(), threading.Event()
        pin_factory = factory_or_default(pin_factory)
        try:
            for pin in rows:
                self._rows.append(RowLine(pin, pin_factory=pin_factory))
            for pin in cols:
                self._cols.append(InputLine(pin, pull_up=True, pin_factory=pin_factory,
                                            on_activated=self._wake.set))
        except Exception:
            self._close_pins()
            raise
        self.pressed: frozenset[tuple[int, int]] = frozenset()
        self._thread: threading.Thread | None = None

    def scan(self) -> frozenset:
        """One pass over the rows: the (row, col) of every contact that reads closed."""
        for row in self._rows:
            row.release()
        found = set()
        for r, row in enumerate(self._rows):
            row.select()
            found |= {(r, c) for c, col in enumerate(self._cols) if col.is_active}
            row.release()
            if r + 1 < len(self._rows):
                self._stop.wait(self.scan_interval)
        return frozenset(found)

    def update(self) -> list[KeyEvent]:
        """Scan once and return the key changes since the last scan (releases first)."""
        now = ghost_free(self.scan(), self.pressed)
        t = self.clock()
        released, pressed = sorted(self.pressed - now), sorted(now - self.pressed)
        self.pressed = now
        return [KeyEvent(self.keys[r][c], False, t, self.name) for r, c in released] + \
               [KeyEvent(self.keys[r][c], True, t, self.name) for r, c in pressed]

    def idle(self, timeout: float = IDLE_CHECK) -> bool:
        """Drive every row low and sleep until a column falls; True if one did."""
        self._wake.clear()
        for row in self._rows:
            row.select()
        woke = any(col.is_active for col in self._cols) or self._wake.wait(timeout)
        for row in self._rows:
            row.release()
        return woke

    def start(self, callback) -> None:
        callback(DeviceStatus(self.name, True, "GPIO matrix"))
        self._thread = threading.Thread(target=self._run, args=(callback,),
                                        name="keypad matrix", daemon=True)
        self._thread.start()

    def _run(self, callback) -> None:
        while not self._stop.is_set():
            if not self.pressed:
                self.idle()
                if self._stop.is_set():
                    break
            for event in self.update():
                callback(event)
            self._stop.wait(self.scan_interval)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close_pins()

    def _close_pins(self) -> None:
        for device in self._rows + self._cols:
            device.close()
