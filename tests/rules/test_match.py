"""The carom match (RULES 1.6; A.3.5-A.3.7, A.5.3-A.5.5): lot draw and match result."""
import pytest
from carom_helpers import board

from rules.carom.match import MatchError, Pairing, draw_lot, forfeited_match, match_result

HOME = ["Novák", "Dvořák", "Svoboda", "Černý", "Procházka"]
AWAY = ["Kučera", "Veselý", "Horák", "Němec"]


def test_the_draw_pairs_four_players_of_each_team_each_once():
    """RULES 1.6 Decision / A.3.6: 4 partie, each drawn player plays once."""
    pairs = draw_lot(HOME, AWAY, 2024)
    assert [p.partie for p in pairs] == [1, 2, 3, 4]
    homes, aways = [p.home for p in pairs], [p.away for p in pairs]
    assert len(set(homes)) == 4 and set(homes) <= set(HOME)
    assert sorted(aways) == sorted(AWAY)


def test_the_same_seed_gives_the_same_draw():
    """RULES 1.6 Decision: the seed is shown and recorded so both captains can verify it."""
    assert draw_lot(HOME, AWAY, 7) == draw_lot(HOME, AWAY, 7)


def test_the_draw_depends_on_who_is_present_not_on_the_order_entered():
    """RULES 1.6 Decision: verifiable from the players present and the seed."""
    assert draw_lot(HOME, AWAY, 7) == draw_lot(list(reversed(HOME)), AWAY[::-1], 7)


def test_different_seeds_give_different_draws():
    """RULES 1.6: the draw is by lot (order and pairing vary with the seed)."""
    draws = {tuple(draw_lot(HOME, AWAY, seed)) for seed in range(30)}
    assert len(draws) > 20


def test_a_recorded_seed_gives_the_same_draw_later():
    """RULES 1.6 Decision: a seed recorded tonight must reproduce tonight's draw next season, so
    the algorithm is pinned: sort the players, random.Random(seed).sample 4 home, then 4 away."""
    pairs = draw_lot(["A1", "A2", "A3", "A4", "A5"], ["B4", "B3", "B2", "B1"], 1)
    assert [p.as_dict() for p in pairs] == [
        {"partie": 1, "home": "A2", "away": "B4"}, {"partie": 2, "home": "A1", "away": "B2"},
        {"partie": 3, "home": "A5", "away": "B3"}, {"partie": 4, "home": "A4", "away": "B1"}]


@pytest.mark.parametrize("home, away, fault", [
    (HOME[:3], AWAY, "home team: 3 players present, a match needs at least 4 (A.3.5)"),
    (HOME, AWAY[:2], "away team: 2 players present"),
    (HOME, AWAY[:3] + ["Kučera"], "away team: a player is listed twice"),
    (HOME[:3] + [""], AWAY, "home team: a player's name must be non-empty text"),
])
def test_the_draw_needs_four_players_of_each_team(home, away, fault):
    """RULES 1.6 / A.3.5: each team with at least 4 players present."""
    with pytest.raises(MatchError, match=fault.replace("(", r"\(").replace(")", r"\)")):
        draw_lot(home, away, 1)


def test_the_seed_must_be_a_whole_number():
    with pytest.raises(MatchError, match="seed must be a whole number"):
        draw_lot(HOME, AWAY, "abc")


def partie(moves: str, home: str = "a", **limits) -> tuple[dict, dict]:
    b = board(moves, **limits)
    return {**b.header, "home": home}, b.summary()


def test_match_result_sums_team_points():
    """RULES 1.6 / A.5.3-A.5.5: 2 for a win, 1 for a draw, 0 for a loss, summed (max 8:0)."""
    parties = [
        partie("20 m 1 m", innings_limit=1),               # A (home) wins: home 2
        partie("20 m 1 m", home="b", innings_limit=1),     # A (away) wins: away 2
        partie("1 m 1 m", innings_limit=1),                # draw: 1 each
        partie("1 m 20 m", home="b", innings_limit=1),     # B (home) wins: home 2
    ]
    result = match_result(parties)
    assert (result.home_points, result.away_points, result.finished) == (5, 3, True)
    lines = [line.as_dict() for line in result.partie]
    assert lines[1]["home"] == "Dvořák" and lines[1]["team_points"] == {"home": 0, "away": 2}
    assert lines[3]["points"] == {"home": 20, "away": 1}


def test_a_clean_sweep_is_eight_to_nothing():
    """RULES 1.6: max 8:0."""
    result = match_result([partie("20 m 1 m", innings_limit=1)] * 4)
    assert (result.home_points, result.away_points) == (8, 0)


def test_an_unfinished_match_counts_the_finished_partie_only():
    result = match_result([partie("20 m 1 m", innings_limit=1), partie("10 m")])
    assert (result.home_points, result.away_points, result.finished) == (2, 0, False)
    assert result.partie[1].team_points is None


def test_a_forfeited_partie_in_a_match():
    """RULES 1.4.8: the opponent of the forfeiting player gets 2."""
    result = match_result([partie("10 Fa", home="b")])
    line = result.partie[0]
    assert line.forfeit == "away" and line.team_points == {"home": 2, "away": 0}


def test_a_match_has_four_partie():
    with pytest.raises(MatchError, match="a match has 4 partie, not 5"):
        match_result([partie("")] * 5)


def test_each_partie_must_say_which_player_is_at_home():
    header, summary = partie("")
    del header["home"]
    with pytest.raises(MatchError, match='partie 1: the header must say which player is at home'):
        match_result([(header, summary)])


def test_a_team_that_does_not_turn_up_loses_by_forfeit():
    """RULES 1.6 / A.3.7: the match is forfeited to the opponent (Decision: 0:8)."""
    result = forfeited_match("away")
    assert (result.home_points, result.away_points, result.forfeit) == (8, 0, "away")
    assert result.finished and result.as_dict()["points"] == {"home": 8, "away": 0}
    with pytest.raises(MatchError):
        forfeited_match("nobody")


def test_pairing_is_a_value():
    assert Pairing(1, "X", "Y") == Pairing(1, "X", "Y")


def test_the_bundled_match_records_sum_to_five_three():
    """RULES 1.6: the four example partie of one match (draw, A home win, B home win, B home
    forfeits): 1+2+2+0 : 1+0+0+2."""
    from pathlib import Path

    from rules.record import replay_file
    examples = Path(__file__).resolve().parents[2] / "examples"
    parties = []
    for name in ("draw", "points-limit", "innings", "forfeit"):
        replayed = replay_file(examples / f"carom-{name}.jsonl")
        parties.append((replayed.board.header, replayed.summary()))
    result = match_result(parties)
    assert (result.home_points, result.away_points, result.finished) == (5, 3, True)
    assert [line.home for line in result.partie] == ["Jiří Novák", "Tomáš Svoboda", "Karel Černý",
                                                      "Jan Veselý"]
