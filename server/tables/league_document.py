"""The league as a venue's device fetches it (docs/league.md): its competition and season with its
rules of play, the teams with their rosters and captains, and the venue's fixtures still to be played."""
import datetime as dt

from rules.games import GAMES
from server.league import admin_fields as fields
from server.league import competition_rules, names


def league_document(store, venue: str, today: dt.date, days: int = 28, *,
                    competition: str | None = None) -> dict | None:
    """The league as the venue's device needs it: the league, every team of the competition and
    season with its roster and captain, and the venue's fixtures still to be played from
    ``today - days`` to ``today + days`` with their current dates (a played one is not offered
    again: a match played for it would replace its result); a captain not (yet, or no longer) on
    the roster is not sent. ``competition``: the device's game (carom, 8ball), else the venue's
    nearest. None: no league data."""
    chosen = _venue_league(store, venue, today, competition)
    if chosen is None:
        return None
    season, competition = chosen
    teams = [t for t in store.league.teams(season, competition) if not t["expelled"]]
    first, last = today - dt.timedelta(days=days), today + dt.timedelta(days=days)
    fixtures = [f for f in store.fixtures.of(season, competition, first=first, last=last)
                if f["status"] == "scheduled" and names.same(f["venue"], venue)]
    rules = competition_rules.for_device(competition, store.league.rules(season, competition))
    return {"league": {"name": store.league.competitions()[competition], "season": season,
                       "competition": competition, "rules": rules},
            "teams": [{"name": t["name"], "venue": t["venue"], "players": t["players"],
                       "captain": t["captain"] if t["captain"] in t["players"] else None}     # wire.league
                      for t in teams],
            "fixtures": [{key: f[key] for key in ("id", "date", "start", "home", "away", "venue")}
                         for f in fixtures]}


def _venue_league(store, venue: str, today: dt.date, competition: str | None = None) -> tuple[str, str] | None:
    """The season and competition played at a venue: of its team or fixture nearest ``today``
    (this season's first; of ``competition`` only, when given; the registry's first game first, carom);
    None when the venue has neither."""
    current = fields.season_containing(today)
    here = [(season, played, date) for season, played, where, date in store.league.places()
            if names.same(where, venue) and competition in (None, played)]
    if not here:
        return None

    def nearness(row):
        season, competition, date = row
        distance = abs((dt.date.fromisoformat(date) - today).days) if date else 10_000
        return (season != current, -int(season[:4]), distance, list(GAMES).index(competition))
    season, competition, _ = min(here, key=nearness)
    return season, competition
