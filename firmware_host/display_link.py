"""The counter kept going through display faults: scoring never waits for the LEDs."""
import threading
from typing import Any, Callable, Protocol

from delivery.logs import Logger

log = Logger("pocitadlo.display")


class Display(Protocol):
    """What the link drives (display.counter.Counter): screen models in, drawn on a luma device.
    ``show`` and ``tick`` return when the picture next changes by itself (a blink, a page), or None."""

    device: Any             # the luma device drawn on, or None while there is none

    def attach(self, device: Any) -> None: ...

    def forget(self) -> None: ...

    def show(self, model: dict, now: float) -> float | None: ...

    def tick(self, now: float) -> float | None: ...

    def prepare(self, model: dict, now: float) -> None: ...


class DisplayLink:
    """The counter, kept going through display faults.

    ``counter`` draws screen models (display.counter.Counter, or None to run headless);
    ``open_device()`` (re)opens its luma device. A fault — the device cannot be opened, a write
    fails — is logged, the counter keeps following the state without a device (scoring goes
    on), and the device is reopened with a doubling backoff; the current picture is sent to it.
    """

    def __init__(self, counter: Display | None = None, open_device: Callable[[], Any] | None = None, *,
                 first_retry: float = 1.0, max_retry: float = 60.0, make_counter: Callable[[], Display] | None = None):
        self.counter = counter
        self.open_device = open_device
        self.make_counter = make_counter    # the counter built off the loop, after READY (see build)
        self._made: tuple[bool, Any] | None = None
        self.model: dict | None = None
        self.fault: str | None = None
        self.fault_code: str | None = None       # a fault the counter names in words (DisplayFault.code)
        self.retry_at: float | None = None
        self._due: float | None = None           # the counter's next blink/page/message change
        self._first, self._max = first_retry, max_retry
        self._delay = first_retry

    def start(self, now: float) -> None:
        if self.counter is not None and self.open_device is not None:
            self._attach(now)

    def build(self, wake: Callable[[], None]) -> None:
        """Build the counter (``make_counter``: luma, Pillow, the fonts) in a thread, so that keys
        are journalled meanwhile; ``wake()`` tells the loop, whose next ``take_built`` shows the
        current model on it. Without ``make_counter`` nothing is to be built."""
        if self.make_counter is None:
            return
        make = self.make_counter

        def run():
            try:
                self._made = (True, make())
            except BaseException as exc:       # noqa: BLE001 — handed to the loop, which raises it (take_built)
                self._made = (False, exc)
            wake()

        threading.Thread(target=run, name="display-build", daemon=True).start()

    def take_built(self, now: float) -> bool:
        """On the loop: a counter ``build`` made is attached, its device opened and the current
        model drawn (True). A failure to build — the display's code or Pillow broken, not a
        display fault — is raised: the service stops, as it did when the counter was built before
        READY (systemd restarts it; install.sh rolls an upgrade back)."""
        if self._made is None:
            return False
        (built, value), self._made, self.make_counter = self._made, None, None
        if not built:
            raise value
        self.counter = value
        if self.open_device is not None:
            self._attach(now)
        if self.model is not None and self.counter is not None:
            self._guard(self.counter.show, self.model, now)
        return True

    @property
    def deadline(self) -> float | None:
        return min((d for d in (self._due, self.retry_at) if d is not None), default=None)

    def forget(self) -> None:
        """The next show draws in full, the same screen too (the emulator's window resized)."""
        self.model = None
        if self.counter is not None:
            self.counter.forget()

    def show(self, model: dict, now: float) -> None:
        self.model = model
        if self.counter is not None:
            self._guard(self.counter.show, model, now)

    def prepare(self, model: dict, now: float) -> None:
        """Have the counter draw ``model``'s frame ahead of its show (Counter.prepare): it only
        draws, so no display fault can come of it."""
        if self.counter is not None:
            self.counter.prepare(model, now)

    def tick(self, now: float) -> None:
        if self.retry_at is not None and now >= self.retry_at:
            self._attach(now)
        if self._due is not None and now >= self._due and self.counter is not None:
            self._guard(self.counter.tick, now)

    def _guard(self, call, *args) -> None:
        now = args[-1]
        try:
            self._due = call(*args)
        except Exception as exc:       # noqa: BLE001 — DisplayFault or any driver error
            self._failed(exc, now)

    def _attach(self, now: float) -> None:
        assert self.counter is not None and self.open_device is not None     # start() asks for both
        self.retry_at = None
        try:
            device = self.open_device()
        except Exception as exc:       # noqa: BLE001 — any driver error: retried, never fatal
            self._failed(exc, now)
            return
        self.counter.attach(device)
        if self.fault:
            log.warning("display is back (it failed with: %s)", self.fault)
        self.fault, self.fault_code, self._delay = None, None, self._first
        if self.model is not None:
            self._guard(self.counter.tick, now)

    def _failed(self, exc: Exception, now: float) -> None:
        self.fault = str(exc) or type(exc).__name__
        self.fault_code = getattr(exc, "code", None)
        log.error("display fault, scoring goes on, retry in %.0f s: %s", self._delay, self.fault)
        assert self.counter is not None     # a fault comes from drawing or attaching
        old = self.counter.device
        self.counter.attach(None)
        cleanup = getattr(old, "cleanup", None)
        if cleanup is not None:
            try:
                cleanup()
            except Exception:          # noqa: BLE001 — the device is already gone
                pass
        if self.open_device is not None:
            self.retry_at = now + self._delay
            self._delay = min(self._delay * 2, self._max)
