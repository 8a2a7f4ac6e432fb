"""The league's public schedule with results (A.2.3): ``/schedule?season=…&competition=…`` (HTML,
readable on a phone) and ``/schedule.json``. A result comes from the stored match items under the
fixture's id (the match id the device records it with) and links to its match record; each team
links to its page (from the season's start, before anything is played)."""
from starlette.responses import HTMLResponse

from server.site.answers import JSONAnswer
from server.site.links import team_href
from server.site.pages import render

# the league's pages (this one and the admin's) load nothing, run no script and may not be framed
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'"
STATUSES = {"scheduled": "naplánováno", "played": "odehráno", "postponed": "odloženo", "forfeited": "kontumováno",
            "cancelled": "zrušeno", "interrupted": "přerušeno"}


def page(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"Content-Security-Policy": CSP})


def schedule(html: bool):
    """The GET endpoint's builder: ``build(store, request)`` (server.site.routes._page runs it)."""
    return lambda store, request: _schedule(store, request, html=html)


def _schedule(store, request, *, html: bool):
    seasons = [s["name"] for s in store.league.seasons()]
    season = request.query_params.get("season", "")
    season = season if season in seasons else (seasons[-1] if seasons else "")
    competition = request.query_params.get("competition", "carom")
    competitions = store.league.competitions()
    competition = competition if competition in competitions else "carom"
    fixtures = store.fixtures.of(season, competition) if season else []
    if not html:
        return JSONAnswer({"season": season or None, "competition": competition, "fixtures": fixtures})
    rounds: dict[int, list[dict]] = {}
    for f in fixtures:
        f["status_text"] = STATUSES.get(f["status"], f["status"])
        f["home_href"], f["away_href"] = (team_href(f[side], competition, season) for side in ("home", "away"))
        rounds.setdefault(f["round"], []).append(f)
    expelled = [t["name"] for t in store.league.teams(season, competition) if t["expelled"]] if season else []
    # A.1.5 / A.3.7: an expelled team's entry fee, where the competition set one, is not returned
    fee = expelled and store.league.rules(season, competition)["entry_fee"] is not None
    notes = [f"Vyřazeno ze soutěže (A.3.7), výsledky anulovány{', bez náhrady startovného' if fee else ''}: "
             f"{', '.join(expelled)}"] if expelled else []
    return page(render("schedule.html", title=f"Rozpis utkání {season}".strip(), seasons=seasons, season=season,
                       competition=competition, competitions=competitions, fixtures=fixtures, notes=notes,
                       rounds=[{"number": n, "fixtures": rounds[n]} for n in sorted(rounds)]))
