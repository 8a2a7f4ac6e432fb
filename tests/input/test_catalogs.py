"""The message catalogs (input/locale/*/LC_MESSAGES/pocitadlo.po → .mo): one per language, each
complete, the compiled one in step with its source. A text missing is a failure here, never a
runtime error on the counter."""
import ast
import re
import string
from pathlib import Path

import pytest

from input import messages
from input.keymap import actions_for
from input.messages import LANGUAGES, catalog, has, label
from rules.eightball.match import LOST_ON_THE_EIGHT
from rules.games import game_names
from rules.night import INTERRUPTIONS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "input", ROOT / "firmware_host"]
# Ids the code builds from a game or a screen (game_text: "close" and 8-ball's "close_8ball",
# "hint_" + phase, …).
GAME_WORDS = ("single", "close", "not_over", "partie_n", "close_partie", "not_finished", "hint_finished")
BUILT = (list(GAME_WORDS) + [f"{stem}_8ball" for stem in GAME_WORDS]
         + [f"hint_{phase}" for phase in ("ready", "lotdraw", "result", "partie", "finished",
                                            "hold_menu", "menu")]
         + [f"pocket_last_{group}" for group in ("solid", "stripe")]
         + [f"interrupt.{reason}" for reason in INTERRUPTIONS]
         + [f"loss.{reason}" for reason in LOST_ON_THE_EIGHT])


def po_entries(language: str) -> dict:
    """msgid → msgstr of a .po source (one-line entries, as these catalogs are written)."""
    text = (Path(messages.LOCALE_DIR) / language / "LC_MESSAGES" / "pocitadlo.po").read_text(encoding="utf-8")
    pairs = re.findall(r'^msgid (".*")\nmsgstr (".*")$', text, flags=re.M)
    return {ast.literal_eval(i): ast.literal_eval(s) for i, s in pairs if i != '""'}


def used_ids() -> set[str]:
    """Text ids written literally in the code: say("…"), t("…"), self.t("…"), partie_text(t, board, "…"),
    game_text("…", …), t.game("…", …)."""
    found = set()
    for folder in SOURCES:
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found |= set(re.findall(r'\b(?:say|t)\("([a-z0-9_]+)"\s*[,)]', text))
            found |= set(re.findall(r'\bpartie_text\([^()"]*"([a-z0-9_]+)"\)', text))
            found |= set(re.findall(r'\b(?:game_text|t\.game)\("([a-z0-9_]+)"', text))
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_its_source(language):
    """After an edit of the .po: msgfmt -o pocitadlo.mo pocitadlo.po."""
    entries = po_entries(language)
    assert len(entries) > 100
    assert {i: catalog(language).gettext(i) for i in entries} == entries


def test_every_language_has_every_text_with_the_same_placeholders():
    cs, en = po_entries("cs"), po_entries("en")
    assert set(cs) == set(en)
    assert [i for i in cs if not cs[i] or not en[i]] == []
    assert [i for i in cs if fields(cs[i]) != fields(en[i])] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_the_code_asks_for_is_in_the_catalog(language):
    ids = used_ids() | set(BUILT)
    assert {"setup", "keytest", "menu_hint", "no_show_q", "not_finished"} <= ids   # the scan finds them
    assert sorted(i for i in ids if not has(i, language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", game_names())
def test_every_action_a_key_can_do_has_a_label(language, game):
    assert [a for a in actions_for(game) if not has(f"label.{a}", language)] == []
    assert label("score2", "cs") == "+2 (mantinel)" and label("no_such_action") == "no_such_action"
