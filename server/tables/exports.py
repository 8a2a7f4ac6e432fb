"""What the league organiser takes away: match records (RULES 1.6, 2.9) and the league tables
(RULES 1.8, 2.9), each built by its game's module (server/tables/games.py).

Both are built from the stored items only: partie records grouped by their header's match id,
and the match item (kind "match") that closes a match.
"""
from server.league import competition_rules
from server.tables import games, standing
from server.tables.items import match_info, stored
from server.tables.sums import season_of


def match_record(store, match_id: str) -> dict | None:
    """The match record (zápis o utkání) of the game its items name, by its competition's rules,
    with where it stands in the league (server/tables/standing.py); None: no item of that match
    (nor a no-show of the organiser's under that id)."""
    rows = stored(store.items.all(match_id=match_id) or standing.stand_in(store, match_id))
    if not rows:
        return None
    game = games.of_items(rows)
    rules = store.league.competition_rules(season_of(match_info(rows)[0].get("date")), game.name)
    default = competition_rules.defaults(game.name) if game.name in competition_rules.SETTINGS else {}
    record = game.match_record(rows, match_id, rules or default)
    if record is None or "home" not in record:
        return record
    if rules is None and record.get("forfeit") and record.get("declared_points"):
        record["points"] = dict(record["declared_points"])   # no league holds it: the counter's forfeit score
    return standing.judged(store, record, rules, game)


def league_table(store, game: str = "carom", season: str | None = None) -> dict:
    """A game's league table over one season (default: the latest)."""
    return games.table_game(game).league_table(store, season)


def matches(store, season: str | None = None) -> list[dict]:
    """The stored matches of a season (default: the latest) in the order they first arrived:
    teams, date, venue, points, closed."""
    return store.figures.matches(season)
