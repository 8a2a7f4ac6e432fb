"""An event device stood in for by a FIFO: a real non-blocking file descriptor fed with packed
``struct input_event``s (there is no /dev/uinput on the machines the suite runs on)."""
import errno
import os

import pytest

from input.evdev_device import EVENT, EVIOCGRAB, NAME_SIZE, InputDevice, eviocgname


class EventFifo:
    """``open(path)`` is an EvdevKeypad opener: the device on the FIFO, with ``ioctl`` answering the
    two requests an event device would (a FIFO refuses them: ENOTTY); ``send`` writes events."""

    def __init__(self, path, name=b"Wireless Keypad"):
        self.path, self.name = str(path), name
        os.mkfifo(self.path)
        self.ioctls: list[tuple[int, object]] = []
        self.writers: list[int] = []

    def ioctl(self, fd, request, arg):
        self.ioctls.append((request, arg))
        if request == eviocgname(NAME_SIZE):
            return self.name + bytes(len(arg) - len(self.name))
        if request == EVIOCGRAB:
            return 0
        raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))

    def open(self, path):
        device = InputDevice(path, ioctl=self.ioctl)
        self.writers.append(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))    # once a reader is there
        return device

    def send(self, *events) -> None:
        """Events as (sec, usec, type, code, value), in one write: one read takes them all."""
        self.send_bytes(b"".join(EVENT.pack(*event) for event in events))

    def send_bytes(self, data: bytes) -> None:
        os.write(self.writers[-1], data)

    def hang_up(self) -> None:
        os.close(self.writers.pop())

    def close(self) -> None:
        while self.writers:
            self.hang_up()


@pytest.fixture
def event_fifo(tmp_path):
    fifo = EventFifo(tmp_path / "event0")
    yield fifo
    fifo.close()
