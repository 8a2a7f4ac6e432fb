"""docs/referee.md documents the `--keys` script format: every character the script reader takes,
and nothing it refuses (issue 24); the key timings it states are the code's."""
import re
import tomllib
from pathlib import Path

from input.debounce import BOUNCE, HOLD_MARGIN, LONG_PRESS
from input.terminal import CHARS, HOLD_PREFIX

DOC = Path(__file__).resolve().parents[2] / "docs" / "referee.md"


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Key scripts (`pocitadlo emulate --keys`)")
    return text[start:text.index("\n## ", start + 1)]


def test_every_printable_key_character_of_a_script_is_in_the_table():
    table = section()
    shown = set(re.findall(r"`([^`\s])`", table)) | {ch for a, b in re.findall(r"`(\S)`–`(\S)`", table)
                                                      for ch in map(chr, range(ord(a), ord(b) + 1))}
    printable = {ch for ch in CHARS if ch.isprintable() and not ch.isspace()}
    assert printable | {HOLD_PREFIX} <= shown


def test_the_keys_that_are_not_printable_are_named():
    table = section()
    for words in ("line break", "Esc", "Backspace", "space", "Tab"):
        assert words in table
    assert "refused" in table and "script clock" in table


def test_the_timings_the_doc_states_are_the_ones_the_keys_use():
    """Issue 25, defaults said once: the long press, the scripts' hold margin and the debounce time
    live in input/debounce.py; the guide's sentences and its [keypad] example state those values."""
    text = DOC.read_text(encoding="utf-8")
    assert f"`long_press` ({LONG_PRESS:g} s, `input.debounce.LONG_PRESS`)" in text
    assert f"`long_press` + {HOLD_MARGIN:g} s" in text
    assert f"(`debounce`, {BOUNCE * 1000:g} ms)" in text
    example = re.search(r"```toml\n(\[keypad\]\n.*?)```", text, re.S)
    assert example is not None
    keypad = tomllib.loads(example.group(1))["keypad"]
    assert (keypad["debounce"], keypad["long_press"]) == (BOUNCE, LONG_PRESS)
