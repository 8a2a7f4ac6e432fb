"""USB / wireless numeric keypads through evdev: the translator fed with python-evdev's InputEvents
(a test dependency), the keypad with stand-in devices and with packed events on a FIFO."""
import errno
import os
import queue
import threading
import time

from evdev import InputEvent, ecodes

from input.evdev_device import EVIOCGRAB
from input.evdev_keypad import EvdevKeypad, EvdevTranslator
from input.events import DeviceStatus, KeyEvent


def key(code, value, t):
    sec = int(t)
    return InputEvent(sec, round((t - sec) * 1e6), ecodes.EV_KEY, code, value)


def tap(code, t, duration=0.1):
    return [key(code, 1, t), key(code, 0, t + duration)]


def feed(translator, events, flush_at=None):
    out = []
    for event in events:
        out += translator.feed(event)
    if flush_at is not None:
        out += translator.flush(flush_at)
    return [(k, p) for k, p, _ in out]


def test_numlock_on_and_off_give_the_same_key():
    tr = EvdevTranslator()
    assert feed(tr, tap(ecodes.KEY_KP1, 10.0) + tap(ecodes.KEY_END, 11.0)) == \
        [("1", True), ("1", False)] * 2
    assert feed(tr, tap(ecodes.KEY_PAGEUP, 12.0) + tap(ecodes.KEY_DELETE, 13.0)
                + tap(ecodes.KEY_KPENTER, 14.0)) == \
        [("9", True), ("9", False), ("dot", True), ("dot", False), ("enter", True),
         ("enter", False)]


def test_numlock_events_wrapped_around_a_key_are_dropped():
    tr = EvdevTranslator()
    wrapped = [key(ecodes.KEY_NUMLOCK, 1, 1.000), key(ecodes.KEY_NUMLOCK, 0, 1.001),
               key(ecodes.KEY_KP5, 1, 1.002), key(ecodes.KEY_KP5, 0, 1.090),
               key(ecodes.KEY_NUMLOCK, 1, 1.091), key(ecodes.KEY_NUMLOCK, 0, 1.092)]
    inner = [key(ecodes.KEY_NUMLOCK, 1, 2.0), key(ecodes.KEY_KP2, 1, 2.001),
             key(ecodes.KEY_KP2, 0, 2.1), key(ecodes.KEY_NUMLOCK, 0, 2.101)]
    assert feed(tr, wrapped + inner) == [("5", True), ("5", False), ("2", True), ("2", False)]


def test_numlock_pressed_by_a_person_is_a_key():
    assert feed(EvdevTranslator(), tap(ecodes.KEY_NUMLOCK, 3.0)) == \
        [("numlock", True), ("numlock", False)]


def test_triple_zero_key_is_one_key_not_three_zeros():
    tr = EvdevTranslator(burst=0.03)
    burst = []
    for i in range(3):
        burst += tap(ecodes.KEY_KP0, 5.0 + i * 0.004, 0.002)
    assert feed(tr, burst, flush_at=6.0) == [("000", True), ("000", False)]


def test_double_zero_key_is_one_key():
    tr = EvdevTranslator(burst=0.03)
    burst = tap(ecodes.KEY_KP0, 5.0, 0.002) + tap(ecodes.KEY_KP0, 5.004, 0.002)
    assert feed(tr, burst, flush_at=6.0) == [("00", True), ("00", False)]


def test_zero_held_by_a_person_is_a_zero_press_then_release():
    tr = EvdevTranslator(burst=0.03)
    assert feed(tr, [key(ecodes.KEY_KP0, 1, 7.0)]) == []
    assert tr.deadline() == 7.03
    assert feed(tr, [], flush_at=7.03) == [("0", True)]
    assert feed(tr, [key(ecodes.KEY_KP0, 0, 7.15)]) == [("0", False)]


def test_quick_single_zero_from_a_wireless_keypad_is_one_zero():
    tr = EvdevTranslator(burst=0.03)
    assert feed(tr, tap(ecodes.KEY_KP0, 8.0, 0.001)) == []
    assert feed(tr, [], flush_at=8.1) == [("0", True), ("0", False)]


def test_zero_then_another_key_keeps_the_order():
    tr = EvdevTranslator(burst=0.03)
    events = tap(ecodes.KEY_KP0, 9.0, 0.001) + tap(ecodes.KEY_KP1, 9.005, 0.001)
    assert feed(tr, events) == [("0", True), ("0", False), ("1", True), ("1", False)]


def test_slow_zero_without_a_flush_in_between():
    assert feed(EvdevTranslator(), tap(ecodes.KEY_KP0, 9.0, 0.2)) == [("0", True), ("0", False)]


def test_autorepeat_and_unknown_codes_are_ignored():
    tr = EvdevTranslator()
    events = [key(ecodes.KEY_KP7, 1, 1.0), key(ecodes.KEY_KP7, 2, 1.5), key(ecodes.KEY_KP7, 2, 1.6),
              key(ecodes.KEY_F13, 1, 1.7), InputEvent(1, 0, ecodes.EV_SYN, 0, 0),
              key(ecodes.KEY_KP7, 0, 2.0)]
    assert feed(tr, events) == [("7", True), ("7", False)]


class FakeDevice:
    """Stands in for input.evdev_device.InputDevice: a pipe makes it readable; once its events are
    read, the next read fails as an unplugged device's does (ENODEV)."""

    def __init__(self, events):
        self.name = "Wireless Keypad"
        self._r, self._w = os.pipe()
        self._events = list(events)
        self.unplugged = False
        self.grabbed = False
        os.write(self._w, b"x")

    def fileno(self):
        return self._r

    def grab(self):
        self.grabbed = True

    def read(self):
        os.read(self._r, 1)
        if not self._events:
            raise OSError(errno.ENODEV, "No such device")
        events, self._events = self._events, []
        os.write(self._w, b"x")            # readable again: the next read reports the unplug
        return iter(events)

    def close(self):
        os.close(self._r)
        os.close(self._w)


def test_keypad_reconnects_after_unplug_and_reports_status():
    plugged = threading.Event()
    opened = []

    def opener(path):
        if not plugged.is_set():
            raise OSError(errno.ENOENT, "No such file or directory")
        device = FakeDevice(tap(ecodes.KEY_KP1, 1.0) if not opened else tap(ecodes.KEY_KP2, 2.0))
        opened.append(device)
        if len(opened) == 2:
            plugged.clear()
        return device

    got = queue.Queue()
    path = "/dev/input/by-id/usb-Keypad-event-kbd"
    keypad = EvdevKeypad(path, opener=opener, retry=0.01, clock=lambda: 42.0)
    keypad.start(got.put)
    try:
        assert got.get(timeout=5) == DeviceStatus(path, False, "cannot open: No such file or directory")
        plugged.set()
        seen = [got.get(timeout=5) for _ in range(8)]
    finally:
        keypad.close()
    assert seen == [
        DeviceStatus(path, True, "Wireless Keypad"),
        KeyEvent("1", True, 42.0, path, True), KeyEvent("1", False, 42.0, path, True),
        DeviceStatus(path, False, "unplugged"),
        DeviceStatus(path, True, "Wireless Keypad"),
        KeyEvent("2", True, 42.0, path, True), KeyEvent("2", False, 42.0, path, True),
        DeviceStatus(path, False, "unplugged"),
    ]
    assert all(d.grabbed for d in opened)


def test_auto_path_takes_the_first_keypad_found():
    got = queue.Queue()
    paths = []
    keypad = EvdevKeypad(None, finder=lambda: ["/dev/input/by-id/b-event-kbd"],
                         opener=lambda p: paths.append(p) or FakeDevice([]), retry=0.01)
    keypad.start(got.put)
    try:
        assert got.get(timeout=5).connected
    finally:
        keypad.close()
    assert paths[0] == "/dev/input/by-id/b-event-kbd"


def test_a_spurious_wakeup_is_not_an_unplug():
    class Spurious(FakeDevice):
        first = True

        def read(self):
            if self.first:
                self.first = False
                os.read(self._r, 1)
                os.write(self._w, b"x")
                raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
            return super().read()

    got = queue.Queue()
    keypad = EvdevKeypad("/dev/input/by-id/k", opener=lambda p: Spurious(tap(ecodes.KEY_KP3, 1.0)),
                         retry=60.0)
    keypad.start(got.put)
    try:
        seen = [got.get(timeout=5) for _ in range(4)]
    finally:
        keypad.close()
        keypad.close()                    # closing twice is harmless
    assert [getattr(e, "key", None) for e in seen] == [None, "3", "3", None]
    assert seen[0].connected and not seen[3].connected


def test_the_keypad_reads_its_device_file_and_reopens_it_after_end_of_file(event_fifo):
    """A real descriptor fed with packed input events (input.evdev_device's reading): a key, then a
    "000" key's three taps and their SYN_REPORTs in one read, then a quick 0 decided when the wait
    for the rest of its burst times out; the file's end is a read failure after which the device is
    opened again."""
    def event_time():             # the kernel's stamps (the wall clock), here moving as the monotonic
        return 1000.0 + time.monotonic()

    def stamped(t, code, value):
        return int(t), int(t % 1 * 1e6), ecodes.EV_KEY, code, value

    got = queue.Queue()
    path = event_fifo.path
    keypad = EvdevKeypad(path, opener=event_fifo.open, retry=0.01, clock=lambda: 42.0, event_clock=event_time)
    keypad.start(got.put)
    try:
        assert got.get(timeout=5) == DeviceStatus(path, True, "Wireless Keypad")
        event_fifo.send((1, 0, ecodes.EV_KEY, ecodes.KEY_KP1, 1), (1, 90000, ecodes.EV_KEY, ecodes.KEY_KP1, 0))
        zeros = [(2, usec + up, type_, code, value) for usec in (0, 4000, 8000)
                 for up, type_, code, value in ((0, ecodes.EV_KEY, ecodes.KEY_KP0, 1), (0, ecodes.EV_SYN, 0, 0),
                                                (2000, ecodes.EV_KEY, ecodes.KEY_KP0, 0), (2000, ecodes.EV_SYN, 0, 0))]
        event_fifo.send(*zeros)
        assert [got.get(timeout=5) for _ in range(4)] == [
            KeyEvent("1", True, 42.0, path, True), KeyEvent("1", False, 42.0, path, True),
            KeyEvent("000", True, 42.0, path, True), KeyEvent("000", False, 42.0, path, True)]
        t = event_time()
        event_fifo.send(stamped(t, ecodes.KEY_KP0, 1), stamped(t + 0.001, ecodes.KEY_KP0, 0))
        assert [got.get(timeout=5) for _ in range(2)] == [
            KeyEvent("0", True, 42.0, path, True), KeyEvent("0", False, 42.0, path, True)]
        event_fifo.hang_up()
        assert got.get(timeout=5) == DeviceStatus(path, False, f"read failed: end of file on {path}")
        assert got.get(timeout=5) == DeviceStatus(path, True, "Wireless Keypad")
    finally:
        keypad.close()
    assert event_fifo.ioctls.count((EVIOCGRAB, 1)) == 2


def test_a_file_that_is_no_input_device_cannot_be_opened(event_fifo):
    """The real ioctls (no opener given): a FIFO answers EVIOCGNAME with ENOTTY."""
    got = queue.Queue()
    keypad = EvdevKeypad(event_fifo.path, retry=60.0)
    keypad.start(got.put)
    try:
        assert got.get(timeout=5) == DeviceStatus(event_fifo.path, False, "cannot open: Inappropriate ioctl for device")
    finally:
        keypad.close()


def test_a_usb_keypad_needs_no_evdev_package(monkeypatch):
    """python-evdev is a test dependency only: the device is read with the standard library."""
    import sys

    from input.devices import open_devices
    from input.settings import KeypadSettings

    monkeypatch.setitem(sys.modules, "evdev", None)      # import evdev → ImportError
    [keypad] = open_devices(KeypadSettings(devices=("evdev",)))
    got = queue.Queue()
    keypad._finder = lambda: []
    keypad.start(got.put)
    try:
        assert got.get(timeout=5) == DeviceStatus("evdev", False, "cannot open: no keypad under /dev/input/by-id")
    finally:
        keypad.close()
