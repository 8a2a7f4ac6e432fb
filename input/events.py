"""What keypad devices hand the service: key events and device status changes.

Every device is a ``Keypad``: it offers ``start(callback)`` and ``close()``. The callback receives
``KeyEvent``s and ``DeviceStatus``es, possibly from the device's own thread; the service puts them
on one queue.
"""
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class KeyEvent:
    """One raw key transition with a normalized key name ("0".."9", "enter", "dot", "A"...).

    ``t`` is the device's clock (``time.monotonic`` unless one is injected) — the same clock the
    referee's ``poll`` uses. ``debounced`` says the hardware already debounced it (USB keyboards,
    the terminal); raw GPIO contacts leave it False so our own debouncer filters them.
    """

    key: str
    pressed: bool
    t: float
    device: str
    debounced: bool = False


@dataclass(frozen=True)
class DeviceStatus:
    """A device went away or came back; ``detail`` is a short English reason for the log."""

    device: str
    connected: bool
    detail: str = ""


class Keypad(Protocol):
    """A keypad device (input.devices opens them): from ``start`` on it calls ``callback`` with
    each KeyEvent and DeviceStatus, until ``close``."""

    def start(self, callback: Callable[[KeyEvent | DeviceStatus], object]) -> None: ...

    def close(self) -> None: ...
