"""The main loop: one thread consuming a queue of events, the night state machine, the counter.

Devices (keypads, a scripted feed) ``post`` events from any thread. The loop waits on the queue
with a timeout equal to the nearest deadline — the counter's next blink or message change, the
referee's long press, the watchdog ping, the display retry, the ready screen's clock — so it
sleeps when nothing happens (no busy loop).

One way for a key: the referee (which drives the one overlay in force, shared with the night)
makes it a command, a menu action or a chosen night item; the night journals and applies it;
``night.screen()`` — the overlay or the night's own screen — is the one screen model shown.
A record command is journalled and fsync'd by the night before ``show`` draws it; ``on_durable``
is called right after, which is what the crash tests and the benchmark listen to.

Once no event waits after a new picture, the loop has the counter draw the frames of the partie's
everyday strokes (``draw_ahead``: a point, an inning's end), then collects garbage: a stroke's key
then finds its frame drawn, and nothing of that work lies between a key and its frame.
"""
import _queue  # SimpleQueue: queue.py's Queue (with heapq, for its PriorityQueue) is not needed
import gc
import time
from dataclasses import dataclass
from typing import Any, Callable

from delivery.logs import Logger
from firmware_host.display_link import DisplayLink
from input.events import DeviceStatus
from input.messages import keypad_fault_text, storage_text
from rules.errors import RuleError

log = Logger("pocitadlo.service")

IDLE_WAKE = 60.0          # seconds: the longest sleep when nothing at all is due


@dataclass(frozen=True)
class Command:
    """A record command from a scripted feed (the keypad's arrive as KeyEvents)."""
    cmd: dict


@dataclass(frozen=True)
class Ui:
    """A menu action: "confirm", "cancel", "menu", "up", "down", "undo" or a digit 1-9."""
    action: Any


@dataclass(frozen=True)
class Stop:
    """The event that ends the service's loop (SIGTERM, the end of a key script)."""
    reason: str = ""


@dataclass(frozen=True)
class Refresh:
    """Something outside the loop changed what a screen shows (a delivery: the ready screen's
    backlog); ``redraw``: the screen is drawn again even if unchanged (the terminal resized)."""
    reason: str = ""
    redraw: bool = False


def collect_garbage() -> None:
    """The collection Python would have made by now (its thresholds, generation by generation),
    made here, after a frame: on a Pi-class core a young collection inside a stroke is 0.5-1 ms
    of its key → frame time (2.5 % of strokes, so their p99)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    if counts[0] < thresholds[0]:
        return
    generation = 0
    if counts[1] + 1 > thresholds[1]:
        generation = 2 if counts[2] + 1 > thresholds[2] else 1
    gc.collect(generation)


class Service:
    def __init__(self, night, display: DisplayLink, *, referee=None, notifier=None,
                 clock=time.monotonic, on_durable: Callable[[Any], None] | None = None):
        self.night = night
        self.display = display
        self.referee = referee
        if referee is not None:
            referee.slot = night.slot           # one overlay in force: the night's menus or the referee's
        self.notifier = notifier
        self.clock = clock
        self.on_durable = on_durable
        self.observers: list[Callable[[dict], None]] = []   # told each model after the counter drew it
        self.after_display: Callable[[], None] | None = None    # called once the counter is up (after READY)
        self.after_ready: Callable[[], None] | None = None      # called once READY=1 is said
        # SimpleQueue (the C module's: queue.py is not imported at start): one lock in C, where
        # Queue's Python Condition has the woken loop take its mutex again after the poster's notify
        # (more of a slow core's time between key and frame)
        self.queue: _queue.SimpleQueue = _queue.SimpleQueue()
        self.running = False
        self.faults: dict[str, str] = {}       # input device -> why it is missing
        self._fault_screen = False
        self._message: dict | None = None       # why a key was refused, shown over ...
        self._message_on: dict | None = None    # ... this screen, until it changes
        self._messages = 0
        self._next_ping = None
        self._ahead_of: dict | None = None      # the model whose next frames were drawn ahead
        self._ahead_broken = False
        notice = night.startup_notice()         # a journal read back damaged: said over the first screen
        if notice:
            self.message(*notice)

    def post(self, event) -> None:
        """Thread-safe: what devices call with each event."""
        self.queue.put(event)

    # -- the loop ------------------------------------------------------------
    def run(self) -> None:
        """READY=1 once a key can be taken: the night read back, the referee and the keypads up.
        A counter still to be built (DisplayLink.build: luma and Pillow) is built after it, off
        the loop; a key meanwhile is journalled at once and shown when the counter is up."""
        self.running = True
        self.display.start(self.clock())
        self.show()
        if self.notifier:
            self.notifier.ready("scoring")
        if self.display.make_counter is not None:
            self.display.build(lambda: self.post(Refresh("display built")))
        elif self.after_display is not None:
            self.after_display()                    # the counter was up before READY
        if self.after_ready is not None:
            self.after_ready()                      # after the counter's build has begun
        self._watchdog(self.clock())
        collecting = gc.isenabled()
        if collecting:
            gc.disable()            # collected after a frame, never between a key and its frame
        try:
            while self.running:
                try:
                    event = self.queue.get(timeout=self._timeout())
                except _queue.Empty:
                    event = None
                if self.display.take_built(self.clock()) and self.after_display is not None:
                    self.after_display()
                if event is not None:
                    self.handle(event)
                self.tick()
                if self.queue.empty():
                    self.draw_ahead()
                if collecting and self.queue.empty():
                    collect_garbage()
        finally:
            if collecting:
                gc.enable()

    def _timeout(self) -> float:
        now = self.clock()
        deadlines = [self.display.deadline, self._next_ping, self._referee_deadline(),
                     self._minute_deadline(now), self._window_deadline(now)]
        due = min((d for d in deadlines if d is not None), default=now + IDLE_WAKE)
        return max(0.0, min(due - now, IDLE_WAKE))

    def _referee_deadline(self):
        return self.referee.deadline() if self.referee is not None else None

    def _window_deadline(self, now: float):
        left = self.night.window_left()
        return None if left is None else now + left

    def _minute_deadline(self, now: float):
        if self.display.model is None or self.display.model.get("screen") != "ready":
            return None
        return now + self.night.seconds_to_next_minute() + 0.05

    def _board(self):
        """The board keys act on: the partie in play, None while a service screen is shown."""
        return self.night.board

    def tick(self) -> None:
        self._surviving(self._tick)

    def _tick(self) -> None:
        now = self.clock()
        if self.referee is not None:
            deadline = self.referee.deadline()
            if deadline is not None and now >= deadline:
                self._outcome(self.referee.poll(now, self._board()))
                self.show()
        self._guarded(self.night.tick)              # a take-back window that ran out: records go out
        if self.display.model is not None and self.display.model.get("screen") == "ready":
            self.show()                              # the clock on the ready screen
        self.display.tick(now)
        self._watchdog(now)

    def draw_ahead(self) -> None:
        """While the loop waits for a key: the counter draws the frames of the partie's everyday
        strokes (Night.screens_ahead), once per new picture, stopping as soon as an event comes,
        so a stroke's frame is taken, not drawn, between its key and the LEDs. A bug in it is
        logged once and frames are drawn at their show, as without it."""
        shown = self.display.model
        if shown is None or shown is self._ahead_of or self._ahead_broken or self.display.counter is None:
            return
        self._ahead_of = shown
        try:
            for model in self.night.screens_ahead():
                if not self.queue.empty():
                    return
                self.display.prepare(model, self.clock())
        except Exception:
            self._ahead_broken = True
            log.exception("drawing frames ahead failed; each frame is drawn at its show")

    def _watchdog(self, now: float) -> None:
        """Ping systemd's watchdog from the loop itself: a stuck loop gets the service restarted."""
        if self.notifier and self.notifier.interval:
            if self._next_ping is None or now >= self._next_ping:
                self.notifier.watchdog()
                self._next_ping = now + self.notifier.interval

    # -- events --------------------------------------------------------------
    def handle(self, event) -> None:
        """One event from a device or the loop."""
        self._surviving(self._handle, event)

    def _surviving(self, call, *args) -> None:
        """The service never stops on a referee's key (issue 24): a bug behind one is logged with
        its traceback and said on the counter, and the keys go on."""
        try:
            call(*args)
        except Exception:
            log.exception("a bug in %s%r; the service goes on", call.__name__, args)
            self.message(self._say("program_error"), "error")
            self.show()

    def _handle(self, event) -> None:
        if isinstance(event, Stop):
            self.running = False
            return
        if isinstance(event, Refresh):
            if event.redraw:
                self.display.forget()
            # show() below draws the screen afresh
        elif isinstance(event, Command):
            self._command(event.cmd)
        elif isinstance(event, Ui):
            self._ui(event.action)
        elif isinstance(event, DeviceStatus):
            self._device_status(event.device, event.connected, event.detail)
            if self.referee is not None:
                said = self.referee.press(event, self._board()).message
                if said:
                    self.message(said["text"], said.get("level", "info"))
        elif self.referee is not None:
            self._fault_screen = False          # keys still come in: back to the game screen
            self._outcome(self.referee.press(event, self._board()))
        self.show()

    def _command(self, cmd: dict, enter=None) -> bool:
        """Journal and apply a record command; ``enter``: how (night.command checks it first,
        the default for a scripted feed; night.enter for one the referee's overlays checked)."""
        try:
            said = (enter or self.night.command)(cmd)
        except RuleError as exc:
            self.message(self._why(exc), "warn")
            return False
        except OSError as exc:              # full or failing SD card: not durable, so not accepted
            log.error("journal write failed, command %s not accepted: %s", cmd, exc)
            self.message(storage_text(exc, self.night.device.language), "error")
            return False
        if self.on_durable:
            self.on_durable(cmd)
        if said:
            self.message(said, "info")
        return True

    def _ui(self, action, *args) -> None:
        """A menu action for the night (``args``: an item chosen in a night menu)."""
        said = self._guarded(self.night.choose, *args) if args else self._guarded(self.night.ui, action)
        if said == "keytest" and self.referee is not None:
            self._outcome(self.referee.start_keytest())
        elif said and said != "keytest":
            self.message(said, "info")              # e.g. a closed partie taken back

    def _guarded(self, call, *args):
        try:
            return call(*args)
        except RuleError as exc:
            self.message(self._why(exc), "warn")
        except OSError as exc:              # the journal or the outbox could not be written
            log.error("write failed, %s not done: %s", getattr(call, "__name__", call), exc)
            self.message(storage_text(exc, self.night.device.language), "error")
        return None

    def _why(self, exc: RuleError) -> str:
        """The referee's short text for a refusal (input.messages.refusal, the one mapping; the
        rule core's own text is English and long: it goes to the debug log)."""
        from input.messages import refusal

        log.debug("refused: %s", exc)
        return refusal(exc, self.night.device.language)

    def _outcome(self, outcome) -> None:
        """What the referee made of a key: commands, a menu action, a refusal message."""
        if outcome is None:
            return
        for cmd in outcome.commands:             # checked by the referee against the board in play
            if not self._command(cmd, self.night.enter):
                break
        if outcome.ui == "undo" and (outcome.message is None or self.night.can_take_back()):
            self._ui("undo")                     # the night takes back its last decision, or says why not
            return
        if outcome.ui == "digit":
            self._ui(int(outcome.value))
        elif outcome.ui in ("confirm", "cancel", "up", "down", "menu"):
            self._ui(outcome.ui)
        elif outcome.ui == "night":
            self._ui(None, *outcome.value)
        elif outcome.ui in ("new_partie", "end_match"):
            self._guarded(self.night.finish_partie)
        if outcome.message:
            self.message(outcome.message["text"], outcome.message.get("level", "info"))

    def _device_status(self, device: str, connected: bool, detail: str = "") -> None:
        """A keypad lost is an error screen until a key comes from another input (or it is back)."""
        if connected:
            if self.faults.pop(device, None) is not None:
                log.warning("keypad %s is back", device)
        else:
            self.faults[device] = detail or "disconnected"
            self._fault_screen = True
            log.error("keypad %s: %s", device, self.faults[device])

    def message(self, text: str, level: str = "info") -> None:
        """Say ``text`` over the current screen. It stays in the model while that screen stays the
        same — the key's release, which changes nothing, must not wipe it before it was read — and
        ``n`` tells the counter that the same refusal again is a new message (its time restarts)."""
        self._messages += 1
        self._message = {"text": text, "level": level, "n": self._messages}
        self._message_on = None

    # -- the counter ---------------------------------------------------------
    def screen(self) -> dict:
        if self.faults and self._fault_screen:
            device, why = next(iter(self.faults.items()))
            model: dict = {"screen": "error", "code": "keypad", "text": keypad_fault_text(why, self.night.device.language)}
        else:
            model = self._night_screen()
        code = self.display.fault_code
        if code and not self._message:
            model = {**model, "message": self._display_fault(code)}
        if self._message:
            if self._message_on is None:
                self._message_on = model
            if model == self._message_on:
                return dict(model, message=self._message)
            self._message = self._message_on = None     # something changed: the message is stale
        return model

    def _night_screen(self) -> dict:
        """The night's screen; a bug behind it shows an error text instead (logged with its
        traceback), and the keys still reach the night."""
        try:
            return self.night.screen()
        except Exception:
            log.exception("a bug drawing the night's screen")
            return {"screen": "error", "code": "bug", "text": self._say("screen_error")}

    def _say(self, text_id: str) -> str:
        from input.messages import say

        return say(text_id, self.night.device.language)

    def _display_fault(self, code: str) -> dict:
        """What the counter says about its own display fault, in the device's language (the log
        has the English, with the device and the fix): e.g. SPI switched off."""
        from display.text import texts

        return {"text": texts(self.night.device.language).get(code, code), "level": "error", "n": 0}

    def show(self) -> None:
        model = self.screen()
        if model != self.display.model:
            self.display.show(model, self.clock())
            for observer in self.observers:
                observer(model)
