"""The 8-ball team match (RULES 2.9): individual matches, the first break, the team score, and
the news of a shot the counter says (a game or set won, the same player breaking again).

Pure: the team score is a function of the individual matches' summaries.
"""
from collections.abc import Iterable

from rules.core import JSONObject
from rules.eightball.state import DEFAULT_WIN_POINTS, PLAYERS, first_break

INDIVIDUAL_MATCHES = 4    # individual matches in a team match by default (RULES 2.9: config)
PLAYERS_PER_TEAM = 1      # a team match can start with one player present per team
POINTS_PER_MATCH = DEFAULT_WIN_POINTS   # RULES 2.9 Decision: a team scores per individual match won


def night_first_break(home: str | None, number: int) -> str:
    """The ``first_break`` the counter writes into individual match ``number``'s header: 8B:2b in
    a team match (rules.eightball.state.first_break); a single match outside the league is broken
    by the player the referee picked to start (side "a")."""
    return "a" if home is None else first_break(home, number)


def sets(summary: JSONObject) -> JSONObject:
    """The figure of an individual match on the team match's line: sets won by "a" and "b"."""
    sets: JSONObject = summary.get("sets", {"a": 0, "b": 0})
    return sets


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


def partie_points(summary: JSONObject, points_per_match: int | None = None) -> JSONObject | None:
    """The team points an individual match brings each player ("a"/"b"): ``points_per_match``
    to its winner (RULES 2.9 Decision; default: the summary's ``win_points``, which its header
    set, else 1); None while it goes on."""
    winner = summary.get("winner")
    if winner is None:
        return None
    if points_per_match is None:
        points_per_match = summary.get("win_points", POINTS_PER_MATCH)
    return {p: points_per_match if p == winner else 0 for p in PLAYERS}


def news(cmd: JSONObject, before: JSONObject, after: JSONObject) -> tuple[str, str | None, str | None] | None:
    """8-ball: what a command decided that the picture barely shows — ("set_won", side, how),
    ("game_won", side, how), or ("rerack", None, None): the same player breaks again (RULES 2.3).
    ``how``: the game's reason (RULES 2.7: "eight_early", "eight_wrong_pocket", …) when it was lost
    on the 8, else None."""
    for side in ("a", "b"):
        for key, count in (("set_won", "sets"), ("game_won", "games")):
            if after[count][side] > before[count][side]:
                return key, side, _lost_on_the_eight(before, after)
    was, now = before["current"], after["current"]
    if cmd.get("cmd") == "shot" and was["break_shot"] and now["break_shot"] and not after["finished"]:
        return "rerack", None, None
    return None


LOST_ON_THE_EIGHT = ("eight_early", "eight_scratch", "eight_foul", "eight_with_opponent_ball", "eight_wrong_pocket")


def _lost_on_the_eight(before: JSONObject, after: JSONObject) -> str | None:
    games = after.get("games_log", [])
    if len(games) <= len(before.get("games_log", [])):
        return None
    reason = games[-1].get("reason")
    return reason if reason in LOST_ON_THE_EIGHT else None
