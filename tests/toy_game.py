"""A toy third game, registered only by the tests that play it (tests/test_toy_game.py): a race to
``race`` points, one point a stroke; a miss passes the turn. Its rule core, its team match and its
keys are all here — this file is all a new game needed (issue 25).

Its summary is shaped like carom's (players with points, innings, team points; the counter's
player at the table and inning), so the counter draws it with carom's screen method.
"""
from dataclasses import dataclass, replace
from types import SimpleNamespace

from rules.errors import HeaderError, IllegalCommand
from rules.game import Game, Keys

NAME = "toy"


@dataclass(frozen=True)
class Settings:
    a: str
    b: str
    race: int = 3


@dataclass(frozen=True)
class State:
    settings: Settings
    points: tuple = (0, 0)
    innings: tuple = (0, 0)
    at_table: str = "a"
    forfeit: str | None = None

    @property
    def winner(self) -> str | None:
        if self.forfeit:
            return "b" if self.forfeit == "a" else "a"
        return next((side for side, p in zip("ab", self.points) if p >= self.settings.race), None)


class Refused(IllegalCommand):
    code = "toy_refused"


def parse_header(header: dict) -> Settings:
    for side in "ab":
        if not isinstance(header.get(side), str) or not header[side].strip():
            raise HeaderError(f'player "{side}" must be a non-empty name')
    race = header.get("race", Settings.race)
    if type(race) is not int or race < 1:
        raise HeaderError(f"race must be a whole number of at least 1, not {race!r}")
    return Settings(header["a"], header["b"], race)


def initial(settings: Settings) -> State:
    return State(settings)


def step(state: State, cmd: dict) -> State:
    name = cmd.get("cmd")
    if state.winner is not None:
        raise Refused("the race is over")
    index = "ab".index(state.at_table)
    if name == "point":
        points = tuple(p + (i == index) for i, p in enumerate(state.points))
        return replace(state, points=points)
    if name == "miss":
        innings = tuple(n + (i == index) for i, n in enumerate(state.innings))
        return replace(state, innings=innings, at_table="b" if state.at_table == "a" else "a")
    if name == "forfeit" and cmd.get("by") in ("a", "b"):
        return replace(state, forfeit=cmd["by"])
    raise Refused(f"unknown toy command {name!r}")


def finished(state: State) -> bool:
    return state.winner is not None


def summary(state: State) -> dict:
    winner = state.winner
    players = {side: {"name": getattr(state.settings, side), "points": state.points[i], "innings": state.innings[i],
                      "team_points": None if winner is None else int(side == winner)}
               for i, side in enumerate("ab")}
    return {"game": NAME, "finished": winner is not None, "result": winner, "forfeit": state.forfeit,
            "players": players, "counter": {"at_table": None if winner else state.at_table,
                                            "inning": max(state.innings) + 1}}


CORE = SimpleNamespace(name=NAME, parse_header=parse_header, initial=initial, step=step, summary=summary, finished=finished)


def partie_points(summary: dict) -> dict | None:
    if not summary["finished"]:
        return None
    return {side: summary["players"][side]["team_points"] for side in "ab"}


GAME = Game(
    name=NAME, core=CORE, partie_per_match=2, players_per_team=1, partie_points=partie_points, win_points=1,
    score=lambda summary: {side: summary["players"][side]["points"] for side in "ab"},
    screen="carom",                 # a points race: carom's screen draws it
    keys=Keys(tap={"1": "point", "0": "miss"}, actions=("point", "miss"),
              commands={"point": {"cmd": "point"}, "miss": {"cmd": "miss"}}),
)
