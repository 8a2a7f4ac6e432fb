"""Rosters and teams in Czech alphabetical order (server/league/czech_order.py), the same on every database."""
from hypothesis import given
from hypothesis import strategies as st

from server.league.czech_order import czech_key


def test_c_hacek_r_s_z_and_ch_are_letters_of_their_own():
    names = ["Žák", "Černý", "Svoboda", "Chalupa", "Cibulka", "Šťastný", "Řezníček", "Hájek", "Růžička", "Zedník",
             "Ibl", "Dvořák", "Novák"]
    assert sorted(names, key=czech_key) == ["Cibulka", "Černý", "Dvořák", "Hájek", "Chalupa", "Ibl", "Novák",
                                            "Růžička", "Řezníček", "Svoboda", "Šťastný", "Zedník", "Žák"]


def test_other_accents_only_break_a_tie():
    assert sorted(["Dvorník", "Dvořák", "Dvorak", "Dvořáková"], key=czech_key) == \
        ["Dvorak", "Dvorník", "Dvořák", "Dvořáková"]
    assert sorted(["Kánka", "Kanka", "Kaňka"], key=czech_key) == ["Kanka", "Kaňka", "Kánka"]   # at the first accent
    assert sorted(["Tůma", "Tuma", "Tuček"], key=czech_key) == ["Tuček", "Tuma", "Tůma"]


def test_a_space_comes_before_letters_and_case_breaks_the_last_tie():
    assert sorted(["Nováková", "Novák Jan", "novák", "Novák"], key=czech_key) == \
        ["Novák", "novák", "Novák Jan", "Nováková"]


@given(st.lists(st.text(max_size=12), max_size=12))
def test_the_order_does_not_depend_on_the_order_given(names):
    assert sorted(names, key=czech_key) == sorted(reversed(names), key=czech_key) == \
        sorted(sorted(names), key=czech_key)
