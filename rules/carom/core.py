"""The carom rule core of the Královédvorská league (RULES Part 1): ``CAROM``.

A pure state machine over immutable states (rules.carom.state). ``CAROM`` implements the game
protocol of rules.board; undo and redo are the Board's. Record commands (docs/record-format.md):

    {"cmd":"score","value":V}   V in 1, 2, 10, 20                  RULES 1.2
    {"cmd":"miss"}  {"cmd":"foul"}                                 RULES 1.3
    {"cmd":"frozen"}                                               RULES 1.2 guard
    {"cmd":"forfeit","by":"a"|"b"}                                 RULES 1.4.8
    {"cmd":"correct","player":P,"inning":N,"points":X}             corrections (rules.carom.corrections)
    {"cmd":"insert","player":P,"inning":N,"points":X}
"""
from typing import TYPE_CHECKING

from rules.carom.corrections import correct, insert
from rules.carom.errors import (
    BadArgument,
    BadValue,
    EndStands,
    FrozenBalls,
    Inconsistent,
    LimitKept,
    OverLimit,
    PartieOver,
    SeriesRunning,
    UnknownCommand,
)
from rules.carom.figures import average, average_text, points_average_text, team_points
from rules.carom.state import PLAYERS, CaromState, Settings
from rules.core import JSONObject
from rules.errors import HeaderError
from rules.game import MAX_TEAM_POINTS

if TYPE_CHECKING:
    from fractions import Fraction

STROKE_VALUES = (1, 2, 10, 20)
FROZEN_REFUSED = (10, 20)

__all__ = [
    "CAROM", "CaromGame", "CaromState", "Settings", "STROKE_VALUES", "COMMANDS",
    "average", "average_text", "team_points",
    "BadArgument", "BadValue", "EndStands", "FrozenBalls", "Inconsistent", "LimitKept", "OverLimit",
    "PartieOver", "SeriesRunning", "UnknownCommand",
]


# -- the header ---------------------------------------------------------------
def _whole(header: JSONObject, key: str, default: int) -> int:
    value = header.get(key, default)
    if type(value) is not int or value < 1:
        raise HeaderError(f"{key} must be a whole number of at least 1, not {value!r}")
    return value


TEAM_POINT_KEYS = ("win_points", "draw_points", "loss_points")    # A.5.3, A.5.4, A.5.5


def _team_points(header: JSONObject, key: str, default: int) -> int:
    value = header.get(key, default)
    if type(value) is not int or not 0 <= value <= MAX_TEAM_POINTS:
        raise HeaderError(f"{key} must be a whole number from 0 to {MAX_TEAM_POINTS}, not {value!r}")
    return value


def parse_header(header: JSONObject) -> Settings:
    names = {}
    for player in PLAYERS:
        name = header.get(player)
        if not isinstance(name, str) or not name.strip():
            raise HeaderError(f'player "{player}" must be a non-empty name, not {name!r}')
        names[player] = name.strip()
    cap = header.get("cap_points_at_limit", Settings.cap_points_at_limit)
    if not isinstance(cap, bool):
        raise HeaderError(f"cap_points_at_limit must be true or false, not {cap!r}")
    home = header.get("home", "a")
    if home not in PLAYERS:
        raise HeaderError(f'home must be "a" or "b", not {home!r}')
    return Settings(a=names["a"], b=names["b"],
                    points_limit=_whole(header, "points_limit", Settings.points_limit),
                    innings_limit=_whole(header, "innings_limit", Settings.innings_limit),
                    cap_points_at_limit=cap,
                    **{key: _team_points(header, key, getattr(Settings, key)) for key in TEAM_POINT_KEYS})


# -- strokes and announcements ------------------------------------------------
def _playing(state: CaromState, what: str) -> None:
    if state.finished:
        raise PartieOver(f"the partie is over ({_outcome(state)}); {what} is not accepted")


def _outcome(state: CaromState) -> str:
    score = f"{state.points('a')}:{state.points('b')}"
    if state.forfeit:
        return f"forfeited by {state.forfeit.upper()}, {score}"
    result = state.result
    assert result is not None       # asked only once the partie is over
    return "draw " + score if result == "draw" else f"{result.upper()} won {score}"


def _score(state: CaromState, cmd: JSONObject) -> CaromState:
    if "value" not in cmd:
        raise BadArgument('score needs a "value": 1, 2, 10 or 20')
    value = cmd["value"]
    if type(value) is not int or value not in STROKE_VALUES:
        raise BadValue(f"a stroke scores 1, 2, 10 or 20, not {value!r}")
    _playing(state, "a stroke")
    if state.frozen and value in FROZEN_REFUSED:
        raise FrozenBalls(f"{value} is not allowed while frozen balls are announced "
                          "(RULES 1.2): enter 1 or 2")
    return state.with_stroke(value)        # the player at the table: the partie goes on


def _end_inning(state: CaromState, cmd: JSONObject) -> CaromState:
    _playing(state, f"a {cmd['cmd']}")
    return state.close_inning()


def _frozen(state: CaromState, cmd: JSONObject) -> CaromState:
    _playing(state, "a frozen-balls announcement")
    return state._replace(frozen=True)     # announcing again changes nothing (1.2)


def _forfeit(state: CaromState, cmd: JSONObject) -> CaromState:
    by = cmd.get("by")
    if by not in PLAYERS:
        raise BadArgument(f'forfeit needs "by": "a" or "b", not {by!r}')
    _playing(state, "a forfeit")
    # The karambols of the inning in progress were played and count; that inning is closed.
    closed = state.close_inning() if state.running else state
    return closed._replace(forfeit=by, frozen=False)


COMMANDS = {
    "score": _score,
    "miss": _end_inning,
    "foul": _end_inning,
    "frozen": _frozen,
    "forfeit": _forfeit,
    "correct": correct,
    "insert": insert,
}


def step(state: CaromState, cmd: JSONObject) -> CaromState:
    """The state after one referee command; raises an IllegalCommand and changes nothing."""
    name = cmd.get("cmd") if isinstance(cmd, dict) else None
    handler = COMMANDS.get(name) if isinstance(name, str) else None
    if handler is None:
        known = ", ".join(COMMANDS)
        raise UnknownCommand(f"unknown carom command {name!r} (known: {known}, undo, redo)")
    return handler(state, cmd)


# -- the summary (docs/record-format.md, "Carom summary") ---------------------
def _player_summary(state: CaromState, player: str, at_table: str | None, result: str | None,
                    points: dict[str, int]) -> JSONObject:
    series = state.series(player)
    return {
        "name": state.settings.name(player),
        "points": state.points_when(player, at_table),
        "innings": len(series),
        "best_series": max(series, default=0),
        "average": points_average_text(sum(series), len(series)),
        "series": list(series),
        "team_points": team_points(result, player, points),
    }


def _counter(state: CaromState, player: str | None, points: dict[str, int]) -> JSONObject:
    """``player``: the one at the table; ``points``: each player's credited points."""
    limit = state.settings.points_limit
    left = state.innings_left_when(player)
    if player is None:
        inning = max(state.innings("a"), state.innings("b"))
    else:
        inning = state.innings(player) + 1
    return {
        "at_table": player,
        "series": state.running if player else 0,
        "inning": inning,
        "innings_left": left,
        "points_left": {p: max(0, limit - points[p]) for p in PLAYERS},
        "last_two": player is not None and left <= 2,
        "equalising": state.equalising_when(player),
        "frozen": state.frozen and player is not None,
    }


def summary(state: CaromState) -> JSONObject:
    """The summary after every stroke (the counter's model). A derived reading of the state
    (finished, at the table, the result, …) is computed on every read, and the readings ask each
    other: each is read once here and handed on to the state's readings that take it (points,
    equalising, innings left: ``*_when``) — tests/rules/test_carom_properties.py checks the
    summary against the properties' readings."""
    finished = state.finished
    result = state.result if finished else None
    at_table = None if finished else state.turn
    points = state.settings.team_points()       # A.5.3-A.5.5: the header's, else 2, 1, 0
    players = {p: _player_summary(state, p, at_table, result, points) for p in PLAYERS}
    return {
        "game": "carom",
        "finished": finished,
        "result": result,
        "to_play": at_table,
        "forfeit": state.forfeit,
        "points_limit": state.settings.points_limit,
        "innings_limit": state.settings.innings_limit,
        "players": players,
        "counter": _counter(state, at_table, {p: players[p]["points"] for p in PLAYERS}),
    }


class CaromGame:
    """The game protocol of rules.board for carom, plus readings the service and server use."""

    name = "carom"
    parse_header = staticmethod(parse_header)
    step = staticmethod(step)
    summary = staticmethod(summary)

    @staticmethod
    def initial(settings: Settings) -> CaromState:
        return CaromState(settings)

    @staticmethod
    def finished(state: CaromState) -> bool:
        return state.finished

    @staticmethod
    def average(state: CaromState, player: str) -> "Fraction":
        """The exact average of a player's completed innings (for league tables, RULES 1.5)."""
        return average(state.completed_points(player), state.innings(player))


CAROM = CaromGame()
