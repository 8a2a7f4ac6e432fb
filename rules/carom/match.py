"""The carom match (utkání, RULES 1.6): the seeded lot draw and the match result.

Pure: the draw is a function of the players present and the seed, the result a function of the
partie records' headers and replay summaries.
"""
from collections.abc import Iterable
from dataclasses import dataclass

from rules.carom.figures import TEAM_POINTS
from rules.carom.state import PLAYERS, other
from rules.core import JSONObject
from rules.errors import RuleError

PARTIE_PER_MATCH = 4      # A.3.6
PLAYERS_PER_TEAM = 4      # A.3.5
SIDES = ("home", "away")


class MatchError(RuleError):
    """A lot draw or a match result that cannot be made from what was given."""

    code = "match"


@dataclass(frozen=True)
class Pairing:
    """One drawn partie: its number in playing order and the two players."""

    partie: int
    home: str
    away: str

    def as_dict(self) -> JSONObject:
        return {"partie": self.partie, "home": self.home, "away": self.away}


def _present(players: Iterable[str], team: str) -> list[str]:
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise MatchError(f"{team} team: a player's name must be non-empty text, not {name!r}")
    if len(set(names)) != len(names):
        raise MatchError(f"{team} team: a player is listed twice")
    if len(names) < PLAYERS_PER_TEAM:
        raise MatchError(f"{team} team: {len(names)} players present, a match needs at least "
                         f"{PLAYERS_PER_TEAM} (A.3.5)")
    return sorted(names)


def draw_lot(home_players: Iterable[str], away_players: Iterable[str], seed: int) -> list[Pairing]:
    """Draw 4 pairings in playing order (RULES 1.6 Decision, A.3.6).

    4 players of each team, each playing once, are picked, paired and ordered at random by
    ``random.Random(seed)``. The players are sorted first, so the draw depends only on who is
    present and the seed: both captains can repeat it from the seed shown and recorded.
    """
    if type(seed) is not int:
        raise MatchError(f"the lot seed must be a whole number, not {seed!r}")
    home = _present(home_players, "home")
    away = _present(away_players, "away")
    import random  # a draw is made at a match's start, not at the service's

    rng = random.Random(seed)
    home_drawn = rng.sample(home, PLAYERS_PER_TEAM)
    away_drawn = rng.sample(away, PLAYERS_PER_TEAM)
    return [Pairing(n, h, a) for n, (h, a) in enumerate(zip(home_drawn, away_drawn), start=1)]


@dataclass(frozen=True)
class PartieLine:
    """One partie of a match seen from the teams: who played for whom and what it brought."""

    partie: int
    home: str
    away: str
    points: dict[str, int]       # carom points {"home": int, "away": int}
    innings: int
    team_points: dict[str, int] | None   # {"home": 2, "away": 0}; None while the partie goes on
    forfeit: str | None          # "home" / "away": whose player abandoned it

    def as_dict(self) -> JSONObject:
        return {"partie": self.partie, "home": self.home, "away": self.away,
                "points": dict(self.points), "innings": self.innings,
                "team_points": None if self.team_points is None else dict(self.team_points),
                "forfeit": self.forfeit}


@dataclass(frozen=True)
class MatchResult:
    """A team match's result: each team's points and the partie lines they came from."""
    home_points: int
    away_points: int
    partie: tuple[PartieLine, ...] = ()
    finished: bool = False
    forfeit: str | None = None   # the team that did not turn up (A.3.7)

    def as_dict(self) -> JSONObject:
        return {"points": {"home": self.home_points, "away": self.away_points},
                "finished": self.finished, "forfeit": self.forfeit,
                "partie": [line.as_dict() for line in self.partie]}


def partie_line(number: int, header: JSONObject, summary: JSONObject) -> PartieLine:
    """One partie from its record header (``home``: "a"|"b") and its carom replay summary."""
    if summary.get("game") != "carom":
        raise MatchError(f"partie {number}: not a carom partie ({summary.get('game')!r})")
    home = header.get("home")
    if home not in PLAYERS:
        raise MatchError(f'partie {number}: the header must say which player is at home: '
                         f'"home": "a" or "b", not {home!r}')
    away = other(home)
    players = summary["players"]
    side = {"home": home, "away": away}
    forfeit = summary.get("forfeit")
    team = None
    if summary.get("finished"):
        team = {s: players[p]["team_points"] for s, p in side.items()}
    return PartieLine(
        partie=number,
        home=players[home]["name"], away=players[away]["name"],
        points={s: players[p]["points"] for s, p in side.items()},
        innings=max(players["a"]["innings"], players["b"]["innings"]),
        team_points=team,
        forfeit=None if forfeit is None else ("home" if forfeit == home else "away"),
    )


def match_result(parties: Iterable[tuple[JSONObject, JSONObject]]) -> MatchResult:
    """The match from its partie, each a pair (record header, replay summary), in playing order.

    Team points are summed (max 8 : 0); the match is finished when all 4 partie are.
    """
    pairs = list(parties)
    if len(pairs) > PARTIE_PER_MATCH:
        raise MatchError(f"a match has {PARTIE_PER_MATCH} partie, not {len(pairs)} (A.3.6)")
    lines = tuple(partie_line(n, header, summary)
                  for n, (header, summary) in enumerate(pairs, start=1))
    totals = {s: sum(line.team_points[s] for line in lines if line.team_points) for s in SIDES}
    finished = len(lines) == PARTIE_PER_MATCH and all(line.team_points for line in lines)
    return MatchResult(totals["home"], totals["away"], lines, finished)


def forfeited_match(absent: str, win_points: int = TEAM_POINTS["win"]) -> MatchResult:
    """A team that did not turn up loses the match by forfeit, 0 : 8 (A.3.7; Decision: every
    partie counts as won by the team present, ``win_points`` each: A.5.3)."""
    if absent not in SIDES:
        raise MatchError(f'the absent team is "home" or "away", not {absent!r}')
    full = PARTIE_PER_MATCH * win_points
    home, away = (0, full) if absent == "home" else (full, 0)
    return MatchResult(home, away, (), True, absent)


def partie_points(summary: JSONObject) -> JSONObject | None:
    """The team points a finished partie brings each player ("a"/"b"): 2 : 0 or 1 : 1 (RULES 1.6),
    or the header's team points (A.5.3-A.5.5) as the summary counted them; None while it goes on."""
    if not summary.get("finished"):
        return None
    return {p: summary["players"][p]["team_points"] for p in PLAYERS}


def points(summary: JSONObject) -> JSONObject:
    """A partie's figure on the match's line: the carom points of "a" and "b"."""
    return {p: summary["players"][p]["points"] for p in PLAYERS}


def facts(summary: JSONObject) -> JSONObject:
    """What ``partie_line`` reads of a carom summary: all a match night keeps of a closed partie
    for the match result (the rest would only wear the SD card)."""
    players = summary["players"]
    return {"game": summary["game"], "finished": summary.get("finished"), "forfeit": summary.get("forfeit"),
            "players": {side: {key: players[side].get(key) for key in ("name", "points", "innings", "team_points")}
                        for side in PLAYERS}}


def result(parties: Iterable[tuple[JSONObject, JSONObject]]) -> JSONObject:
    """The match result (RULES 1.6) of the closed partie, each (header, facts), as the match item says it."""
    return match_result(parties).as_dict()
