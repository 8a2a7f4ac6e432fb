"""Bitmap fonts for the LED counter: small text, text with Czech diacritics, and big digits.

* ``SMALL`` — 3x5 capitals from luma's TINY_FONT for 8-pixel-high counters; Czech letters are
  folded to ASCII there (a háček needs rows those sizes do not have).
* ``TEXT`` — the 5x7 HD44780 shapes of luma's LCD_FONT in an 8-row cell, plus the Czech letters
  CP437 lacks (á č ď é ě í ň ó ř š ť ú ů ý ž and capitals), drawn here: lower-case letters get the
  accent in the two rows above their x-height; capitals are drawn 6 rows tall (on the baseline)
  under a one-row accent, so no capital looks like its small letter.
* ``digits(width, height)`` — scoreboard digits of any size, built from segments with rounded
  corners; 1 and 7, and 6, 9 and 3, stay distinct (6 and 9 carry their tails); 0 and 8 are
  rounded on both sides and 8 has a waist, so they never read as D and B.

Every font has ``height``, ``width(text)`` and ``draw(draw, (x, y), text, fill)``; glyphs are
cached 1-bit masks, so drawing a line is a handful of bitmap calls into Pillow's C drawing.
"""
import unicodedata
from functools import lru_cache
from typing import Any

from PIL import Image

_ACCENTS = {  # lower case: two rows above a five-pixel-wide letter's x-height
    "acute": ("...x.", "..x.."),
    "caron": (".x.x.", "..x.."),
    "ring": (".xxx.", ".x.x."),
}
_CAP_ACCENTS = {  # capitals: one row above a six-row letter, so Ó never looks like ó
    "acute": ("...x.",),
    "caron": (".x.x.",),
    "ring": ("..x..",),
}
# Glyphs below are rows joined by "/" ("x" lit), one letter a line.
_CAPS6 = {  # capitals six rows tall (the font's are seven), under a one-row accent
    "A": ".xxx./x...x/x...x/xxxxx/x...x/x...x",
    "C": ".xxx./x...x/x..../x..../x...x/.xxx.",
    "D": "xxx../x..x./x...x/x...x/x..x./xxx..",
    "E": "xxxxx/x..../xxxx./x..../x..../xxxxx",
    "I": "xxx/.x./.x./.x./.x./xxx",
    "N": "x...x/xx..x/x.x.x/x..xx/x...x/x...x",
    "O": ".xxx./x...x/x...x/x...x/x...x/.xxx.",
    "R": "xxxx./x...x/x...x/xxxx./x..x./x...x",
    "S": ".xxxx/x..../.xxx./....x/....x/xxxx.",
    "T": "xxxxx/..x../..x../..x../..x../..x..",
    "U": "x...x/x...x/x...x/x...x/x...x/.xxx.",
    "Y": "x...x/x...x/.x.x./..x../..x../..x..",
    "Z": "xxxxx/....x/...x./..x../.x.../xxxxx",
}
_HANDMADE = {  # letters whose accent does not fit the generic recipe
    "í": "...x./..x../.xx../..x../..x../..x../.xxx./.....",
    "ů": "..x../.x.x./..x../x...x/x...x/x..xx/.xx.x/.....",
    "ď": "....x.x/....x.x/.xx.x../x..xx../x...x../x...x../.xxxx../.......",
    "ť": ".....x/.x...x/xxx.../.x..../.x..../.x..x./..xx../......",
    "Ů": ".xxx./.x.x./x...x/x...x/x...x/x...x/.xxx./.....",   # a one-row ring would close the U into an O
}
TEXTS_KEPT = 256     # whole-text masks a font keeps (names, scores, words of the screens)
_DECOMPOSE = {"\u0301": "acute", "\u030c": "caron", "\u030a": "ring"}


def _columns_to_rows(columns, height: int) -> tuple[str, ...]:
    return tuple("".join("x" if col >> y & 1 else "." for col in columns) for y in range(height))


def _trim(columns) -> list[int]:
    columns = list(columns)
    while columns and not columns[-1]:
        columns.pop()
    while columns and not columns[0]:
        columns.pop(0)
    return columns


def _mask(rows: tuple[str, ...]) -> Image.Image:
    width = max((len(r) for r in rows), default=0)
    image = Image.new("1", (max(width, 1), len(rows)))
    image.putdata([1 if ch == "x" else 0 for row in rows for ch in row.ljust(width, ".")])
    return image


def fold(text: str) -> str:
    """Czech (and other Latin) letters without their accents: Dvořák -> Dvorak."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


class BitmapFont:
    """A proportional font from row pictures; ``spacing`` blank columns between glyphs."""

    def __init__(self, glyphs: dict[str, tuple[str, ...]], height: int, *, spacing=1,
                 space=3, upper=False, fallback="?"):
        self.height, self.spacing, self.upper = height, spacing, upper
        self._glyphs = glyphs
        self._space = space
        self._fallback = fallback
        self._masks: dict[str, Image.Image] = {}
        self._resolved: dict[str, str | None] = {}     # a character -> the glyph drawn for it
        self._widths: dict[str | None, int] = {}
        self._texts: dict[str, _Text] = {}      # see draw
        self._text_widths: dict[str, int] = {}
        self._fits: dict[tuple[str, int], str] = {}
        self._chars: dict[str, tuple] = {}     # a character -> (width, mask, core image) drawn for it

    def _resolve(self, ch: str) -> str | None:
        """The glyph drawn for ``ch`` (worked out once per character: a frame asks many times)."""
        if ch not in self._resolved:
            self._resolved[ch] = self._glyph_for(ch)
        return self._resolved[ch]

    def _glyph_for(self, ch: str) -> str | None:
        if self.upper:
            ch = ch.upper()
        if ch in self._glyphs or ch == " ":
            return ch
        base = fold(ch)
        if self.upper:
            base = base.upper()
        if base in self._glyphs:
            return base
        return self._fallback if self._fallback in self._glyphs else None

    def _glyph_width(self, ch: str | None) -> int:
        if ch not in self._widths:
            self._widths[ch] = 0 if ch is None else self._space if ch == " " else max(map(len, self._glyphs[ch]))
        return self._widths[ch]

    def _char(self, ch: str) -> tuple:
        """(width, mask, its Pillow core image) of the glyph drawn for ``ch``: width 0 for none,
        no mask for a space. Worked out once per character: a new text (a score that just
        changed) is measured, fitted and placed from these, a lookup a letter."""
        found = self._chars.get(ch)
        if found is None:
            glyph = self._resolve(ch)
            width = self._glyph_width(glyph)
            mask = self.mask(glyph) if width and glyph is not None and glyph != " " else None
            found = self._chars[ch] = (width, mask, None if mask is None else mask.im)
        return found

    def width(self, text: str) -> int:
        found = self._text_widths.get(text)
        return found if found is not None else _kept(self._text_widths, text, self._measure)

    def _measure(self, text: str) -> int:
        char = self._char
        widths = [w for w in (char(ch)[0] for ch in text) if w]
        return sum(widths) + self.spacing * max(len(widths) - 1, 0)

    def has(self, ch: str) -> bool:
        """True when the font draws ``ch`` itself rather than a folded or fallback glyph."""
        return (ch.upper() if self.upper else ch) in self._glyphs

    def mask(self, ch: str) -> Image.Image:
        if ch not in self._masks:
            self._masks[ch] = _mask(self._glyphs[ch])
        return self._masks[ch]

    def draw(self, draw, xy, text: str, fill) -> int:
        """Draw ``text`` with its top-left corner at ``xy``; return the x just after it.

        A text drawn before is one mask, made at its second drawing and kept (the names, words and
        scores a counter shows again frame after frame: one bitmap call); a new one — a score that
        just changed — is drawn glyph by glyph, which costs less than making its mask. Each mask
        goes to Pillow's C drawing as ``ImageDraw.bitmap`` hands it there (``painter``)."""
        return self.paint(painter(draw, fill), xy, text)

    def paint(self, paint, xy, text: str) -> int:
        """``draw`` with a painter made once for its draw and fill (``painter``): a Scene draws
        every text of one role with one."""
        x, y = xy
        kept = self._texts.get(text) or _kept(self._texts, text, self._place)
        if kept.mask is None and kept.drawn and kept.parts:
            kept.mask = _whole(kept.placed, kept.width)
            kept.parts = [(0, kept.mask, kept.mask.im)]
        kept.drawn = True
        for left, mask, core in kept.parts:
            paint((x + left, y), mask, core)
        return x + kept.width

    def _place(self, text: str) -> "_Text":
        parts: list[tuple[int, Image.Image, Any]] = []
        x = 0
        for ch in text:
            width, mask, core = self._char(ch)
            if not width:
                continue
            if parts or x:
                x += self.spacing
            if mask is not None:
                parts.append((x, mask, core))
            x += width
        return _Text(parts, x)

    def fit(self, text: str, width: int) -> str:
        """``text`` shortened to fit ``width`` pixels (dropping letters from the end, and the spaces
        left at the end with them); kept, as widths are, for the frames that write it again."""
        found = self._fits.get((text, width))
        return found if found is not None else _kept(self._fits, (text, width), self._fit)

    def _fit(self, asked: tuple[str, int]) -> str:
        """One pass over the letters that fit, so a long text (a venue's name of thousands of
        letters) costs no more than the width allows."""
        text, width = asked
        used = glyphs = end = 0         # end: the longest start that fits and ends in no space
        for n, ch in enumerate(text, start=1):
            glyph = self._char(ch)[0]
            if glyph:
                used += glyph + (self.spacing if glyphs else 0)
                glyphs += 1
                if used > width:
                    return text[:end]
            if not ch.isspace():
                end = n
        return text


class _Text:
    """A text as a font draws it: the parts drawn — [(x, mask, its Pillow core image)] of its lit
    glyphs, the whole mask once made — its width, and that whole mask."""
    __slots__ = ("parts", "width", "mask", "drawn")

    def __init__(self, parts: list, width: int):
        self.parts, self.width, self.mask, self.drawn = parts, width, None, False

    @property
    def placed(self) -> list[tuple[int, Image.Image]]:
        """The lit glyphs [(x, mask)] (until the whole mask is made, the parts drawn)."""
        return [(left, mask) for left, mask, _ in self.parts]


_INKS: dict = {}     # (modes, fill) -> the ink Pillow's C drawing takes (ImageDraw._getink)


def kept_ink(mode: str, fill):
    """The ink of ``fill`` on a Pillow draw of an image of ``mode`` (not a palette image), if one
    was worked out before (``painter``); None if not, or for a fill that cannot be kept."""
    try:
        return _INKS.get((mode, mode, fill))
    except TypeError:
        return None


def painter(draw, fill):
    """``paint(xy, mask, core)``: what ``draw.bitmap(xy, mask, fill=fill)`` does — the same C call
    with the same ink — where the ink is worked out once per image mode and fill (a frame draws a
    dozen masks in three fills), not for every mask; the masks are made in memory (``_mask``,
    ``_whole``), so there is nothing to load. A palette image's ink depends on its palette, an
    unhashable fill cannot be kept, and a draw that is not Pillow's (a test's) has only its own
    ``bitmap``: these take ``bitmap`` itself."""
    core = getattr(draw, "draw", None)
    if core is None or fill is None or getattr(draw, "palette", True) is not None:
        return lambda xy, mask, _core: draw.bitmap(xy, mask, fill=fill)
    try:
        key = (draw.mode, draw.im.mode, fill)
        ink = _INKS.get(key)
    except TypeError:
        return lambda xy, mask, _core: draw.bitmap(xy, mask, fill=fill)
    if ink is None:
        ink = _INKS[key] = draw._getink(fill)[0]
    draw_bitmap = core.draw_bitmap
    return lambda xy, _mask, core: draw_bitmap(xy, core, ink)


def _whole(placed: list, width: int) -> Image.Image:
    image = Image.new("1", (width, max(mask.height for _, mask in placed)))
    for left, mask in placed:
        image.paste(mask, (left, 0))
    return image


def _kept(cache: dict, key, make):
    """``make(key)``, kept in ``cache`` for the next frames (the TEXTS_KEPT latest texts)."""
    found = cache.get(key)
    if found is None:
        found = cache[key] = make(key)
        if len(cache) > TEXTS_KEPT:
            del cache[next(iter(cache))]        # the oldest
    return found


def _from_luma(font, chars: str, *, top: int, height: int) -> dict[str, tuple[str, ...]]:
    glyphs = {}
    for ch in chars:
        columns = _trim(font[ord(ch)])
        if columns:
            rows = _columns_to_rows(columns, 8)
            glyphs[ch] = rows[top:top + height]
    return glyphs


def _accented(base: tuple[str, ...], accent: tuple[str, ...]) -> tuple[str, ...]:
    """Put an accent (rows drawn over five columns, centred) over a glyph whose top rows are blank."""
    width = max(len(r) for r in base)
    if width >= 5:
        pad = (width - 5) // 2
        marks = tuple(("." * pad + row).ljust(width, ".") for row in accent)
    else:
        cut = (5 - width) // 2
        marks = tuple(row[cut:cut + width] for row in accent)
    return marks + tuple(base[len(accent):])


def _rows(picture: str) -> tuple[str, ...]:
    return tuple(picture.split("/"))


def _czech_glyphs(latin: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    glyphs = {ch: _rows(picture) for ch, picture in _HANDMADE.items()}
    for ch in "áčéěňóřšúýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ":
        if ch in glyphs:
            continue
        letter, mark = tuple(unicodedata.normalize("NFD", ch))
        if letter.isupper():     # accent row, six rows of capital, the blank row under the baseline
            body = _rows(_CAPS6[letter])
            base = tuple(r.ljust(len(body[0]), ".") for r in ("",) + body + ("",))
            glyphs[ch] = _accented(base, _CAP_ACCENTS[_DECOMPOSE[mark]])
        else:
            glyphs[ch] = _accented(latin[letter], _ACCENTS[_DECOMPOSE[mark]])
    return glyphs


def _build_text() -> BitmapFont:
    from luma.core.legacy.font import LCD_FONT

    printable = "".join(chr(c) for c in range(33, 127))
    glyphs = _from_luma(LCD_FONT, printable, top=0, height=8)
    glyphs.update(_czech_glyphs(glyphs))
    glyphs["►"] = ("x....", "xx...", "xxx..", "xxxx.", "xxx..", "xx...", "x....", ".....")
    glyphs["◄"] = ("...x", "..xx", ".xxx", "xxxx", ".xxx", "..xx", "...x", "....")
    glyphs["°"] = _rows(".x./x.x/.x./.../.../.../.../...")
    glyphs["↵"] = _rows("....x/....x/..x.x/.xx.x/xxxxx/.xx../..x../.....")
    glyphs["✓"] = _rows("...../....x/....x/...x./x..x./.xx../..x../.....")
    glyphs["–"] = glyphs["-"]       # the en dash of "1–6"
    glyphs["…"] = _rows("...../...../...../...../...../...../x.x.x/.....")
    return BitmapFont(glyphs, 8, space=3)


def _build_small() -> BitmapFont:
    from luma.core.legacy.font import TINY_FONT

    chars = "".join(chr(c) for c in range(33, 127) if not chr(c).islower())
    glyphs = _from_luma(TINY_FONT, chars, top=1, height=5)
    glyphs["►"] = ("x..", "xx.", "xxx", "xx.", "x..")
    glyphs["◄"] = ("..x", ".xx", "xxx", ".xx", "..x")
    glyphs["-"] = _rows(".../.../xxx/.../...")
    glyphs["1"] = _rows(".x/xx/.x/.x/.x")      # two columns: an inning of 10-19 keeps its gaps on 32x8
    # wider where three columns blur a letter into another (N read as Π, V as U)
    glyphs["N"] = _rows("x..x/xx.x/x.xx/x..x/x..x")
    glyphs["M"] = _rows("x...x/xx.xx/x.x.x/x...x/x...x")
    glyphs["W"] = _rows("x...x/x...x/x.x.x/xx.xx/x...x")
    glyphs["V"] = _rows("x.x/x.x/x.x/.x./.x.")
    glyphs["↵"] = _rows("..x/..x/x.x/xxx/x..")
    glyphs["✓"] = _rows("..x/..x/x.x/x.x/.x.")
    glyphs["–"] = glyphs["-"]
    glyphs["…"] = _rows("...../...../...../...../x.x.x")
    return BitmapFont(glyphs, 5, space=2, upper=True)


@lru_cache(maxsize=None)
def text_font() -> BitmapFont:
    return _build_text()


@lru_cache(maxsize=None)
def small_font() -> BitmapFont:
    return _build_small()


# The narrow font: capitals and digits six rows tall on the baseline (rows 1-6 of an 8-row cell),
# row 0 for the accent; most three columns wide, the letters that need it wider (M, N, V, W, K, O, Q),
# so N never reads as a bar over two posts, V never as U, and O never as 0. One letter a line.
_NARROW = {
    "A": ".x./x.x/x.x/xxx/x.x/x.x", "B": "xx./x.x/xx./x.x/x.x/xx.", "C": ".xx/x../x../x../x../.xx",
    "D": "xx./x.x/x.x/x.x/x.x/xx.", "E": "xxx/x../xx./x../x../xxx", "F": "xxx/x../xx./x../x../x..",
    "G": ".xx/x../x../x.x/x.x/.xx", "H": "x.x/x.x/xxx/x.x/x.x/x.x", "I": "xxx/.x./.x./.x./.x./xxx",
    "J": "..x/..x/..x/..x/x.x/.x.", "K": "x..x/x.x./xx../x.x./x..x/x..x", "L": "x../x../x../x../x../xxx",
    "M": "x...x/xx.xx/x.x.x/x...x/x...x/x...x", "N": "x..x/xx.x/x.xx/x..x/x..x/x..x",
    "O": ".xx./x..x/x..x/x..x/x..x/.xx.", "P": "xx./x.x/x.x/xx./x../x..", "Q": ".xx./x..x/x..x/x..x/x.x./.x.x",
    "R": "xx./x.x/x.x/xx./x.x/x.x", "S": ".xx/x../.x./..x/..x/xx.", "T": "xxx/.x./.x./.x./.x./.x.",
    "U": "x.x/x.x/x.x/x.x/x.x/xxx", "V": "x...x/x...x/x...x/.x.x./.x.x./..x..",
    "W": "x...x/x...x/x...x/x.x.x/xx.xx/x...x", "X": "x.x/x.x/.x./.x./x.x/x.x", "Y": "x.x/x.x/.x./.x./.x./.x.",
    "Z": "xxx/..x/.x./x../x../xxx",
    "0": ".x./x.x/x.x/x.x/x.x/.x.", "1": ".x/xx/.x/.x/.x/.x", "2": "xx./..x/..x/.x./x../xxx",
    "3": "xx./..x/.x./..x/..x/xx.", "4": "x.x/x.x/xxx/..x/..x/..x", "5": "xxx/x../xx./..x/..x/xx.",
    "6": ".xx/x../xx./x.x/x.x/.x.", "7": "xxx/..x/..x/.x./.x./.x.", "8": ".x./x.x/.x./x.x/x.x/.x.",
    "9": ".x./x.x/x.x/.xx/..x/xx.",
    ".": "./././././x", ",": "./././././x/x", ":": "./x/./././x", ";": "./x/./././x/x", "!": "x/x/x/x/./x",
    "?": "xx./..x/.x./.x./.../.x.", "-": ".../.../xxx/.../.../...", "+": ".../.x./xxx/.x./.../...",
    "=": ".../xxx/.../xxx/.../...", "/": "..x/..x/.x./.x./x../x..", "(": ".x/x./x./x./x./.x",
    ")": "x./.x/.x/.x/.x/x.", "'": "x/x/./././.", "\"": "x.x/x.x/.../.../.../...", "_": ".../.../.../.../.../xxx",
    "*": ".../x.x/.x./x.x/.../...", "#": "x.x/xxx/x.x/xxx/x.x/...", "%": "x.x/..x/.x./.x./x../x.x",
    "<": "../.x/x./.x/../..", ">": "../x./.x/x./../..", "[": "xx/x./x./x./x./xx", "]": "xx/.x/.x/.x/.x/xx",
    "►": "x../xx./xxx/xx./x../...", "◄": "..x/.xx/xxx/.xx/..x/...", "↵": "..x/..x/x.x/xxx/x../...",
    "✓": "..x/..x/x.x/x.x/.x./...", "…": "...../...../...../...../...../x.x.x", "°": ".x./x.x/.x./.../.../...",
}
_NARROW_ACCENTS = {"acute": {3: "..x", 4: "..x."}, "caron": {3: "x.x", 4: ".x.x"}}
_NARROW_HANDMADE = {  # a one-row ring is a dot: Ů has a ring of its own over a shorter U (never PO7 for PŮ7)
    "Ů": ".x./x.x/.x./x.x/x.x/x.x/xxx",
}


def _narrow_glyphs() -> dict[str, tuple[str, ...]]:
    glyphs = {ch: ("",) + _rows(picture) for ch, picture in _NARROW.items()}
    glyphs.update({ch: _rows(picture) for ch, picture in _NARROW_HANDMADE.items()})
    for ch in "ÁČĎÉĚÍŇÓŘŠŤÚÝŽ":
        letter, mark = tuple(unicodedata.normalize("NFD", ch))
        body = _rows(_NARROW[letter])
        glyphs[ch] = (_NARROW_ACCENTS[_DECOMPOSE[mark]][len(body[0])],) + body
    glyphs["–"] = glyphs["-"]
    width = {ch: max(len(r) for r in rows) for ch, rows in glyphs.items()}
    return {ch: tuple(r.ljust(width[ch], ".") for r in rows) + ("." * width[ch],) * (8 - len(rows))
            for ch, rows in glyphs.items()}


def _build_narrow() -> BitmapFont:
    return BitmapFont(_narrow_glyphs(), 8, space=2, upper=True)


@lru_cache(maxsize=None)
def narrow_font() -> BitmapFont:
    """Capitals with Czech diacritics in an 8-row cell, narrower than the text font (docs/display.md)."""
    return _build_narrow()


# Segments of a digit: a top, b upper right, c lower right, d bottom, e lower left, f upper left, g middle.
_SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd",
    "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": "",
}


def _segment_rows(ch: str, width: int, height: int, stroke: int) -> tuple[str, ...]:
    grid = [[False] * width for _ in range(height)]
    mid = height // 2
    top_mid = mid - stroke // 2                     # first row of the middle bar
    boxes = {
        "a": (0, 0, width, stroke),
        "d": (0, height - stroke, width, height),
        "g": (0, top_mid, width, top_mid + stroke),
        "f": (0, 0, stroke, top_mid + stroke),
        "b": (width - stroke, 0, width, top_mid + stroke),
        "e": (0, top_mid, stroke, height),
        "c": (width - stroke, top_mid, width, height),
    }
    if ch == "1":
        _one(grid, width, height, stroke)
        return tuple("".join("x" if cell else "." for cell in row) for row in grid)
    for seg in _SEGMENTS[ch]:
        x0, y0, x1, y1 = boxes[seg]
        for y in range(y0, y1):
            for x in range(x0, x1):
                grid[y][x] = True
    if stroke >= 2:
        _round(grid, _SEGMENTS[ch], width, height, stroke, top_mid)
    return tuple("".join("x" if cell else "." for cell in row) for row in grid)


def _round(grid, lit: str, width: int, height: int, stroke: int, top_mid: int) -> None:
    """Round the outer corners where a bar meets a post by a chamfer one pixel less deep than the stroke, and
    pinch the waist where the middle bar meets both posts of a side: so 0 is an oval, not a D,
    and 8 two loops, not a B (the letters keep a straight, square back)."""
    for bar, y0, step in (("a", 0, 1), ("d", height - 1, -1)):
        if bar not in lit:
            continue
        for dy in range(stroke - 1):
            for dx in range(stroke - 1 - dy):
                grid[y0 + step * dy][dx] = grid[y0 + step * dy][width - 1 - dx] = False
    for x, posts in ((0, "fe"), (width - 1, "bc")):
        if "g" in lit and all(p in lit for p in posts):
            for y in range(top_mid, top_mid + stroke):
                grid[y][x] = False


def _one(grid, width: int, height: int, stroke: int) -> None:
    """A centred stem with a flag: never mistaken for a 7 (which has a full top bar)."""
    x0 = (width - stroke + 1) // 2
    for y in range(height):
        for x in range(x0, x0 + stroke):
            grid[y][x] = True
    for i in range(1, x0 + 1):
        for y in range(i, min(height, i + stroke)):
            grid[y][x0 - i] = True


def stroke_for(width: int, height: int) -> int:
    return max(1, min(round(width / 3), height // 7))


@lru_cache(maxsize=None)
def digits(width: int, height: int) -> BitmapFont:
    """Scoreboard digits ``width`` x ``height`` pixels (and ``-``)."""
    stroke = stroke_for(width, height)
    glyphs = {ch: _segment_rows(ch, width, height, stroke) for ch in _SEGMENTS if ch != " "}
    return BitmapFont(glyphs, height, space=width, fallback="-")
