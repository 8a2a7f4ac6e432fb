"""8-ball rule core, clause by clause (RULES Part 2). Notation: tests/rules/eightball_helpers.py."""
import pytest
from eightball_helpers import B_NEEDS_EIGHT, B_SOLIDS_A_TO_PLAY, current, play, refused


def last_game(board) -> dict:
    return board.summary()["games_log"][-1]


# -- 2.2 object of the game ---------------------------------------------------------

@pytest.mark.parametrize("last, required", [(1, 4), (4, 1), (3, 6), (6, 3), (2, 5), (5, 2)])
def test_2_2_eight_goes_opposite_the_last_group_ball(last, required):
    """RULES 2.2: the 8 into the pocket opposite the last group ball's (default map 1↔4, 3↔6, 2↔5)."""
    board = play(f"s . . t t t t t t . . s s s s s s{last} .")
    assert current(board)["eight_pocket"] == {"a": None, "b": required}
    board.push({"cmd": "pot8", "pocket": required})
    board.push({"cmd": "shot"})
    assert last_game(board)["winner"] == "b" and last_game(board)["reason"] == "eight"


def test_2_2_opposite_map_from_the_header():
    """RULES 2.2 Decision (configurable map): the header's "opposite" decides the 8 pocket."""
    crosswise = {"1": 6, "6": 1, "3": 4, "4": 3, "2": 5, "5": 2}
    board = play(B_NEEDS_EIGHT, opposite=crosswise)
    assert current(board)["eight_pocket"]["b"] == 4


def test_2_2_eight_pocket_unknown_until_the_last_ball_drops():
    """RULES 2.2: the required pocket is known only once the last group ball dropped."""
    assert current(play(B_SOLIDS_A_TO_PLAY))["eight_pocket"] == {"a": None, "b": None}


def a_stripes_cleared_by_b(pocket: int) -> str:
    """b pots a's last stripe into ``pocket`` by combination with an own solid (8B:6f)."""
    return f"s . . t t t t t t . . s t{pocket} . ."


def test_2_2_8b6f_opponent_pots_last_ball_in_middle_pocket_lets_owner_name_any_pocket():
    """RULES 2.2 / 8B:6f: a names pocket 1 for the 8 and wins there."""
    board = play(a_stripes_cleared_by_b(2))
    assert current(board)["shooter"] == "a"
    assert current(board)["pocket_choice"] == {"a": True, "b": False}
    assert current(board)["eight_pocket"]["a"] == 5
    board = play(a_stripes_cleared_by_b(2) + " n8@1")
    assert current(board)["eight_pocket"]["a"] == 1
    board.push({"cmd": "pot8", "pocket": 1})
    board.push({"cmd": "shot"})
    assert last_game(board)["reason"] == "eight" and last_game(board)["winner"] == "a"


def test_2_2_8b6f_not_named_means_the_opposite_pocket():
    """RULES 2.2 Decision: without a named pocket the opposite-pocket rule applies."""
    board = play(a_stripes_cleared_by_b(5) + " 8@1 .")
    assert last_game(board)["reason"] == "eight_wrong_pocket" and last_game(board)["winner"] == "b"
    board = play(a_stripes_cleared_by_b(5) + " 8@2 .")
    assert last_game(board)["reason"] == "eight" and last_game(board)["winner"] == "a"


def test_2_2_8b6f_corner_pocket_gives_no_choice():
    """RULES 2.2 / 8B:6f applies to middle pockets only."""
    board = play(a_stripes_cleared_by_b(1))
    assert current(board)["pocket_choice"]["a"] is False
    refused(board, "n8@3", "no_pocket_choice")


def test_2_2_8b6f_own_last_ball_in_middle_gives_no_choice():
    """RULES 2.2: the shooter's own last ball into a middle pocket: the other middle pocket is required."""
    board = play(B_SOLIDS_A_TO_PLAY + " t t t t t t . . s s s s s s2 . .")
    assert current(board)["pocket_choice"]["b"] is False
    assert current(board)["eight_pocket"]["b"] == 5


def test_2_2_8b6f_choice_only_by_the_entitled_shooter_before_the_shot():
    """RULES 2.2 / 8B:6f: the pocket is named by its owner at the table, before the shot."""
    board = play(a_stripes_cleared_by_b(2) + " .")      # a missed: b is at the table
    refused(board, "n8@1", "no_pocket_choice")
    board = play(a_stripes_cleared_by_b(2) + " x")
    refused(board, "n8@1", "shot_open")
    board = play(a_stripes_cleared_by_b(2))
    refused(board, "n8@7", "bad_pocket")
    refused(board, {"cmd": "pocket8"}, "pocket_required")


def test_2_2_8b6f_named_pocket_may_be_changed_before_the_shot():
    """RULES 2.2 / 8B:6f: the last pocket named before the shot counts."""
    board = play(a_stripes_cleared_by_b(2) + " n8@1 n8@3")
    assert current(board)["eight_pocket"]["a"] == 3


def test_2_2_8b6f_choice_also_after_a_foul_shot():
    """RULES 2.2 / 8B:6f: the opponent potted a's last ball into a middle pocket — RULES 2.2 sets no
    "clean shot" condition, so a foul on that shot (here a scratch) gives a ball in hand *and* the
    free choice of the 8 pocket (audit fix: the core used to withhold the choice)."""
    board = play("s . . t t t t t t . . s t2 x .")
    cur = current(board)
    assert (cur["shooter"], cur["ball_in_hand"]) == ("a", True)
    assert cur["pocket_choice"] == {"a": True, "b": False}
    assert cur["eight_pocket"]["a"] == 5          # not named: the opposite pocket (Decision)
    board.push({"cmd": "pocket8", "pocket": 1})
    board.push({"cmd": "pot8", "pocket": 1})
    board.push({"cmd": "shot"})
    assert last_game(board)["reason"] == "eight" and last_game(board)["winner"] == "a"


def test_2_2_8b6f_own_last_ball_on_a_foul_shot_gives_no_choice():
    """RULES 2.2 / 8B:6f: only the *opponent* potting one's last ball opens the choice; one's own
    last ball into a middle pocket, even on a foul, fixes the other middle pocket."""
    board = play(B_SOLIDS_A_TO_PLAY + " t t t t t t t2 x .")
    cur = current(board)
    assert cur["shooter"] == "b" and cur["pocket_choice"] == {"a": False, "b": False}
    assert cur["eight_pocket"]["a"] == 5


# -- 2.3 break ------------------------------------------------------------------------

@pytest.mark.parametrize("header, breaker", [
    ({"first_break": "b"}, "b"),
    ({"first_break": "a"}, "a"),
    ({"first_break": None, "home": "b"}, "a"),
    ({"first_break": None, "home": "a"}, "b"),
    ({"first_break": None}, "b"),
    ({"first_break": "b", "home": "b"}, "b"),
])
def test_2_3_first_break_home_racks_away_breaks(header, breaker):
    """RULES 2.3 / 8B:2b: the away player breaks the first game; an explicit first_break wins."""
    board = play(**header)
    assert current(board)["breaker"] == breaker == current(board)["shooter"]
    assert current(board)["break_shot"] is True


@pytest.mark.parametrize("extra", ["", "x", "f"])
def test_2_3_illegal_break_rebreaks_by_the_same_player(extra):
    """RULES 2.3 / 8B:6e: nothing potted, <2 balls to a cushion: re-rack, same breaker, no ball in hand."""
    board = play(f"nc {extra} .")
    cur = current(board)
    assert (cur["breaker"], cur["shooter"], cur["break_shot"]) == ("b", "b", True)
    assert cur["ball_in_hand"] is False and cur["left"] == {"solids": 7, "stripes": 7}
    assert board.summary()["games_log"] == [] and cur["fouls"] == {"a": 0, "b": 0}


def test_2_3_nocushion_only_on_a_break_without_pots():
    """RULES 2.3: nocushion describes a break shot that potted nothing."""
    refused(play(B_SOLIDS_A_TO_PLAY), "nc", "not_break")
    refused(play("s"), "nc", "nocushion_with_pot")
    refused(play("8@1"), "nc", "nocushion_with_pot")
    board = play("nc")
    refused(board, "s", "nocushion_with_pot")
    refused(board, "8@2", "nocushion_with_pot")
    refused(board, "nc", "already_entered")


@pytest.mark.parametrize("tokens", ["8@3 .", "8@3 x .", "s t 8@3 .", "8@3 f ."])
def test_2_3_eight_on_the_break_rerack_same_breaker_no_penalty(tokens):
    """RULES 2.3 / 8B:2d: 8 on the break: re-rack, the same player breaks, no penalty, not a game."""
    board = play(tokens)
    cur = current(board)
    assert (cur["breaker"], cur["shooter"], cur["break_shot"], cur["ball_in_hand"]) == ("b", "b", True, False)
    assert cur["left"] == {"solids": 7, "stripes": 7} and board.summary()["games_log"] == []


def test_2_3_pot_on_legal_break_keeps_breaker_and_fixes_group():
    """RULES 2.3 / 8B:2e, 8B:2c: the breaker stays and the first legally potted ball fixes the group."""
    cur = current(play("t ."))
    assert cur["shooter"] == "b" and cur["break_shot"] is False
    assert cur["groups"] == {"a": "solids", "b": "stripes"} and cur["open_table"] is False
    assert cur["left"] == {"solids": 7, "stripes": 6}


def test_2_3_both_groups_on_the_break_breaker_chooses():
    """RULES 2.3: balls of both groups on the break: the breaker chooses before the next shot."""
    board = play("s t t .")
    cur = current(board)
    assert cur["must_choose"] is True and cur["shooter"] == "b" and cur["open_table"] is True
    board.push({"cmd": "choose", "group": "solids"})
    cur = current(board)
    assert cur["groups"] == {"a": "stripes", "b": "solids"} and cur["must_choose"] is False
    assert cur["shooter"] == "b"


def test_2_3_empty_legal_break_passes_the_table_with_an_open_shot():
    """RULES 2.3, 2.4 / 8B:6d: a legal break potting nothing ends the visit; open first shot follows."""
    cur = current(play("."))
    assert cur["shooter"] == "a" and cur["open_table"] is True and cur["open_shot"] is True
    assert cur["ball_in_hand"] is False


def test_2_3_scratch_on_the_break_ball_in_hand_and_no_group():
    """RULES 2.3, 2.6: a scratch on a legal break is a foul; balls potted stay down, no group fixed."""
    cur = current(play("s s x ."))
    assert cur["shooter"] == "a" and cur["ball_in_hand"] is True and cur["open_table"] is True
    assert cur["left"]["solids"] == 5 and cur["fouls"] == {"a": 0, "b": 1} and cur["open_shot"] is False


def test_2_3_empty_break_with_a_scratch_gives_ball_in_hand_and_the_open_shot():
    """RULES 2.3, 2.4 / 8B:6d, 2.6: cushions reached, nothing potted, cue ball down: both apply."""
    cur = current(play("x ."))
    assert (cur["shooter"], cur["ball_in_hand"], cur["open_shot"]) == ("a", True, True)
    cur = current(play("x . ."))
    assert (cur["shooter"], cur["ball_in_hand"], cur["open_shot"]) == ("b", False, False)


def test_2_3_breaks_alternate_within_a_set_and_sets_open_alternately():
    """RULES 2.3 Decision: breaks alternate game by game; each set opened by the other player."""
    board = play(games_to_win=2, sets_to_win=3)
    breakers = []
    for winner in "aa" + "bab" + "a":   # set 1 a 2:0, set 2 b 2:1, then set 3
        breakers.append(current(board)["breaker"])
        board.push({"cmd": "game", "winner": winner})
    breakers.append(current(board)["breaker"])
    # set 1 opened by b; set 2 by a (a breaks twice in a row); set 3 by b again.
    assert breakers == ["b", "a", "a", "b", "a", "b", "a"]
    assert [(g["set"], g["game"], g["breaker"]) for g in board.summary()["games_log"]] == [
        (1, 1, "b"), (1, 2, "a"), (2, 1, "a"), (2, 2, "b"), (2, 3, "a"), (3, 1, "b")]


def test_2_3_rerack_and_pat_do_not_count_as_games():
    """RULES 2.3 Decision: a re-rack or a PAT replay does not count as a game for the alternation."""
    board = play("nc . 8@1 . s . pat . g:b")
    assert board.summary()["games_log"][0]["game"] == 1
    assert current(board)["breaker"] == "a"


# -- 2.4 open table and groups -------------------------------------------------------

def test_2_4_first_legal_pot_after_empty_break_fixes_group():
    """RULES 2.4 / 8B:2c: the first ball legally potted fixes the shooter's group."""
    board = play(". t .")
    cur = current(board)
    assert cur["groups"] == {"a": "stripes", "b": "solids"} and cur["shooter"] == "a"


def test_2_4_both_groups_must_choose_blocks_the_next_shot():
    """RULES 2.4: both groups in the fixing shot: choose before the next shot; nothing else gets in."""
    board = play(". s t .")
    assert current(board)["must_choose"] is True
    for token in ("s", "8@1", "x", "f", ".", "pat", "n8@2"):
        refused(board, token, "must_choose")
    refused(board, {"cmd": "choose", "group": "spots"}, "bad_argument")
    board.push({"cmd": "choose", "group": "stripes"})
    assert current(board)["groups"] == {"a": "stripes", "b": "solids"}
    refused(board, {"cmd": "choose", "group": "solids"}, "nothing_to_choose")


def test_2_4_8b6d_open_shot_any_ball_first_without_foul():
    """RULES 2.4 / 8B:6d: on the first shot after an empty break, hitting any ball first is no foul."""
    board = play(".")
    refused(board, "f:b", "not_a_foul")
    refused(board, "f:e", "not_a_foul")
    board.push({"cmd": "foul", "code": "c"})   # missing every ball is still a foul


def test_2_4_8b6d_only_the_first_shot_of_the_first_visit():
    """RULES 2.4 / 8B:6d: after that shot (here a miss) the open shot is gone."""
    board = play(". .")
    assert current(board)["open_shot"] is False and current(board)["shooter"] == "b"
    board.push({"cmd": "foul", "code": "e"})


def test_2_4_8b6d_potting_the_eight_on_the_open_shot_loses():
    """RULES 2.4 / 8B:6d: the 8 on that shot loses the game."""
    board = play(". 8@1 .")
    assert last_game(board)["reason"] == "eight_early" and last_game(board)["winner"] == "b"


def test_2_4_foul_shot_does_not_fix_a_group():
    """RULES 2.4: only a *legally* potted ball fixes the group."""
    cur = current(play(". s f ."))
    assert cur["open_table"] is True and cur["left"]["solids"] == 6


def test_2_4_foul_b_needs_groups():
    """RULES 2.6 / 8B:3b: with the table open there is no opponent's ball to hit first."""
    refused(play(". ."), "f:b", "not_a_foul")


# -- 2.5 continuing ---------------------------------------------------------------------

def test_2_5_own_ball_continues_miss_ends_visit():
    """RULES 2.5 / 8B:2e: the shooter continues while potting their own group."""
    board = play(B_SOLIDS_A_TO_PLAY + " t .")
    assert current(board)["shooter"] == "a"
    board.push({"cmd": "shot"})
    assert current(board)["shooter"] == "b"


def test_2_5_only_opponent_ball_ends_visit():
    """RULES 2.5: a visit ends when no own ball drops, even if an opponent ball did."""
    cur = current(play(B_SOLIDS_A_TO_PLAY + " s ."))
    assert cur["shooter"] == "b" and cur["left"]["solids"] == 5 and cur["ball_in_hand"] is False


def test_2_5_combination_with_own_ball_continues():
    """RULES 2.5 / 8B:2h: own and opponent ball in one legal shot: the shooter continues."""
    assert current(play(B_SOLIDS_A_TO_PLAY + " s t ."))["shooter"] == "a"


# -- 2.6 fouls and ball in hand ---------------------------------------------------------

def test_2_6_foul_gives_ball_in_hand_for_the_next_shot_only():
    """RULES 2.6 / 8B:4, 8B:6c: ball in hand for the first shot of the opponent's next visit only."""
    board = play(B_SOLIDS_A_TO_PLAY + " f:b .")
    cur = current(board)
    assert cur["shooter"] == "b" and cur["ball_in_hand"] is True and cur["fouls"] == {"a": 1, "b": 0}
    board.push({"cmd": "pot", "ball": "solid"})
    board.push({"cmd": "shot"})
    cur = current(board)
    assert cur["shooter"] == "b" and cur["ball_in_hand"] is False   # visit goes on, without ball in hand


def test_2_6_scratch_is_a_foul_and_several_fouls_count_once():
    """RULES 2.6 / 8B:3a, 8B:3r: a scratch alone is a foul; several fouls in one shot count once."""
    cur = current(play(B_SOLIDS_A_TO_PLAY + " x f:c f:n t ."))
    assert cur["shooter"] == "b" and cur["ball_in_hand"] is True and cur["fouls"]["a"] == 1
    assert cur["left"]["stripes"] == 6    # the ball potted on the foul stays down


def test_2_6_ball_in_hand_survives_a_foul_by_the_incoming_player_for_the_other():
    """RULES 2.6: a foul on the ball-in-hand shot passes ball in hand back."""
    cur = current(play(B_SOLIDS_A_TO_PLAY + " f . x ."))
    assert cur["shooter"] == "a" and cur["ball_in_hand"] is True and cur["fouls"] == {"a": 1, "b": 1}


@pytest.mark.parametrize("code", ["b", "c", "d", "e", "f", "g", "h", "ch", "i", "j", "k", "l", "m", "n", "o"])
def test_2_6_foul_codes_of_8b3(code):
    """RULES 2.6: the referee may name the 8B:3 letter of the foul."""
    board = play(B_SOLIDS_A_TO_PLAY)
    board.push({"cmd": "foul", "code": code})
    assert current(board)["pending"] == [{"cmd": "foul", "code": code}]


@pytest.mark.parametrize("code", ["a", "p", "r", "z", "B", 3])
def test_2_6_foul_codes_not_taken(code):
    """RULES 2.6: 3a is a scratch, 3p an illegal break (nocushion), 3r not a foul; others unknown."""
    refused(play(B_SOLIDS_A_TO_PLAY), {"cmd": "foul", "code": code}, "bad_argument")


def test_2_6_foul_e_refused_once_the_group_is_cleared():
    """RULES 2.6 / 8B:3e: hitting the 8 first is a foul only before the group is cleared."""
    board = play(B_NEEDS_EIGHT + " .")
    assert current(board)["shooter"] == "b"
    refused(board, "f:e", "not_a_foul")


# -- 2.7 losing the game ----------------------------------------------------------------

@pytest.mark.parametrize("tokens, reason", [
    ("8@6 .", "eight"),
    ("8@1 .", "eight_wrong_pocket"),
    ("t5 8@6 .", "eight_with_opponent_ball"),
    ("f:d 8@6 .", "eight_foul"),
    ("x 8@6 .", "eight_scratch"),
    ("x f t5 8@1 .", "eight_scratch"),
    ("f t5 8@1 .", "eight_foul"),
    ("t5 8@1 .", "eight_with_opponent_ball"),
])
def test_2_7_ways_to_win_and_lose_on_the_eight_in_priority_order(tokens, reason):
    """RULES 2.7 / 8B:5a-e: when several losses apply, the first in the issue's order names it."""
    board = play(B_NEEDS_EIGHT + " . " + tokens)
    game = last_game(board)
    assert game["reason"] == reason
    assert game["winner"] == ("b" if reason == "eight" else "a")


@pytest.mark.parametrize("tokens", ["8@1 .", "t5 8@2 .", "x 8@2 .", "f 8@2 ."])
def test_2_7_eight_before_the_group_is_cleared_loses_early_first(tokens):
    """RULES 2.7 / 8B:5a, 5e: the 8 before the group is cleared; 'early' wins over the other reasons."""
    board = play(B_NEEDS_EIGHT + " " + tokens)   # a still has one stripe
    assert last_game(board)["reason"] == "eight_early" and last_game(board)["winner"] == "b"


def test_2_7_eight_with_the_last_group_ball_is_early():
    """RULES 2.7 Decision: the 8 in the same shot as one's last group ball is potting it early."""
    board = play(B_NEEDS_EIGHT + " t1 8@4 .")
    assert last_game(board)["reason"] == "eight_early" and last_game(board)["winner"] == "b"


def test_2_7_eight_on_open_table_is_early():
    """RULES 2.7: no group yet means the group is not cleared."""
    board = play("x . . 8@1 .")
    assert last_game(board)["reason"] == "eight_early"


def test_2_7_last_group_ball_needs_its_pocket():
    """RULES 2.2, 2.7: the pocket of a group's last ball is required (it fixes the 8 pocket)."""
    board = play(B_SOLIDS_A_TO_PLAY + " t t t t t t")
    refused(board, "t", "pocket_required")
    board.push({"cmd": "pot", "ball": "stripe", "pocket": 4})
    refused(board, "t3", "no_balls_left")
    refused(play(B_NEEDS_EIGHT), {"cmd": "pot8"}, "pocket_required")


@pytest.mark.parametrize("pocket", [0, 7, "3", True, 2.5, -1])
def test_2_7_pocket_must_be_1_to_6(pocket):
    """RULES 2.1: pockets are numbered 1-6."""
    board = play(B_SOLIDS_A_TO_PLAY)
    refused(board, {"cmd": "pot", "ball": "stripe", "pocket": pocket}, "bad_pocket")
    refused(board, {"cmd": "pot8", "pocket": pocket}, "bad_pocket")


def test_2_7_losing_game_records_fouls_groups_and_balls_left():
    """RULES 2.9: the record keeps breaker, winner, reason, groups, fouls per player, balls left."""
    board = play(B_NEEDS_EIGHT + " f . x 8@6 .")
    assert last_game(board) == {
        "set": 1, "game": 1, "breaker": "b", "winner": "a", "reason": "eight_scratch",
        "groups": {"a": "stripes", "b": "solids"}, "fouls": {"a": 1, "b": 1}, "loser_left": 0,
    }
    board = play(B_NEEDS_EIGHT + " . 8@6 .")
    assert last_game(board)["loser_left"] == 1


def test_2_7_ball_leaving_the_table_is_not_entered():
    """RULES 2.7 / 8B:6b: a ball jumped off the table is spotted: the referee enters nothing, counts stay."""
    cur = current(play(B_SOLIDS_A_TO_PLAY + " ."))
    assert cur["left"] == {"solids": 6, "stripes": 7}


# -- 2.8 stalemate ------------------------------------------------------------------------

def test_2_8_pat_replays_with_the_same_breaker():
    """RULES 2.8 / 8B:8: PAT: the game is replayed, broken by the stalemated game's breaker."""
    board = play(B_NEEDS_EIGHT + " f . pat")
    cur = current(board)
    assert (cur["breaker"], cur["shooter"], cur["break_shot"]) == ("b", "b", True)
    assert cur["left"] == {"solids": 7, "stripes": 7} and cur["fouls"] == {"a": 0, "b": 0}
    assert board.summary()["games_log"] == [] and board.summary()["games"] == {"a": 0, "b": 0}


def test_2_8_pat_refused_before_the_break_and_during_a_shot():
    """RULES 2.8: no PAT with a full rack; a shot being entered is closed first."""
    refused(play(), "pat", "not_in_play")
    refused(play(B_SOLIDS_A_TO_PLAY + " t"), "pat", "shot_open")


# -- 2.9 match structure ------------------------------------------------------------------

def test_2_9_race_to_games_and_sets_then_match_over():
    """RULES 2.9 / 8B:8: N won games make a set, M won sets the match; then commands are refused."""
    board = play("g:a g:b g:a g:a", games_to_win=3, sets_to_win=2)
    s = board.summary()
    assert s["sets"] == {"a": 1, "b": 0} and s["games"] == {"a": 0, "b": 0} and s["set"] == 2
    for _ in range(3):
        board.push({"cmd": "game", "winner": "a"})
    s = board.summary()
    assert s["finished"] is True and s["winner"] == "a" and s["sets"] == {"a": 2, "b": 0}
    assert s["games"] == {"a": 3, "b": 0} and s["set"] == 2 and s["current"]["shooter"] is None
    assert [g["reason"] for g in s["games_log"]] == ["reported"] * 7
    for token in (".", "s", "g:b", "ff:a", "pat"):
        refused(board, token, "match_over")


def test_2_9_quick_game_scoring_needs_a_closed_shot():
    """RULES 2.9: a game reported without detail; refused while a shot is being entered."""
    refused(play("s"), "g:a", "shot_open")
    refused(play(), {"cmd": "game", "winner": "c"}, "bad_argument")
    game = play("g:a").summary()["games_log"][0]
    assert game == {"set": 1, "game": 1, "breaker": "b", "winner": "a", "reason": "reported",
                    "groups": {"a": None, "b": None}, "fouls": {"a": 0, "b": 0}, "loser_left": None}


def test_2_9_forfeit_ends_the_match():
    """RULES 2.9: a forfeit loses the whole match; the unfinished game is logged as "forfeit"."""
    board = play("g:a " + B_SOLIDS_A_TO_PLAY + " t ff:a")
    s = board.summary()
    assert (s["finished"], s["winner"], s["forfeit"]) == (True, "b", "a")
    assert s["games_log"][-1]["reason"] == "forfeit" and s["games_log"][-1]["winner"] == "b"
    assert s["games"] == {"a": 1, "b": 0} and s["current"]["pending"] == []
    board = play("s . f .")
    assert current(board)["ball_in_hand"] is True
    board.push({"cmd": "forfeit", "by": "b"})
    cur = current(board)
    assert (cur["shooter"], cur["ball_in_hand"]) == (None, False)
    refused(play(), {"cmd": "forfeit", "by": "x"}, "bad_argument")


def test_2_9_winning_the_eight_counts_a_game_and_starts_the_next_rack():
    """RULES 2.9, 2.3: a won game counts; the next game is broken by the other player."""
    board = play(B_NEEDS_EIGHT + " . 8@6 .")
    s = board.summary()
    assert s["games"] == {"a": 0, "b": 1}
    assert s["current"]["breaker"] == "a" and s["current"]["break_shot"] is True
    assert s["current"]["left"] == {"solids": 7, "stripes": 7}
