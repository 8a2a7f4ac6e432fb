"""A Linux input device (/dev/input/event*) read through the kernel's stable ABI, standard library only.

What ``EvdevKeypad`` used of python-evdev's ``InputDevice``: open, grab, the name, read. The package's
``__init__`` imports asyncio (with ssl, subprocess, socket, logging, inspect), which cost a device's
start before READY=1 about as much as the rest of it (docs/performance.md, the fifth round), and it
has no wheels for a Pi: it compiled from source at every install. linux/input.h gives the rest:

* ``struct input_event``: a ``struct timeval`` (two C longs: 8 bytes each on aarch64, 4 on armv7l),
  ``__u16 type``, ``__u16 code``, ``__s32 value`` — ``"llHHi"`` in the native layout;
* ``EVIOCGRAB`` = ``_IOW('E', 0x90, int)`` and ``EVIOCGNAME(len)`` = ``_IOC(_IOC_READ, 'E', 0x06, len)``,
  in the ioctl numbering of asm-generic/ioctl.h, which ARM, arm64 and x86 use.
"""
import errno
import fcntl
import os
import struct

EVENT = struct.Struct("@llHHi")         # struct input_event; its size is the platform's (24 or 16)
READ_EVENTS = 64                        # events taken by one read, as python-evdev's read()

_IOC_WRITE, _IOC_READ = 1, 2


def _ioc(direction: int, number: int, size: int) -> int:
    return direction << 30 | size << 16 | ord("E") << 8 | number


EVIOCGRAB = _ioc(_IOC_WRITE, 0x90, struct.calcsize("i"))
NAME_SIZE = 256


def eviocgname(size: int) -> int:
    return _ioc(_IOC_READ, 0x06, size)


class InputEvent:
    """One ``struct input_event``: the kernel's time stamp (wall clock), type, code and value."""

    __slots__ = ("sec", "usec", "type", "code", "value")

    def __init__(self, sec: int, usec: int, type: int, code: int, value: int):
        self.sec, self.usec, self.type, self.code, self.value = sec, usec, type, code, value

    def timestamp(self) -> float:
        return self.sec + self.usec / 1000000.0

    def __repr__(self) -> str:
        return f"InputEvent({self.sec}, {self.usec}, {self.type}, {self.code}, {self.value})"


def decode(data: bytes) -> list[InputEvent]:
    """The events in ``data``, whole ``struct input_event``s as read(2) hands them."""
    if len(data) % EVENT.size:
        raise OSError(errno.EIO, f"{len(data)} bytes read: not a whole number of {EVENT.size}-byte input events")
    return [InputEvent(*fields) for fields in EVENT.iter_unpack(data)]


class InputDevice:
    """An event device opened non-blocking. ``ioctl``: fcntl.ioctl, or a stand-in where the file is
    not an input device (a test's FIFO)."""

    def __init__(self, path: str, *, ioctl=fcntl.ioctl):
        self.path = path
        self._ioctl = ioctl
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            name = self._ioctl(self.fd, eviocgname(NAME_SIZE), bytes(NAME_SIZE))
        except OSError:
            self.close()
            raise
        self.name = bytes(name).split(b"\0", 1)[0].decode("utf-8", "replace")

    def fileno(self) -> int:
        return self.fd

    def grab(self) -> None:
        """Only this file gets the device's events (not the console, nor another reader)."""
        self._ioctl(self.fd, EVIOCGRAB, 1)

    def ungrab(self) -> None:
        self._ioctl(self.fd, EVIOCGRAB, 0)

    def read(self) -> list[InputEvent]:
        """The events waiting, up to READ_EVENTS. BlockingIOError: none is waiting; OSError ENODEV:
        the device is gone (unplugged). End of file, which an event device never gives, is an error."""
        data = os.read(self.fd, EVENT.size * READ_EVENTS)
        if not data:
            raise OSError(errno.EIO, f"end of file on {self.path}")
        return decode(data)

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)
