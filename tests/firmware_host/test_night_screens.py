"""The match night's screen models (firmware_host/night_screens.py): what the counter is handed."""
import pytest

from firmware_host.night_screens import partie_model
from rules import night as rules_night
from rules.board import Board

PLACE = {"venue": "Hospoda U Lva", "table": "2", "device": "lev-2"}


def league_match(game="carom", *won_by_home):
    """A league match whose first partie are closed, each won 2:0 by the team named in ``won_by_home``."""
    count = 4 if game == "carom" else 2
    state = rules_night.apply(rules_night.NightState(), rules_night.match_event(
        "m1", game, "2026-03-04", count, home="Sokol Dvůr", away="Jiskra Hořice",
        present={"home": ["Novák", "Dvořák"], "away": ["Kučera", "Veselý"]}))
    for number, winner in enumerate(won_by_home, start=1):
        points = {"home": 2, "away": 0} if winner == "home" else {"home": 0, "away": 2}
        line = {"id": f"m1-p{number}", "home": "Novák", "away": "Kučera", "score": "1:0", "team_points": points}
        state = rules_night.apply(state, {"ev": "closed", "partie": number, "summary": line})
    return state.match


def board_of(match, home_side):
    rules = {"points_limit": 200, "innings_limit": 15} if match.game == "carom" else \
        {"games_to_win": 2, "sets_to_win": 1}
    return Board(rules_night.partie_header(match, "Novák", "Kučera", home_side, rules, PLACE))


@pytest.mark.parametrize("home_side", ["a", "b"])
def test_a_partie_of_a_league_match_carries_its_number_and_the_team_points_by_side(home_side):
    """A.3.6 / RULES 1.6: the counter can show which partie of the match this is and the match score,
    the team of player A first whichever team is at home."""
    match = league_match("carom", "home", "home", "away")          # 4:2 for the home team
    model = partie_model(board_of(match, home_side), match)
    away_side = "b" if home_side == "a" else "a"
    assert model["match"] == {"partie": 4, "partie_count": 4, "points": {home_side: 4, away_side: 2}}
    assert model["screen"] == "carom" and model["summary"]["players"]["a"]["name"] == "Novák"


def test_an_8ball_partie_of_a_team_match_carries_the_match_too():
    """RULES 2.9: the individual matches won so far."""
    match = league_match("8ball", "away")
    model = partie_model(board_of(match, "a"), match)
    assert model["match"]["partie"] == 2 and model["match"]["partie_count"] == 2
    assert model["match"]["points"] == {"a": 0, "b": 2}


def test_a_single_partie_outside_the_league_has_no_match_facts():
    state = rules_night.apply(rules_night.NightState(), rules_night.match_event("s1", "carom", "2026-03-04", 1))
    match = state.match
    board = Board(rules_night.partie_header(match, "Novák", "Kučera", None, {"points_limit": 30}, PLACE))
    assert "match" not in partie_model(board, match)
    assert "match" not in partie_model(board)
