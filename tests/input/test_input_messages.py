"""Every refusal a rule core can give has a short Czech and English text for the counter."""
import re
from pathlib import Path

import pytest

from input.messages import LANGUAGES, Said, has, refusal, say
from rules.errors import IllegalCommand

RULES = Path(__file__).resolve().parents[2] / "rules"
# Codes of errors about files and headers, never the answer to a key.
NOT_KEYS = {"bad_header", "bad_record", "unknown_game", "bad_player", "bad_race", "bad_side",
            "bad_opposite", "rule", "illegal", "match"}


def rule_codes() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    return set(re.findall(r'code ?= ?"([a-z_]+)"', text)) - NOT_KEYS


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_texts_in_both_languages(language):
    codes = rule_codes()
    assert {"nothing_to_undo", "frozen", "pocket_required"} <= codes
    assert {code for code in codes if not has(f"refusal.{code}", language)} == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_texts_are_short_enough_for_the_counter(language):
    assert max(len(say(f"refusal.{code}", language)) for code in rule_codes()) <= 34


def test_unknown_code_gets_a_generic_text():
    assert refusal(IllegalCommand("x", code="something_new")) == "Teď nelze"
    assert refusal(IllegalCommand("x", code="something_new"), "en") == "Not now"
    assert refusal(IllegalCommand("x", code="something_new"), "de") == "Teď nelze"   # Czech by default


def test_a_refusal_already_in_the_referees_words_is_said_as_it_is():
    assert refusal(Said("Vyberte 1–4, Enter", code="no_effect"), "en") == "Vyberte 1–4, Enter"
