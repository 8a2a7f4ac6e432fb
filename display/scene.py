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
        self._draw: ImageDraw.ImageDraw | None = None       # see draw
        self._painters: dict = {}                           # role -> a font's painter (see _painter)
        self.words = words
        self._blink_on = blink_on
        self._counter = page_counter     # the page counter as the pages asked for now see it (``shares``)
        self._factor = 1                 # pages of the whole picture to one page of those (``shares``)
        self.blinks = False          # the picture has a part that blinks
        self.pages = 1               # the picture repeats after this many pages
        self.asked: list = []        # the page questions drawing it asked (``choices``)
        self.fill = {role: (colours[role] if mode != "1" else 1) for role in ROLES}
        # Text with diacritics needs the 8-row cell: 16-px and taller counters have the text font and
        # the narrow capitals for what does not fit it; 8-pixel-high counters use 3x5 capitals.
        self.small = fonts.narrow_font() if self.height >= 16 else fonts.small_font()
        self.text = fonts.text_font() if self.height >= 16 else self.small

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """The picture's ImageDraw, made when a layout first asks (a rectangle, a point): the
        texts of a frame need only Pillow's C drawing (``_painter``)."""
        if self._draw is None:
            self._draw = ImageDraw.Draw(self.image)
        return self._draw

    def _painter(self, role: str):
        """The painter the fonts draw ``role``'s texts with (fonts.painter), one per role and frame:
        the C drawing ImageDraw makes, with the ink it gives the fill once one was worked out;
        until then, and for a palette image, the ImageDraw's own."""
        found = self._painters.get(role)
        if found is None:
            fill, mode = self.fill[role], self.image.mode
            ink = fonts.kept_ink(mode, fill) if mode != "P" else None
            if ink is None:
                found = fonts.painter(self.draw, fill)
            else:
                draw_bitmap = Image.core.draw(self.image.im, 0).draw_bitmap      # ImageDraw.Draw's, no blend
                found = lambda xy, _mask, core: draw_bitmap(xy, core, ink)      # noqa: E731
            self._painters[role] = found
        return found

    def blink(self) -> bool:
        """True while a blinking part is lit."""
        self.blinks = True
        return self._blink_on

    def page(self, count: int) -> int:
        """Which of ``count`` pages of information to show now."""
        if count <= 1:
            return 0
        self.pages = lcm(self.pages, count * self._factor)
        return self._choose(("page", count))

    def turn(self, count: int) -> int:
        """Which of ``count`` pages that take turns with each other to show now, when each of them
        may have pages of its own: the pages asked for after this count only this page's turns,
        so each of them comes round in its turn (two pages with two parts each show all four)."""
        return self.shares([1] * count)

    def shares(self, turns: list[int]) -> int:
        """Which of some parts to show now, part i taking ``turns[i]`` pages of every ``sum(turns)``
        (a match night's names take one in five: the score is on view 80 % of the time). As with
        ``turn``, the pages asked for after this count only the pages the part shown has had."""
        total = sum(turns)
        if total <= 1:
            return 0
        self.pages = lcm(self.pages, total * self._factor)
        self._factor *= total
        return self._choose(("shares", tuple(turns)))

    def _choose(self, ask) -> int:
        self.asked.append(ask)
        index, self._counter = choose(ask, self._counter)
        return index

    def choices(self, page_counter: int) -> tuple:
        """What the pages asked for in drawing this picture would be at ``page_counter``: equal
        choices, equal pictures (the Counter draws again only when they change)."""
        return choices(self.asked, page_counter)


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
        w = font.width(text)
        if w > width:               # a text that fits is its own fit (BitmapFont.fit)
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
        font.paint(self._painter(role), (x, y), text)
        return w

    def number(self, value, box, font, *, align="right", role="text") -> None:
        """Draw a number in big digits in ``box``; digits that do not fit are dropped from the left."""
        text = str(value)
        x0, y0, x1, y1 = box
        while len(text) > 1 and font.width(text) > x1 - x0:
            text = text[1:]
        w = font.width(text)
        x = x1 - w if align == "right" else x0 if align == "left" else x0 + (x1 - x0 - w) // 2
        font.paint(self._painter(role), (x, y0 + max(0, (y1 - y0 - font.height) // 2)), text)

    def bar(self, box, role="text") -> None:
        x0, y0, x1, y1 = box
        self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=self.fill[role])


def choose(ask, counter: int) -> tuple[int, int]:
    """(the index chosen, the counter the pages asked for after it see) for one page question."""
    kind, arg = ask
    if kind == "page":
        return counter % arg, counter
    rounds, slot = divmod(counter, sum(arg))
    index, start = 0, 0
    while slot >= start + arg[index]:
        start += arg[index]
        index += 1
    return index, rounds * arg[index] + slot - start


def choices(asked: list, counter: int) -> tuple:
    """The indices the questions ``asked`` get at page ``counter`` (once one differs from the
    picture's own, those after it may not be the questions a new picture asks, but the choices
    differ already, which is all they tell)."""
    out = []
    for ask in asked:
        index, counter = choose(ask, counter)
        out.append(index)
    return tuple(out)


def raw_bytes(image: Image.Image) -> bytes:
    """``image.tobytes()``: the same raw encoder of Pillow's C core, set up without the layers of
    Python ``tobytes`` goes through on every call (the counter compares every frame with the one
    on the device, and a MAX7219 packs it)."""
    width, height = image.size
    if not width or not height:
        return b""
    mode = image.mode
    encoder = Image.core.raw_encoder(mode, mode)
    try:
        encoder.setimage(image.im, (0, 0, width, height))
        size = max(65536, width * 4)    # tobytes' buffer (ImageFile.MAXBLOCK): the bytes do not depend on it
        chunks = []
        while True:
            _, status, data = encoder.encode(size)
            chunks.append(data)
            if status:
                break
        if status < 0:
            raise RuntimeError(f"encoder error {status} in tobytes")
    finally:
        encoder.cleanup()
    return b"".join(chunks)
