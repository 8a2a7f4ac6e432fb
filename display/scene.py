"""One frame being drawn: the image, the fonts this size gets, and what the picture depends on.

A layout draws into a Scene. Blinking parts ask ``scene.blink()`` and cycling information asks
``scene.page(n)``; the Scene records that it did, so the Counter knows exactly when the picture
may change next without rendering twice or polling.
"""
from math import lcm

from PIL import Image, ImageDraw

from display import fonts

ROLES = ("a", "b", "text")


class Scene:
    def __init__(self, size, mode, *, colours, words, blink_on=True, page_counter=0):
        self.width, self.height = size
        self.image = Image.new(mode, size)
        self.draw = ImageDraw.Draw(self.image)
        self.words = words
        self._blink_on = blink_on
        self._page_counter = page_counter
        self.blinks = False          # the picture has a part that blinks
        self.pages = 1               # the picture repeats after this many pages
        self._within = 1             # pages asked for now count the turns of this many pages (``turn``)
        self.fill = {role: (colours[role] if mode != "1" else 1) for role in ROLES}
        self.small = fonts.small_font()
        # Text with diacritics needs the 8-row cell; 8-pixel-high counters use 3x5 capitals.
        self.text = fonts.text_font() if self.height >= 16 else self.small

    def blink(self) -> bool:
        """True while a blinking part is lit."""
        self.blinks = True
        return self._blink_on

    def page(self, count: int) -> int:
        """Which of ``count`` pages of information to show now."""
        if count <= 1:
            return 0
        self.pages = lcm(self.pages, count * self._within)
        return self._page_counter // self._within % count

    def turn(self, count: int) -> int:
        """Which of ``count`` pages that take turns with each other to show now, when each of them
        may have pages of its own: the pages asked for after this count only this page's turns,
        so each of them comes round in its turn (two pages with two parts each show all four)."""
        index = self.page(count)
        self._within *= max(1, count)
        return index

    # --- drawing helpers -------------------------------------------------------------------
    def font_for(self, text: str, width: int):
        """The larger text font when ``text`` fits ``width``, else the small one."""
        if self.text is not self.small and self.text.width(text) <= width:
            return self.text
        return self.small

    def write(self, text: str, box, *, align="left", role="text", font=None, valign="middle") -> int:
        """Write ``text`` inside ``box`` (x0, y0, x1, y1), shortened to fit; return its width."""
        x0, y0, x1, y1 = box
        width = x1 - x0
        font = font or self.font_for(text, width)
        text = font.fit(text, width)
        w = font.width(text)
        if align == "right":
            x = x1 - w
        elif align == "center":
            x = x0 + (width - w) // 2
        else:
            x = x0
        if valign == "top":
            y = y0
        else:
            y = y0 + max(0, (y1 - y0 - font.height) // 2)
        font.draw(self.draw, (x, y), text, self.fill[role])
        return w

    def number(self, value, box, font, *, align="right", role="text") -> None:
        """Draw a number in big digits in ``box``; digits that do not fit are dropped from the left."""
        text = str(value)
        x0, y0, x1, y1 = box
        while len(text) > 1 and font.width(text) > x1 - x0:
            text = text[1:]
        w = font.width(text)
        x = x1 - w if align == "right" else x0 if align == "left" else x0 + (x1 - x0 - w) // 2
        font.draw(self.draw, (x, y0 + max(0, (y1 - y0 - font.height) // 2)), text, self.fill[role])

    def bar(self, box, role="text") -> None:
        x0, y0, x1, y1 = box
        self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=self.fill[role])
