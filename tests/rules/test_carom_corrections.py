"""Corrections after the fact: ``correct`` and ``insert`` (rules/carom/corrections.py).

The rules are documented in docs/record-format.md ("Corrections"); B.9.2 (RULES 1.4 item 9: the
end stands) and B.4.1 are the league clauses they rest on.
"""
import pytest
from carom_helpers import board, command, players, refused


def fix(b, cmd: str, player: str, inning: int, points: int):
    b.push({"cmd": cmd, "player": player, "inning": inning, "points": points})
    return b


def test_correct_sets_the_credited_points_of_a_completed_inning():
    b = fix(board("10 m 2 m 1 1 m"), "correct", "a", 1, 12)
    a = players(b)["a"]
    assert a["series"] == [12, 2] and a["points"] == 14 and a["best_series"] == 12
    assert a["average"] == "7.000"


def test_insert_adds_a_forgotten_inning_and_gives_the_turn_back():
    """B.4.1: A's miss was not entered, B's strokes went to A; correct A, insert B's inning."""
    b = board("10 m 2 2 1 m 2 1 1 m")   # A: 10, then "A" 4 (really A 0 and B 4)
    b.push({"cmd": "correct", "player": "a", "inning": 2, "points": 0})
    assert b.summary()["to_play"] == "b"
    fix(b, "insert", "b", 2, 4)
    s = b.summary()
    assert s["players"]["b"]["series"] == [5, 4] and s["players"]["a"]["series"] == [10, 0]
    assert s["to_play"] == "a" and s["counter"]["inning"] == 3


def test_insert_before_an_earlier_inning():
    b = fix(board("10 m 2 2 1 m"), "insert", "a", 1, 3)
    assert players(b)["a"]["series"] == [3, 10] and b.summary()["to_play"] == "b"


@pytest.mark.parametrize("cmd, fault", [
    ({"cmd": "correct", "player": "c", "inning": 1, "points": 1}, '"player": "a" or "b"'),
    ({"cmd": "correct", "player": "a", "inning": 3, "points": 1}, "must be 1 to 1, not 3"),
    ({"cmd": "correct", "player": "a", "inning": 0, "points": 1}, "must be 1 to 1, not 0"),
    ({"cmd": "correct", "player": "a", "inning": "1", "points": 1}, "not '1'"),
    ({"cmd": "correct", "player": "a", "inning": 1, "points": -1}, "at least 0, not -1"),
    ({"cmd": "correct", "player": "a", "inning": 1}, "not None"),
    ({"cmd": "insert", "player": "a", "inning": 3, "points": 1}, "must be 1 to 2, not 3"),
    ({"cmd": "correct", "player": "b", "inning": 1, "points": 1}, "B has no completed inning"),
])
def test_bad_correction_arguments_are_refused(cmd, fault):
    err = refused(board("10 m"), cmd, "bad_argument")
    assert fault in str(err)


def test_no_correction_while_a_series_is_running():
    refused(board("10 m 2 m 1"), {"cmd": "correct", "player": "a", "inning": 1, "points": 3},
            "series_running")


@pytest.mark.parametrize("player, reason", [("b", "B would have more innings"),
                                            ("a", "A would have 3 innings to B's 1")])
def test_insert_must_keep_the_players_alternating(player, reason):
    """B.4.1: A opens every round, so A has as many innings as B or one more."""
    b = board("10 m 2 2 1 m 1 m") if player == "a" else board("10 m 2 2 1 m")
    err = refused(b, {"cmd": "insert", "player": player, "inning": 1, "points": 0},
                  "inconsistent")
    assert reason in str(err)


def test_a_correction_cannot_reach_the_limit_before_the_last_inning():
    """RULES 1.4.1: reaching the limit ends the inning and leads to the end of the partie."""
    b = board("10 m 1 m 1 m", points_limit=30)
    err = refused(b, {"cmd": "correct", "player": "a", "inning": 1, "points": 30}, "inconsistent")
    assert "before their last inning" in str(err)


def test_a_correction_cannot_credit_more_than_the_limit():
    """RULES 1.4.6: credited points stop at the limit."""
    b = board("10 m 1 m", points_limit=30)
    err = refused(b, {"cmd": "correct", "player": "a", "inning": 1, "points": 31}, "over_limit")
    assert "31" in str(err)


def test_without_the_cap_a_correction_may_exceed_the_limit():
    """RULES 1.4.6: cap_points_at_limit = false counts raw totals."""
    b = fix(board("10 m 1 m", points_limit=30, cap_points_at_limit=False), "correct", "a", 1, 31)
    s = b.summary()
    assert players(b)["a"]["points"] == 31 and s["finished"] and s["result"] == "a"


def test_correcting_the_last_inning_to_the_limit_re_evaluates_the_end():
    """RULES 1.4.3: if B's last inning actually reached the limit, B won there."""
    b = fix(board("10 m 2 2 1 m", points_limit=30), "correct", "b", 1, 30)
    s = b.summary()
    assert s["finished"] and s["result"] == "b" and players(b)["b"]["team_points"] == 2


def test_a_correction_that_ends_the_partie_ends_the_frozen_announcement_too():
    """RULES 1.2: nothing is announced once the partie is over."""
    b = board("10 m 2 2 1 m z", points_limit=30)
    assert b.summary()["counter"]["frozen"] is True
    fix(b, "correct", "b", 1, 30)
    assert b.finished and b.summary()["counter"]["frozen"] is False


@pytest.mark.parametrize("played, ending", [
    ("10 m 2 2 1 m", "both played the innings limit (1.4.5)"),
    ("1 m 1 m 1 m 20 10", "B reached the limit (1.4.3)"),
    ("10 m 2 m Fb", "B forfeited (1.4.8)"),
])
@pytest.mark.parametrize("cmd", [{"cmd": "correct", "player": "b", "inning": 1, "points": 11},
                                 {"cmd": "insert", "player": "a", "inning": 1, "points": 0}])
def test_1_4_9_after_the_ending_stroke_corrections_are_refused_citing_b_9_2(played, ending, cmd):
    """RULES 1.4 item 9 (B.9.2): once the stroke that ends the partie counted, the result is final
    even if an error in the record is found later: a correction or an inserted inning is refused,
    saying why, and changes nothing."""
    b = board(played, innings_limit=1 if played == "10 m 2 2 1 m" else 15, points_limit=30)
    before = b.summary()
    assert before["finished"], ending
    err = refused(b, cmd, "end_stands")
    assert "B.9.2" in str(err) and b.summary() == before


def test_1_4_9_the_ending_stroke_undone_at_once_reopens_the_corrections():
    """RULES 1.4 item 9 Decision: the referee may still undo the last stroke at once (a mis-keyed
    stroke); the partie goes on, and an earlier inning can be corrected before it ends again."""
    b = board("10 m 2 2 1 m 1 m m", innings_limit=2)          # B's last inning a miss: A won 11:5
    assert b.finished and b.summary()["result"] == "a"
    b.push(command("u"))                                       # the ending miss undone
    assert not b.finished
    fix(b, "correct", "a", 1, 4)                               # A's first inning was really 4
    b.push({"cmd": "score", "value": 1}), b.push({"cmd": "miss"})
    assert b.finished and players(b)["a"]["points"] == 5 and players(b)["b"]["points"] == 6
    assert b.summary()["result"] == "b"


def test_a_player_who_reached_the_limit_keeps_it_the_last_inning_takes_up_a_change():
    """B.9.2: the limit reached with a counted karambol stays credited after a sheet error."""
    b = board("10 m m 20", points_limit=30)           # A: 10 + 20 = 30, B equalising
    fix(b, "correct", "a", 1, 8)
    a = players(b)["a"]
    assert a["series"] == [8, 22] and a["points"] == 30
    assert b.summary()["counter"]["equalising"] is True


def test_the_last_inning_of_a_player_who_reached_the_limit_cannot_be_changed():
    """B.9.2."""
    b = board("10 m m 20", points_limit=30)
    err = refused(b, {"cmd": "correct", "player": "a", "inning": 2, "points": 15}, "limit_kept")
    assert "B.9.2" in str(err)


def test_the_kept_limit_cannot_make_the_last_inning_negative():
    """B.9.2."""
    b = board("10 m m 20", points_limit=30)
    refused(b, {"cmd": "correct", "player": "a", "inning": 1, "points": 31}, "limit_kept")


def test_an_inning_after_the_one_that_reached_the_limit_is_refused():
    """RULES 1.4.1: reaching the limit ends the player's innings."""
    b = board("10 m m 20", points_limit=30)
    refused(b, {"cmd": "insert", "player": "a", "inning": 3, "points": 0}, "inconsistent")


def test_a_correction_can_be_undone():
    """A correction is a journalled command: undo takes it back like any other."""
    b = board("10 m 2 m")
    before = b.summary()
    fix(b, "correct", "a", 1, 1)
    b.push(command("u"))
    assert b.summary() == before
