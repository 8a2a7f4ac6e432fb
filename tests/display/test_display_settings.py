"""The [display] config section: luma's option names, errors naming section and option."""
import pytest

from config.options import ConfigError, Section
from display.settings import DisplaySettings, read


def settings(**table):
    return read(Section(table, "display", "/etc/pocitadlo/config.toml"))


def test_defaults_are_a_64x16_max7219_in_czech():
    s = settings()
    assert (s.driver, s.size, s.language, s.contrast) == ("max7219", (64, 16), "cs", 64)   # docs/install.md: modest by default


def test_luma_option_names_are_read():
    s = settings(width=128, height=32, block_orientation=-90, rotate=2, blocks_arranged_in_reverse_order=True,
                 contrast=16, spi_port=1, spi_device=1)
    assert (s.width, s.height, s.block_orientation, s.rotate) == (128, 32, -90, 2)
    assert s.blocks_arranged_in_reverse_order and (s.contrast, s.spi_port, s.spi_device) == (16, 1, 1)


def test_cascaded_means_one_row_of_modules_as_in_luma():
    assert settings(cascaded=4).size == (32, 8)


def test_sevensegment_size_is_its_digits():
    s = settings(driver="sevensegment", digits=16)
    assert s.size == (16, 8) and s.is_segment and s.mono


def test_emulators_imitate_a_kind():
    s = settings(driver="capture", emulate="ws2812", colour_a="red")
    assert s.kind == "ws2812" and not s.mono and s.colours["a"] == "red"


@pytest.mark.parametrize("table,option,words", [
    ({"driver": "oled"}, "driver", "must be one of"),
    ({"width": 60}, "width", "multiple of 8"),
    ({"contrast": 300}, "contrast", "at most 255"),
    ({"block_orientation": 45}, "block_orientation", "must be one of"),
    ({"language": "de"}, "language", "must be one of"),
    ({"colour_b": "blurple"}, "colour_b", "colour"),
    ({"digits": 12}, "digits", "must be one of"),
    ({"widht": 64}, "widht", "unknown option"),
])
def test_errors_name_file_section_and_option(table, option, words):
    with pytest.raises(ConfigError) as caught:
        settings(**table)
    message = str(caught.value)
    assert message.startswith(f"/etc/pocitadlo/config.toml: [display] {option}: ") and words in message


def test_dataclass_defaults_match_read_defaults():
    assert settings() == DisplaySettings()


def test_install_md_states_the_contrast_default_the_code_has():
    """Issue 12: docs/install.md said 64 while the code started at 112."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "install.md").read_text(encoding="utf-8")
    assert re.search(r"the default (\d+) of 255", text).group(1) == str(DisplaySettings().contrast)
