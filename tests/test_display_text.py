"""Fonts and the terminal device: Czech letters, distinct digits, text output to any stream."""
import io

import pytest
from PIL import Image, ImageDraw

from display import fonts
from display.terminal import TerminalDevice

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
    """Different letters never share a picture (a squeezed capital may match its small letter)."""
    font = fonts.text_font()
    letters = {}
    for ch in CZECH:
        letters.setdefault(picture(font, ch), set()).add(ch.lower())
    assert all(len(same) == 1 for same in letters.values())
    assert len(letters) >= len(CZECH) - 2


def test_small_font_folds_to_ascii_capitals():
    font = fonts.small_font()
    assert picture(font, "Dvořák") == picture(font, "DVORAK")


def test_fold_keeps_letters_drops_accents():
    assert fonts.fold("Růžička Šťastný") == "Ruzicka Stastny"


@pytest.mark.parametrize("size", [(3, 7), (6, 16), (10, 24), (13, 32)])
def test_digits_one_seven_and_six_nine_three_stay_distinct(size):
    font = fonts.digits(*size)
    pictures = {d: picture(font, d) for d in "0123456789"}
    assert len(set(pictures.values())) == 10
    assert font.height == size[1] and font.width("8") == size[0]


def test_fit_shortens_to_the_width():
    font = fonts.text_font()
    text = font.fit("Slavoj Žacléř", 30)
    assert font.width(text) <= 30 and "Slavoj".startswith(text)


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
