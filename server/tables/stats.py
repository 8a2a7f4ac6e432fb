"""The statistics of the league's site (A.1.3): players, rankings and team pages per competition
and season, read from the per-player sums stored at ingestion (server/tables/player_figures.py) by SQL
over one season, so a page costs the same whatever older seasons are stored.

Averages are exact fractions, printed with 3 decimals truncated (RULES 1.5); rankings order by
the exact fraction. **Decision (the general average ranking's minimum):** a player is ranked by
general average when they played at least half (rounded up) the partie of the season's most
frequent player, at least 1 (``min_partie`` overrides it). Other rankings list every player.
"""
import re

from server.league.czech_order import czech_key, surname_key
from server.league.said import Said
from server.tables import exports, results
from server.tables.games import TABLE_GAMES, table_game

SEASON = re.compile(r"\d{4}/\d{2}")
MAX_NAME = 200


class BadQuery(Said):
    """A query parameter out of its range (the message says which and why)."""


def game_of(text: str | None) -> str:
    game = text or "carom"
    if game not in TABLE_GAMES:
        raise BadQuery("game must be one of {games}, got {got!r}", games=", ".join(TABLE_GAMES), got=game[:40])
    return game


def season_arg(text: str | None) -> str | None:
    if text is not None and not SEASON.fullmatch(text):
        raise BadQuery("season must look like 2026/27, got {got!r}", got=text[:40])
    return text


def count_arg(text: str | None, name: str, *, most: int | None = 10_000) -> int | None:
    """A whole number from 0 to ``most`` (None: any), or None when not given."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18 or (most is not None and int(text) > most):
        if most is None:
            raise BadQuery("{name} must be a whole number from 0, got {got!r}", name=name, got=text[:40])
        raise BadQuery("{name} must be a whole number from 0 to {most}, got {got!r}", name=name, most=most,
                       got=text[:40])
    return int(text)


def neighbours(store, game: str, season: str | None) -> dict:
    """The seasons before and after (two index lookups, not a list of every season)."""
    if season is None:
        return {"previous": None, "next": None}
    return store.figures.neighbours(game, season)


def figures(row: dict) -> dict:
    """A player's totals as the pages and exports show them (per competition)."""
    return table_game(row["game"]).player_view(row)


def players(store, game: str = "carom", season: str | None = None) -> dict:
    """Every player of a competition's season with their figures, by name."""
    season = results.table_season(store, game, season)
    rows = sorted((figures(r) for r in store.players.of_season(game, season)),
                  key=lambda r: (surname_key(r["player"]), czech_key(r["team"])))
    return {"game": game, "season": season, "seasons": neighbours(store, game, season), "rows": rows}


def rankings(store, game: str = "carom", season: str | None = None, min_partie: int | None = None) -> dict:
    """The season's rankings of players, as the game ranks them (server/tables/carom.py, eightball.py)."""
    season = results.table_season(store, game, season)
    rows = store.players.of_season(game, season)
    return {"game": game, "season": season, "seasons": neighbours(store, game, season),
            **table_game(game).rankings(rows, min_partie)}


def _partie(row: dict) -> dict:
    """One partie (8-ball: individual match) of a player as their page lists it."""
    base = {"match": row["match_id"], "partie": row["partie_id"], "number": row["number"], "date": row["date"],
            "team": row["team"], "opponent": row["opponent"], "opponent_team": row["opponent_team"],
            "result": "won" if row["won"] else "drawn" if row["drawn"] else "lost" if row["lost"] else None,
            "forfeited": bool(row["forfeited"])}
    return {**base, **table_game(row["game"]).partie_view(row)}


def player(store, name: str, game: str | None = None, season: str | None = None) -> dict | None:
    """A player: their figures in every season they played (per competition and team), and their
    partie of one season (default: their latest)."""
    seasons = store.players.of_player(name) if len(name) <= MAX_NAME else []
    if not seasons:
        return None
    chosen = next((r for r in seasons if (game is None or r["game"] == game)
                   and (season is None or r["season"] == season)), None)
    game, season = (chosen["game"], chosen["season"]) if chosen else (game or "carom", season or "")
    rows = store.players.partie(name, game, season)
    return {"player": name, "game": game, "season": season,
            "seasons": [{"game": r["game"], "season": r["season"], **figures(r)} for r in seasons],
            "partie": [_partie(r) for r in rows]}


def team(store, name: str, game: str = "carom", season: str | None = None) -> dict | None:
    """A team in a season: its line of the league table, its players (as seen in played partie)
    with their figures (by surname, in Czech order), its matches and results, and what the league keeps of it (``league``:
    venue, captain, roster, fixtures; None for a team only the devices' records name)."""
    if len(name) > MAX_NAME:
        return None
    season = results.table_season(store, game, season)
    table = exports.league_table(store, game, season=season)
    line = next((r for r in table["rows"] if r["team"] == name), None)
    roster = sorted((figures(r) for r in store.players.of_season(game, season, team=name)),
                    key=lambda r: surname_key(r["player"]))         # as /players.html: by surname, in Czech
    matches = [m for m in store.figures.matches_of(game, season) if name in (m["home"], m["away"])]
    league = _league_team(store, name, game, season)
    if line is None and not roster and not matches and league is None:
        return None
    return {"team": name, "game": game, "season": season, "seasons": neighbours(store, game, season),
            "table": line, "players": roster, "matches": matches, "league": league}


def _league_team(store, name: str, game: str, season: str | None) -> dict | None:
    """The team as the league administration keeps it (A.1.3, A.3.2): its venue, captain (not the
    phone, which is for the organiser), roster and fixtures of the season; None when the league
    has no such team."""
    if season is None:
        return None
    team = next((t for t in store.league.teams(season, game) if t["name"] == name), None)
    if team is None:
        return None
    # whole, as /schedule.json gives them: a page says what became of each (its ruling, who a
    # forfeit went to, what holds it) as the schedule says it
    fixtures = [f for f in store.fixtures.of(season, game) if name in (f["home"], f["away"])]
    return {"venue": team["venue"], "captain": team["captain"], "roster": team["players"],
            "expelled": team["expelled"], "expelled_how": team["expelled_how"],
            "expelled_reason": team["expelled_reason"], "fixtures": fixtures}
