"""Independent audit of the carom core (RULES Part 1): referee scenarios at the table, and a
second, deliberately naive implementation of RULES 1.2-1.4 that random command sequences must agree
with. Notation: tests/rules/carom_helpers.py (a number is a stroke, m miss, f foul, z frozen,
Fa/Fb forfeit, u undo, r redo)."""
import pytest
from carom_helpers import board, command, players, refused
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError


def figures(b, player: str) -> tuple:
    p = players(b)[player]
    return p["points"], p["innings"], p["series"], p["best_series"], p["average"]


# -- 1.4.1 / 1.4.4: A reaches the limit in the last inning of the innings limit -------------
LAST_INNING_LIMIT = "1 m 1 m 10 10 10"          # limits 30 / 2: A 1+29 in inning 2 (10 10 10→8)


def test_1_4_1_a_reaches_the_limit_in_the_last_inning_b_gets_the_equalising_inning():
    """RULES 1.4.1 / B.4.1: A's inning ends at once (the third 10 is credited 8); B, one inning
    behind, gets the equalising inning, which is also B's last."""
    b = board(LAST_INNING_LIMIT, points_limit=30, innings_limit=2)
    s = b.summary()
    assert s["finished"] is False and s["to_play"] == "b"
    assert figures(b, "a") == (30, 2, [1, 29], 29, "15.000")
    c = s["counter"]
    assert (c["equalising"], c["innings_left"], c["last_two"], c["inning"]) == (True, 1, True, 2)
    assert c["points_left"] == {"a": 0, "b": 29}
    refused(b, {"cmd": "correct", "player": "a", "inning": 2, "points": 20}, "limit_kept")


@pytest.mark.parametrize("ending, result, b_figures", [
    ("20 10", "draw", (30, 2, [1, 29], 29, "15.000")),     # B reaches the limit: draw (B.9.4)
    ("20 m", "a", (21, 2, [1, 20], 20, "10.500")),          # B falls short: A wins
    ("20 2 f", "a", (23, 2, [1, 22], 22, "11.500")),        # a foul keeps B's earlier karambols
])
def test_1_4_4_after_the_equalising_inning_in_the_last_inning(ending, result, b_figures):
    """RULES 1.4.4 / B.9.4, 1.4.6, 1.3: draw if B also reaches the limit (credited up to it),
    otherwise A wins; B's series counts up to the miss or foul."""
    b = board(f"{LAST_INNING_LIMIT} {ending}", points_limit=30, innings_limit=2)
    s = b.summary()
    assert s["finished"] is True and s["result"] == result and s["to_play"] is None
    assert figures(b, "b") == b_figures
    expected = {"draw": [1, 1], "a": [2, 0]}[result]
    assert [players(b)[p]["team_points"] for p in "ab"] == expected


def test_1_4_4_equalising_draw_with_raw_totals_when_the_cap_is_off():
    """RULES 1.4.4 / B.9.4 with cap_points_at_limit = false: B needs the points limit, not A's raw
    total; both are shown raw."""
    b = board("20 20 10 10 10", points_limit=30)          # A 40 (capped 30); B 30 in the equalising
    assert b.summary()["result"] == "draw" and figures(b, "a")[0] == 30
    b = board("20 20 10 10 10", points_limit=30, cap_points_at_limit=False)
    s = b.summary()
    assert s["result"] == "draw" and s["finished"] is True
    assert figures(b, "a")[:3] == (40, 1, [40]) and figures(b, "b")[:3] == (30, 1, [30])
    assert s["counter"]["points_left"] == {"a": 0, "b": 0}


@pytest.mark.parametrize("cap, a_series, a_points", [(True, [40, 10], 50), (False, [40, 20], 60)])
def test_1_4_6_a_20_crossing_the_limit_cap_on_and_off(cap, a_series, a_points):
    """RULES 1.4.6: with the cap the 20 that crosses 50 counts 10; without it, 20. Either way it
    ends A's inning at once (1.4.1) and the record keeps the raw 20."""
    b = board("20 20 m m 20", points_limit=50, cap_points_at_limit=cap)
    assert players(b)["a"]["series"] == a_series and players(b)["a"]["points"] == a_points
    assert b.summary()["to_play"] == "b" and b.summary()["counter"]["equalising"] is True
    assert b.history[-1] == {"cmd": "score", "value": 20}


def test_1_4_3_b_crossing_the_limit_with_a_20_wins_credited_with_the_limit():
    """RULES 1.4.3, 1.4.6: B's 20 from 45 is credited 5; the partie ends at once, B wins 50."""
    b = board("10 m 20 20 2 2 1 20", points_limit=50)
    s = b.summary()
    assert s["finished"] and s["result"] == "b"
    assert figures(b, "b") == (50, 1, [50], 50, "50.000")


def test_1_4_7_b_on_a_last_inning_passes_a_total_and_plays_on_to_the_miss():
    """RULES 1.4.7 Decision: B's last inning (innings limit) goes on past A's total until a miss."""
    b = board("10 m 10 1 1 1", innings_limit=1)
    assert b.summary()["finished"] is False and b.summary()["counter"]["series"] == 13
    b.push(command("m"))
    assert b.summary()["result"] == "b" and figures(b, "b")[:3] == (13, 1, [13])


# -- 1.4.8: forfeit mid-series ---------------------------------------------------------------
def test_1_4_8_forfeit_by_the_player_at_the_table_mid_series():
    """RULES 1.4.8 / B.9.3: the running series was played and counts; the forfeit marks it; no
    command but undo is accepted afterwards."""
    b = board("10 m 2 m 1 1 z Fa")
    s = b.summary()
    assert (s["finished"], s["forfeit"], s["result"], s["to_play"]) == (True, "a", "b", None)
    assert figures(b, "a")[:3] == (12, 2, [10, 2]) and figures(b, "b")[:3] == (2, 1, [2])
    assert [players(b)[p]["team_points"] for p in "ab"] == [0, 2]
    assert s["counter"]["frozen"] is False
    for token in ("1", "m", "f", "z", "Fb"):
        refused(b, token, "partie_over")
    b.push(command("u"))               # taken back: the series and the announcement are back
    c = b.summary()["counter"]
    assert (c["at_table"], c["series"], c["frozen"]) == ("a", 2, True)


def test_1_4_8_forfeit_by_the_player_waiting_mid_series_of_the_other():
    """RULES 1.4.8: B abandons while A is playing a series: A's series is counted, A wins."""
    b = board("10 m 2 m 10 2 Fb")
    s = b.summary()
    assert (s["result"], s["forfeit"]) == ("a", "b")
    assert figures(b, "a")[:3] == (22, 2, [10, 12]) and figures(b, "b")[:3] == (2, 1, [2])


# -- 1.2 guard across undo / redo ---------------------------------------------------------------
def test_1_2_frozen_guard_follows_undo_and_redo():
    """RULES 1.2: the guard is part of the state: undoing the stroke that ended it brings it back,
    redoing that stroke ends it again; undoing/redoing the announcement itself likewise."""
    b = board("10 z 1")
    assert b.summary()["counter"]["frozen"] is False
    b.push(command("u"))                                   # the 1 is taken back
    refused(b, "10", "frozen")
    b.push(command("r"))                                   # the 1 again: announcement over
    b.push(command("10"))
    assert b.summary()["counter"]["series"] == 21
    b = board("z m u")                                     # the miss that ended it, taken back
    refused(b, "20", "frozen")
    b = board("z u")
    b.push(command("20"))                                  # announcement taken back: 20 scores
    b = board("z u r")                                     # the announcement redone
    refused(b, "20", "frozen")


def test_1_2_refused_stroke_keeps_the_announcement():
    """RULES 1.2: a refused 10 is not an accepted stroke: frozen stays announced."""
    b = board("z")
    refused(b, "10", "frozen")
    assert b.summary()["counter"]["frozen"] is True
    b.push(command("2"))
    assert b.summary()["counter"]["frozen"] is False


# -- undo past the end, then a different command ------------------------------------------------
def test_undo_past_the_end_then_a_different_command_replaces_the_old_course():
    """Issue 2: undo any depth, also after the end; a new command clears redo. B had won (1.4.3);
    the referee takes back B's last two strokes and enters a miss instead: the partie goes on."""
    b = board("10 m 10 10 1", points_limit=21)
    assert b.summary()["result"] == "b"
    b.push(command("u"))
    b.push(command("u"))
    assert b.summary()["finished"] is False and b.summary()["counter"]["series"] == 10
    b.push(command("m"))
    s = b.summary()
    assert s["finished"] is False and s["to_play"] == "a" and players(b)["b"]["series"] == [10]
    refused(b, "r", "nothing_to_redo")
    assert [c["cmd"] for c in b.history] == ["score", "miss", "score", "score", "score",
                                             "undo", "undo", "miss"]


# -- an independent referee: RULES 1.2-1.4 written out naively ------------------------------
class Referee:
    """A second implementation of RULES 1.2-1.4.8 from the text, for comparison only."""

    def __init__(self, limit: int, innings: int, cap: bool):
        self.limit, self.innings_limit, self.cap = limit, innings, cap
        self.series = {"a": [], "b": []}
        self.turn, self.running, self.frozen = "a", 0, False
        self.over, self.result, self.forfeit = False, None, None

    def total(self, p):
        return sum(self.series[p])

    def close(self):
        self.series[self.turn].append(self.running)
        self.running, self.frozen = 0, False
        if self.turn == "a":
            self.turn = "b"        # B always gets the inning: its turn, the last or equalising one
            return
        self.turn = "a"
        a_done, b_done = self.total("a") >= self.limit, self.total("b") >= self.limit
        if a_done or b_done or len(self.series["b"]) == self.innings_limit:
            self.over = True
            if a_done and b_done:
                self.result = "draw"
            elif a_done or b_done:
                self.result = "a" if a_done else "b"
            else:
                diff = self.total("a") - self.total("b")
                self.result = "draw" if diff == 0 else ("a" if diff > 0 else "b")

    def apply(self, cmd: dict) -> bool:
        """False when the command must be refused."""
        name = cmd["cmd"]
        if self.over:
            return False
        if name == "score":
            value = cmd["value"]
            if value not in (1, 2, 10, 20) or (self.frozen and value >= 10):
                return False
            so_far = self.total(self.turn) + self.running
            self.running += min(value, self.limit - so_far) if self.cap else value
            self.frozen = False
            if so_far + value >= self.limit:
                self.close()
        elif name in ("miss", "foul"):
            self.close()
        elif name == "frozen":
            self.frozen = True
        elif name == "forfeit":
            if self.running:
                self.close()
            self.over, self.forfeit, self.frozen = True, cmd["by"], False
            self.result = "b" if cmd["by"] == "a" else "a"
        return True

    def view(self) -> dict:
        at_table = None if self.over else self.turn
        return {
            "finished": self.over, "result": self.result, "to_play": at_table,
            "forfeit": self.forfeit,
            "series": {p: self.series[p] for p in "ab"},
            "points": {p: self.total(p) + (self.running if p == at_table else 0) for p in "ab"},
            "running": self.running if at_table else 0, "frozen": self.frozen and not self.over,
        }


def core_view(b) -> dict:
    s = b.summary()
    return {
        "finished": s["finished"], "result": s["result"], "to_play": s["to_play"],
        "forfeit": s["forfeit"],
        "series": {p: s["players"][p]["series"] for p in "ab"},
        "points": {p: s["players"][p]["points"] for p in "ab"},
        "running": s["counter"]["series"], "frozen": s["counter"]["frozen"],
    }


referee_commands = st.lists(st.one_of(
    st.sampled_from([1, 2, 10, 20, 1, 2, 10, 20, "m", "m", "f", "z", "Fa", "Fb", "u", "r"]),
), max_size=60)


@settings(max_examples=200, deadline=None)
@given(limit=st.integers(1, 45), innings=st.integers(1, 4), cap=st.booleans(),
       tokens=referee_commands)
def test_the_core_agrees_with_an_independent_reading_of_rules_1_2_to_1_4(limit, innings, cap,
                                                                         tokens):
    """RULES 1.2-1.4.8 (and undo/redo, issue 2): after every command the core and a naive second
    implementation agree on who is at the table, every credited series, points, the frozen guard,
    the end and the result; a command one refuses the other refuses."""
    b = board(points_limit=limit, innings_limit=innings, cap_points_at_limit=cap)
    in_effect, undone = [], []

    def fold(cmds):
        ref = Referee(limit, innings, cap)
        for c in cmds:
            assert ref.apply(c)
        return ref

    for token in tokens:
        cmd = command(str(token))
        if cmd["cmd"] in ("undo", "redo"):
            source, target = (in_effect, undone) if cmd["cmd"] == "undo" else (undone, in_effect)
            try:
                b.push(cmd)
            except RuleError:
                assert not source
                continue
            target.append(source.pop())
        else:
            trial = fold(in_effect)
            accepted = trial.apply(cmd)
            try:
                b.push(cmd)
            except RuleError:
                assert not accepted, f"core refused {cmd} that RULES allow"
                continue
            assert accepted, f"core accepted {cmd} that RULES refuse"
            in_effect.append(cmd)
            undone.clear()
        assert core_view(b) == fold(in_effect).view()
