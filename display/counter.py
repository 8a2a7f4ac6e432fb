"""The wall counter: draws screen models and pushes a frame only when the picture changes.

The service calls ``show(model, now)`` after every state change and ``tick(now)`` when the
deadline it returned comes; time is injected (``now`` in seconds, any monotonic clock), so the
loop sleeps until the next deadline instead of polling, and tests need no real clock.
Blinking, pages on small counters and transient messages all run off that one deadline.

While the referee is about to press, the service has the counter draw the frames the likeliest
keys bring (``prepare``): the show that brings one of those models takes its picture instead of
drawing it, so a stroke's frame costs a lookup (docs/performance.md, "Frames drawn ahead").
"""
from dataclasses import dataclass

from delivery.logs import Logger
from display.devices import DisplayFault
from display.layouts import layout_for
from display.scene import Scene, choices, raw_bytes
from display.text import texts

log = Logger(__name__)

_MODEL_FAULTS = (KeyError, TypeError, ValueError, AttributeError, IndexError)
AHEAD_KEPT = 4      # pictures drawn ahead of their show (Keys.ahead: three strokes at most)


@dataclass(frozen=True)
class Picture:
    """A model's picture as drawn at some time: what a frame sends and what it depends on."""
    model: dict
    scene: Scene
    shape: tuple        # (blinks, pages, page questions) of the picture
    key: tuple          # its picture key at the time it was drawn for (Counter._picture_key)
    data: bytes         # the frame's bytes


class Counter:
    def __init__(self, device, settings):
        self.settings = settings
        self.layout = layout_for(settings)
        self.words = texts(settings.language)
        self.colours = ({role: settings.colours["led"] for role in ("a", "b", "text")}
                        if settings.mono else dict(settings.colours))
        self.frames = 0                 # frames handed to the device (unchanged ones never are)
        self.renders = 0                # pictures drawn (a show or tick that changes nothing draws none)
        self.next_deadline = None
        self.device = None
        self.size, self.mode = _logical_size(settings), settings.mode
        self._model = None
        self._message = None
        self._message_start = None      # when the message in force first appeared
        self._message_parts = 1         # a long message is said part by part (see _part_seconds)
        self._last = None               # bytes of the frame on the device
        self._shape = None              # (blinks, pages, page questions) of the picture drawn last
        self._key = None                # what that picture was drawn for (see _picture_key)
        self._ahead: list[Picture] = []     # pictures of the likeliest next models (prepare)
        self.drawn_ahead = self.taken_ahead = 0
        self.attach(device)

    def attach(self, device) -> None:
        """Use a (re)opened device — or None while there is none: pictures are still drawn, so
        scoring goes on; the current picture is sent to the next device at the next show/tick."""
        self.device = device
        if device is not None:
            self.size, self.mode = device.size, device.mode
        self.forget()

    def forget(self) -> None:
        """The next show draws and sends its picture even if the device has it already (a
        terminal resized, a device reopened)."""
        self._last = None
        self._key = None
        self._ahead.clear()             # drawn for another device's size or mode, perhaps

    def show(self, model: dict, now: float):
        """Display ``model``; return the time the picture next needs a ``tick`` (or None)."""
        message = model.get("message") if isinstance(model, dict) else None
        if message != self._message:
            self._message = message
            self._message_start = now if message else None
            self._message_parts = 1
        changed = model != self._model
        if changed:
            self._key = None
        self._model = model
        try:
            return self._refresh(now)
        finally:
            if changed:
                self._ahead.clear()     # they were the next frames of the model before

    def prepare(self, model: dict, now: float) -> None:
        """Draw the picture ``model`` would have at ``now``, before it is shown: a show of
        ``model`` whose picture key (``_picture_key``) is still the same then takes it instead of
        drawing. Message-free models only (a message's parts run from its own show)."""
        self._ahead.append(self._picture(model, now, False))
        if len(self._ahead) > AHEAD_KEPT:
            del self._ahead[0]
        self.drawn_ahead += 1

    def tick(self, now: float):
        """Redraw for the time ``now`` (blink phase, page, message timeout); return the next deadline."""
        if self._model is None:
            return None
        return self._refresh(now)

    def render(self, model: dict, now: float, *, message=True) -> Scene:
        """The picture of ``model`` at time ``now`` (nothing is sent to the device)."""
        half, page_s = self.settings.blink_seconds, self.settings.page_seconds
        scene = Scene(self.size, self.mode, colours=self.colours, words=self.words,
                      blink_on=int(now // half) % 2 == 0, page_counter=int(now // page_s))
        try:
            self._draw(scene, model, message, now)
        except _MODEL_FAULTS:
            log.exception("cannot draw screen model %r", model)
            scene = Scene(self.size, self.mode, colours=self.colours, words=self.words)
            self._draw(scene, {"screen": "error", "code": "display", "text": self.words["draw_failed"]}, False, now)
        return scene

    def _message_slot(self, now: float) -> int:
        """How many message turns have passed since the message appeared."""
        return max(0, int((now - self._message_start) // self._part_seconds()))

    def _message_slots(self) -> int:
        """Turns the message takes. Where it covers the whole game screen (8-px counters, 7-segment
        boards) its parts take turns with the screen, so the inning is never hidden for more than
        one part (RULES 1.7: the last 2 innings stay visible)."""
        return 2 * self._message_parts - 1 if self.layout.message_covers else self._message_parts

    def _message_part(self, now: float) -> int:
        if self._message_start is None:
            return 0
        slot = self._message_slot(now)
        return slot // 2 if self.layout.message_covers else slot

    def _part_seconds(self) -> float:
        """message_seconds for each of up to two parts; more parts share twice that, but each stays
        at least half of it — on a 32x8 counter, where a message hides the score, 4 parts take 6 s."""
        seconds = self.settings.message_seconds
        return max(seconds / 2, min(seconds, 2 * seconds / self._message_parts))

    def _message_pending(self, now: float) -> bool:
        """The message has turns left (shown now, or between two of its parts)."""
        return self._message_start is not None and self._message_slot(now) < self._message_slots()

    def _message_showing(self, now: float) -> bool:
        if not self._message_pending(now):
            return False
        return not (self.layout.message_covers and self._message_slot(now) % 2)

    def _draw(self, scene: Scene, model: dict, message: bool, now: float) -> None:
        self.layout.draw(scene, model)
        if message and model.get("message"):
            self._message_parts = self.layout.message(scene, model["message"], self._message_part(now))

    def _picture_key(self, now: float, showing_message: bool):
        """What the picture of the current model depends on at ``now``: the blink phase (if a part
        blinks), what its pages chose (if it has pages: a page that shows what the one before
        showed is not drawn again) and the message part shown. Equal keys, equal pictures."""
        if self._shape is None:
            return None
        return self._key_of(self._shape, now, showing_message)

    def _key_of(self, shape: tuple, now: float, showing_message: bool) -> tuple:
        blinks, pages, asked = shape
        return (int(now // self.settings.blink_seconds) % 2 if blinks else None,
                choices(asked, int(now // self.settings.page_seconds)) if pages > 1 else None,
                self._message_part(now) if showing_message else None)

    def _refresh(self, now: float):
        showing_message = self._message_showing(now)
        key = self._picture_key(now, showing_message)
        if key is None or key != self._key:     # else the picture on the device is this one: nothing to draw
            self._draw_frame(now, showing_message)
        self.next_deadline = self._deadline(now, self._message_pending(now))
        return self.next_deadline

    def _picture(self, model: dict, now: float, showing_message: bool) -> Picture:
        scene = self.render(model, now, message=showing_message)
        shape = (scene.blinks, scene.pages, scene.asked)
        return Picture(model, scene, shape, self._key_of(shape, now, showing_message), raw_bytes(scene.image))

    def _draw_frame(self, now: float, showing_message: bool) -> None:
        picture = None if showing_message else self._taken_ahead(now)
        if picture is None:
            picture = self._picture(self._model, now, showing_message)
            self.renders += 1
        else:
            self.taken_ahead += 1
        scene, self._shape, self._key, data = picture.scene, picture.shape, picture.key, picture.data
        if self.device is not None and data != self._last:
            try:
                self.device.display(scene.image)
            except Exception as exc:    # SPI gone, cable pulled, driver error
                self._last = self._key = None
                raise DisplayFault(f"display write failed: {exc or type(exc).__name__}") from exc
            self._last = data
            self.frames += 1

    def _taken_ahead(self, now: float) -> Picture | None:
        """The picture drawn ahead for the current model, if it is still its picture at ``now``."""
        for ahead in self._ahead:
            if ahead.model == self._model and self._key_of(ahead.shape, now, False) == ahead.key:
                return ahead
        return None

    def _deadline(self, now: float, message_pending: bool):
        half, page_s = self.settings.blink_seconds, self.settings.page_seconds
        blinks, pages, asked = self._shape or (False, 1, [])
        deadlines = []
        if blinks:
            deadlines.append((int(now // half) + 1) * half)
        if pages > 1:       # the next page that chooses something else (a page of the score may last 4)
            page = int(now // page_s)
            shown = choices(asked, page)
            turns = next((k for k in range(1, pages + 1) if choices(asked, page + k) != shown), pages)
            deadlines.append((page + turns) * page_s)
        if message_pending:     # the next part of the message (or the screen between two), or its end
            deadlines.append(self._message_start + (self._message_slot(now) + 1) * self._part_seconds())
        return min(deadlines) if deadlines else None


def _logical_size(settings) -> tuple[int, int]:
    width, height = settings.size
    return (height, width) if settings.rotate % 2 and not settings.is_segment else (width, height)
