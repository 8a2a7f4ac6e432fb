"""Discrete push buttons on GPIO, one key name per button (gpiozero ``DigitalInputDevice``).

Bounce is filtered by ``input.debounce`` (gpiozero's mock pins ignore ``bounce_time``, and one
debouncer for every device keeps behaviour the same), so the buttons are created without it.
Long presses are the debouncer's too, which is why a button is not gpiozero's ``Button``: that
one starts a thread per button for its own long press, waking ten times a second while idle and
once more at every press, each a wake-up competing with the key's own handling.
"""
import time

from input.events import DeviceStatus, KeyEvent


class Buttons:
    def __init__(self, pins, *, pull_up: bool = True, clock=time.monotonic, pin_factory=None,
                 name: str = "buttons"):
        """``pins``: (key name, BCM pin) pairs."""
        from input.gpio import InputLine, factory_or_default

        pin_factory = factory_or_default(pin_factory)
        self.name, self.clock = name, clock
        self._buttons = []
        self._callback = None
        try:
            for key, pin in pins:
                button = InputLine(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory,
                                   on_activated=self._handler(key, True),
                                   on_deactivated=self._handler(key, False))
                self._buttons.append(button)
        except Exception:
            self.close()
            raise

    def _handler(self, key: str, pressed: bool):
        def handle():
            if self._callback is not None:
                self._callback(KeyEvent(key, pressed, self.clock(), self.name))
        return handle

    def start(self, callback) -> None:
        self._callback = callback
        callback(DeviceStatus(self.name, True, "GPIO buttons"))

    def close(self) -> None:
        self._callback = None
        for button in self._buttons:
            button.close()
