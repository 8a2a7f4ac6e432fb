"""input.evdev_device, our reading of the kernel's input ABI, against python-evdev (a test dependency
only), the kernel's headers, and a real file descriptor fed with packed input events."""
import errno
import fcntl
import os
import shutil
import struct
import subprocess

import pytest
from evdev import InputEvent as EvdevEvent
from evdev import _input, ecodes

from input.evdev_device import EVENT, EVIOCGRAB, NAME_SIZE, READ_EVENTS, InputDevice, decode, eviocgname
from input.evdev_keypad import _CODES, EV_KEY, KEY_CODES, code_map

# sec, usec, type, code, value: a key down, its auto-repeat and release, a SYN_REPORT, and values at
# the edges of their fields (a relative axis's negative value, a u16 code, the largest C long)
EVENTS = [(1764672000, 123456, ecodes.EV_KEY, ecodes.KEY_KP0, 1),
          (1764672000, 999999, ecodes.EV_KEY, ecodes.KEY_KP0, 2),
          (1764672001, 0, ecodes.EV_KEY, ecodes.KEY_KP0, 0),
          (1764672001, 1, ecodes.EV_SYN, ecodes.SYN_REPORT, 0),
          (0, 0, ecodes.EV_REL, ecodes.REL_X, -2147483648),
          (2 ** (8 * struct.calcsize("l") - 1) - 1, 5, 0xFFFF, 0xFFFF, 2147483647)]


def test_our_key_codes_are_python_evdevs():
    assert EV_KEY == ecodes.EV_KEY
    assert KEY_CODES == {name: getattr(ecodes, name) for name in KEY_CODES}
    assert sorted(KEY_CODES) == sorted(name for names in _CODES.values() for name in names)
    # what code_map gave when it read evdev.ecodes
    assert code_map() == {getattr(ecodes, name): key for key, names in _CODES.items() for name in names}


def test_a_packed_event_decodes_as_python_evdev_reads_it():
    """The same bytes read by python-evdev's C reader (device_read_many, what its InputDevice.read
    runs) and decoded by ours: the same fields and the same time stamps."""
    data = b"".join(EVENT.pack(*event) for event in EVENTS)
    read, write = os.pipe()
    try:
        os.write(write, data)
        theirs = [EvdevEvent(*fields) for fields in _input.device_read_many(read)]
    finally:
        os.close(read)
        os.close(write)
    ours = decode(data)
    assert [(e.sec, e.usec, e.type, e.code, e.value) for e in ours] == \
        [(e.sec, e.usec, e.type, e.code, e.value) for e in theirs] == EVENTS
    assert [e.timestamp() for e in ours] == [e.timestamp() for e in theirs]
    assert repr(ours[0]) == repr(theirs[0])


def test_a_short_buffer_is_a_clear_error_not_a_wrong_event():
    """The kernel hands whole events only; a part of one is refused, not decoded into garbage."""
    data = EVENT.pack(*EVENTS[0]) + EVENT.pack(*EVENTS[1])[:10]
    with pytest.raises(OSError, match=rf"{EVENT.size + 10} bytes read: not a whole number of "
                                      rf"{EVENT.size}-byte input events") as raised:
        decode(data)
    assert raised.value.errno == errno.EIO
    assert decode(b"") == []


@pytest.mark.skipif(not (shutil.which("cc") and os.path.exists("/usr/include/linux/input.h")),
                    reason="needs a C compiler and the kernel's headers (as building python-evdev does)")
def test_the_ioctl_numbers_and_the_event_size_are_linux_input_hs(tmp_path):
    source = tmp_path / "abi.c"
    source.write_text('#include <stdio.h>\n#include <linux/input.h>\nint main(void) {\n'
                      f'  printf("%lu %lu %zu\\n", (unsigned long)EVIOCGRAB, (unsigned long)EVIOCGNAME({NAME_SIZE}),'
                      ' sizeof(struct input_event));\n  return 0;\n}\n', encoding="utf-8")
    subprocess.run(["cc", "-o", str(tmp_path / "abi"), str(source)], check=True, timeout=60)
    printed = subprocess.run([str(tmp_path / "abi")], check=True, capture_output=True, text=True).stdout
    assert printed.split() == [str(EVIOCGRAB), str(eviocgname(NAME_SIZE)), str(EVENT.size)]


def test_the_device_reads_the_events_waiting_on_its_descriptor(event_fifo):
    device = event_fifo.open(event_fifo.path)
    try:
        assert device.name == "Wireless Keypad" and device.fileno() >= 0
        assert event_fifo.ioctls == [(eviocgname(NAME_SIZE), bytes(NAME_SIZE))]
        with pytest.raises(BlockingIOError):          # nothing waiting: as python-evdev's read()
            device.read()
        event_fifo.send(*EVENTS[:4])
        assert [(e.sec, e.usec, e.type, e.code, e.value) for e in device.read()] == EVENTS[:4]
        event_fifo.send(*[(7, i, EV_KEY, KEY_CODES["KEY_KP1"], i % 2) for i in range(READ_EVENTS + 6)])
        assert [len(device.read()) for _ in range(2)] == [READ_EVENTS, 6]
        event_fifo.send_bytes(EVENT.pack(*EVENTS[0])[:EVENT.size - 1])
        with pytest.raises(OSError, match="not a whole number"):
            device.read()
        event_fifo.hang_up()
        with pytest.raises(OSError, match=f"end of file on {event_fifo.path}"):
            device.read()
    finally:
        device.close()
        device.close()                                # closing twice is harmless
    assert device.fileno() == -1


def test_grab_and_ungrab_are_eviocgrab(event_fifo):
    device = event_fifo.open(event_fifo.path)
    device.grab()
    device.ungrab()
    device.close()
    assert event_fifo.ioctls[1:] == [(EVIOCGRAB, 1), (EVIOCGRAB, 0)]


def test_a_file_that_is_no_input_device_is_refused_and_closed(event_fifo):
    """The real ioctl on a FIFO: EVIOCGNAME fails (ENOTTY), the file is not left open."""
    opened = []

    def ioctl(fd, request, arg):
        opened.append(fd)
        return fcntl.ioctl(fd, request, arg)

    with pytest.raises(OSError) as raised:
        InputDevice(event_fifo.path, ioctl=ioctl)
    assert raised.value.errno == errno.ENOTTY
    with pytest.raises(OSError) as closed:
        os.fstat(opened[0])
    assert closed.value.errno == errno.EBADF
    with pytest.raises(FileNotFoundError):
        InputDevice(event_fifo.path + "-missing")
