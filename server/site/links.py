"""Where the league site's pages are: the addresses of a player's, a team's and a match's page
(names and ids percent-encoded whole, so any stored text makes a working link)."""
from urllib.parse import quote, urlencode

from server.tables.sums import season_of


def query(game: str | None, season: str | None) -> str:
    args = {k: v for k, v in (("game", game), ("season", season)) if v}
    return "?" + urlencode(args) if args else ""


def player_href(name: str, game: str | None = None, season: str | None = None) -> str:
    return f"/players/{quote(name, safe='')}.html{query(game, season)}"


def team_href(name: str, game: str | None = None, season: str | None = None) -> str:
    return f"/teams/{quote(name, safe='')}.html{query(game, season)}"


def match_href(match_id: str) -> str:
    return f"/matches/{quote(match_id, safe='')}.html"


def link(text, href: str) -> dict:
    """A table cell that is a link (server/site/templates/_table.html)."""
    return {"text": "–" if text is None else str(text), "href": href}


def in_match(record: dict):
    """(team cell, player cell) makers for a match record's names: links to their pages in the
    competition and season of the match; a missing name stays a dash. A player is linked only from
    a match that counts: a player page holds counted partie, and a player of a match held, off the
    schedule or annulled may have none (a 404)."""
    game, season = record["game"], season_of(record["date"])
    counted = record.get("standing", "counted") == "counted"

    def team(name):
        return link(name, team_href(name, game, season)) if name else "–"

    def player(name):
        if not name:
            return "–"
        return link(name, player_href(name, game, season)) if counted else name
    return team, player
