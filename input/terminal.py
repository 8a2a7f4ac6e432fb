"""The computer keyboard in a terminal, for the emulator; or a plain stream of keys for scripts.

On a tty the terminal goes into cbreak mode (keys arrive unbuffered, no echo) and is restored on
``close``. A terminal reports no key releases, so every key is a press and an immediate release;
"h" before a key holds it for ``hold_time`` seconds (a long press: the menu is "h" then Enter).
Characters: digits, + - * / =, Enter, Backspace, Esc, Tab, "." or "," (dot), space, a-d (the
matrix keypad's A-D) and # for the matrix "#". Anything else is ignored.
"""
import os
import threading
import time

from input.debounce import LONG_PRESS, held_for
from input.events import KeyEvent

CHARS = {
    **{d: d for d in "0123456789"}, "+": "+", "-": "-", "*": "*", "/": "/", "=": "=", "#": "#",
    "\n": "enter", "\r": "enter", "\x7f": "backspace", "\b": "backspace", "\x1b": "esc",
    "\t": "tab", ".": "dot", ",": "dot", " ": "space",
    "a": "A", "b": "B", "c": "C", "d": "D",
}
HOLD_PREFIX = "h"
QUIT = "q"          # ends the emulator's keyboard (cli/commands/emulate.py QuitStream)


class TerminalKeys:
    def __init__(self, stream=None, *, clock=time.monotonic, hold_time: float = held_for(LONG_PRESS),
                 name: str = "terminal", on_end=None):
        import sys
        self.stream = stream if stream is not None else sys.stdin
        self.clock, self.hold_time, self.name = clock, hold_time, name
        self._on_end, self._ended = on_end, False
        self._end_lock = threading.Lock()
        self._saved: tuple[int, list] | None = None
        self._thread: threading.Thread | None = None
        self._timers: list[threading.Timer] = []
        self._closed = threading.Event()

    @property
    def on_end(self):
        """Called when a script's stream ends — at once if it ended before it was given: the
        service is built after the keypad starts reading (cli.commands.run), and a short script
        can end in between."""
        return self._on_end

    @on_end.setter
    def on_end(self, callback) -> None:
        with self._end_lock:
            self._on_end, ended = callback, self._ended
        if ended:
            self._say_ended(callback)

    def start(self, callback) -> None:
        self._callback = callback
        self._cbreak()
        self._thread = threading.Thread(target=self._run, name="keypad terminal", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        for timer in self._timers:
            timer.cancel()
        self._restore()

    def _cbreak(self) -> None:
        try:
            fd = self.stream.fileno()
            if not os.isatty(fd):
                return
            import termios
            import tty
            self._saved = (fd, termios.tcgetattr(fd))
            tty.setcbreak(fd)
        except (AttributeError, OSError, ValueError):
            self._saved = None

    def _restore(self) -> None:
        if self._saved is not None:
            import termios
            fd, attrs = self._saved
            termios.tcsetattr(fd, termios.TCSADRAIN, attrs)
            self._saved = None

    def _run(self) -> None:
        for key, hold in keys_in(self._chars()):
            if self._closed.is_set():
                return
            self._callback(KeyEvent(key, True, self.clock(), self.name, debounced=True))
            if hold:
                timer = threading.Timer(self.hold_time, self._release, (key,))
                timer.daemon = True
                self._timers = [t for t in self._timers if t.is_alive()] + [timer]
                timer.start()
            else:
                self._release(key)
        with self._end_lock:
            self._ended, callback = True, self._on_end
        self._say_ended(callback)

    def _say_ended(self, callback) -> None:
        if callback is not None and not self._closed.is_set():
            callback()

    def _release(self, key: str) -> None:
        if not self._closed.is_set():
            self._callback(KeyEvent(key, False, self.clock(), self.name, debounced=True))

    def _chars(self):
        while not self._closed.is_set():
            try:
                char = self.stream.read(1)
            except (OSError, ValueError):
                return
            if not char:
                return
            yield char


def keys_in(chars):
    """Characters → (key name, held) pairs; "h" makes the next key a long press."""
    hold = False
    for char in chars:
        if char == HOLD_PREFIX:
            hold = True
            continue
        key = CHARS.get(char)
        if key is not None:
            yield key, hold
            hold = False
