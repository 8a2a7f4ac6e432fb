"""`pocitadlo emulate` in a real pseudo-terminal leaves the shell below its drawing, cursor shown.

The shell's next output must not overwrite the key-help line under the counter: on every way out
(q, Ctrl-C, SIGTERM) the last thing the emulator writes puts the cursor below the help line and
shows the cursor it hid while drawing.
"""
import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from cli.commands.emulate import HIDE_CURSOR, SHOW_CURSOR

HELP_ROW = 16 // 2 + 2          # the bundled emulator config: a 64x16 counter, 8 text lines, a blank, the help
CURSOR_MOVES = re.compile(r"\x1b\[(?:(\d+);(\d+))?H|\n|\x1b\[\?25[hl]")


def emulate_in_pty(tmp_path, stop) -> tuple[int, str]:
    """Run the emulator on a pty; once the counter is drawn, ``stop(master, child)``; (status, output)."""
    master, slave = os.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "cli", "emulate", "--data", str(tmp_path / "data")],
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
        env=dict(os.environ, PYTHONPATH=os.getcwd(), TERM="xterm-256color", HOME=str(tmp_path)))
    output = b""
    stopped = False
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if select.select([master], [], [], 0.1)[0]:
                output += os.read(master, 65536)
            if not stopped and "q konec".encode() in output and "▀".encode() in output:
                stop(master, child)
                stopped = True
            if stopped and child.poll() is not None and not select.select([master], [], [], 0.1)[0]:
                break
        status = child.wait(5)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)
        os.close(slave)
    return status, output.decode("utf-8", errors="replace")


def where_the_cursor_ends(text: str) -> tuple[int, bool, int]:
    """Follow the row through cursor moves and line feeds: (final row, cursor shown, row of the help)."""
    row, shown, help_row = 1, True, None
    for match in CURSOR_MOVES.finditer(text):
        token = match.group(0)
        if token == "\n":
            row += 1
        elif token in (HIDE_CURSOR, SHOW_CURSOR):
            shown = token == SHOW_CURSOR
        else:
            row = int(match.group(1) or 1)
        if help_row is None and "q konec" in text[match.end():match.end() + 200].split("\x1b")[0]:
            help_row = row
    return row, shown, help_row


def press(keys: bytes):
    return lambda master, child: os.write(master, keys)


def terminate(master, child):
    child.send_signal(signal.SIGTERM)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [press(b"q"), press(b"\x03"), terminate], ids=["q", "ctrl-c", "sigterm"])
def test_the_shell_carries_on_below_the_key_help_with_the_cursor_shown(tmp_path, stop):
    status, output = emulate_in_pty(tmp_path, stop)
    assert "Traceback" not in output, output[-2000:]
    assert status == 0, output[-2000:]
    assert HIDE_CURSOR in output                      # hidden while the counter is drawn
    row, shown, help_row = where_the_cursor_ends(output)
    assert help_row == HELP_ROW
    assert row > help_row and shown, (row, shown, output[-300:])
