"""The carom rule core, clause by clause (RULES Part 1; Czech original clauses A.x / B.x)."""
from fractions import Fraction

import pytest
from carom_helpers import board, command, players, refused
from hypothesis import given
from hypothesis import strategies as st

from rules.carom.core import CAROM, CaromState, Settings, parse_header
from rules.carom.figures import average, average_text, points_average_text
from rules.errors import HeaderError


# -- header ---------------------------------------------------------------------------------
def test_header_defaults_are_the_league_defaults():
    """RULES 1.4 / A.5.1, A.5.2: points limit 200, innings limit 15; 1.4.6 cap on."""
    s = parse_header({"game": "carom", "a": "Novák", "b": "Dvořák"})
    assert s == Settings("Novák", "Dvořák", 200, 15, True)


def test_header_ignores_unknown_keys():
    s = parse_header({"game": "carom", "a": "X", "b": "Y", "venue": "U Lva", "innings_limit": 20})
    assert s.innings_limit == 20


@pytest.mark.parametrize("change, fault", [
    ({"a": ""}, 'player "a" must be a non-empty name'),
    ({"b": None}, 'player "b" must be a non-empty name'),
    ({"a": 7}, 'player "a" must be a non-empty name, not 7'),
    ({"points_limit": 0}, "points_limit must be a whole number of at least 1, not 0"),
    ({"points_limit": "200"}, "points_limit must be a whole number of at least 1, not '200'"),
    ({"innings_limit": True}, "innings_limit must be a whole number of at least 1, not True"),
    ({"innings_limit": 1.5}, "innings_limit must be a whole number"),
    ({"cap_points_at_limit": "yes"}, "cap_points_at_limit must be true or false, not 'yes'"),
    ({"home": "c"}, 'home must be "a" or "b"'),
    ({"win_points": -1}, "win_points must be a whole number from 0 to 100, not -1"),
    ({"draw_points": 101}, "draw_points must be a whole number from 0 to 100, not 101"),
    ({"loss_points": True}, "loss_points must be a whole number from 0 to 100, not True"),
])
def test_bad_header_is_refused_with_a_clear_message(change, fault):
    header = {"game": "carom", "a": "Novák", "b": "Dvořák", **change}
    with pytest.raises(HeaderError, match=fault.replace("(", r"\(")):
        parse_header(header)


# -- 1.1 terms ------------------------------------------------------------------------------
def test_a_opens_and_the_players_alternate_innings():
    """RULES 1.1: A starts the partie; an inning is a player's turn at the table."""
    b = board()
    assert b.summary()["to_play"] == "a"
    b.push(command("m"))
    assert b.summary()["to_play"] == "b" and b.summary()["counter"]["inning"] == 1
    b.push(command("m"))
    assert b.summary()["to_play"] == "a" and b.summary()["counter"]["inning"] == 2


# -- 1.2 stroke values ------------------------------------------------------------------------
@pytest.mark.parametrize("value", [1, 2, 10, 20])
def test_each_stroke_value_adds_to_the_running_series(value):
    """RULES 1.2 / B.1.5: a karambol scores 1, 2, 10 or 20."""
    b = board(f"{value} 1")
    assert b.summary()["counter"]["series"] == value + 1
    assert players(b)["a"]["points"] == value + 1


@pytest.mark.parametrize("value", [7, 0, 3, 5, -1, 40, "10", True, None, 1.0, [1]])
def test_any_other_stroke_value_is_refused_and_names_the_value(value):
    """RULES 1.2: only 1, 2, 10, 20; anything else is rejected and changes nothing."""
    b = board("10")
    err = refused(b, {"cmd": "score", "value": value}, "bad_value")
    assert repr(value) in str(err)


def test_score_without_a_value_is_a_bad_argument():
    """RULES 1.2: a stroke needs its value."""
    refused(board(), {"cmd": "score"}, "bad_argument")


def test_frozen_balls_refuse_10_and_20_until_the_next_stroke():
    """RULES 1.2 guard / B.1.7c: after the announcement 10 and 20 are refused, 1 and 2 score."""
    b = board("z")
    assert b.summary()["counter"]["frozen"] is True
    refused(b, "10", "frozen")
    err = refused(b, "20", "frozen")
    assert "20" in str(err)
    b.push(command("2"))                       # the next accepted stroke ends the announcement
    assert b.summary()["counter"]["frozen"] is False
    b.push(command("10"))
    assert b.summary()["counter"]["series"] == 12


@pytest.mark.parametrize("ending", ["m", "f"])
def test_a_miss_or_foul_also_ends_the_frozen_announcement(ending):
    """RULES 1.2: a karambol, a miss or a foul ends the announcement."""
    b = board(f"z {ending}")
    assert b.summary()["counter"]["frozen"] is False
    b.push(command("10"))


def test_announcing_frozen_again_changes_nothing():
    """RULES 1.2: announcing again while announced changes nothing."""
    once = board("1 z")
    twice = board("1 z z")
    assert twice.state == once.state and twice.summary() == once.summary()


# -- 1.3 ending an inning --------------------------------------------------------------------
def test_a_miss_ends_the_inning_and_counts_the_series():
    """RULES 1.3 / B.8.2a: a miss ends the inning; the series is counted for the player."""
    a = players(board("10 2 1 m"))["a"]
    assert (a["points"], a["innings"], a["series"], a["best_series"]) == (13, 1, [13], 13)


def test_a_foul_adds_nothing_but_earlier_karambols_count():
    """RULES 1.3 / B.8.3: the fouling karambol does not count, earlier ones in the series do."""
    b = board("2 1 f")
    a = players(b)["a"]
    assert (a["points"], a["innings"], a["series"]) == (3, 1, [3])
    assert b.summary()["to_play"] == "b"


def test_highest_series_is_the_best_completed_inning():
    """RULES 1.3 / 1.5: the closed series is compared with the player's highest series."""
    b = board("10 1 m m 2 m m 20 m m 1 1")
    a = players(b)["a"]
    assert a["series"] == [11, 2, 20] and a["best_series"] == 20
    assert a["points"] == 35                  # running series included in points only


# -- 1.4 limits and the end of the partie ---------------------------------------------------
def test_a_reaching_the_points_limit_ends_the_inning_at_once_and_b_equalises():
    """RULES 1.4.1 / B.4.1: A's inning ends at once; B gets the equalising inning (dohrávka)."""
    b = board("10 m m 10 10", points_limit=30, innings_limit=15)
    s = b.summary()
    assert s["finished"] is False and s["to_play"] == "b"
    assert players(b)["a"]["series"] == [10, 20] and players(b)["a"]["innings"] == 2
    c = s["counter"]
    assert c["equalising"] is True and c["innings_left"] == 1 and c["last_two"] is True
    assert c["inning"] == 2 and c["points_left"] == {"a": 0, "b": 30}


def test_a_completing_the_innings_limit_leaves_b_the_last_inning():
    """RULES 1.4.2: A completes the innings limit without the points limit: B plays their last."""
    b = board("1 m 2 m 1 m", innings_limit=2)
    s = b.summary()
    assert s["finished"] is False and s["to_play"] == "b"
    assert s["counter"]["innings_left"] == 1 and s["counter"]["equalising"] is False
    b.push(command("m"))
    assert b.summary()["finished"] is True


def test_b_reaching_the_points_limit_wins_at_once():
    """RULES 1.4.3: B reaches the limit while A has not: the partie ends at once, B wins."""
    b = board("10 m 20 1", points_limit=21)
    s = b.summary()
    assert s["finished"] and s["result"] == "b" and s["to_play"] is None
    assert players(b)["a"]["innings"] == players(b)["b"]["innings"] == 1   # B.4.1
    assert [players(b)[p]["team_points"] for p in "ab"] == [0, 2]


def test_b_reaching_the_limit_in_the_equalising_inning_is_a_draw():
    """RULES 1.4.4 / B.9.4: B also reaches the points limit in the equalising inning: draw."""
    b = board("20 m 10 m 10 10 20", points_limit=30)
    s = b.summary()
    assert s["finished"] and s["result"] == "draw"
    assert [players(b)[p]["points"] for p in "ab"] == [30, 30]
    assert [players(b)[p]["team_points"] for p in "ab"] == [1, 1]


@pytest.mark.parametrize("ending", ["m", "f"])
def test_b_missing_in_the_equalising_inning_lets_a_win(ending):
    """RULES 1.4.4: otherwise A wins."""
    b = board(f"20 m 10 m 10 10 {ending}", points_limit=30)
    s = b.summary()
    assert s["finished"] and s["result"] == "a"
    assert [players(b)[p]["team_points"] for p in "ab"] == [2, 0]


@pytest.mark.parametrize("moves, result", [
    ("10 m 1 m 1 m 1 m", "a"),
    ("1 m 10 m 1 m 1 m", "b"),
    ("2 m 1 m 1 m 2 m", "draw"),
])
def test_after_the_innings_limit_more_points_wins_equal_is_a_draw(moves, result):
    """RULES 1.4.5 / B.9.5: after both played the innings limit, more points wins, equal draws."""
    b = board(moves, innings_limit=2)
    s = b.summary()
    assert s["finished"] and s["result"] == result
    assert players(b)["a"]["innings"] == players(b)["b"]["innings"] == 2   # B.4.1


def test_b_wins_with_the_last_inning():
    """B.9.5 / RULES 1.4.5: B can win with the last inning."""
    b = board("10 m 1 m 10 m 10 10", innings_limit=2)
    assert b.summary()["finished"] is False
    b.push(command("m"))
    assert b.summary()["result"] == "b"


def test_the_stroke_crossing_the_limit_is_credited_only_up_to_it():
    """RULES 1.4.6 / B.9.2: credited points stop at the limit; series, best, average use them."""
    b = board("20 20 m m 20", points_limit=50)
    a = players(b)["a"]
    assert a["points"] == 50 and a["series"] == [40, 10] and a["best_series"] == 40
    assert a["average"] == "25.000"


def test_without_the_cap_the_raw_totals_count():
    """RULES 1.4.6: cap_points_at_limit = false switches to raw totals."""
    b = board("20 20 m m 20", points_limit=50, cap_points_at_limit=False)
    a = players(b)["a"]
    assert a["points"] == 60 and a["series"] == [40, 20] and a["average"] == "30.000"
    assert b.summary()["counter"]["points_left"]["a"] == 0


def test_the_record_keeps_the_raw_stroke():
    """RULES 1.4.6: the record keeps every stroke as entered."""
    b = board("20 20 m m 20", points_limit=50)
    assert b.move_stack[-1] == {"cmd": "score", "value": 20}


def test_b_plays_on_past_a_total_in_the_last_inning():
    """RULES 1.4.7: in B's last inning B does not stop on passing A's total; all points count."""
    b = board("10 m 1 10 20", innings_limit=1)
    s = b.summary()
    assert s["finished"] is False and s["counter"]["series"] == 31
    b.push(command("m"))
    assert players(b)["b"]["points"] == 31 and players(b)["b"]["average"] == "31.000"
    assert b.summary()["result"] == "b"


def test_a_forfeit_keeps_points_and_innings_and_marks_it():
    """RULES 1.4.8 / B.9.3: the partie goes to the opponent; points and innings so far kept."""
    b = board("10 m 2 m 1 Fa")
    s = b.summary()
    assert s["finished"] and s["forfeit"] == "a" and s["result"] == "b" and s["to_play"] is None
    a, bb = players(b)["a"], players(b)["b"]
    assert (a["points"], a["series"], a["team_points"]) == (11, [10, 1], 0)
    assert (bb["points"], bb["series"], bb["team_points"]) == (2, [2], 2)


def test_a_forfeit_before_any_stroke_is_accepted():
    """RULES 1.4.8: a partie abandoned at once is forfeited too."""
    s = board("Fb").summary()
    assert s["result"] == "a" and s["players"]["a"]["innings"] == 0


def test_forfeit_needs_a_or_b():
    """RULES 1.4.8: the referee names who abandons."""
    err = refused(board("1"), {"cmd": "forfeit", "by": "c"}, "bad_argument")
    assert "'c'" in str(err)
    refused(board("1"), {"cmd": "forfeit"}, "bad_argument")


@pytest.mark.parametrize("token", ["1", "20", "m", "f", "z", "Fa", "Fb"])
def test_nothing_is_accepted_after_the_end(token):
    """RULES 1.4 / B.9.1: the partie is over; a further stroke is refused."""
    b = board("10 m 20 1", points_limit=21)
    err = refused(b, token, "partie_over")
    assert "B won 10:21" in str(err)


def test_unknown_commands_are_refused():
    err = refused(board(), {"cmd": "push"}, "unknown_command")
    assert "'push'" in str(err)


def test_both_players_have_equal_innings_when_the_partie_ends():
    """B.4.1: both must have had the same number of innings when the partie ends."""
    for moves, limits in [("20 m", {"points_limit": 20}), ("m m m m", {"innings_limit": 2}),
                          ("1 m 20", {"points_limit": 20}), ("20 20", {"points_limit": 20})]:
        b = board(moves, **limits)
        assert b.finished
        assert players(b)["a"]["innings"] == players(b)["b"]["innings"]


# -- 1.5 figures ------------------------------------------------------------------------------
@pytest.mark.parametrize("moves, text, exact", [
    ("20 20 m m 10 10 10 m m 10 10 10 10 10 m", "40.000", Fraction(40)),
    ("10 2 1 m m 10 10 2 m m 10 10 m", "18.333", Fraction(55, 3)),
    ("2 m m m m 1 1 1 1 1 1 1 1 1 1 m", "4.000", Fraction(4)),
    ("1 m m m m 1 m", "0.666", Fraction(2, 3)),           # rounding would print 0.667
    ("20 20 m m 10 1 1 1 1 1 1 1 m m 2 2 2 2 m", "21.666", Fraction(65, 3)),
])
def test_average_is_truncated_to_three_decimals_and_exact_as_a_fraction(moves, text, exact):
    """RULES 1.5: 3 decimals truncated, not rounded; comparisons use the exact fraction."""
    b = board(moves)
    assert players(b)["a"]["average"] == text
    assert CAROM.average(b.state, "a") == exact


def test_average_with_no_innings_is_zero():
    """RULES 1.5: 0 innings → 0.000."""
    b = board("10 10")
    assert players(b)["a"]["average"] == "0.000" and CAROM.average(b.state, "a") == 0


@given(st.integers(0, 10**6), st.integers(0, 5000))
def test_the_summary_average_text_is_the_text_of_the_exact_average(points, innings):
    """RULES 1.5: the summary's text, made without the fraction, is the fraction's text."""
    assert points_average_text(points, innings) == average_text(average(points, innings))


@pytest.mark.parametrize("moves, expected", [("1 m", [3, 1]), ("m 1", [1, 3]), ("1 1", [2, 2])])
def test_A_5_3_to_A_5_5_team_points_are_the_headers(moves, expected):
    """A.5.3-A.5.5: a competition's team points for a partie won, drawn, lost, carried in the
    header as rules of play, are what the summary gives each player."""
    b = board(moves, points_limit=1, innings_limit=1, win_points=3, draw_points=2, loss_points=1)
    assert b.finished and [players(b)[p]["team_points"] for p in "ab"] == expected


def test_A_5_3_to_A_5_5_a_header_without_team_points_replays_as_before():
    """A record from before the team points were rules of play (no keys) counts 2/1/0, exactly as
    one spelling the defaults out; the header's values are read 0 to 100."""
    assert parse_header({"game": "carom", "a": "X", "b": "Y"}).team_points() == {"win": 2, "draw": 1, "loss": 0}
    old = board("1 m 2 2 1", points_limit=5)
    spelled = board("1 m 2 2 1", points_limit=5, win_points=2, draw_points=1, loss_points=0)
    assert old.summary() == spelled.summary()
    assert [players(old)[p]["team_points"] for p in "ab"] == [0, 2]
    assert [players(board("1 m", points_limit=1, win_points=0, loss_points=100))[p]["team_points"]
            for p in "ab"] == [0, 100]


def test_team_points_are_null_while_the_partie_goes_on():
    """RULES 1.5: team points 2/1/0 exist only for a finished partie."""
    assert [players(board("1 m"))[p]["team_points"] for p in "ab"] == [None, None]


# -- 1.7 what the counter shows ------------------------------------------------------------------
def test_counter_follows_the_inning_and_the_last_two_innings():
    """RULES 1.7 / A.6.8f: the last 2 innings of the partie are announced."""
    b = board("1 m m", innings_limit=3)
    c = b.summary()["counter"]
    assert (c["at_table"], c["inning"], c["innings_left"], c["last_two"]) == ("a", 2, 2, True)
    b = board("", innings_limit=3)
    assert b.summary()["counter"]["last_two"] is False


def test_counter_shows_points_left_to_the_limit_with_the_running_series():
    """RULES 1.7 / A.6.8g: the exact points left to the limit, never negative."""
    c = board("10 m 2 1").summary()["counter"]
    assert c["points_left"] == {"a": 190, "b": 197}
    assert c["series"] == 3 and c["at_table"] == "b" and c["innings_left"] == 15


def test_counter_once_finished():
    """docs/record-format.md: at_table null, inning = innings played, nothing left to play."""
    c = board("1 m 2 m", innings_limit=1).summary()["counter"]
    assert c == {"at_table": None, "series": 0, "inning": 1, "innings_left": 0,
                 "points_left": {"a": 199, "b": 198}, "last_two": False,
                 "equalising": False, "frozen": False}


def test_summary_has_exactly_the_documented_shape():
    """docs/record-format.md "Carom summary": field names."""
    s = board("10 m 2").summary()
    assert list(s) == ["game", "finished", "result", "to_play", "forfeit", "points_limit",
                       "innings_limit", "players", "counter"]
    assert set(s["players"]["a"]) == {"name", "points", "innings", "best_series", "average",
                                      "series", "team_points"}
    assert set(s["counter"]) == {"at_table", "series", "inning", "innings_left", "points_left",
                                 "last_two", "equalising", "frozen"}


def test_step_never_mutates_the_state():
    """The core is pure: step returns a new state and leaves the old one as it was."""
    state = CAROM.initial(parse_header({"a": "X", "b": "Y"}))
    after = CAROM.step(state, {"cmd": "score", "value": 10})
    assert state == CaromState(state.settings) and after.running == 10
