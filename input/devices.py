"""Build the keypad devices [keypad] asks for. Heavy imports (gpiozero) happen here, late."""
import time

from input.debounce import held_for
from input.events import Keypad
from input.settings import KeypadSettings


def open_devices(settings: KeypadSettings, *, clock=time.monotonic, pin_factory=None,
                 stream=None) -> list[Keypad]:
    """The configured devices, not started yet: call ``start(callback)`` on each, ``close()`` at
    the end. A GPIO device whose pins cannot be claimed raises (gpiozero's error) here."""
    devices = []
    try:
        for kind in settings.devices:
            devices += _open(kind, settings, clock, pin_factory, stream)
    except Exception:
        for device in devices:
            device.close()
        raise
    return devices


def _open(kind, settings, clock, pin_factory, stream) -> list[Keypad]:
    if kind == "evdev":
        from input.evdev_keypad import EvdevKeypad
        ev = settings.evdev
        return [EvdevKeypad(path, clock=clock, grab=ev.grab, burst=ev.burst, retry=ev.retry)
                for path in (ev.paths or (None,))]
    if kind == "matrix":
        from input.matrix import MatrixKeypad
        m = settings.matrix
        return [MatrixKeypad(m.rows, m.cols, m.keys, scan_interval=m.scan_interval, clock=clock,
                             pin_factory=pin_factory)]
    if kind == "buttons":
        from input.buttons import Buttons
        return [Buttons(settings.buttons.pins, pull_up=settings.buttons.pull_up, clock=clock,
                        pin_factory=pin_factory)]
    from input.terminal import TerminalKeys
    return [TerminalKeys(stream, clock=clock, hold_time=held_for(settings.long_press))]
