"""What the league organiser takes away: match records (RULES 1.6, 2.9) and the league tables
(RULES 1.8, 2.9), each built by its game's module (server/tables/games.py).

Both are built from the stored items only: partie records grouped by their header's match id,
and the match item (kind "match") that closes a match.
"""
from server.tables import games


def match_record(store, match_id: str) -> dict | None:
    """The match record (zápis o utkání) of the game its items name; None: no item of that match."""
    rows = store.items.all(match_id=match_id)
    if not rows:
        return None
    return games.of_items(rows).match_record(store, match_id)


def league_table(store, game: str = "carom", season: str | None = None) -> dict:
    """A game's league table over one season (default: the latest)."""
    return games.table_game(game).league_table(store, season)


def matches(store, season: str | None = None) -> list[dict]:
    """The stored matches of a season (default: the latest) in the order they first arrived:
    teams, date, venue, points, closed."""
    return store.figures.matches(season)
