"""The key card explains the counter's marks that are not whole words (issue 12: spectators and
referees must not guess what Z, DOH, LPÍ or K4 mean)."""
import pytest

from display.text import texts
from input.keycard import marks, render
from input.keymap import default_keymap
from input.settings import KeypadSettings


@pytest.mark.parametrize("language", ["cs", "en"])
def test_the_card_explains_every_carom_mark_the_counter_shows(language):
    """RULES 1.7 (points to go, the inning of the limit), 1.4 (equalising inning), 1.2 (frozen balls),
    1.6 (the match's partie and team points): each mark as the counter writes it is on the card."""
    w, said = texts(language), marks("carom", language).replace("\u00a0", " ")
    for mark in (f"{w['left']} 18", w["equalising"], w["frozen"], "3/15",
                 w["partie_number"].format(n=2), w["match_score"].format(a=3, b=5)):
        assert mark in said, mark


@pytest.mark.parametrize("language", ["cs", "en"])
def test_the_card_explains_the_8ball_marks(language):
    """RULES 2.2 / 8B:6f: the 8's pocket (K4) and the open choice (K5?); the groups' short names."""
    w, said = texts(language), marks("8ball", language).replace("\u00a0", " ")
    for mark in (f"{w['pocket']}4", f"{w['pocket']}5{w['pocket_choice']}", w["stripes"][:2], w["solids"][:2]):
        assert mark in said, mark


def test_the_marks_are_drawn_on_the_card():
    settings = KeypadSettings()
    card = render(default_keymap("carom"), settings)
    bare = card.crop((0, card.height - 200, card.width, card.height))
    assert bare.getbbox() is not None
    assert card.height < 3000


def test_the_carom_card_names_the_partie_record_as_the_counter_titles_it():
    """Issue 12: corrections are under Enter, "Zápis partie", which the key card never mentioned."""
    from input.keycard import TITLES
    from input.messages import say

    for language in ("cs", "en"):
        assert say("protocol", language).lower() in TITLES[language]["foot_carom"].lower(), language


def test_the_8ball_card_says_where_a_group_is_chosen_as_the_menu_titles_it():
    """RULES 2.3, 2.4: the breaker chooses a group; a 4x4 matrix has no "/", so the card names the
    held menu's items, in the counter's words."""
    from input.keycard import TITLES
    from input.messages import say

    for language in ("cs", "en"):
        foot = TITLES[language]["foot_8ball"]
        assert say("choose_solids", language) in foot and say("choose_stripes", language) in foot, language
