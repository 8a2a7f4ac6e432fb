"""Invariants of the carom core over random referee command sequences (hypothesis)."""
import json

from carom_strategies import commands, headers, strokes
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import Board
from rules.errors import RuleError
from rules.record import encode_line, replay_lines

SETTINGS = settings(max_examples=150, deadline=None)


def push_all(header, cmds):
    """Push every command; a refusal must be a RuleError (anything else fails the test)."""
    board = Board(header)
    yield board, None
    for cmd in cmds:
        before = board.state
        try:
            board.push(cmd)
        except RuleError:
            assert board.state is before
            continue
        yield board, cmd


def check_invariants(board):
    state, s = board.state, board.summary()
    limit = state.settings.points_limit
    for p in "ab":
        player = s["players"][p]
        assert player["points"] >= 0 and all(x >= 0 for x in player["series"])
        if state.settings.cap_points_at_limit:
            assert player["points"] <= limit
        running = s["counter"]["series"] if s["counter"]["at_table"] == p else 0
        assert player["points"] == sum(player["series"]) + running
        assert player["innings"] <= state.settings.innings_limit
    a, b = s["players"]["a"]["innings"], s["players"]["b"]["innings"]
    assert 0 <= a - b <= 1
    if s["finished"] and s["forfeit"] is None:
        assert a == b                                     # B.4.1
    assert s["finished"] == (s["result"] is not None) == (s["to_play"] is None)
    json.dumps(s)


@SETTINGS
@given(headers, commands)
def test_random_commands_never_break_the_invariants(header, cmds):
    """Never an unhandled exception; RULES 1.4 / B.4.1 / 1.4.6 invariants after every command."""
    for board, _ in push_all(header, cmds):
        check_invariants(board)


@SETTINGS
@given(headers, commands)
def test_undo_restores_exactly_the_state_before(header, cmds):
    """Undo after any accepted command gives back the same state and summary; redo re-applies."""
    previous = None
    for board, cmd in push_all(header, cmds):
        if cmd is not None and cmd["cmd"] not in ("undo", "redo"):
            after_state, after_summary = board.state, board.summary()
            board.push({"cmd": "undo"})
            assert board.state == previous[0] and board.summary() == previous[1]
            board.push({"cmd": "redo"})
            assert board.state == after_state and board.summary() == after_summary
        previous = (board.state, board.summary())


@SETTINGS
@given(headers, commands)
def test_replaying_a_record_twice_gives_the_same_state(header, cmds):
    """The state is the fold of the record: same lines, same state."""
    lines = [encode_line(header)] + [encode_line(c, checksum=True) for c in cmds]
    first, second = replay_lines(lines), replay_lines(lines)
    assert first.board.state == second.board.state
    assert first.summary() == second.summary()


@SETTINGS
@given(headers, st.lists(strokes, max_size=60))
def test_every_played_partie_passes_the_correction_check(header, cmds):
    """Corrections accept every course real play produces: re-entering an inning's own value
    between innings, before the end (B.9.2), changes nothing."""
    for board, _cmd in push_all(header, cmds):
        if board.state.running or board.finished:
            continue
        for p in "ab":
            for n, points in enumerate(board.state.series(p), start=1):
                same = board.game.step(board.state,
                                       {"cmd": "correct", "player": p, "inning": n, "points": points})
                assert same == board.state


def summary_as_it_was(state):
    """The carom summary as it was made before each derived reading was read once: every reading
    from the state's own properties (rules.carom.state), at every use."""
    from rules.carom.figures import points_average_text, team_points

    def player_summary(player, result):
        series = state.series(player)
        return {"name": state.settings.name(player), "points": state.points(player), "innings": len(series),
                "best_series": max(series, default=0), "average": points_average_text(sum(series), len(series)),
                "series": list(series), "team_points": team_points(result, player)}

    player, left = state.at_table, state.innings_left
    inning = max(state.innings("a"), state.innings("b")) if player is None else state.innings(player) + 1
    counter = {"at_table": player, "series": state.running if player else 0, "inning": inning,
               "innings_left": left,
               "points_left": {p: max(0, state.settings.points_limit - state.points(p)) for p in "ab"},
               "last_two": player is not None and left <= 2, "equalising": state.equalising,
               "frozen": state.frozen and player is not None}
    result = state.result
    return {"game": "carom", "finished": state.finished, "result": result, "to_play": state.at_table,
            "forfeit": state.forfeit, "points_limit": state.settings.points_limit,
            "innings_limit": state.settings.innings_limit,
            "players": {p: player_summary(p, result) for p in "ab"}, "counter": counter}


@SETTINGS
@given(headers, commands)
def test_the_summary_is_what_the_states_readings_say(header, cmds):
    """The summary reads each derived reading once and hands it on: after every command it is
    the summary made from the state's properties at every use — key for key, in the same order
    (the record's and the replay's JSON)."""
    for board, _ in push_all(header, cmds):
        made, expected = board.summary(), summary_as_it_was(board.state)
        assert made == expected
        assert json.dumps(made, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)


def stroke_as_defined(state, value: int):
    """A stroke as RULES 1.4.1, 1.4.3 and 1.4.6 read, step by step on the state's own readings:
    the reference ``CaromState.with_stroke`` (which takes each reading once) must equal."""
    player, limit = state.turn, state.settings.points_limit
    total = state.completed_points(player) + state.running
    credited = min(value, limit - total) if state.settings.cap_points_at_limit else value
    new = state._replace(running=state.running + credited, frozen=False)
    if total + credited < limit:
        return new
    closed = new.series(player) + (new.running,)
    return new._replace(running=0, **{f"series_{player}": closed})


@SETTINGS
@given(headers, commands, st.sampled_from([1, 2, 10, 20]))
def test_a_stroke_is_the_rules_stroke_from_any_state_reached(header, cmds, value):
    """From every state a partie reaches (the partie going on), a stroke's state is the one the
    rules define, field for field and of the same types."""
    for board, _ in push_all(header, cmds):
        state = board.state
        if not state.finished:
            after = state.with_stroke(value)
            assert after == stroke_as_defined(state, value)
            assert [type(field) for field in after] == [type(field) for field in stroke_as_defined(state, value)]
