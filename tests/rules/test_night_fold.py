"""The match night as a pure fold (rules/night.py): events in, an immutable night out."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import night
from rules.board import Board
from rules.carom.match import match_result
from rules.eightball.match import LOST_ON_THE_EIGHT, news

HOME = ["Novák", "Dvořák", "Svoboda", "Černý"]
AWAY = ["Kučera", "Veselý", "Horák", "Němec"]
MATCH = {"ev": "match", "id": "m1", "game": "carom", "date": "2026-11-29", "home": "Sokol", "away": "Jiskra",
         "present": {"home": HOME, "away": AWAY}, "partie_count": 4}
RULES = {"points_limit": 20, "innings_limit": 2}
PLACE = {"device": "lev-2", "venue": "U Lva", "table": "2"}


def fold(*events):
    state = night.NightState()
    for event in events:
        state = night.apply(state, event)
    return state


def carom_partie(match, home, strokes) -> Board:
    """A partie of ``match`` with ``strokes`` (points of each inning, a then b) played out."""
    board = Board(night.partie_header(match, "A", "B", home, RULES, PLACE))
    for points in strokes:
        if board.finished:
            break
        for value in (10,) * (points // 10) + (1,) * (points % 10):
            if not board.finished:
                board.push({"cmd": "score", "value": value})
        if not board.finished:
            board.push({"cmd": "miss"})
    return board


def test_1_6_a_match_then_its_lot_draw():
    """RULES 1.6: the lot draw is a decision of its own, made from the players present and a seed."""
    state = fold(MATCH)
    assert state.match.needs_lot and state.match.number == 1 and not state.match.over
    lot = night.lot_event(state.match, 7)
    drawn = night.apply(state, lot)
    assert drawn.match.pairs == tuple(lot["pairs"]) and drawn.match.seed == 7 and not drawn.match.needs_lot
    assert state.match.pairs is None                      # the state before is untouched


def test_end_closes_the_match_and_events_that_make_no_sense_are_refused():
    assert fold(MATCH, {"ev": "end"}).match is None
    with pytest.raises(night.NightEventError):
        fold({"ev": "lot", "seed": 1, "pairs": []})       # a lot without a match
    with pytest.raises(night.UnknownEvent):
        fold(MATCH, {"ev": "tea_break"})


def test_1_6_the_match_result_comes_from_the_closed_events_without_replaying_files():
    """RULES 1.6: the result from rules.carom.match over each partie's header and summary, which the
    closed events carry; the same as rules.carom.match over the boards themselves."""
    state = fold(MATCH, night.lot_event(fold(MATCH).match, 3))
    boards = []
    for number, strokes in enumerate(([20], [5, 20, 3], [0, 0, 0, 0], [12, 8, 8]), start=1):
        board = carom_partie(state.match, "ab"[number % 2], strokes)
        boards.append(board)
        state = night.apply(state, night.closed_event(number, board.header, board.summary()))
    assert state.match.over
    expected = match_result([(b.header, b.summary()) for b in boards]).as_dict()
    assert night.result(state.match) == expected
    assert night.points(state.match) == expected["points"]
    summary = night.match_summary(state.match, {"venue": "U Lva", "table": "2"})
    assert summary["partie_ids"] == [f"m1-p{n}" for n in range(1, 5)]
    assert [line["id"] for line in summary["partie"]] == summary["partie_ids"]


@pytest.mark.parametrize("game, points", [("carom", {"home": 0, "away": 8}), ("8ball", {"home": 0, "away": 3})])
def test_a_3_7_a_team_that_did_not_come_loses_every_partie(game, points):
    """A.3.7 (carom, 0 : 8) and RULES 2.9 (8-ball: every individual match to the team present)."""
    state = fold({**MATCH, "game": game, "present": {}, "partie_count": 4 if game == "carom" else 3,
                  "forfeit": "home"})
    assert state.match.over and not state.match.needs_lot
    assert night.points(state.match) == points
    assert night.result(state.match)["forfeit"] == "home"


@pytest.mark.parametrize("game, win_points, points", [("carom", 3, {"home": 0, "away": 12}),
                                                      ("8ball", 2, {"home": 0, "away": 6})])
def test_a_3_7_a_no_show_counts_the_competitions_team_points(game, win_points, points):
    """A.3.7 with A.5.3 / RULES 2.9: the forfeit's full score counts the competition's team points
    of a partie won, which the match event keeps where they are not the game's own."""
    event = night.match_event("m1", game, "2026-11-29", 4 if game == "carom" else 3, home="Sokol",
                              away="Jiskra", forfeit="home", win_points=win_points)
    assert event["win_points"] == win_points
    assert night.points(fold(event).match) == points
    assert night.result(fold(event).match)["points"] == points
    default = night.match_event("m1", game, "2026-11-29", 4, home="Sokol", away="Jiskra", forfeit="home",
                                win_points=2 if game == "carom" else 1)
    assert "win_points" not in default       # the event as it was before team points were rules


def test_A_5_3_the_partie_header_carries_team_points_only_where_not_the_default():
    """A.5.3-A.5.5: the competition's team points are rules of play in the partie header; the
    defaults are left out, so a default competition's header is the one it always was."""
    match = fold(MATCH).match
    defaults = night.partie_header(match, "A", "B", "a", {**RULES, "win_points": 2, "draw_points": 1,
                                                          "loss_points": 0}, PLACE)
    assert defaults == night.partie_header(match, "A", "B", "a", RULES, PLACE)
    assert not {"win_points", "draw_points", "loss_points"} & set(defaults)
    header = night.partie_header(match, "A", "B", "a", {**RULES, "win_points": 3, "draw_points": 1,
                                                        "loss_points": 0}, PLACE)
    assert header["win_points"] == 3 and "draw_points" not in header and "loss_points" not in header


def test_A_5_3_a_match_nights_score_counts_the_headers_team_points():
    """A.5.3-A.5.5 / RULES 1.6: with win_points 3 in the headers, the partie lines, the night's score
    and the match result (the counter's "zápas" and the zápis) count 3 for a partie won."""
    rules = {**RULES, "win_points": 3}
    state = fold(MATCH, night.lot_event(fold(MATCH).match, 3))
    miss = {"cmd": "miss"}
    win_a, draw = [20, miss], [20, 20]                  # A reaches the limit, B misses / reaches it too
    b_on_innings = [miss, 2, 2, 1, miss, miss, miss]    # 0 : 5 after the innings limit
    for number, (home, strokes) in enumerate((("a", win_a), ("b", win_a), ("a", draw), ("a", b_on_innings)),
                                             start=1):
        board = Board(night.partie_header(state.match, "A", "B", home, rules, PLACE))
        for stroke in strokes:
            board.push(stroke if isinstance(stroke, dict) else {"cmd": "score", "value": stroke})
        assert board.finished
        state = night.apply(state, night.closed_event(number, board.header, board.summary()))
    lines = [line["team_points"] for line in state.match.closed]
    assert lines == [{"home": 3, "away": 0}, {"home": 0, "away": 3}, {"home": 1, "away": 1},
                     {"home": 0, "away": 3}]
    assert night.points(state.match) == {"home": 4, "away": 7}
    assert night.result(state.match)["points"] == {"home": 4, "away": 7}


@settings(max_examples=60, deadline=None)
@given(winner=st.sampled_from(["a", "b", None]), home=st.sampled_from(["a", "b"]))
def test_2_9_an_individual_match_scores_through_team_score(winner, home):
    """RULES 2.9 Decision: the team of the winner scores (rules.eightball.team_score), none while open."""
    header = {"game": "8ball", "id": "x-p1", "a": "Petr", "b": "Pavel", "home": home}
    summary = {"winner": winner, "sets": {"a": 1, "b": 0}}
    line = night.partie_line(header, summary)
    home_won = winner == home
    assert line["team_points"] == {"home": int(winner is not None and home_won),
                                   "away": int(winner is not None and not home_won)}
    assert line["home"] == header[home]


def test_8b_2b_each_individual_matchs_header_says_who_breaks_it():
    """RULES 2.3 (8B:2b corrected): away, home, away … by the individual match's number."""
    match = fold({**MATCH, "game": "8ball"}).match
    for number, breaker in ((1, "b"), (2, "a"), (3, "b")):
        match = replace(match, closed=({},) * (number - 1))
        assert night.partie_header(match, "Novák", "Kučera", "a", {}, PLACE)["first_break"] == breaker


def test_the_partie_header_carries_the_match_and_its_seed():
    match = fold(MATCH, night.lot_event(fold(MATCH).match, 9)).match
    header = night.partie_header(match, "Novák", "Kučera", "a", RULES, PLACE)
    assert header["id"] == "m1-p1" and header["partie"] == 1 and header["home"] == "a"
    assert header["match"] == {"id": "m1", "home": "Sokol", "away": "Jiskra", "seed": 9}
    assert header["date"] == "2026-11-29" and header["venue"] == "U Lva"
    single = fold({"ev": "match", "id": "s", "game": "8ball", "date": "2026-11-29", "partie_count": 1}).match
    assert "match" not in night.partie_header(single, "P", "Q", None, {}, PLACE)


def test_2_3_rack_news_says_who_took_the_game_or_that_the_breaker_breaks_again():
    before = {"sets": {"a": 0, "b": 0}, "games": {"a": 0, "b": 0}, "current": {"break_shot": True}}
    won = {**before, "games": {"a": 0, "b": 1}, "finished": False}
    assert news({"cmd": "pot8"}, before, won) == ("game_won", "b", None)
    again = {**before, "finished": False}
    assert news({"cmd": "shot"}, before, again) == ("rerack", None, None)
    assert news({"cmd": "foul"}, before, again) is None


@pytest.mark.parametrize("reason", LOST_ON_THE_EIGHT)
def test_2_7_a_game_lost_on_the_8_says_how(reason):
    """Issue 12: the counter says how the 8 lost the game, not only who took it."""
    before = {"sets": {"a": 0, "b": 0}, "games": {"a": 0, "b": 0}, "current": {"break_shot": False},
              "games_log": []}
    lost = {**before, "games": {"a": 0, "b": 1}, "games_log": [{"winner": "b", "reason": reason}]}
    assert news({"cmd": "shot"}, before, lost) == ("game_won", "b", reason)
    won = {**lost, "games_log": [{"winner": "b", "reason": "eight"}]}         # the 8 potted legally
    assert news({"cmd": "shot"}, before, won) == ("game_won", "b", None)


def test_a_3_7_a_match_a_team_did_not_come_to_has_nobody_present():
    event = night.match_event("m2", "carom", "2026-11-29", 4, home="Sokol", away="Jiskra",
                              present={"home": HOME}, forfeit="away", fixture="f-1")
    assert event["present"] == {} and event["forfeit"] == "away" and event["fixture"] == "f-1"
    single = night.match_event("s1", "carom", "2026-11-29", 1)
    assert list(single) == ["ev", "id", "game", "date", "partie_count"]      # no teams
    assert not fold(single).match.league


@pytest.mark.parametrize("game, points", [("carom", {"home": 8, "away": 0}), ("8ball", {"home": 3, "away": 0})])
def test_a_3_7_a_no_show_entered_at_the_table_is_a_match_item_with_the_absent_side(game, points):
    """A.3.7 / issue 22: "Tým nepřišel" at the table gives the match item docs/record-format.md
    ("A no-show") describes — the absent side under the match-level "forfeit", no partie, the
    fixture — so the receiver can count it as the organiser's no-show."""
    event = night.match_event("m2", game, "2026-11-29", 4 if game == "carom" else 3, home="Sokol",
                              away="Jiskra", forfeit="away", fixture="f-1")
    state = fold(event, night.sign_event("home", "Novák", "2026-11-29T19:45:00+01:00"))
    summary = night.match_summary(state.match, {"venue": "U Lva", "table": "1"})
    assert summary == {"id": "m2", "game": game, "date": "2026-11-29", "venue": "U Lva", "table": "1",
                       "home": "Sokol", "away": "Jiskra", "seed": None, "partie_ids": [], "points": points,
                       "finished": True, "forfeit": "away", "partie": [], "fixture": "f-1",
                       "signatures": [{"side": "home", "captain": "Novák", "at": "2026-11-29T19:45:00+01:00"}],
                       "objections": [], "unsigned": []}


def test_a_6_5_an_interrupted_match_is_over_and_its_item_says_at_which_partie_and_why():
    """A.6.5: interrupted at partie 2 for a dispute, the home captain confirming; the result is next,
    the match is not given up any more; the item carries where and why, not finished."""
    state = fold(MATCH, night.lot_event(fold(MATCH).match, 3))
    board = carom_partie(state.match, "a", [20])
    state = night.apply(state, night.closed_event(1, board.header, board.summary()))
    in_play = carom_partie(state.match, "a", [5])
    event = night.interrupt_event(state.match, "dispute", "Novák", "2026-11-29T21:00:00+01:00",
                                  night.partie_line(in_play.header, in_play.summary()))
    interrupted = night.apply(state, event)
    match = interrupted.match
    assert match.over and not match.abandonable and match.awaiting == "home" and interrupted.decision == "interrupt"
    summary = night.match_summary(match, PLACE)
    assert summary["interrupted"] == {"partie": 2, "reason": "dispute", "captain": "Novák",
                                      "at": "2026-11-29T21:00:00+01:00",
                                      "in_play": {"id": "m1-p2", "home": "A", "away": "B", "score": "5:0"}}
    assert summary["finished"] is False and summary["partie_ids"] == ["m1-p1"]
    assert night.apply(interrupted, {"ev": "reopen"}).match.interrupted is None     # taken back


@pytest.mark.parametrize("events, reason", [
    ((MATCH,), "boredom"),                                                     # not on the list
    (({"ev": "match", "id": "s", "game": "carom", "date": "2026-11-29", "partie_count": 1},), "dispute"),  # no league
    ((dict(MATCH, present={}, forfeit="away"),), "dispute"),                   # over already
])
def test_a_6_5_only_a_league_match_under_way_is_interrupted_for_a_listed_reason(events, reason):
    state = fold(*events)
    with pytest.raises(night.NightEventError):
        night.apply(state, night.interrupt_event(state.match, reason, None, "2026-11-29T21:00:00+01:00"))
