"""The counter drawn in a terminal: a luma device that writes each frame as LED dots to any
text stream (a terminal, a log, io.StringIO), two LED rows per text line with Unicode half
blocks and 24-bit ANSI colours. Unlike luma's asciiblock emulator it needs neither a real
terminal nor pygame. ``pocitadlo emulate`` uses it.

A terminal too small for the counter gets one line saying so instead of a frame wrapped into
garbage; the next frame after the window is enlarged draws the counter again (the emulator draws
one at once when the window is resized: cli/commands/emulate.py).
"""
import os
import sys

from luma.core.device import device
from luma.core.interface.serial import noop

UPPER = "▀"
UNLIT = (48, 12, 12)        # an LED that is off still shows as a dark dot


class TerminalDevice(device):
    def __init__(self, width=64, height=16, rotate=0, mode="RGB", stream=None, *, home=True, colour=True,
                 terminal_size=None):
        super().__init__(serial_interface=noop())
        self.capabilities(width, height, rotate, mode)
        self.stream = stream or sys.stdout
        self.home, self.colour = home, colour
        # () -> (columns, lines) of the terminal, or None when the stream is no terminal
        self.terminal_size = terminal_size or (lambda: _terminal_size(self.stream))
        self.frames = 0
        self.image = None
        self._cramped = False

    def display(self, image) -> None:
        assert image.size == self.size
        self.image = self.preprocess(image).convert("RGB")
        problem = self.too_small()
        if problem:
            self.stream.write(f"\x1b[H\x1b[2J{problem}\n" if self.colour else problem + "\n")
        else:
            self.stream.write(("\x1b[2J" if self._cramped and self.colour else "") + self.text(self.image))
        self._cramped = bool(problem)
        self.stream.flush()
        self.frames += 1

    def too_small(self) -> str | None:
        """What to say instead of the frame when the terminal cannot hold it."""
        size = self.terminal_size()
        if size is None:
            return None
        columns, lines = size
        need = (self.width, (self.height + 1) // 2)
        if columns >= need[0] and lines >= need[1]:
            return None
        return (f"Terminál je malý / terminal too small: the {self.width}x{self.height} counter needs "
                f"{need[0]}x{need[1]} characters, this one has {columns}x{lines}. Enlarge the window.")

    def text(self, image) -> str:
        """The frame as text: ANSI colour escapes, or plain blocks when ``colour`` is off."""
        width, height = image.size
        pixels = image.load()
        lines = []
        for y in range(0, height, 2):
            cells = []
            for x in range(width):
                top = pixels[x, y]
                bottom = pixels[x, y + 1] if y + 1 < height else (0, 0, 0)
                cells.append(self._cell(top, bottom))
            lines.append("".join(cells) + ("\x1b[0m" if self.colour else ""))
        prefix = "\x1b[H" if self.home and self.colour else ""
        return prefix + "\n".join(lines) + "\n"

    def _cell(self, top, bottom) -> str:
        if not self.colour:
            return {(True, True): "█", (True, False): "▀", (False, True): "▄"}.get(
                (any(top), any(bottom)), " ")
        fg = top if any(top) else UNLIT
        bg = bottom if any(bottom) else UNLIT
        return f"\x1b[38;2;{fg[0]};{fg[1]};{fg[2]};48;2;{bg[0]};{bg[1]};{bg[2]}m{UPPER}"

    def cleanup(self) -> None:
        if self.colour:
            self.stream.write("\x1b[0m")


def _terminal_size(stream) -> tuple[int, int] | None:
    try:
        if not stream.isatty():
            return None
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):      # io.StringIO, a closed or redirected stream
        return None
    if not size.columns or not size.lines:              # a terminal that does not say its size
        return None
    return size.columns, size.lines
