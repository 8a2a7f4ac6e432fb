"""8-ball core: header, refusals, summary shape, undo/redo through the Board, team score."""
import dataclasses

import pytest
from eightball_helpers import B_NEEDS_EIGHT, B_SOLIDS_A_TO_PLAY, HEADER, current, play, refused
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import Board
from rules.eightball.core import (
    DEFAULT_GAMES_TO_WIN,
    DEFAULT_SETS_TO_WIN,
    EIGHTBALL,
    initial,
    parse_header,
    step,
)
from rules.eightball.match import partie_points, team_score
from rules.errors import HeaderError, IllegalCommand, NothingToUndo

# -- header (RULES 2.2, 2.3, 2.9) -----------------------------------------------------

def test_2_9_header_defaults_are_league_constants():
    """RULES 2.9: race lengths default to the module constants; the first break to b."""
    settings = parse_header({"game": "8ball", "a": " Novák ", "b": "Dvořák"})
    assert (settings.a, settings.games_to_win, settings.sets_to_win, settings.first_break) == (
        "Novák", DEFAULT_GAMES_TO_WIN, DEFAULT_SETS_TO_WIN, "b")
    assert settings.opposite == (4, 5, 6, 1, 2, 3)


@pytest.mark.parametrize("change, code", [
    ({"a": ""}, "bad_player"),
    ({"b": None}, "bad_player"),
    ({"a": 7}, "bad_player"),
    ({"games_to_win": 0}, "bad_race"),
    ({"games_to_win": True}, "bad_race"),
    ({"sets_to_win": "2"}, "bad_race"),
    ({"sets_to_win": 100}, "bad_race"),
    ({"first_break": "c"}, "bad_side"),
    ({"home": "home"}, "bad_side"),
    ({"opposite": [4, 5, 6, 1, 2, 3]}, "bad_opposite"),
    ({"opposite": {"1": 4, "4": 1, "3": 6, "6": 3, "2": 5}}, "bad_opposite"),
    ({"opposite": {"1": 4, "4": 1, "3": 6, "6": 3, "2": 2, "5": 5}}, "bad_opposite"),
    ({"opposite": {"1": 4, "4": 3, "3": 6, "6": 1, "2": 5, "5": 2}}, "bad_opposite"),
    ({"opposite": {"1": 4, "4": 1, "3": 6, "6": 3, "2": 5, "5": 2, "7": 1}}, "bad_opposite"),
    ({"opposite": {"1": 4.0, "4": 1, "3": 6, "6": 3, "2": 5, "5": 2}}, "bad_opposite"),
    ({"win_points": -1}, "bad_team_points"),
    ({"win_points": 101}, "bad_team_points"),
    ({"win_points": True}, "bad_team_points"),
    ({"win_points": "2"}, "bad_team_points"),
])
def test_2_2_2_9_bad_headers_are_refused_with_a_code(change, code):
    """RULES 2.2 (opposite map: every pocket, mutual), 2.3 (sides), 2.9 (races)."""
    header = {**HEADER, **change}
    with pytest.raises(HeaderError) as info:
        parse_header({k: v for k, v in header.items() if v is not None})
    assert info.value.code == code


def test_2_9_the_team_points_per_match_won_are_the_headers():
    """RULES 2.9 Decision: the competition's team points per individual match won, carried in the
    header, are in the summary and what the match brings its winner; a header without them (every
    record from before) gives 1 and a summary without the key, as it always had."""
    games = [{"cmd": "game", "winner": "a"}] * 6
    board = Board({**HEADER, "win_points": 2})
    old = Board(dict(HEADER))
    for cmd in games:
        board.push(cmd)
        old.push(cmd)
    assert board.settings.win_points == 2 and board.summary()["win_points"] == 2
    assert partie_points(board.summary()) == {"a": 2, "b": 0}
    assert old.settings.win_points == 1 and "win_points" not in old.summary()
    assert partie_points(old.summary()) == {"a": 1, "b": 0}
    assert {k: v for k, v in board.summary().items() if k != "win_points"} == old.summary()


def test_2_2_opposite_accepts_integer_keys():
    """RULES 2.2: a map built in code (int keys) is read like one from JSON (text keys)."""
    settings = parse_header({**HEADER, "opposite": {1: 6, 6: 1, 3: 4, 4: 3, 2: 5, 5: 2}})
    assert settings.opposite == (6, 5, 4, 3, 2, 1)


# -- refusals --------------------------------------------------------------------------

@pytest.mark.parametrize("command, code", [
    ({"cmd": "jump"}, "unknown_command"),
    ({"cmd": "undo"}, "unknown_command"),      # the Board handles undo/redo, never the core
    ({"cmd": 3}, "unknown_command"),
    ({"cmd": "pot", "ball": "eight"}, "bad_argument"),
    ({"cmd": "pot"}, "bad_argument"),
    ({"cmd": "game"}, "bad_argument"),
    ({"cmd": "choose", "group": "solids"}, "nothing_to_choose"),
    ({"cmd": "pocket8", "pocket": 3}, "no_pocket_choice"),
    ({"cmd": "pot", "ball": ["solid"]}, "bad_argument"),
    ({"cmd": "pot", "ball": "solid", "pocket": [1]}, "bad_pocket"),
    ({"cmd": "foul", "code": {"b": 1}}, "bad_argument"),
    ({"cmd": "foul", "code": ["b"]}, "bad_argument"),
    ({"cmd": "game", "winner": ["a"]}, "bad_argument"),
    ({"cmd": "forfeit", "by": {}}, "bad_argument"),
    ({"cmd": "pot8", "pocket": 0}, "bad_pocket"),
])
def test_core_refusals_have_stable_codes_and_change_nothing(command, code):
    state = initial(parse_header(HEADER))
    with pytest.raises(IllegalCommand) as info:
        step(state, command)
    assert info.value.code == code and str(info.value)
    assert state == initial(parse_header(HEADER))


def test_scratch_twice_and_eight_twice_are_refused():
    board = play("x")
    refused(board, "x", "already_entered")
    board = play(B_NEEDS_EIGHT + " 8@1")
    refused(board, "8@2", "already_entered")


def test_step_never_mutates_the_state():
    state = initial(parse_header(HEADER))
    after = step(state, {"cmd": "pot", "ball": "solid"})
    assert state.rack.pending == () and after.rack.pending == (("pot", "solids", None),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.rack = after.rack


def test_core_object_follows_the_board_protocol():
    for name in ("parse_header", "initial", "step", "summary", "finished"):
        assert callable(getattr(EIGHTBALL, name))
    assert Board(HEADER).game is EIGHTBALL


# -- summary ---------------------------------------------------------------------------

def test_summary_shape_for_replay_and_the_display():
    """The documented summary (docs/record-format.md, 8-ball): exact keys."""
    s = play(B_SOLIDS_A_TO_PLAY + " t t3 f:b").summary()
    assert set(s) == {"game", "finished", "winner", "forfeit", "names", "home", "games_to_win",
                      "sets_to_win", "set", "sets", "games", "games_log", "current"}
    assert set(s["current"]) == {"shooter", "breaker", "break_shot", "open_table", "open_shot",
                                 "groups", "left", "ball_in_hand", "must_choose", "eight_pocket",
                                 "pocket_choice", "fouls", "pending"}
    assert s["game"] == "8ball" and s["names"] == {"a": "Novák", "b": "Dvořák"}
    assert s["current"]["pending"] == [{"cmd": "pot", "ball": "stripe"},
                                       {"cmd": "pot", "ball": "stripe", "pocket": 3},
                                       {"cmd": "foul", "code": "b"}]
    assert current(play("x f nc"))["pending"] == [{"cmd": "scratch"}, {"cmd": "foul"},
                                                 {"cmd": "nocushion"}]


# -- undo / redo through the Board -----------------------------------------------------

def test_undo_restores_the_previous_state_and_redo_reapplies():
    board = play(B_NEEDS_EIGHT)
    before = board.state
    board.push({"cmd": "pot8", "pocket": 1})
    board.push({"cmd": "shot"})
    assert board.summary()["games_log"]
    board.push({"cmd": "undo"})
    board.push({"cmd": "undo"})
    assert board.state == before
    board.push({"cmd": "redo"})
    board.push({"cmd": "redo"})
    assert board.summary()["games_log"][-1]["reason"] == "eight_early"


def test_undo_reopens_a_finished_match():
    board = play("g:a g:a g:a", sets_to_win=1)
    assert board.finished
    board.push({"cmd": "undo"})
    assert not board.finished and board.summary()["games"] == {"a": 2, "b": 0}


def test_nothing_to_undo_at_the_start():
    with pytest.raises(NothingToUndo):
        play("u")


# -- team game (RULES 2.9 Decision) -----------------------------------------------------

def test_2_9_team_score_counts_individual_matches_won():
    """RULES 2.9 Decision: team score = individual matches won."""
    won_by_a = play("g:a g:a g:a", sets_to_win=1).summary()
    won_by_b = play("ff:a").summary()
    open_match = play().summary()
    assert team_score([won_by_a, won_by_b, open_match], ["a", "a", "b"]) == {
        "home": 1, "away": 1, "unfinished": 1}
    assert team_score([won_by_a, won_by_b], ["b", "b"]) == {"home": 1, "away": 1, "unfinished": 0}
    assert team_score([won_by_a], ["a"], points_per_match=2)["home"] == 2


def test_2_9_team_score_reads_home_from_the_header():
    """RULES 2.9: the header's "home" names the home team's player."""
    won_by_b = play("g:b g:b g:b", sets_to_win=1, home="b").summary()
    assert team_score([won_by_b]) == {"home": 1, "away": 0, "unfinished": 0}
    with pytest.raises(ValueError):
        team_score([play().summary()])
    with pytest.raises(ValueError):
        team_score([won_by_b], ["a", "b"])


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 120), st.floats(allow_nan=False), st.text(max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=6)),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "games_to_win", "sets_to_win", "first_break", "home",
                                        "opposite"]), json_values))
def test_header_is_read_or_refused_with_a_header_error(change):
    """Whatever the header holds, parse_header returns settings or raises HeaderError."""
    try:
        settings_ = parse_header({**HEADER, **change})
    except HeaderError as exc:
        assert exc.code.startswith("bad_")
    else:
        assert sorted(settings_.opposite) == [1, 2, 3, 4, 5, 6]
