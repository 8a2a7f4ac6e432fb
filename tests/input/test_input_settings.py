"""The [keypad] config section: defaults, overrides and errors naming section and option."""
import pytest

from config.options import ConfigError, Section
from input.settings import read


def keypad(table):
    return read(Section(table, "keypad", "/etc/pocitadlo/config.toml"))


def error(table) -> str:
    with pytest.raises(ConfigError) as info:
        keypad(table)
    return str(info.value)


def test_defaults():
    s = keypad({})
    assert s.devices == ("evdev",) and s.long_press == 0.8 and s.debounce == 0.03
    assert s.keymap("carom").tap["1"] == "score1"
    assert s.keymap("8ball").hold["enter"] == "menu"


def test_overrides_merge_with_defaults_and_none_unbinds():
    s = keypad({"carom": {"5": "score1", "1": "none", "hold": {"9": "forfeit"}}})
    carom = s.keymap("carom")
    assert carom.tap["5"] == "score1" and "1" not in carom.tap and carom.tap["2"] == "score2"
    assert carom.hold["9"] == "forfeit"


def test_matrix_and_buttons_pins():
    s = keypad({"devices": ["matrix", "buttons"],
                "matrix": {"rows": [4, 17, 27, 22], "cols": [5, 6, 13, 19]},
                "buttons": {"pins": {"enter": 26}, "pull_up": False}})
    assert s.matrix.rows == (4, 17, 27, 22) and s.buttons.pins == (("enter", 26),)
    assert not s.buttons.pull_up


@pytest.mark.parametrize("table, expected", [
    ({"devices": ["matrix"], "matrix": {"rows": [5, 6, 10, 19]}},
     "[keypad.matrix] rows: BCM 10 is the display's SPI MOSI pin"),
    ({"devices": ["buttons"], "buttons": {"pins": {"1": 8}}},
     "[keypad.buttons.pins] 1: BCM 8 is the display's SPI CE0 pin"),
    ({"devices": ["matrix", "buttons"], "buttons": {"pins": {"1": 26}}},
     "[keypad.buttons.pins] 1: BCM 26 is already used by [keypad.matrix] cols"),
    ({"devices": ["matrix"], "matrix": {"rows": [5, 6, 13, 5]}},
     "[keypad.matrix] rows: BCM 5 is already used by [keypad.matrix] rows"),
    ({"matrix": {"cols": [40]}}, "[keypad.matrix] cols: item 1: expected a BCM pin number 2..27"),
    ({"matrix": {"keys": ["1"]}}, "[keypad.matrix] keys: expected 16 key names"),
    ({"buttons": {"pins": {"x": 17}}}, "[keypad.buttons.pins] x: unknown key"),
    ({"devices": ["serial"]}, "[keypad] devices: item 1: unknown device 'serial'"),
    ({"devices": ["evdev", "evdev"]}, "[keypad] devices: a device kind is listed twice"),
    ({"evdev": {"paths": ["/tmp/x"]}}, "[keypad.evdev] paths: item 1: expected a path under"),
    ({"carom": {"1": "score3"}}, '[keypad.carom] 1: unknown action "score3" for carom'),
    ({"8ball": {"1": "score1"}}, '[keypad.8ball] 1: unknown action "score1" for 8ball'),
    ({"carom": {"F1": "miss"}}, "[keypad.carom] F1: unknown key"),
    ({"carom": {"9": "forfeit"}}, '[keypad.carom] 9: "forfeit" needs a long press: bind it '
                                  'under [keypad.carom.hold]'),
    ({"8ball": {"9": "stalemate"}}, '[keypad.8ball] 9: "stalemate" needs a long press'),
    ({"long_press": 0.1}, "[keypad] long_press: must be at least 0.3"),
    ({"lang": "cs"}, "[keypad] lang: unknown option"),
    ({"matrix": {"scan": 1}}, "[keypad.matrix] scan: unknown option"),
])
def test_errors_name_file_section_and_option(table, expected):
    message = error(table)
    assert message.startswith("/etc/pocitadlo/config.toml: ")
    assert expected in message


def test_unused_device_pins_are_not_checked_against_each_other():
    # the buttons' defaults are not claimed while buttons are not a configured device
    assert keypad({"devices": ["matrix"], "matrix": {"rows": [17, 27, 22, 23]}}).devices == \
        ("matrix",)


def test_wiring_table_in_install_doc_matches_the_defaults():
    """docs/install.md "Keypad wiring" is what a default config expects."""
    import re
    from pathlib import Path

    from input.settings import DEFAULT_BUTTONS, DEFAULT_COLS, DEFAULT_ROWS
    text = Path(__file__).resolve().parents[2].joinpath("docs", "install.md").read_text()
    section = text.split("## Keypad wiring", 1)[1].split("\n## ", 1)[0]
    rows = [int(b) for b in re.findall(r"\| row \d \([^)]*\) \| (\d+) \|", section)]
    cols = [int(b) for b in re.findall(r"\| column \d \([^)]*\) \| (\d+) \|", section)]
    buttons = {k: int(b) for k, b in re.findall(r"\| `([^`]+)` \| [^|]+ \| (\d+) \|", section)}
    assert (tuple(rows), tuple(cols), buttons) == (DEFAULT_ROWS, DEFAULT_COLS, DEFAULT_BUTTONS)
