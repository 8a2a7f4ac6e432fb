"""The 8-ball team match (RULES 2.9): individual matches, the first break, the team score.

Pure: the team score is a function of the individual matches' summaries.
"""
from collections.abc import Iterable

from rules.core import JSONObject
from rules.eightball.state import PLAYERS, other

INDIVIDUAL_MATCHES = 4    # individual matches in a team match by default (RULES 2.9: config)
PLAYERS_PER_TEAM = 1      # a team match can start with one player present per team
POINTS_PER_MATCH = 1      # RULES 2.9 Decision: a team scores per individual match won


def first_break(home: str | None) -> str:
    """Who breaks the first game: in a team match the away player (8B:2b: the home player racks);
    outside a match (``home`` None) player "a", the one picked to start."""
    if home is None:
        return "a"
    if home not in PLAYERS:
        raise ValueError(f"home side must be \"a\" or \"b\", not {home!r}")
    return other(home)


def team_score(summaries: Iterable[JSONObject], home_sides: Iterable[str | None] | None = None,
               points_per_match: int = POINTS_PER_MATCH) -> JSONObject:
    """RULES 2.9 Decision: a team scores ``points_per_match`` for every individual match its player won.

    ``summaries`` are 8-ball summaries of the individual matches; ``home_sides`` gives for each
    which side ("a" or "b") played for the home team (default: each summary's "home").
    Returns {"home": points, "away": points, "unfinished": matches without a winner}.
    """
    summaries = list(summaries)
    sides = list(home_sides) if home_sides is not None else [s.get("home") for s in summaries]
    if len(sides) != len(summaries):
        raise ValueError("team_score needs one home side per match")
    score = {"home": 0, "away": 0, "unfinished": 0}
    for match, home in zip(summaries, sides):
        if home not in PLAYERS:
            raise ValueError(f"home side must be \"a\" or \"b\", not {home!r}")
        winner = match.get("winner")
        if winner is None:
            score["unfinished"] += 1
        else:
            score["home" if winner == home else "away"] += points_per_match
    return score


def partie_points(summary: JSONObject, points_per_match: int = POINTS_PER_MATCH) -> JSONObject | None:
    """The team points an individual match brings each player ("a"/"b"): ``points_per_match``
    to its winner (RULES 2.9 Decision); None while it goes on."""
    winner = summary.get("winner")
    if winner is None:
        return None
    return {p: points_per_match if p == winner else 0 for p in PLAYERS}
