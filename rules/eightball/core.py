"""The 8-ball rule core of the Podkrušnohorská league (RULES Part 2), as pure functions.

``EIGHTBALL`` is the game object the Board uses (protocol rules.core.Core). The header, the
commands and the summary are documented in docs/record-format.md ("8-ball"). Settings, state and
match progression live in rules/eightball/state.py, the shot itself in rules/eightball/shot.py.
"""
from dataclasses import replace

from rules.core import JSONObject
from rules.eightball.shot import (
    BALL_GROUP,
    INPUT_COMMANDS,
    add_input,
    assign_group,
    check_no_choice_pending,
    close_shot,
    pocket_arg,
)
from rules.eightball.state import (
    DEFAULT_GAMES_TO_WIN,
    DEFAULT_SETS_TO_WIN,
    DEFAULT_WIN_POINTS,
    GROUPS,
    PLAYERS,
    BadArgument,
    Entry,
    GameResult,
    MatchOver,
    Rack,
    Refused,
    State,
    UnknownCommand,
    end_game,
    forfeit,
    initial,
    parse_header,
    rerack,
)

__all__ = ["EIGHTBALL", "DEFAULT_GAMES_TO_WIN", "DEFAULT_SETS_TO_WIN",
           "step", "summary", "finished", "initial", "parse_header"]


def finished(state: State) -> bool:
    return state.winner is not None


def step(state: State, cmd: JSONObject) -> State:
    """Apply one referee command; raise a Refused (IllegalCommand) and change nothing if not allowed."""
    name = cmd.get("cmd") if isinstance(cmd, dict) else None
    handler = _HANDLERS.get(name) if isinstance(name, str) else None
    if handler is None:
        raise UnknownCommand(f"unknown 8-ball command {name!r}")
    if finished(state):
        raise MatchOver("the match is over")
    return handler(state, cmd)


def _shot(state: State, cmd: JSONObject) -> State:
    return close_shot(state)


def _choose(state: State, cmd: JSONObject) -> State:
    """RULES 2.4 / 8B:2c: both groups dropped; the shooter picks theirs before the next shot."""
    rack = state.rack
    if not rack.must_choose:
        raise Refused("there is no group to choose now", code="nothing_to_choose")
    group = cmd.get("group")
    if group not in GROUPS:
        raise BadArgument(f"group must be \"solids\" or \"stripes\", not {group!r}")
    return replace(state, rack=assign_group(rack, rack.shooter, group))


def _pocket8(state: State, cmd: JSONObject) -> State:
    """8B:6f: the shooter names the 8 pocket before the shot (RULES 2.2)."""
    rack = state.rack
    check_no_choice_pending(rack)
    _check_no_open_shot(rack)
    own = rack.group_of(rack.shooter)
    if own is None or not rack.may_name_pocket(own):
        raise Refused("the 8 pocket may be named only after the opponent potted your last ball "
                      "into a middle pocket (8B:6f)", code="no_pocket_choice")
    named = tuple(pocket_arg(cmd, required=True) if g == own else n for g, n in zip(GROUPS, rack.named))
    return replace(state, rack=replace(rack, named=named))


def _stalemate(state: State, cmd: JSONObject) -> State:
    """RULES 2.8: PAT; the game is replayed, broken by the same player, and is not counted."""
    rack = state.rack
    check_no_choice_pending(rack)
    _check_no_open_shot(rack)
    if rack.break_shot:
        raise Refused("no PAT before the break: the rack is full (RULES 2.8)", code="not_in_play")
    return rerack(state)


def _game(state: State, cmd: JSONObject) -> State:
    """Quick scoring: a whole game won by ``winner``, without shot detail."""
    _check_no_open_shot(state.rack)
    return end_game(state, state.rack, _player_arg(cmd, "winner"), "reported")


def _forfeit(state: State, cmd: JSONObject) -> State:
    return forfeit(state, _player_arg(cmd, "by"))


def _player_arg(cmd: JSONObject, key: str) -> str:
    value = cmd.get(key)
    if value not in PLAYERS:
        raise BadArgument(f"\"{key}\" must be \"a\" or \"b\", not {value!r}")
    return str(value)


def _check_no_open_shot(rack: Rack) -> None:
    if rack.pending:
        raise Refused("close the shot being entered first", code="shot_open")


_HANDLERS = {name: add_input for name in INPUT_COMMANDS} | {
    "shot": _shot,
    "choose": _choose,
    "pocket8": _pocket8,
    "stalemate": _stalemate,
    "game": _game,
    "forfeit": _forfeit,
}


# -- summary ------------------------------------------------------------------------

def summary(state: State) -> JSONObject:
    s = state.settings
    out: JSONObject = {
        "game": "8ball",
        "finished": finished(state),
        "winner": state.winner,
        "forfeit": state.forfeit,
        "names": {"a": s.a, "b": s.b},
        "home": s.home,
        "games_to_win": s.games_to_win,
        "sets_to_win": s.sets_to_win,
        "set": state.set_no,
        "sets": _pair(state.sets),
        "games": _pair(state.games),
        "games_log": [_result_dict(r) for r in state.log],
        "current": _current(state),
    }
    if s.win_points != DEFAULT_WIN_POINTS:      # RULES 2.9: the competition's team points; absent
        out["win_points"] = s.win_points        # (the default, 1) as in summaries from before them
    return out


def _pair(values: tuple[object, ...], keys: tuple[str, ...] = PLAYERS) -> JSONObject:
    return dict(zip(keys, values))


def _result_dict(result: GameResult) -> JSONObject:
    return {
        "set": result.set, "game": result.game, "breaker": result.breaker,
        "winner": result.winner, "reason": result.reason,
        "groups": _pair(result.groups), "fouls": _pair(result.fouls),
        "loser_left": result.loser_left,
    }


def _current(state: State) -> JSONObject:
    rack, over = state.rack, finished(state)
    groups = {p: rack.group_of(p) for p in PLAYERS}
    return {
        "shooter": None if over else rack.shooter,
        "breaker": rack.breaker,
        "break_shot": rack.break_shot and not over,
        "open_table": rack.group_a is None,
        "open_shot": rack.open_shot,
        "groups": groups,
        "left": _pair(rack.left, GROUPS),
        "ball_in_hand": rack.ball_in_hand,
        "must_choose": rack.must_choose,
        "eight_pocket": {p: rack.eight_pocket(state.settings, g) for p, g in groups.items()},
        "pocket_choice": {p: g is not None and rack.may_name_pocket(g) for p, g in groups.items()},
        "fouls": _pair(rack.fouls),
        "pending": _pending_commands(rack.pending),
    }


_BALL_OF_GROUP = {group: ball for ball, group in BALL_GROUP.items()}


def _pending_commands(pending: tuple[Entry, ...]) -> list[JSONObject]:
    out = []
    for entry in pending:
        name, args = entry[0], entry[1:]
        if name == "pot":
            cmd = {"cmd": "pot", "ball": _BALL_OF_GROUP[args[0]]}
            if args[1] is not None:
                cmd["pocket"] = args[1]
        elif name == "pot8":
            cmd = {"cmd": "pot8"} if args[0] is None else {"cmd": "pot8", "pocket": args[0]}
        elif name == "foul" and args[0] is not None:
            cmd = {"cmd": "foul", "code": args[0]}
        else:
            cmd = {"cmd": name}
        out.append(cmd)
    return out


class EightBallGame:
    """The game protocol of rules.board (rules.core.Core) for 8-ball."""

    name = "8ball"
    parse_header = staticmethod(parse_header)
    initial = staticmethod(initial)
    step = staticmethod(step)
    summary = staticmethod(summary)
    finished = staticmethod(finished)


EIGHTBALL = EightBallGame()
