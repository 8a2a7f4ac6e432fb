"""The main loop: one thread consuming a queue of events, the night state machine, the counter.

Devices (keypads, a scripted feed) ``post`` events from any thread. The loop waits on the queue
with a timeout equal to the nearest deadline — the counter's next blink or message change, the
referee's long press, the watchdog ping, the display retry, the ready screen's clock — so it
sleeps when nothing happens (no busy loop).

A record command is journalled and fsync'd by the night before ``show`` draws it; ``on_durable``
is called right after, which is what the crash tests and the benchmark listen to.
"""
import logging
import queue
import time
from dataclasses import dataclass
from typing import Any, Callable

from rules.errors import RuleError

log = logging.getLogger("pocitadlo.service")

IDLE_WAKE = 60.0          # seconds: the longest sleep when nothing at all is due


@dataclass(frozen=True)
class Command:
    """A record command from a scripted feed (the keypad's arrive as KeyEvents)."""
    cmd: dict


@dataclass(frozen=True)
class Ui:
    """A menu action: "confirm", "cancel", "menu", "up", "down" or a digit 1-9."""
    action: Any


@dataclass(frozen=True)
class Stop:
    reason: str = ""


class DisplayLink:
    """The counter, kept going through faults: a failing display is reopened with backoff.

    ``open_counter()`` builds a Counter (``show(model, now)``, ``tick(now) -> deadline``); any
    exception from it is a display fault: it is logged, scoring goes on, and the last model is
    shown again once the display is back.
    """

    def __init__(self, open_counter: Callable[[], Any] | None, *, first_retry=1.0, max_retry=60.0):
        self.open_counter = open_counter
        self.counter = None
        self.model: dict | None = None
        self.fault: str | None = None
        self.retry_at: float | None = None
        self._delay = first_retry
        self._first, self._max = first_retry, max_retry

    def show(self, model: dict, now: float) -> None:
        self.model = model
        if self.counter is None and not self._reopen(now):
            return
        try:
            self.counter.show(model, now)
        except Exception as exc:       # noqa: BLE001 — any driver error is a display fault
            self._failed(exc, now)

    def tick(self, now: float) -> float | None:
        if self.counter is None:
            if self.retry_at is not None and now >= self.retry_at and self.model is not None:
                self.show(self.model, now)
            return self.retry_at
        try:
            return self.counter.tick(now)
        except Exception as exc:       # noqa: BLE001
            self._failed(exc, now)
            return self.retry_at

    def _reopen(self, now: float) -> bool:
        if self.open_counter is None or (self.retry_at is not None and now < self.retry_at):
            return False
        try:
            self.counter = self.open_counter()
        except Exception as exc:       # noqa: BLE001
            self._failed(exc, now)
            return False
        if self.fault:
            log.warning("display is back after: %s", self.fault)
        self.fault, self.retry_at, self._delay = None, None, self._first
        return True

    def _failed(self, exc: Exception, now: float) -> None:
        self.fault = f"{type(exc).__name__}: {exc}"
        log.error("display fault (scoring goes on; retry in %.0f s): %s", self._delay, self.fault)
        self._close()
        self.retry_at = now + self._delay
        self._delay = min(self._delay * 2, self._max)

    def _close(self) -> None:
        counter, self.counter = self.counter, None
        close = getattr(counter, "close", None) or getattr(getattr(counter, "device", None), "cleanup", None)
        if close:
            try:
                close()
            except Exception:          # noqa: BLE001
                pass


class Service:
    def __init__(self, night, display: DisplayLink, *, referee=None, notifier=None,
                 clock=time.monotonic, on_durable: Callable[[Any], None] | None = None):
        self.night = night
        self.display = display
        self.referee = referee
        self.notifier = notifier
        self.clock = clock
        self.on_durable = on_durable
        self.queue: queue.Queue = queue.Queue()
        self.running = False
        self.overlay: dict | None = None       # a prompt the referee is answering
        self.faults: dict[str, str] = {}       # input device -> why it is missing
        self._message: dict | None = None
        self._next_ping = None

    def post(self, event) -> None:
        """Thread-safe: what devices call with each event."""
        self.queue.put(event)

    # -- the loop ------------------------------------------------------------
    def run(self) -> None:
        self.running = True
        self.show()
        if self.notifier:
            self.notifier.ready("scoring")
        while self.running:
            try:
                event = self.queue.get(timeout=self._timeout())
            except queue.Empty:
                event = None
            if event is not None:
                self.handle(event)
            self.tick()

    def _timeout(self) -> float:
        now = self.clock()
        deadlines = [self.display.tick(now), self._next_ping, self._referee_deadline(),
                     self._minute_deadline(now)]
        due = min((d for d in deadlines if d is not None), default=now + IDLE_WAKE)
        return max(0.0, min(due - now, IDLE_WAKE))

    def _referee_deadline(self):
        deadline = getattr(self.referee, "deadline", None)
        return deadline() if callable(deadline) else None

    def _minute_deadline(self, now: float):
        if self.display.model is None or self.display.model.get("screen") != "ready":
            return None
        return now + (60.0 - time.time() % 60.0) + 0.05

    def tick(self) -> None:
        now = self.clock()
        poll = getattr(self.referee, "poll", None)
        if callable(poll):
            self._outcome(poll(now))
        if self.display.model is not None and self.display.model.get("screen") == "ready":
            self.show()                              # the clock on the ready screen
        self.display.tick(now)
        if self.notifier and self.notifier.interval:
            if self._next_ping is None or now >= self._next_ping:
                self.notifier.watchdog()
                self._next_ping = now + self.notifier.interval

    # -- events --------------------------------------------------------------
    def handle(self, event) -> None:
        if isinstance(event, Stop):
            self.running = False
            return
        if isinstance(event, Command):
            self._command(event.cmd)
        elif isinstance(event, Ui):
            self._ui(event.action)
        elif hasattr(event, "connected"):
            self._device_status(event)
        elif hasattr(event, "key") and self.referee is not None:
            self._outcome(self.referee.press(event, self.night.board))
        self.show()

    def _command(self, cmd: dict) -> bool:
        try:
            self.night.command(cmd)
        except RuleError as exc:
            self.message(str(exc), "warn")
            return False
        if self.on_durable:
            self.on_durable(cmd)
        return True

    def _ui(self, action) -> None:
        try:
            self.night.ui(action)
        except RuleError as exc:
            self.message(str(exc), "warn")

    def _outcome(self, outcome) -> None:
        """What the referee made of a key: commands, a menu action, a prompt or a refusal."""
        if outcome is None:
            return
        for cmd in getattr(outcome, "commands", None) or ():
            if not self._command(cmd):
                break
        action = getattr(outcome, "ui", None) or getattr(outcome, "action", None)
        if action is not None:
            self._ui(action)
        self.overlay = getattr(outcome, "prompt", None)     # a prompt stays until the next outcome
        text = getattr(outcome, "message", None)
        if text:
            self.message(text if isinstance(text, str) else text.get("text", ""),
                         "warn" if isinstance(text, str) else text.get("level", "warn"))

    def _device_status(self, status) -> None:
        if status.connected:
            self.faults.pop(status.device, None)
        else:
            self.faults[status.device] = status.detail or "disconnected"
            log.error("keypad %s: %s", status.device, self.faults[status.device])

    def message(self, text: str, level: str = "info") -> None:
        self._message = {"text": text, "level": level}

    # -- the counter ---------------------------------------------------------
    def screen(self) -> dict:
        if self.faults:
            device, why = next(iter(self.faults.items()))
            model = {"screen": "error", "code": "keypad", "text": f"{device}: {why}"}
        else:
            model = self.overlay or self.night.screen()
        if self._message:
            model = dict(model, message=self._message)
        return model

    def show(self) -> None:
        model = self.screen()
        self._message = None
        if model != self.display.model:
            self.display.show(model, self.clock())
