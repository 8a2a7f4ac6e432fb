"""Every refusal a rule core can give has a short Czech and English text for the counter."""
import re
from pathlib import Path

from input.messages import REFUSALS, refusal
from rules.errors import IllegalCommand

RULES = Path(__file__).resolve().parent.parent / "rules"
# Codes of errors about files and headers, never the answer to a key.
NOT_KEYS = {"bad_header", "bad_record", "unknown_game", "bad_player", "bad_race", "bad_side",
            "bad_opposite", "rule", "illegal", "match"}


def rule_codes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    return set(re.findall(r'code ?= ?"([a-z_]+)"', text)) - NOT_KEYS


def test_every_refusal_code_has_texts_in_both_languages():
    codes = rule_codes()
    assert {"nothing_to_undo", "frozen", "pocket_required"} <= codes
    for language in ("cs", "en"):
        assert codes - set(REFUSALS[language]) == set(), language


def test_texts_are_short_enough_for_the_counter():
    assert max(len(t) for lang in REFUSALS.values() for t in lang.values()) <= 34


def test_unknown_code_gets_a_generic_text():
    assert refusal(IllegalCommand("x", code="something_new")) == "Teď nelze"
    assert refusal(IllegalCommand("x", code="something_new"), "en") == "Not now"
