"""What the lists and tables read: the per-match figures stored at ingestion (server/tables/figures.py),
summed by SQL over one competition (carom, 8-ball) and one season, with indexes.

A season runs from July to June: a match on 2026-11-27 is in season "2026/27". Without a season
asked for, the latest season of that competition is shown, so a page never reads older seasons.
"""
import json

from server.storage.store import SUMMED


def season_of(date) -> str | None:
    """"2026/27" for any date from 2026-07-01 to 2027-06-30 (None: no usable date)."""
    try:
        year, month = int(str(date)[:4]), int(str(date)[5:7])
    except ValueError:
        return None
    if not 1 <= month <= 12 or str(date)[4:5] != "-":
        return None
    start = year if month >= 7 else year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def season_or_latest(store, game: str, season: str | None) -> str | None:
    if season is not None:
        return season
    [(latest,)] = store.read("SELECT MAX(season) FROM match_figures WHERE game = ?", (game,))
    return latest


def _season_clause(season):
    return ("season = ?", (season,)) if season is not None else ("season IS NULL", ())


# A.3.7 Decision (docs/league.md): an expelled team's results are annulled, for it and its opponents
_EXPELLED = "SELECT name FROM teams WHERE season = ? AND competition = ? AND expelled IS NOT NULL"
_NOT_EXPELLED = f"game = ? AND season = ? AND team NOT IN ({_EXPELLED}) AND opponent NOT IN ({_EXPELLED})"


def _counted(game: str, season: str | None) -> tuple:
    """The arguments of _NOT_EXPELLED: this competition's season, without its expelled teams."""
    return (game, season or "", season, game, season, game)


def team_sums(store, game: str, season: str | None) -> list[dict]:
    """Per team, the sums of its figures (from the running totals: a row per team and opponent),
    without the teams expelled (A.3.7) and the matches played against them."""
    rows = store.read(f"SELECT team, {', '.join(f'SUM({c})' for c in SUMMED)} FROM team_totals "
                       f"WHERE {_NOT_EXPELLED} GROUP BY team HAVING SUM(matches) > 0", _counted(game, season))
    return [dict(zip(("team", *SUMMED), row)) for row in rows]


def head_to_head(store, game: str, season: str | None) -> dict[str, dict[str, int]]:
    """Team points each team won against each opponent (RULES 1.8 d)."""
    against: dict[str, dict[str, int]] = {}
    for team, opponent, points in store.read(f"SELECT team, opponent, points FROM team_totals WHERE "
                                              f"{_NOT_EXPELLED} AND matches > 0", _counted(game, season)):
        against.setdefault(team, {})[opponent] = points
    return against


def unreadable(store, game: str | None = None, season: str | None = None) -> list[str]:
    """Ids of stored items the figures could not read (listed on the pages for the organiser)."""
    query, args = "SELECT unreadable FROM match_figures WHERE unreadable IS NOT NULL", ()   # a partial index
    if game is not None:
        clause, season_args = _season_clause(season)
        query, args = query + f" AND game = ? AND {clause}", (game, *season_args)
    return [item for (text,) in store.read(query + " ORDER BY seq", args) for item in json.loads(text)]


# the seasons with a match, latest first: an index seek each (match_figures_season), not a scan
_SEASONS = ("WITH RECURSIVE found(season) AS (SELECT MAX(season) FROM match_figures UNION ALL "
            "SELECT (SELECT MAX(season) FROM match_figures WHERE season < found.season) FROM found "
            "WHERE found.season IS NOT NULL) SELECT season FROM found WHERE season IS NOT NULL")


def seasons(store) -> list[str]:
    """The seasons with a stored match (of any competition), latest first."""
    return [season for (season,) in store.read(_SEASONS)]


def matches(store, season: str | None = None) -> list[dict]:
    """The matches of one season in the order they first arrived: teams, date, venue, points,
    closed. Default: the latest season with a match, and the matches without a usable date (so
    that the organiser sees them)."""
    if season is not None:
        clause, args = "season = ?", (season,)
    else:
        latest = next(iter(seasons(store)), None)
        clause, args = ("season = ? OR season IS NULL", (latest,)) if latest else ("season IS NULL", ())
    rows = store.read("SELECT match_id, game, date, venue, home, away, points_home, points_away, closed "
                      f"FROM match_figures WHERE {clause} ORDER BY seq", args)
    return [{"match": r[0], "game": r[1], "date": r[2], "venue": r[3], "home": r[4], "away": r[5],
             "points": {"home": r[6], "away": r[7]}, "closed": bool(r[8])} for r in rows]