"""The terminal keyboard (emulator) and plain key streams (scripts), through pty pairs and pipes."""
import io
import os
import pty
import queue
import termios

from input.events import KeyEvent
from input.terminal import TerminalKeys, keys_in


def test_characters_to_key_names_with_hold_prefix():
    assert list(keys_in("1 0.\n\x7f\x1bh\nqa#")) == [
        ("1", False), ("space", False), ("0", False), ("dot", False), ("enter", False),
        ("backspace", False), ("esc", False), ("enter", True), ("A", False), ("#", False)]


def test_script_stream_gives_press_and_release_per_key_then_ends():
    got, ended = [], []
    keys = TerminalKeys(io.StringIO("12\n"), clock=lambda: 5.0, on_end=lambda: ended.append(1))
    keys.start(got.append)
    keys._thread.join(timeout=5)
    keys.close()
    assert got == [KeyEvent(k, p, 5.0, "terminal", True)
                   for k in ("1", "2", "enter") for p in (True, False)]
    assert ended == [1]


def test_a_stream_that_ended_before_on_end_was_given_calls_it_when_given():
    """`pocitadlo emulate` starts the keypad, then builds the service and only then gives on_end:
    a short script piped in ("\nq") can end in between, and the emulator must still stop."""
    ended = []
    keys = TerminalKeys(io.StringIO("1"), clock=lambda: 5.0)
    keys.start(lambda event: None)
    keys._thread.join(timeout=5)
    keys.on_end = lambda: ended.append(1)
    keys.close()
    assert ended == [1]


def test_held_key_is_released_later():
    got = queue.Queue()
    keys = TerminalKeys(io.StringIO("h+"), hold_time=0.01)
    keys.start(got.put)
    first, second = got.get(timeout=5), got.get(timeout=5)
    keys.close()
    assert (first.key, first.pressed, second.key, second.pressed) == ("+", True, "+", False)
    assert second.t >= first.t


def test_tty_goes_to_cbreak_and_is_restored():
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", buffering=1, closefd=False)
    before = termios.tcgetattr(slave)
    got = queue.Queue()
    keys = TerminalKeys(stream)
    keys.start(got.put)
    try:
        assert not termios.tcgetattr(slave)[3] & termios.ICANON   # no line buffering: cbreak
        os.write(master, b"7")                                     # no Enter needed
        assert got.get(timeout=5).key == "7"
    finally:
        keys.close()
        assert termios.tcgetattr(slave) == before
        os.close(master)
        stream.close()
        os.close(slave)
