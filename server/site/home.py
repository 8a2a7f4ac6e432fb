"""The site's home page: the leagues' names, tonight's and the next fixtures, the latest results by
date (newest first, with their competition) and links to the tables. It changes with the date, so
its kept copy is kept per day (server/site/routes.py)."""
from server.site import chrome, czech, pages
from server.site.chrome import GAME_NAMES, table_href
from server.site.language import N_, say
from server.site.links import link
from server.site.schedule_web import shown_status
from server.tables import sums

UPCOMING = 6         # the next fixtures shown
RESULTS = 10         # the latest results shown


def _season_of_today(store, today) -> str | None:
    """The season containing today when the league has it, else the latest one there is."""
    seasons = sums.all_seasons(store)
    current = sums.season_of(today.isoformat())
    return current if current in seasons else next(iter(seasons), None)


def _competitions(store, season: str | None) -> list[str]:
    """The competitions with teams or matches in the season (carom first); both when neither has any."""
    played = {m["game"] for m in store.figures.matches(season)} if season else set()
    entered = {g for g in GAME_NAMES if season and store.league.teams(season, g)}
    return [g for g in GAME_NAMES if g in played | entered] or list(GAME_NAMES)


def _standing(m: dict) -> str:
    """A result's word when the table does not count it (server/tables/standing.py), or when it
    is not closed."""
    if m["standing"] == "pending":
        return say("čeká na rozhodnutí organizátora soutěže")
    if m["standing"] not in (None, "counted"):
        return say(pages.STANDINGS.get(m["standing"], N_("nezapočteno")))
    return "" if m["closed"] else say("neuzavřeno")


def _replayed(m: dict, of_match: dict) -> bool:
    """The first part of an interrupted match whose rest was played (A.6.5): the rest's line
    gives the fixture's result."""
    fixture = of_match.get(m["match"])
    return fixture is not None and fixture["match"] == m["match"] and fixture["continuation"] is not None


def _result(m: dict, fixture: dict | None, forfeited: set, *, game: str | None) -> dict:
    """A latest result's card: a league match's as its fixture stands (its status as the schedule
    says it: awarded, held, forfeited; a replayed match's whole result, linked to its zápis);
    else the match's own, with its standing's word."""
    card = {"date": m["date"], "home": m["home"], "away": m["away"], "venue": m["venue"],
            "points_home": m["points"]["home"], "points_away": m["points"]["away"], "match": m["match"],
            "competition": m["game"], "status_text": _standing(m)}
    if fixture is not None:
        card.update(points_home=fixture["points_home"], points_away=fixture["points_away"], match=fixture["match"],
                    status_text=shown_status(fixture) or card["status_text"])
    if m["match"] in forfeited:
        card.update(match=None, status_text=say("kontumováno"))
    return pages.fixture_card(card, game=game)


def build(store, today) -> str:
    season = _season_of_today(store, today)
    games = _competitions(store, season)
    names = store.league.competitions()
    fixtures = {g: store.fixtures.of(season, g) if season else [] for g in games}
    forfeited = {f["id"] for g in games for f in fixtures[g] if f["status"] == "forfeited"}
    tag = len(games) > 1

    def card(f, game):
        return pages.fixture_card(dict(f, status_text=shown_status(f)), game=game if tag else None)

    day = today.isoformat()
    tonight = [card(f, g) for g in games for f in fixtures[g] if f["date"] == day]
    upcoming = sorted(((f, g) for g in games for f in fixtures[g] if f["date"] > day and f["status"] == "scheduled"),
                      key=lambda pair: (pair[0]["date"], pair[0]["start"]))[:UPCOMING]
    of_match = {f[part]: f for g in games for f in fixtures[g] for part in ("match", "continuation") if f[part]}
    played = [m for m in store.figures.matches(season) if m["game"] in games and not _replayed(m, of_match)] \
        if season else []
    played.sort(key=lambda m: m["date"] or "", reverse=True)
    results = [_result(m, of_match.get(m["match"]), forfeited, game=m["game"] if tag else None)
               for m in played[:RESULTS]]
    frame = chrome.frame(store, here="home", game=games[0], season=season)
    tables = [link(say("Tabulka {game}", game=GAME_NAMES[g]), table_href(g, season)) for g in games]
    return pages.home(frame=frame, league_names=[names[g] for g in games], tonight=tonight,
                      upcoming=[card(f, g) for f, g in upcoming], results=results,
                      today_text=czech.day(today, year=True), tables=tables)
