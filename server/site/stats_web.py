"""The statistics routes of the league's site (A.1.3, A.1.4), beside server/site/routes.py's:

    GET /players.html|.json|.csv          every player of a season        ?game=carom|8ball&season=2026/27&q=
    GET /players/<name>.html|.json        one player: every season, and the partie of one ?game=&season=
    GET /rankings.html|.json|.csv         the season's rankings of players  ?game=&season=&min_partie=
    GET /teams/<name>.html|.json|.ics     a team: table line, players, matches; its fixtures as iCalendar
    GET /table.csv, /table-8ball.csv      the league tables (team figures) as CSV  ?season=
    GET /rules.html                       the rules in force
    GET /favicon.ico                      204: no icon
    GET /robots.txt                       every public page may be indexed; the admin and the API not

Bad query parameters get 400 with the reason; an unknown player or team 404 (an HTML page for a
page, JSON for .json and the API).
"""
import csv
import io
import re

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from server.site import calendar, chrome, stats_pages
from server.site.answers import JSONAnswer, html_page
from server.site.errors import failed
from server.site.games import in_address
from server.site.links import player_href, query, team_href
from server.tables import exports, stats

FORMATS = (".html", ".json", ".csv")
ROBOTS = "User-agent: *\nDisallow: /admin\nDisallow: /api/\nAllow: /\n"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value):
    """A CSV cell a spreadsheet shows and never runs (OWASP, CSV injection): a text beginning
    with = + - @ tab or CR gets a ' before it; a number, or a text that is one, stays as it is."""
    if isinstance(value, bool):             # as JSON writes it, not Python's True/False
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_answer(head: list[str], rows, name: str) -> Response:
    """RFC 4180 CSV (UTF-8 with a BOM for spreadsheets, CRLF): the stored texts, each ``cell``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head)
    writer.writerows([cell(value) for value in row] for row in rows)
    return Response("\ufeff" + out.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


def _split(name: str, formats=FORMATS) -> tuple[str, str]:
    for suffix in formats:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)], suffix
    raise HTTPException(404)


def _asked(request) -> tuple[str, str | None]:
    params = request.query_params
    return stats.game_of(params.get("game")), stats.season_arg(params.get("season"))


def checked(build):
    """A bad query parameter is a 400 with its reason, never a 500."""
    def answer(store, request):
        try:
            return build(store, request)
        except stats.BadQuery as exc:
            return failed(store, request, 400, exc)
    return answer


def _listing(path: str):
    """``switch(game, season)`` of a list page: the same list in another competition or season."""
    return lambda game, season: path + query(in_address(game), season)


def _frame(store, request, here: str, game: str, season: str | None, switch=None):
    return chrome.frame(store, here=here, game=game, season=season, switch=switch,
                        asked="season" in request.query_params)


def _players(suffix: str):
    def build(store, request):
        data = stats.players(store, *_asked(request))
        if suffix == ".json":
            return JSONAnswer(data)
        if suffix == ".csv":
            keys = [key for key, _ in stats_pages.columns(data["game"])]
            return csv_answer(["season", *keys], ([data["season"], *(r[k] for k in keys)] for r in data["rows"]),
                              f"players-{data['game']}")
        frame = _frame(store, request, "players", data["game"], data["season"], _listing("/players.html"))
        wanted = request.query_params.get("q", "")[:100]
        return html_page(stats_pages.players(data, frame, wanted))
    return build


def _rankings(suffix: str):
    def build(store, request):
        game, season = _asked(request)
        data = stats.rankings(store, game, season, stats.count_arg(request.query_params.get("min_partie"), "min_partie"))
        if suffix == ".json":
            return JSONAnswer(data)
        if suffix == ".csv":
            return csv_answer(["season", "ranking", "place", "player", "team", "value"],
                              ([data["season"], r["key"], row["place"], row["player"], row["team"], row["value"]]
                               for r in data["rankings"] for row in r["rows"]), f"rankings-{game}")
        frame = _frame(store, request, "rankings", data["game"], data["season"], _listing("/rankings.html"))
        return html_page(stats_pages.rankings(data, frame))
    return build


def _player(store, request):
    name, suffix = _split(request.path_params["name"], FORMATS[:2])
    params = request.query_params
    game = stats.game_of(params["game"]) if "game" in params else None
    data = stats.player(store, name, game, stats.season_arg(params.get("season")))
    if data is None:
        return failed(store, request, 404, f"no player {name[:200]!r}")
    if suffix == ".json":
        return JSONAnswer(data)
    frame = _frame(store, request, "players", data["game"], data["season"] or None,
                   lambda g, s: player_href(name, g, s) if g == data["game"] else chrome.table_href(g, s))
    return html_page(stats_pages.player(data, frame))


def _team(store, request):
    name, suffix = _split(request.path_params["name"], (*FORMATS[:2], ".ics"))
    data = stats.team(store, name, *_asked(request))
    if data is None:
        return failed(store, request, 404, f"no team {name[:200]!r}")
    if suffix == ".json":
        return JSONAnswer(data)
    if suffix == ".ics":
        return calendar.answer(data, store.league.competitions().get(data["game"], ""), request)
    frame = _frame(store, request, "table", data["game"], data["season"],
                   lambda g, s: team_href(name, g, s) if g == data["game"] else chrome.table_href(g, s))
    return html_page(stats_pages.team(data, frame))


TABLE_CSV = {"carom": ("place", "team", "matches", "partie", "points", "scored", "conceded", "difference",
                       "innings", "general_average", "general_average_exact", "decided_by"),
             "8ball": ("place", "team", "matches", "individual_won", "individual_lost", "points", "sets_won",
                       "sets_lost", "sets_difference", "games_won", "games_lost", "games_difference", "tied")}


def _table_csv(game: str):
    def build(store, request):
        data = exports.league_table(store, game, season=stats.season_arg(request.query_params.get("season")))
        keys = TABLE_CSV[game]
        return csv_answer(["season", *keys], ([data["season"], *(r[k] for k in keys)] for r in data["rows"]),
                          f"table-{game}")
    return build


def _rules(store, request):
    return html_page(stats_pages.rules(chrome.frame(store, here="rules", game=None, season=None)))


async def _no_icon(request):
    """Browsers ask every site for /favicon.ico: nothing to show, and no 404 in their console."""
    return Response(status_code=204, headers={"Cache-Control": "max-age=86400"})


async def _robots(request):
    return PlainTextResponse(ROBOTS, headers={"Cache-Control": "max-age=86400"})


def routes(page) -> list[Route]:
    """The routes; ``page`` wraps a ``build(store, request)`` into an endpoint (server/site/routes.py)."""
    out = [Route(f"/players{suffix}", page(checked(_players(suffix))), methods=["GET"]) for suffix in FORMATS]
    out += [Route(f"/rankings{suffix}", page(checked(_rankings(suffix))), methods=["GET"]) for suffix in FORMATS]
    return out + [
        Route("/players/{name:path}", page(checked(_player)), methods=["GET"]),
        Route("/teams/{name:path}", page(checked(_team)), methods=["GET"]),
        Route("/table.csv", page(checked(_table_csv("carom"))), methods=["GET"]),
        Route("/table-8ball.csv", page(checked(_table_csv("8ball"))), methods=["GET"]),
        Route("/rules.html", page(_rules), methods=["GET"]),
        Route("/favicon.ico", _no_icon, methods=["GET"]),
        Route("/robots.txt", _robots, methods=["GET"]),
    ]

