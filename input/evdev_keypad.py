"""USB and 2.4 GHz wireless numeric keypads through Linux evdev.

``EvdevTranslator`` (pure, fed with input events: input.evdev_device) turns key codes into our key
names:
* NumLock on or off gives the same key (KEY_KP1 and KEY_END are both "1");
* NumLock presses a keypad wraps around its keys (a few milliseconds each) are dropped; a NumLock
  key a person actually presses is "numlock";
* a "000" key, sent as three KEY_KP0 taps in a burst, is one "000" key, not three zeros
  (and a "00" key is "00");
* auto-repeat is ignored.
``EvdevKeypad`` opens a device by its stable path (/dev/input/by-id/...), grabs it (so the keys
do not also type into the console) and reopens it after the receiver is unplugged, retrying every
``retry`` seconds without busy polling.
"""
import errno
import os
import select
import threading
import time

from clock import SystemClock
from input.evdev_device import InputDevice
from input.events import DeviceStatus, KeyEvent

# linux/input-event-codes.h (the kernel's stable ABI): the event type and the keys mapped below
EV_KEY = 0x01
KEY_CODES = {
    "KEY_ESC": 1, "KEY_1": 2, "KEY_2": 3, "KEY_3": 4, "KEY_4": 5, "KEY_5": 6, "KEY_6": 7, "KEY_7": 8,
    "KEY_8": 9, "KEY_9": 10, "KEY_0": 11, "KEY_MINUS": 12, "KEY_EQUAL": 13, "KEY_BACKSPACE": 14,
    "KEY_TAB": 15, "KEY_ENTER": 28, "KEY_COMMA": 51, "KEY_DOT": 52, "KEY_SLASH": 53, "KEY_KPASTERISK": 55,
    "KEY_SPACE": 57, "KEY_NUMLOCK": 69, "KEY_KP7": 71, "KEY_KP8": 72, "KEY_KP9": 73, "KEY_KPMINUS": 74,
    "KEY_KP4": 75, "KEY_KP5": 76, "KEY_KP6": 77, "KEY_KPPLUS": 78, "KEY_KP1": 79, "KEY_KP2": 80,
    "KEY_KP3": 81, "KEY_KP0": 82, "KEY_KPDOT": 83, "KEY_KPENTER": 96, "KEY_KPSLASH": 98, "KEY_HOME": 102,
    "KEY_UP": 103, "KEY_PAGEUP": 104, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_END": 107, "KEY_DOWN": 108,
    "KEY_PAGEDOWN": 109, "KEY_INSERT": 110, "KEY_DELETE": 111, "KEY_KPEQUAL": 117, "KEY_KPCOMMA": 121,
    "KEY_CLEAR": 0x163,
}
_CODES = {
    "0": ("KEY_KP0", "KEY_0", "KEY_INSERT"),
    "1": ("KEY_KP1", "KEY_1", "KEY_END"),
    "2": ("KEY_KP2", "KEY_2", "KEY_DOWN"),
    "3": ("KEY_KP3", "KEY_3", "KEY_PAGEDOWN"),
    "4": ("KEY_KP4", "KEY_4", "KEY_LEFT"),
    "5": ("KEY_KP5", "KEY_5", "KEY_CLEAR"),
    "6": ("KEY_KP6", "KEY_6", "KEY_RIGHT"),
    "7": ("KEY_KP7", "KEY_7", "KEY_HOME"),
    "8": ("KEY_KP8", "KEY_8", "KEY_UP"),
    "9": ("KEY_KP9", "KEY_9", "KEY_PAGEUP"),
    "dot": ("KEY_KPDOT", "KEY_KPCOMMA", "KEY_DELETE", "KEY_DOT", "KEY_COMMA"),
    "enter": ("KEY_KPENTER", "KEY_ENTER"),
    "+": ("KEY_KPPLUS",),
    "-": ("KEY_KPMINUS", "KEY_MINUS"),
    "*": ("KEY_KPASTERISK",),
    "/": ("KEY_KPSLASH", "KEY_SLASH"),
    "=": ("KEY_KPEQUAL", "KEY_EQUAL"),
    "backspace": ("KEY_BACKSPACE",),
    "esc": ("KEY_ESC",),
    "tab": ("KEY_TAB",),
    "space": ("KEY_SPACE",),
    "numlock": ("KEY_NUMLOCK",),
}


def code_map() -> dict[int, str]:
    return {KEY_CODES[name]: key for key, names in _CODES.items() for name in names}


class EvdevTranslator:
    """Input events → (key, pressed, kernel time) for one device. Times are the events'."""

    def __init__(self, burst: float = 0.03, codes: dict | None = None):
        self.burst = burst
        self.codes = codes if codes is not None else code_map()
        self._zeros = 0              # quick KP0 taps in the current burst
        self._zero_down: float | None = None     # when the KP0 now down went down
        self._zero_shown = False     # that KP0 was already given as a "0" press (held)
        self._last: float | None = None          # time of the last KP0 transition in the burst
        self._numlock_down: float | None = None
        self._numlock_wraps = False

    def feed(self, event) -> list[tuple[str, bool, float]]:
        if event.type != EV_KEY or event.value == 2:
            return []
        key = self.codes.get(event.code)
        if key is None:
            return []
        t, pressed = event.timestamp(), bool(event.value)
        if key == "numlock":
            return self._numlock(pressed, t)
        self._numlock_wraps = self._numlock_down is not None
        if key == "0":
            return self._zero(pressed, t)
        return self.flush(t, force=True) + [(key, pressed, t)]

    def deadline(self) -> float | None:
        """Kernel time at which ``flush`` decides a pending "0"; None when nothing waits."""
        if self._last is None or self._zero_shown:
            return None
        return self._last + self.burst

    def flush(self, now: float, force: bool = False) -> list[tuple[str, bool, float]]:
        due = self.deadline()
        if due is None or (now < due and not force):
            return []
        burst = "00" if self._zeros == 2 else "0"      # no one taps 0 twice in 30 ms
        out = [item for _ in range(self._zeros // len(burst))
               for item in ((burst, True, now), (burst, False, now))]
        self._zeros = 0
        if self._zero_down is not None:       # held past the burst: a person pressing 0
            out.append(("0", True, now))
            self._zero_shown = True
        else:
            self._last = None
        return out

    def _zero(self, pressed: bool, t: float):
        if pressed:
            deadline = self.deadline()
            out = self.flush(t) if deadline is not None and t > deadline else []
            self._zero_down, self._last = t, t
            return out
        if self._zero_shown:
            self._reset_zero()
            return [("0", False, t)]
        if self._zero_down is None:
            return []
        if t - self._zero_down > self.burst:           # a slow press: no burst after all
            out = self.flush(t, force=True) + [("0", False, t)]
            self._reset_zero()
            return out
        self._zeros += 1
        self._zero_down, self._last = None, t
        if self._zeros == 3:
            self._reset_zero()
            return [("000", True, t), ("000", False, t)]
        return []

    def _reset_zero(self):
        self._zeros, self._zero_down, self._zero_shown, self._last = 0, None, False, None

    def _numlock(self, pressed: bool, t: float):
        if pressed:
            self._numlock_down, self._numlock_wraps = t, False
            return []
        down, self._numlock_down = self._numlock_down, None
        if down is None or self._numlock_wraps or t - down < self.burst:
            return []          # wrapped around another key, or sent by the keypad itself
        return [("numlock", True, down), ("numlock", False, t)]


def find_keypads(pattern: str = "/dev/input/by-id/*-event-kbd") -> list[str]:
    import glob  # here: a keypad given by its path needs none (glob imports fnmatch)

    return sorted(glob.glob(pattern))


class EvdevKeypad:
    """One evdev keypad by path (or the first by-id keyboard found when ``path`` is None)."""

    def __init__(self, path: str | None = None, *, clock=time.monotonic, grab: bool = True,
                 burst: float = 0.03, retry: float = 1.0, opener=None, finder=find_keypads,
                 event_clock=None):
        self.path = path
        # the kernel stamps input events with the wall clock: the burst window is timed on it
        self.event_clock = event_clock or SystemClock().time
        self.name = path or "evdev"
        self.clock, self.grab, self.burst, self.retry = clock, grab, burst, retry
        self._opener = opener or InputDevice
        self._finder = finder
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self.connected: bool | None = None

    def start(self, callback) -> None:
        self._callback = callback
        self._thread = threading.Thread(target=self._run, name=f"keypad {self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        os.close(self._wake_r)
        os.close(self._wake_w)

    # -- the reader thread ----------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                device = self._open()
            except OSError as exc:
                self._status(False, f"cannot open: {exc.strerror or exc}")
                self._stop.wait(self.retry)
                continue
            self._status(True, getattr(device, "name", ""))
            try:
                self._read(device, EvdevTranslator(self.burst))
            except OSError as exc:
                self._status(False, "unplugged" if exc.errno == errno.ENODEV
                             else f"read failed: {exc.strerror or exc}")
                self._stop.wait(self.retry)
            finally:
                try:
                    device.close()
                except OSError:
                    pass

    def _open(self):
        path = self.path
        if path is None:
            found = self._finder()
            if not found:
                raise OSError(errno.ENOENT, "no keypad under /dev/input/by-id")
            path = found[0]
        device = self._opener(path)
        if self.grab:
            try:
                device.grab()
            except OSError:
                device.close()
                raise
        return device

    def _read(self, device, translator: EvdevTranslator) -> None:
        # select.poll, not selectors: its classes (a namedtuple, ABCs) were ~1.5 % of the start to READY
        poller = select.poll()
        poller.register(device.fileno(), select.POLLIN)     # an unplug wakes it too (POLLHUP, POLLERR)
        poller.register(self._wake_r, select.POLLIN)
        while not self._stop.is_set():
            due = translator.deadline()
            timeout = None if due is None else max(0.0, due - self.event_clock()) * 1000   # ms, rounded up
            for fd, _ in poller.poll(timeout):
                if fd == device.fileno():
                    try:
                        for event in device.read():
                            self._emit(translator.feed(event))
                    except BlockingIOError:     # woken without an event: not an unplug
                        pass
            self._emit(translator.flush(self.event_clock()))

    def _emit(self, keys) -> None:
        for key, pressed, _ in keys:
            self._callback(KeyEvent(key, pressed, self.clock(), self.name, debounced=True))

    def _status(self, connected: bool, detail: str) -> None:
        if self.connected != connected:
            self.connected = connected
            self._callback(DeviceStatus(self.name, connected, detail))
