"""Fonts and the terminal device: Czech letters, distinct digits, text output to any stream."""
import io
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from display import fonts
from display.scene import raw_bytes
from display.terminal import TerminalDevice
from display.text import clock_text

CZECH = "áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ"


def picture(font, text):
    image = Image.new("1", (max(1, font.width(text)), font.height))
    font.draw(ImageDraw.Draw(image), (0, 0), text, 1)
    return image.tobytes()


@pytest.mark.parametrize("letter", CZECH)
def test_text_font_draws_czech_letters_with_their_accent(letter):
    font = fonts.text_font()
    assert font.has(letter)
    base = fonts.fold(letter)
    assert picture(font, letter) != picture(font, base)
    assert picture(font, letter) != picture(font, "?")


def test_czech_letters_are_all_different():
    """Every Czech letter has its own picture: no capital looks like its small letter (Ó/ó, Ž/ž)."""
    font = fonts.text_font()
    letters = {picture(font, ch): ch for ch in CZECH}
    assert len(letters) == len(CZECH)


def test_czech_letters_differ_from_every_other_glyph():
    font = fonts.text_font()
    others = {picture(font, chr(c)) for c in range(33, 127)}
    assert not {picture(font, ch) for ch in CZECH} & others


def rows_lit(font, ch):
    image = Image.new("1", (font.width(ch), font.height))
    font.draw(ImageDraw.Draw(image), (0, 0), ch, 1)
    return [y for y in range(font.height) if any(image.getpixel((x, y)) for x in range(image.width))]


@pytest.mark.parametrize("capital", [ch for ch in CZECH if ch.isupper()])
def test_accented_capitals_sit_on_the_baseline_taller_than_small_letters(capital):
    """The capital under its accent keeps the baseline of the line (row 6) and is 6 rows tall,
    taller than a small letter's 5-row body, so capitals do not jump and Ó never reads as ó."""
    font = fonts.text_font()
    assert max(rows_lit(font, capital)) == max(rows_lit(font, fonts.fold(capital))) == 6
    assert rows_lit(font, capital) == list(range(7))
    small = fonts.fold(capital).lower()
    if small not in "dti":      # d, t and the dotted i reach up anyway; their pictures differ (above)
        assert len(rows_lit(font, small)) == 5


@pytest.mark.parametrize("font", [fonts.text_font(), fonts.small_font(), fonts.narrow_font()],
                         ids=["text", "small", "narrow"])
def test_prompt_symbols_are_drawn_not_replaced_by_a_question_mark(font):
    for symbol in "↵✓–…":
        assert font.has(symbol) and picture(font, symbol) != picture(font, "?")


def test_small_font_folds_to_ascii_capitals():
    font = fonts.small_font()
    assert picture(font, "Dvořák") == picture(font, "DVORAK")


ALPHABET = "AÁBCČDĎEÉĚFGHIÍJKLMNŇOÓPQRŘSŠTŤUÚŮVWXYÝZŽ"     # the Czech alphabet's capitals (CH is C, H)


def letter_picture(font, ch, width=5):
    """``ch`` drawn alone in a cell as wide as the font's widest letter: pictures of one size."""
    image = Image.new("1", (width, font.height))
    font.draw(ImageDraw.Draw(image), (0, 0), ch, 1)
    return [image.getpixel((x, y)) for y in range(font.height) for x in range(width)]


@pytest.mark.parametrize("letter", ALPHABET + ALPHABET.lower())
def test_narrow_font_draws_every_czech_letter_itself(letter):
    """The narrow text of 16-px and larger counters keeps the diacritics (it was ΠEMEC, UZDAUA
    DUORAK?, PO7 for NĚMEC, VZDÁVÁ DVOŘÁK?, PŮ7 in the 3x5 font): capitals, small letters as them."""
    font = fonts.narrow_font()
    assert font.has(letter)
    assert letter_picture(font, letter) == letter_picture(font, letter.upper())
    if fonts.fold(letter) != letter:
        assert letter_picture(font, letter) != letter_picture(font, fonts.fold(letter))


def test_narrow_font_letters_and_digits_read_distinctly():
    """Every letter and digit has its own picture; two different letters (or a letter and a digit)
    differ in at least two LEDs — only an accent may be a single dot (A / Á)."""
    font = fonts.narrow_font()
    chars = ALPHABET + "0123456789"
    pictures = {ch: letter_picture(font, ch) for ch in chars}
    assert len({tuple(p) for p in pictures.values()}) == len(chars)
    close = [(a, b) for i, a in enumerate(chars) for b in chars[i + 1:]
             if fonts.fold(a) != fonts.fold(b) and sum(x != y for x, y in zip(pictures[a], pictures[b])) < 2]
    assert close == []


@pytest.mark.parametrize("other", ["U", "Ú", "O", "Ó", "0", "8"])
def test_narrow_u_with_ring_never_reads_as_o(other):
    """PŮ7 (stripes, 7 left) must not read PO7: the ring is a ring of four dots over a shorter U."""
    font = fonts.narrow_font()
    ring, seen = letter_picture(font, "Ů"), letter_picture(font, other)
    assert sum(x != y for x, y in zip(ring, seen)) >= 3


@pytest.mark.parametrize("letter", [ch for ch in ALPHABET if ch not in "Ů"])
def test_narrow_capitals_sit_on_the_baseline_under_their_accent(letter):
    """Six rows of letter on the baseline (rows 1-6), row 0 for the accent only: a word of plain and
    accented capitals keeps one height (VZDÁVÁ), and two lines of it never touch."""
    font = fonts.narrow_font()
    lit = rows_lit(font, letter)
    assert max(lit) == 6 and min(rows_lit(font, fonts.fold(letter))) == 1
    assert (min(lit) == 0) == (fonts.fold(letter) != letter)


def test_fold_keeps_letters_drops_accents():
    assert fonts.fold("Růžička Šťastný") == "Ruzicka Stastny"


@pytest.mark.parametrize("size", [(3, 7), (5, 16), (6, 16), (7, 16), (10, 24), (11, 24), (13, 32)])
def test_digits_one_seven_and_six_nine_three_stay_distinct(size):
    font = fonts.digits(*size)
    pictures = {d: picture(font, d) for d in "0123456789"}
    assert len(set(pictures.values())) == 10
    assert font.height == size[1] and font.width("8") == size[0]


def _rows(font, ch):
    return font._glyphs[ch]


def _letter_back(rows):
    """The same picture with a straight, square back (the left half as D and B have it)."""
    return tuple("x" + row[1:] if row.strip(".") else row for row in rows)


@pytest.mark.parametrize("size", [(5, 16), (7, 16), (11, 24), (13, 32)])
def test_big_0_and_8_never_read_as_d_and_b(size):
    """128x32 and the other big counters: 0 was a square box (a D) and 8 a box with a bar (a B).
    They are rounded on both sides and 8 has a waist, so a D- or B-like picture with a straight
    back differs from them, and each is its own mirror image (a D and a B are not)."""
    font = fonts.digits(*size)
    for digit in "08":
        rows = _rows(font, digit)
        assert _letter_back(rows) != rows, digit            # the left side is not straight
        assert tuple(row[::-1] for row in rows) == rows     # round on both sides, as no D or B is
        assert rows[0][0] == rows[-1][0] == "."             # rounded corners
    width = size[0]
    waist = [row for row in _rows(font, "8") if row.strip(".") and row[0] == "." and row[width // 2] == "x"]
    assert len(waist) >= 3          # the top and bottom bars and the waist: two loops, not a B's flat back


@pytest.mark.parametrize("font", [fonts.text_font(), fonts.small_font()], ids=["text", "small"])
def test_small_letters_and_digits_differ_from_d_and_b(font):
    """The middle column's 0/8 never draw as D/B."""
    assert _rows(font, "0") != _rows(font, "D") and _rows(font, "8") != _rows(font, "B")


def glyph_by_glyph(font, text):
    """The picture of ``text`` drawn one glyph at a time (what the kept whole-text masks replace)."""
    image = Image.new("1", (max(1, font.width(text)), font.height))
    draw, x = ImageDraw.Draw(image), 0
    for ch in text:
        glyph = font._resolve(ch)
        if not font._glyph_width(glyph):
            continue
        if x:
            x += font.spacing
        if glyph != " ":
            draw.bitmap((x, 0), font.mask(glyph), fill=1)
        x += font._glyph_width(glyph)
    return image.tobytes()


@pytest.mark.parametrize("font", [fonts.text_font(), fonts.small_font(), fonts.digits(5, 16)], ids=["text", "small", "digits"])
@pytest.mark.parametrize("text", ["Dvořák 12", " Ů1 ", "Ťuk–Žák…", "", "  ", "x\u2603y", "10-7"])
def test_a_kept_text_mask_draws_the_same_picture_as_its_glyphs(font, text):
    assert picture(font, text) == picture(font, text) == glyph_by_glyph(font, text)


def test_a_font_keeps_only_the_latest_texts():
    font = fonts.BitmapFont({"1": ("x",)}, 1)
    for n in range(fonts.TEXTS_KEPT + 50):
        font.draw(ImageDraw.Draw(Image.new("1", (400, 1))), (0, 0), "1" * (n % 300 + 1), 1)
        font.width(str(n))
        font.fit(str(n), n % 7)
    assert len(font._texts) <= fonts.TEXTS_KEPT and len(font._text_widths) <= fonts.TEXTS_KEPT
    assert len(font._fits) <= fonts.TEXTS_KEPT


def test_fit_shortens_to_the_width():
    font = fonts.text_font()
    text = font.fit("Slavoj Žacléř", 30)
    assert font.width(text) <= 30 and "Slavoj".startswith(text)


def fit_by_letters(font, text: str, width: int) -> str:
    """What fit gives, by its definition: letters dropped from the end (and the spaces left
    at the end with them) until the text fits."""
    while text and font.width(text) > width:
        text = text[:-1].rstrip()
    return text


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="ab Ř\t☃.1", max_size=30), width=st.integers(0, 80))
def test_fit_gives_the_longest_start_that_fits(text, width):
    font = fonts.text_font()
    assert font.fit(text, width) == fit_by_letters(font, text, width)


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(alphabet="ab Ř\t☃.1", max_size=12), min_size=1, max_size=4),
       widths=st.lists(st.integers(0, 40), min_size=1, max_size=3))
def test_a_kept_fit_is_the_fit_made_anew(texts, widths):
    """Frame after frame the same texts are fitted to the same widths: the kept answer is the one a
    font that never fitted them gives, whatever else was fitted between."""
    kept, fresh = fonts.text_font(), fonts.text_font.__wrapped__
    for text in texts * 2:
        for width in widths:
            assert kept.fit(text, width) == fresh().fit(text, width)


def test_fit_of_a_long_text_measures_each_letter_at_most_once(monkeypatch):
    """A venue of 20,000 letters took the first frame 100 s: fitting measured the whole text
    again after every letter dropped. Now the work grows with the letters that fit, at most."""
    font = fonts.text_font.__wrapped__()         # one that has not fitted (and kept) this text yet
    measured = []
    glyph_width = font._glyph_width
    monkeypatch.setattr(font, "_glyph_width", lambda ch: measured.append(ch) or glyph_width(ch))
    fitted = font.fit("Hospoda U Lva " * 1500, 60)
    assert fitted and font.width(fitted) <= 60 and len(measured) <= 2 * len(fitted) + 2


def test_terminal_device_writes_half_blocks_to_any_stream():
    out = io.StringIO()
    device = TerminalDevice(width=4, height=4, stream=out, colour=False)
    image = Image.new("RGB", (4, 4))
    image.putpixel((0, 0), (255, 0, 0))
    image.putpixel((1, 1), (255, 0, 0))
    image.putpixel((2, 0), (255, 0, 0))
    image.putpixel((2, 1), (255, 0, 0))
    device.display(image)
    assert out.getvalue() == "▀▄█ \n    \n"
    assert device.frames == 1


def test_a_terminal_too_small_for_the_counter_says_so_and_the_counter_returns_when_enlarged():
    """Issue 12: a 64x16 counter in a 40-column window is one clear line, not wrapped garbage."""
    out, size = io.StringIO(), [(40, 24)]
    device = TerminalDevice(width=64, height=16, stream=out, terminal_size=lambda: size[0])
    device.display(Image.new("RGB", (64, 16), (255, 0, 0)))
    said = out.getvalue()
    assert "the 64x16 counter needs 64x8 characters, this one has 40x24" in said and "▀" not in said
    size[0] = (80, 24)                                     # the window enlarged: the next frame draws
    out.seek(0), out.truncate()
    device.display(Image.new("RGB", (64, 16), (255, 0, 0)))
    assert out.getvalue().startswith("\x1b[2J\x1b[H") and out.getvalue().count("▀") == 64 * 8
    size[0] = (64, 7)                                      # one line short is too small as well
    device.display(Image.new("RGB", (64, 16)))
    assert "this one has 64x7" in out.getvalue()


def test_terminal_device_colours_lit_and_unlit_leds():
    out = io.StringIO()
    device = TerminalDevice(width=2, height=2, stream=out)
    image = Image.new("RGB", (2, 2))
    image.putpixel((0, 0), (255, 42, 16))
    device.display(image)
    text = out.getvalue()
    assert text.startswith("\x1b[H")
    assert "38;2;255;42;16;48;2;48;12;12m▀" in text
    assert text.count("▀") == 2


@pytest.mark.parametrize("iso,tz,expected", [
    ("2026-11-29T18:05:00Z", ZoneInfo("Europe/Prague"), "19:05"),         # CET, UTC+1
    ("2026-07-01T18:05:59+00:00", ZoneInfo("Europe/Prague"), "20:05"),    # CEST, UTC+2; seconds dropped
    ("2026-11-29T23:30:00Z", timezone(timedelta(hours=1)), "00:30"),       # past midnight locally
    ("2026-11-29T18:05:00", timezone.utc, "18:05"),                       # no offset: taken as UTC
])
def test_clock_text_is_the_local_hh_mm_of_a_utc_time(iso, tz, expected):
    """The ready screen's last_sent (docs/screens.md "HH:MM") from the sync part's ISO UTC time."""
    assert clock_text(iso, tz) == expected


@pytest.mark.parametrize("bad", [None, "", "yesterday", "2026-13-01T00:00:00Z", 1732900000])
def test_clock_text_of_no_time_or_a_bad_one_is_none(bad):
    assert clock_text(bad, timezone.utc) is None


def test_clock_text_defaults_to_the_machine_time_zone():
    moment = datetime(2026, 11, 29, 18, 5, tzinfo=timezone.utc)
    assert clock_text("2026-11-29T18:05:00Z") == moment.astimezone().strftime("%H:%M")


def through_bitmap(font, image, xy, text, fill):
    """``text`` drawn as the fonts drew it before their inks were kept: each mask through
    ``ImageDraw.bitmap`` (glyph by glyph, as a text is the first time it is drawn)."""
    draw, x = ImageDraw.Draw(image), xy[0]
    for left, mask in font._place(text).placed:
        draw.bitmap((x + left, xy[1]), mask, fill=fill)


MODE_FILLS = {"1": [1, 0, "white"], "L": [255, 7, 0, "white"], "RGB": [(255, 0, 0), (0, 255, 0), "#ffaa00", "white", 0, 7],
              "RGBA": [(1, 2, 3, 4), (255, 255, 255, 255), "white", 7], "P": [3, 200, "white"]}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["text", "small", "narrow", "digits"]),
       st.lists(st.tuples(st.sampled_from(sorted(MODE_FILLS)), st.integers(0, 5),
                          st.text(alphabet=CZECH + "0123456789 :/-◄►?é" + "x\u2603", max_size=8),
                          st.integers(-12, 40), st.integers(-8, 12)), min_size=1, max_size=8))
@example("text", [("1", 2, "AB", 0, 0), ("RGB", 3, "AB", 0, 0), ("L", 1, "1", 3, 0), ("RGB", 5, "1", 3, 0)])
def test_a_font_draws_what_imagedraw_bitmap_draws_in_any_mode_fill_and_place(name, strokes):
    """Masks go to Pillow's C drawing with an ink kept per mode and fill: every picture — texts
    drawn the first time and again (then as one kept mask), off the image's edges, in every fill
    of every image mode, one mode's after another's — is the one ``ImageDraw.bitmap`` drew, pixel
    for pixel."""
    font = {"text": fonts.text_font, "small": fonts.small_font, "narrow": fonts.narrow_font,
            "digits": lambda: fonts.digits(5, 16)}[name]()
    fonts._INKS.clear()                   # each example's modes meet their fills afresh
    images = {mode: (Image.new(mode, (40, 16)), Image.new(mode, (40, 16))) for mode in MODE_FILLS}
    for mode, fill_index, text, x, y in strokes:
        fill = MODE_FILLS[mode][fill_index % len(MODE_FILLS[mode])]
        image, expected = images[mode]
        for _ in range(2):                # the second time a text is one kept mask
            font.draw(ImageDraw.Draw(image), (x, y), text, fill)
            through_bitmap(font, expected, (x, y), text, fill)
    for image, expected in images.values():
        assert image.tobytes() == expected.tobytes()


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["1", "L", "P", "RGB", "RGBA", "I", "F", "I;16"]), st.integers(0, 70), st.integers(0, 40),
       st.randoms(use_true_random=False))
def test_raw_bytes_are_what_tobytes_gives(mode, width, height, rng):
    """The counter's and the MAX7219's frame bytes (display.scene.raw_bytes) are Pillow's
    ``tobytes()`` of the same picture, in every mode and size, empty ones too."""
    image = Image.new(mode, (width, height))
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(0, 6)):
        x, y = rng.randint(-5, width + 5), rng.randint(-5, height + 5)
        draw.rectangle((x, y, x + rng.randint(0, 20), y + rng.randint(0, 9)), fill=rng.randint(1, 255))
    assert raw_bytes(image) == image.tobytes()


def placed_glyph_by_glyph(font, text):
    """(width, [(x, glyph)]) of ``text`` worked out from each letter's glyph as the fonts did
    before they kept each letter's width and mask."""
    placed, x = [], 0
    for ch in text:
        glyph = font._resolve(ch)
        width = font._glyph_width(glyph)
        if not width or glyph is None:
            continue
        if placed or x:
            x += font.spacing
        if glyph != " ":
            placed.append((x, glyph))
        x += width
    return x, placed


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["text", "small", "narrow", "digits"]),
       st.lists(st.text(alphabet=CZECH + "ab1 0\t☃.◄►:/-?", max_size=12), min_size=1, max_size=5))
def test_a_text_is_measured_and_placed_as_its_letters_glyphs_say(name, texts):
    """Each letter's width, mask and core image are worked out once (BitmapFont._char): a text's
    width and its glyphs' places are those its letters' glyphs give, at the first and every later
    asking, whatever was asked between."""
    font = {"text": fonts.text_font, "small": fonts.small_font, "narrow": fonts.narrow_font,
            "digits": lambda: fonts.digits(5, 16)}[name]()
    for text in texts * 2:
        width, placed = placed_glyph_by_glyph(font, text)
        made = font._place(text)
        assert font.width(text) == made.width == width
        assert [(x, mask) for x, mask in made.placed] == [(x, font.mask(glyph)) for x, glyph in placed]
        assert all(core is mask.im for _, mask, core in made.parts)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([("1", None), ("RGB", {"a": (255, 0, 0), "b": "#00ff00", "text": "white"}),
                        ("RGB", {"a": (1, 2, 3), "b": (1, 2, 3), "text": (250, 250, 0)}),
                        ("L", {"a": 200, "b": 7, "text": 255})]),
       st.booleans(),
       st.lists(st.tuples(st.sampled_from(["write", "number"]), st.sampled_from(["a", "b", "text"]),
                          st.text(alphabet=CZECH + "0123456789 :/◄►", max_size=10),
                          st.tuples(st.integers(-5, 30), st.integers(-4, 10), st.integers(0, 64), st.integers(0, 16))),
                min_size=1, max_size=8))
def test_a_scene_draws_its_texts_as_the_fonts_draw_them_on_its_imagedraw(mode_colours, fresh, strokes):
    """A Scene paints its texts through the C drawing with the ink kept for each role's fill
    (Scene._painter), making its ImageDraw only when a layout asks for it: every picture is the
    one ``font.draw`` gives on an ImageDraw of the picture, whether the inks were worked out
    before or not (``fresh``)."""
    from display.scene import Scene

    mode, colours = mode_colours
    colours = colours or {"a": 1, "b": 1, "text": 1}
    if fresh:
        fonts._INKS.clear()
    for height in (8, 16):
        scene = Scene((64, height), mode, colours=colours, words={})
        expected = Image.new(mode, (64, height))
        draw = ImageDraw.Draw(expected)
        for what, role, text, (x0, y0, w, h) in strokes:
            box = (x0, y0, x0 + w, y0 + h)
            fill = scene.fill[role]
            if what == "write":
                scene.write(text, box, role=role, align="center")
                font = scene.font_for(text, w)
                fitted = font.fit(text, w)
                x = x0 + (w - font.width(fitted)) // 2
                font.draw(draw, (x, y0 + max(0, (h - font.height) // 2)), fitted, fill)
            else:
                digits = "".join(ch for ch in text if ch.isdigit()) or "0"
                scene.number(int(digits), box, scene.text, role=role)
                shown = str(int(digits))
                while len(shown) > 1 and scene.text.width(shown) > w:
                    shown = shown[1:]
                font_y = y0 + max(0, (h - scene.text.height) // 2)
                scene.text.draw(draw, (x0 + w - scene.text.width(shown), font_y), shown, fill)
        assert scene.image.tobytes() == expected.tobytes()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["text", "small", "narrow", "digits"]), st.text(alphabet=CZECH + "ab1 0\t☃.◄:", max_size=16),
       st.integers(0, 90))
def test_a_text_that_fits_is_its_own_fit(name, text, width):
    """Scene.write fits a text only when it is wider than its box: one that fits is its own fit."""
    font = {"text": fonts.text_font, "small": fonts.small_font, "narrow": fonts.narrow_font,
            "digits": lambda: fonts.digits(5, 16)}[name]()
    if font.width(text) <= width:
        assert font.fit(text, width) == text
    assert font.width(font.fit(text, width)) <= width or not font.fit(text, width)
