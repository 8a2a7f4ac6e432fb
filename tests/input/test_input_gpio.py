"""The 4x4 matrix keypad and discrete buttons on gpiozero's MockFactory pins."""
import queue
import threading

import pytest
from gpiozero import Device
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

from desk_helpers import Desk
from input.buttons import Buttons
from input.events import DeviceStatus, KeyEvent
from input.matrix import MatrixKeypad, ghost_free
from input.settings import DEFAULT_COLS, DEFAULT_ROWS, MATRIX_KEYS
from rules.board import Board

ROWS, COLS = DEFAULT_ROWS, DEFAULT_COLS


class Membrane:
    """The keypad's wires: a closed key joins its row and column; no diodes, so current also
    flows through other closed keys (that is what makes ghosts)."""

    def __init__(self, factory):
        self.factory, self.closed = factory, set()
        self.rows = [factory.pin(p, pin_class=RowPin) for p in ROWS]
        for pin in self.rows:
            pin.membrane = self

    def press(self, *keys):
        self.closed |= {self.position(k) for k in keys}
        self.update()

    def release(self, *keys):
        self.closed -= {self.position(k) for k in keys}
        self.update()

    @staticmethod
    def position(key):
        index = MATRIX_KEYS.index(key)
        return divmod(index, len(COLS))

    def update(self):
        parent = {}

        def find(node):
            while parent.get(node, node) != node:
                node = parent[node]
            return node

        for r, c in self.closed:
            parent[find(("r", r))] = find(("c", c))
        low = {find(("r", r)) for r, pin in enumerate(self.rows)
               if pin.function == "output" and not pin.state}
        for c, number in enumerate(COLS):
            pin = self.factory.pin(number)
            if pin.function != "input":
                continue
            if find(("c", c)) in low:
                pin.drive_low()
            elif pin.pull == "up":
                pin.drive_high()


class RowPin(MockPin):
    membrane = None

    def _set_function(self, value):
        super()._set_function(value)
        if self.membrane:
            self.membrane.update()

    def _change_state(self, value):
        changed = super()._change_state(value)
        if self.membrane:
            self.membrane.update()
        return changed


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def membrane(factory):
    return Membrane(factory)


@pytest.fixture
def keypad(factory, membrane):
    pad = MatrixKeypad(ROWS, COLS, MATRIX_KEYS, scan_interval=0.0, clock=lambda: 7.0,
                       pin_factory=factory)
    yield pad
    pad.close()


def names(events):
    return [(e.key, e.pressed) for e in events]


def test_matrix_reports_presses_and_releases(keypad, membrane):
    assert keypad.update() == []
    membrane.press("5")
    assert keypad.update() == [KeyEvent("5", True, 7.0, "matrix")]
    assert keypad.update() == []                      # held: nothing new
    membrane.release("5")
    assert names(keypad.update()) == [("5", False)]


def test_rows_float_while_not_scanned(keypad, factory):
    """Two keys in one column must not short a high row against the scanned low row."""
    keypad.scan()
    assert all(factory.pin(p).function == "input" for p in ROWS)


def test_simultaneous_presses_come_in_row_major_order(keypad, membrane):
    membrane.press("D", "1", "6")
    assert names(keypad.update()) == [("1", True), ("6", True), ("D", True)]
    membrane.release("1", "D")
    membrane.press("0")
    assert names(keypad.update()) == [("1", False), ("D", False), ("0", True)]


def test_ghost_of_a_rectangle_is_never_reported(keypad, membrane):
    membrane.press("1", "2")
    assert names(keypad.update()) == [("1", True), ("2", True)]
    membrane.press("4")                               # 1,2,4 closed: 5 reads closed too
    assert keypad.scan() >= {(1, 1)}
    assert keypad.update() == []                      # ambiguous: nothing changes
    membrane.release("2")
    assert names(keypad.update()) == [("2", False), ("4", True)]   # 5 never appeared


def test_ghost_free_is_deterministic():
    rectangle = frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})
    assert ghost_free(rectangle, frozenset({(0, 0), (0, 1)})) == {(0, 0), (0, 1)}
    assert ghost_free(rectangle | {(3, 3)}, frozenset()) == {(3, 3)}
    assert ghost_free(frozenset({(0, 0), (1, 1)}), frozenset()) == {(0, 0), (1, 1)}


def test_idle_wakes_when_a_key_closes(keypad, membrane):
    assert keypad.idle(timeout=0.0) is False
    membrane.press("9")
    assert keypad.idle(timeout=0.0) is True


def test_matrix_thread_delivers_events(factory, membrane):
    got = queue.Queue()
    pad = MatrixKeypad(ROWS, COLS, MATRIX_KEYS, scan_interval=0.001, pin_factory=factory)
    pad.start(got.put)
    try:
        assert got.get(timeout=5) == DeviceStatus("matrix", True, "GPIO matrix")
        membrane.press("B")
        event = got.get(timeout=5)
        assert (event.key, event.pressed, event.device) == ("B", True, "matrix")
        membrane.release("B")
        event = got.get(timeout=5)
        assert (event.key, event.pressed) == ("B", False)
    finally:
        pad.close()


def test_matrix_pin_already_used_fails_and_frees_its_pins(factory, membrane):
    Device.pin_factory = factory
    try:
        with pytest.raises(GPIOPinInUse):
            MatrixKeypad(ROWS, (COLS[0], COLS[1], COLS[2], ROWS[0]), MATRIX_KEYS,
                         pin_factory=factory)
        MatrixKeypad(ROWS, COLS, MATRIX_KEYS, pin_factory=factory).close()
    finally:
        Device.pin_factory = None


def test_bouncing_matrix_key_through_the_referee_scores_once(keypad, membrane):
    """RULES 1.2: one karambol is one +1, however the contact bounces."""
    desk = Desk(Board({"game": "carom", "a": "A", "b": "B"}))
    keypad.clock = desk.clock

    def contact(closed):
        (membrane.press if closed else membrane.release)("1")
        for event in keypad.update():
            desk.feed(event)
        desk.clock.advance(0.002)

    for closed in (True, False, True, False, True, False, True):
        contact(closed)
    desk.wait(0.3)
    for closed in (False, True, False):
        contact(closed)
    desk.wait(0.3)
    assert desk.commands == [{"cmd": "score", "value": 1}]
    assert desk.referee.debouncer.pressed() == []


def test_buttons_report_press_and_release(factory):
    got = []
    buttons = Buttons((("1", 17), ("enter", 25)), clock=lambda: 3.0, pin_factory=factory)
    buttons.start(got.append)
    factory.pin(25).drive_low()
    factory.pin(25).drive_high()
    factory.pin(17).drive_low()
    buttons.close()
    assert got == [DeviceStatus("buttons", True, "GPIO buttons"),
                   KeyEvent("enter", True, 3.0, "buttons"), KeyEvent("enter", False, 3.0, "buttons"),
                   KeyEvent("1", True, 3.0, "buttons")]


def test_buttons_start_no_thread(factory):
    """No busy loop: a button waits for its pin's edges; long presses are the debouncer's (gpiozero's
    Button would start a thread per button for its own, waking ten times a second)."""
    before = set(threading.enumerate())
    buttons = Buttons((("1", 17), ("0", 22), ("enter", 25)), pin_factory=factory)
    try:
        assert set(threading.enumerate()) - before == set()
    finally:
        buttons.close()


def test_bouncing_button_through_the_referee_scores_once(factory):
    """RULES 1.2: a bouncing button is one stroke; gpiozero's mock ignores bounce_time."""
    desk = Desk(Board({"game": "carom", "a": "A", "b": "B"}))
    buttons = Buttons((("1", 17),), clock=desk.clock, pin_factory=factory)
    buttons.start(lambda e: isinstance(e, KeyEvent) and desk._take(desk.referee.press(e, desk.board)))
    pin = factory.pin(17)
    for _ in range(5):
        pin.drive_low()
        desk.clock.advance(0.002)
        pin.drive_high()
        desk.clock.advance(0.002)
    pin.drive_low()                           # settles pressed
    desk.wait(0.3)
    pin.drive_high()
    desk.wait(0.3)
    buttons.close()
    assert desk.commands == [{"cmd": "score", "value": 1}]


def test_open_devices_builds_what_the_config_asks_for(factory):
    import io

    from config.options import Section
    from input.devices import open_devices
    from input.evdev_keypad import EvdevKeypad
    from input.settings import read
    from input.terminal import TerminalKeys
    settings = read(Section({"devices": ["evdev", "matrix", "buttons", "terminal"],
                             "evdev": {"paths": ["/dev/input/by-id/a-event-kbd"]}}, "keypad"))
    devices = open_devices(settings, pin_factory=factory, stream=io.StringIO(""))
    try:
        assert [type(d) for d in devices] == [EvdevKeypad, MatrixKeypad, Buttons, TerminalKeys]
        assert devices[0].path == "/dev/input/by-id/a-event-kbd"
    finally:
        for device in devices:
            device.close()
