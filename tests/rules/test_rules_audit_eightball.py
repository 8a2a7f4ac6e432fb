"""Independent audit of the 8-ball core (RULES Part 2): referee scenarios for the tricky cases.
Notation: tests/rules/eightball_helpers.py."""
from itertools import combinations

import pytest
from eightball_helpers import B_NEEDS_EIGHT, B_SOLIDS_A_TO_PLAY, HEADER, current, play, refused
from eightball_strategies import SETTINGS, header, run, sequences
from hypothesis import given
from hypothesis import strategies as st

from rules.board import Board
from rules.eightball.core import summary as eightball_summary


def log(board) -> list:
    return board.summary()["games_log"]


def fresh_rack(cur: dict, breaker: str) -> bool:
    return (cur["breaker"], cur["shooter"], cur["break_shot"], cur["ball_in_hand"],
            cur["open_table"], cur["left"], cur["fouls"]) == (
        breaker, breaker, True, False, True, {"solids": 7, "stripes": 7}, {"a": 0, "b": 0})


# -- 2.3 break ----------------------------------------------------------------------------------
def test_2_3_eight_on_the_break_with_balls_a_scratch_and_a_foul_is_a_clean_rerack():
    """RULES 2.3 / 8B:2d: the 8 on the break re-racks for the same breaker without penalty, whatever
    else dropped or was fouled; it is not a game, so game 1 is still to be played and the next
    legal break keeps its group rules."""
    board = play("s t t x f:h 8@2 .")
    assert fresh_rack(current(board), "b") and log(board) == []
    board.push({"cmd": "pot", "ball": "stripe"})
    board.push({"cmd": "shot"})
    assert current(board)["groups"] == {"a": "solids", "b": "stripes"}


def test_2_3_illegal_breaks_in_a_row_keep_the_same_breaker():
    """RULES 2.3 / 8B:6e, 2.6 Decision: an illegal break — even with a scratch — re-racks for the
    same player, every time, never ball in hand."""
    board = play("nc . nc x . nc f .")
    assert fresh_rack(current(board), "b") and log(board) == []


def test_2_3_scratch_on_a_break_that_potted_passes_ball_in_hand_and_keeps_the_table_open():
    """RULES 2.3, 2.4, 2.6: a scratch on a legal break is a foul: balls stay down, no group, the
    opponent has ball in hand — no 8B:6d open shot (the break potted); the opponent's first legal
    pot fixes the groups and ball in hand is gone after that shot."""
    board = play("s t x .")
    cur = current(board)
    assert (cur["shooter"], cur["ball_in_hand"], cur["open_table"], cur["open_shot"]) == (
        "a", True, True, False)
    board.push({"cmd": "foul", "code": "e"})         # the 8 first on an open table is a foul here
    board.push({"cmd": "shot"})
    assert (current(board)["shooter"], current(board)["ball_in_hand"]) == ("b", True)
    board = play("s t x . t .")
    cur = current(board)
    assert cur["groups"] == {"a": "stripes", "b": "solids"}
    assert (cur["shooter"], cur["ball_in_hand"]) == ("a", False)


def test_2_3_both_groups_on_the_break_breaker_chooses_then_plays_on():
    """RULES 2.3 / 8B:2c: both groups on the legal break: the breaker chooses (even the group with
    fewer balls down) before the next shot, then continues the visit."""
    board = play("s s t .")
    refused(board, ".", "must_choose")
    board.push({"cmd": "choose", "group": "stripes"})
    cur = current(board)
    assert cur["groups"] == {"a": "solids", "b": "stripes"} and cur["shooter"] == "b"
    assert cur["left"] == {"solids": 5, "stripes": 6}
    board.push({"cmd": "pot", "ball": "solid"})        # only the opponent's ball: the visit ends
    board.push({"cmd": "shot"})
    assert current(board)["shooter"] == "a" and current(board)["ball_in_hand"] is False


def test_2_3_both_groups_on_a_break_with_a_foul_fix_nothing():
    """RULES 2.4, 2.6: balls potted on a foul shot fix no group, so there is nothing to choose."""
    cur = current(play("s t f ."))
    assert (cur["must_choose"], cur["open_table"], cur["shooter"], cur["ball_in_hand"]) == (
        False, True, "a", True)


# -- 2.4 / 8B:6d open shot ------------------------------------------------------------------------
def test_2_4_8b6d_open_shot_potting_both_groups_must_choose_and_continues():
    """RULES 2.4 / 8B:6d, 2c: on the open shot any ball may be hit; pots count as legal, both
    groups → the shooter chooses and continues the first visit."""
    board = play(". s t .")
    cur = current(board)
    assert (cur["must_choose"], cur["shooter"], cur["open_shot"]) == (True, "a", False)
    board.push({"cmd": "choose", "group": "solids"})
    assert current(board)["groups"] == {"a": "solids", "b": "stripes"}


def test_2_4_8b6d_open_shot_with_ball_in_hand_after_a_scratched_empty_break():
    """RULES 2.4 / 8B:6d and 2.6: both apply to the same first shot; the 8 on it loses."""
    board = play("x . s 8@3 .")
    assert log(board)[0]["reason"] == "eight_early" and log(board)[0]["winner"] == "b"
    assert log(board)[0]["fouls"] == {"a": 0, "b": 1}


def test_2_4_8b6d_is_the_incoming_players_only():
    """RULES 2.4 / 8B:6d: after a miss on the open shot the breaker's next shot is an ordinary one
    (8 first on an open table is a foul again)."""
    board = play(". .")
    cur = current(board)
    assert (cur["shooter"], cur["open_shot"]) == ("b", False)
    board.push({"cmd": "foul", "code": "e"})
    assert current(board)["pending"] == [{"cmd": "foul", "code": "e"}]


# -- 2.6 ball in hand --------------------------------------------------------------------------------
def test_2_6_ball_in_hand_is_for_the_first_shot_of_the_next_visit_only():
    """RULES 2.6 / 8B:4, 8B:6c: after a's foul, b has ball in hand for one shot; b pots and goes on
    without it; when b misses, a has no ball in hand."""
    board = play(B_SOLIDS_A_TO_PLAY + " f:c .")
    assert (current(board)["shooter"], current(board)["ball_in_hand"]) == ("b", True)
    board.push({"cmd": "pot", "ball": "solid"})
    board.push({"cmd": "shot"})
    assert (current(board)["shooter"], current(board)["ball_in_hand"]) == ("b", False)
    board.push({"cmd": "shot"})
    assert (current(board)["shooter"], current(board)["ball_in_hand"]) == ("a", False)


def test_2_6_ball_in_hand_does_not_carry_into_a_new_rack_or_pat():
    """RULES 2.6, 2.8: a PAT replay and a new game start without ball in hand."""
    assert fresh_rack(current(play(B_SOLIDS_A_TO_PLAY + " f . pat")), "b")


# -- 2.7 loss reasons in priority order ----------------------------------------------------------
# a (stripes) has one stripe left, b (solids) six solids; a is at the table, after one more
# (empty) shot-closing "." below. a's shot pots the 8 and may add one of these:
A_ONE_STRIPE_LEFT = B_SOLIDS_A_TO_PLAY + " t t t t t t"
LOSS_PARTS = {
    "early": "t1",          # the last stripe in the same shot (RULES 2.7 Decision)
    "scratch": "x",
    "foul": "f:h",
    "opponent": "s",        # one of b's solids
    "pocket": None,         # the 8 into a wrong pocket instead of the required one (4)
}
ORDER = ("early", "scratch", "foul", "opponent", "pocket")
REASON = {"early": "eight_early", "scratch": "eight_scratch", "foul": "eight_foul",
          "opponent": "eight_with_opponent_ball", "pocket": "eight_wrong_pocket"}
ALL_MIXES = [mix for n in range(len(ORDER) + 1) for mix in combinations(ORDER, n)]


@pytest.mark.parametrize("mix", ALL_MIXES, ids=lambda mix: "+".join(mix) or "legal")
def test_2_7_every_mix_of_losses_names_the_first_in_order(mix):
    """RULES 2.7 / 8B:5a-e and issue 3: when several losses apply, the first in the order early,
    scratch, foul, opponent's ball, wrong pocket names the reason; none → a legal 8 wins."""
    # early: the last stripe drops with the 8; otherwise a first clears it into 1 and plays on.
    setup = A_ONE_STRIPE_LEFT + " ." if "early" in mix else A_ONE_STRIPE_LEFT + " . t1 ."
    tokens = [LOSS_PARTS[part] for part in mix if LOSS_PARTS[part]]
    pocket = 2 if "pocket" in mix else 4               # 4 is opposite 1
    board = play(" ".join([setup, *tokens, f"8@{pocket}", "."]))
    game = log(board)[-1]
    expected = REASON[mix[0]] if mix else "eight"
    assert game["reason"] == expected
    assert game["winner"] == ("a" if expected == "eight" else "b")
    assert game["loser_left"] == (6 if expected == "eight" else 0)


# -- 2.2 required pocket -------------------------------------------------------------------------
def test_2_2_last_group_ball_and_an_opponent_ball_together_fix_the_pocket_by_the_own_ball():
    """RULES 2.2 / 8B:1: a's last stripe into 3 with a solid into 2 in the same legal shot: the 8
    must go opposite 3 (6); a continues (own ball potted)."""
    board = play(A_ONE_STRIPE_LEFT + " . s2 t3 .")
    cur = current(board)
    assert cur["shooter"] == "a" and cur["eight_pocket"]["a"] == 6
    assert cur["pocket_choice"]["a"] is False
    board.push({"cmd": "pot8", "pocket": 6})
    board.push({"cmd": "shot"})
    assert log(board)[-1]["reason"] == "eight" and log(board)[-1]["winner"] == "a"


def test_2_2_two_last_balls_in_one_shot_the_last_entered_fixes_the_pocket():
    """RULES 2.2: when the last two balls drop together, the one entered last is the seventh."""
    board = play(B_SOLIDS_A_TO_PLAY + " t t t t t")
    board.push({"cmd": "pot", "ball": "stripe"})                 # optional pocket: one more left
    refused(board, "t", "pocket_required")
    board.push({"cmd": "pot", "ball": "stripe", "pocket": 1})
    board.push({"cmd": "shot"})
    assert current(board)["eight_pocket"]["a"] == 4


def test_2_2_last_ball_on_a_foul_still_fixes_the_pocket():
    """RULES 2.2 / 8B:1: the pocket where the seventh ball dropped counts even if the shot fouled
    (the ball stays down, 2.6); the opponent has ball in hand."""
    board = play(B_NEEDS_EIGHT + " t3 x .")
    cur = current(board)
    assert (cur["shooter"], cur["ball_in_hand"]) == ("b", True)
    assert cur["eight_pocket"] == {"a": 6, "b": 6} and cur["left"]["stripes"] == 0


def test_2_2_8b6f_named_pocket_stands_until_the_8_and_wrong_one_loses():
    """RULES 2.2 / 8B:6f: b cleared a's stripes into middle pocket 5; a names 3 and then pots the
    8 into 2 (the usual opposite): that is a wrong pocket now — the named one counts."""
    setup = "s . . t t t t t t . . s t5 . ."              # b's combination; b missed after
    board = play(setup)
    assert current(board)["shooter"] == "a" and current(board)["pocket_choice"]["a"] is True
    board = play(setup + " n8@3 . .")                 # named, missed; b missed; a again
    assert current(board)["shooter"] == "a" and current(board)["eight_pocket"]["a"] == 3
    board.push({"cmd": "pot8", "pocket": 2})
    board.push({"cmd": "shot"})
    assert log(board)[-1]["reason"] == "eight_wrong_pocket" and log(board)[-1]["winner"] == "b"


# -- 2.3 / 2.8 / 2.9 breaks, PAT and races --------------------------------------------------------
def test_2_8_pat_in_game_2_is_rebroken_by_game_2s_breaker_and_alternation_goes_on():
    """RULES 2.8, 2.3 Decision: game 2 (broken by a) is stalemated: a breaks the replay; game 3 is
    broken by b as if the PAT never happened."""
    board = play("g:a s . pat", games_to_win=3)
    assert fresh_rack(current(board), "a")
    board.push({"cmd": "game", "winner": "b"})
    assert current(board)["breaker"] == "b"
    assert [(g["game"], g["breaker"]) for g in log(board)] == [(1, "b"), (2, "a")]


def test_2_9_quick_games_mixed_with_shot_detail():
    """RULES 2.9, 2.3: a game played shot by shot, then one reported, then shots again: games,
    breakers and reasons follow on."""
    board = play(B_NEEDS_EIGHT + " . 8@6 . g:a s s . .", games_to_win=3)
    s = board.summary()
    assert [(g["breaker"], g["winner"], g["reason"]) for g in s["games_log"]] == [
        ("b", "b", "eight"), ("a", "a", "reported")]
    cur = s["current"]
    assert (cur["breaker"], cur["shooter"], cur["groups"]["b"]) == ("b", "a", "solids")
    assert s["games"] == {"a": 1, "b": 1}


def test_2_9_race_to_one_game_one_set_ends_on_the_first_8():
    """RULES 2.9: the shortest race: the first legal 8 wins the match."""
    board = play(B_NEEDS_EIGHT + " . 8@6 .", games_to_win=1, sets_to_win=1)
    s = board.summary()
    assert (s["finished"], s["winner"], s["sets"], s["games"]) == (True, "b", {"a": 0, "b": 1},
                                                                   {"a": 0, "b": 1})
    refused(board, ".", "match_over")


def test_2_3_set_openers_alternate_from_a_first_break():
    """RULES 2.3 Decision: first_break a opens set 1, b set 2, a set 3; within a set breaks alternate."""
    board = play("g:a g:a g:b g:a g:b", games_to_win=2, sets_to_win=3, first_break="a")
    assert [(g["set"], g["breaker"]) for g in log(board)] == [
        (1, "a"), (1, "b"), (2, "b"), (2, "a"), (2, "b")]
    assert (board.summary()["set"], current(board)["breaker"]) == (3, "a")


def test_2_9_forfeit_mid_shot_then_undo_restores_the_open_shot():
    """RULES 2.9: a forfeit ends the match with the pending inputs dropped; undo brings the shot
    being entered back."""
    board = play(B_SOLIDS_A_TO_PLAY + " t x ff:a")
    s = board.summary()
    assert (s["winner"], s["forfeit"], s["current"]["pending"]) == ("b", "a", [])
    board.push({"cmd": "undo"})
    assert current(board)["pending"] == [{"cmd": "pot", "ball": "stripe"}, {"cmd": "scratch"}]
    assert board.summary()["finished"] is False


def test_2_7_8b6b_the_8_off_the_table_is_spotted_no_foul_no_loss():
    """RULES 2.7 / 8B:6b: an object ball — the 8 included — that leaves the table is spotted: the
    referee enters nothing for it, so a shot whose only event was the 8 jumping off is a plain miss:
    no loss, no foul counted, no ball in hand, counts unchanged; a pot in that shot still counts."""
    board = play(A_ONE_STRIPE_LEFT + " .")
    before = current(board)
    board.push({"cmd": "shot"})
    cur = current(board)
    assert log(board) == [] and board.summary()["finished"] is False
    assert (cur["shooter"], cur["ball_in_hand"], cur["fouls"], cur["left"]) == (
        "b", False, before["fouls"], before["left"])
    board = play(A_ONE_STRIPE_LEFT + " . t1 .")          # own ball down while the 8 jumped off
    assert current(board)["shooter"] == "a" and log(board) == []


# -- every closed shot against RULES 2.3-2.7, over random play ------------------------------------
def expected_reason(cur: dict, pots: list, eight: int, scratch: bool, fouled: bool) -> str:
    """RULES 2.7 and issue 3's order, from the rack as it stood before the shot."""
    own = cur["groups"][cur["shooter"]]
    if own is None or cur["left"][own] > 0:
        return "eight_early"
    if scratch:
        return "eight_scratch"
    if fouled:
        return "eight_foul"
    if any(group != own for group in pots):
        return "eight_with_opponent_ball"
    return "eight" if eight == cur["eight_pocket"][cur["shooter"]] else "eight_wrong_pocket"


def check_closed_shot(before: dict, after: dict) -> None:
    cur, new = before["current"], after["current"]
    shooter, other = cur["shooter"], "b" if cur["shooter"] == "a" else "a"
    pending = cur["pending"]
    pots = [{"solid": "solids", "stripe": "stripes"}[c["ball"]] for c in pending if c["cmd"] == "pot"]
    eights = [c for c in pending if c["cmd"] == "pot8"]      # on the break without a pocket (8B:2d)
    eight = eights[0].get("pocket") if eights else None
    scratch = {"cmd": "scratch"} in pending
    fouled = scratch or any(c["cmd"] == "foul" for c in pending)
    nocushion = {"cmd": "nocushion"} in pending
    if cur["break_shot"] and (eights or nocushion):                     # 2.3: re-rack
        assert after["games_log"] == before["games_log"]
        assert (new["breaker"], new["shooter"], new["break_shot"], new["ball_in_hand"]) == (
            cur["breaker"], cur["breaker"], True, False)
        assert new["left"] == {"solids": 7, "stripes": 7}
        return
    if eights:                                                           # 2.7: the game ends
        assert len(after["games_log"]) == len(before["games_log"]) + 1
        game = after["games_log"][-1]
        reason = expected_reason(cur, pots, eight, scratch, fouled)
        assert game["reason"] == reason
        assert game["winner"] == (shooter if reason == "eight" else other)
        return
    assert after["games_log"] == before["games_log"]
    for group in ("solids", "stripes"):                                  # balls stay down
        assert new["left"][group] == cur["left"][group] - pots.count(group)
    assert new["break_shot"] is False
    assert new["open_shot"] == (cur["break_shot"] and not pots)         # 8B:6d
    check_last_ball(pending, cur, new, shooter)
    assert new["fouls"][shooter] == cur["fouls"][shooter] + fouled      # 8B:3r: once
    if fouled:                                                           # 2.6
        assert (new["shooter"], new["ball_in_hand"], new["must_choose"]) == (other, True, False)
        assert new["groups"] == cur["groups"]
        return
    assert new["ball_in_hand"] is False                                  # one shot only
    own = cur["groups"][shooter]
    if own is None and set(pots) == {"solids", "stripes"}:               # 2.4: choose
        assert (new["must_choose"], new["shooter"], new["groups"][shooter]) == (True, shooter, None)
    elif own is None and pots:                                           # 2.4 / 2c: fixed
        assert (new["groups"][shooter], new["shooter"]) == (pots[0], shooter)
    else:                                                                # 2.5
        assert new["groups"] == cur["groups"]
        assert new["shooter"] == (shooter if own in pots else other)


OPPOSITE = {1: 4, 4: 1, 3: 6, 6: 3, 2: 5, 5: 2}                       # RULES 2.2 Decision


def check_last_ball(pending: list, cur: dict, new: dict, shooter: str) -> None:
    """RULES 2.2 / 8B:1, 8B:6f: a group cleared in this shot fixes its owner's 8 pocket opposite the
    pocket of its last ball; the owner may name any pocket if the shooter was the opponent and
    that pocket is a middle one."""
    for ball, group in (("solid", "solids"), ("stripe", "stripes")):
        owner = next((p for p, g in new["groups"].items() if g == group), None)
        if cur["left"][group] == 0 or new["left"][group] != 0 or owner is None:
            continue
        last = [c for c in pending if c["cmd"] == "pot" and c["ball"] == ball][-1]["pocket"]
        assert new["eight_pocket"][owner] == OPPOSITE[last]
        assert new["pocket_choice"][owner] == (last in (2, 5) and owner != shooter)


@st.composite
def racks_played_through(draw):
    """Whole shots as a referee enters them, following the table so that groups get cleared and
    the 8 is played: mostly own balls, sometimes the opponent's, fouls now and then, the 8 often
    once the group is cleared, a named 8B:6f pocket when the choice is open."""
    extra = draw(header)
    board = Board({**HEADER, **extra})
    cmds = []

    def push(cmd):
        board.push(cmd)
        cmds.append(cmd)

    for _ in range(draw(st.integers(5, 60))):
        if board.finished:
            break
        cur = board.summary()["current"]
        if cur["must_choose"]:
            push({"cmd": "choose", "group": draw(st.sampled_from(["solids", "stripes"]))})
            continue
        if cur["pocket_choice"][cur["shooter"]] and draw(st.booleans()):
            push({"cmd": "pocket8", "pocket": draw(st.integers(1, 6))})
        own = cur["groups"][cur["shooter"]]
        left = dict(cur["left"])
        for _ in range(draw(st.integers(0, 3))):
            groups = [g for g in ("solids", "stripes") if left[g]]
            if not groups:
                break
            group = draw(st.sampled_from(groups + [own] * 3 if own in groups else groups))
            left[group] -= 1
            push({"cmd": "pot", "ball": group[:-1], "pocket": draw(st.integers(1, 6))})
        cleared = own is not None and left[own] == 0
        if draw(st.integers(0, 19)) < (14 if cleared else 1):
            push({"cmd": "pot8", "pocket": draw(st.integers(1, 6))})
        fault = draw(st.integers(0, 11))
        if fault == 0:
            push({"cmd": "scratch"})
        elif fault == 1:
            push({"cmd": "foul"})
        elif fault == 2 and cur["break_shot"] and not board.summary()["current"]["pending"]:
            push({"cmd": "nocushion"})
        push({"cmd": "shot"})
    return extra, cmds


@pytest.mark.slow
@SETTINGS
@given(st.one_of(st.tuples(header, sequences), racks_played_through()))
def test_every_closed_shot_follows_rules_2_3_to_2_7(play_):
    """RULES 2.3-2.7 restated shot by shot: whatever the sequence, each accepted `shot` turns the
    rack before it into the rack after it exactly as the clauses say (re-rack, end of game and its
    reason, balls down, the 8 pocket and the 8B:6f choice from a group's last ball, fouls once,
    ball in hand for one shot, open shot, group fixing or choice, continuing)."""
    extra, cmds = play_
    for board, cmd, before, accepted in run(extra, cmds):
        if accepted and cmd.get("cmd") == "shot":
            check_closed_shot(eightball_summary(before), board.summary())


def check_progression(s: dict, first_break: str) -> None:
    """RULES 2.3 Decision and 2.9, recomputed from the games log alone."""
    def opener(set_no: int) -> str:
        return first_break if set_no % 2 else ("b" if first_break == "a" else "a")

    sets, games, set_no = {"a": 0, "b": 0}, {"a": 0, "b": 0}, 1
    for entry in s["games_log"]:
        number = games["a"] + games["b"] + 1
        assert (entry["set"], entry["game"]) == (set_no, number)
        if entry["reason"] != "forfeit":
            expected = opener(set_no) if number % 2 else ("b" if opener(set_no) == "a" else "a")
            assert entry["breaker"] == expected
        games[entry["winner"]] += 1
        if entry["reason"] != "forfeit" and games[entry["winner"]] == s["games_to_win"]:
            sets[entry["winner"]] += 1
            if sets[entry["winner"]] < s["sets_to_win"]:
                set_no, games = set_no + 1, {"a": 0, "b": 0}
    assert s["sets"] == sets and s["set"] == set_no
    if s["forfeit"]:
        assert s["winner"] != s["forfeit"] and s["games_log"][-1]["reason"] == "forfeit"
        return
    assert s["games"] == games
    assert (s["winner"] is not None) == (max(sets.values()) == s["sets_to_win"])
    if s["winner"] is None and s["current"]["break_shot"] and not s["current"]["pending"]:
        number = games["a"] + games["b"] + 1
        expected = opener(set_no) if number % 2 else ("b" if opener(set_no) == "a" else "a")
        assert s["current"]["breaker"] == expected


@pytest.mark.slow
@SETTINGS
@given(header, sequences)
def test_games_sets_and_breakers_follow_rules_2_3_and_2_9(extra, cmds):
    """RULES 2.3 Decision (breaks alternate game by game from the set's opener; sets opened
    alternately; re-racks and PAT are no games) and 2.9 (races): after every command the log, the
    tallies and the next breaker agree with a recount from the log."""
    for board, _, _, _ in run(extra, cmds):
        check_progression(board.summary(), "b")
