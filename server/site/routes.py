"""The site's routes: the devices' endpoints, the read-only pages, the admin (server/app.py joins them
with the live board's into the ASGI application).

    POST /api/v1/records             a signed item (wire.signing headers)      (server/site/intake.py)
    POST /api/v1/batch               a device's backlog: signed items, one commit (server/site/intake.py)
    GET  /api/v1/records             the stored items, a page at a time; ?after=&limit= (admin)
    GET  /api/v1/records/<id>        one item verbatim (the bytes the device sent)
    GET  /matches.json               the matches of a season; ?season=2025/26 (default: latest)
    GET  /matches/<id>.json|.html    the match record (zápis o utkání, RULES 1.6)
    GET  /table.json|.html           the carom league table (RULES 1.8); ?season=2025/26 (default: latest)
    GET  /table-8ball.json|.html     the 8-ball league table (RULES 2.9; order: docs/server.md); ?season=
    GET  /refusals.json              the refusal log: counts and the latest refusals   (admin)
    POST /api/v1/live                a signed live snapshot (server.live.board: shown, kept as the latest, no record)
    GET  /api/v1/league              a device's league, signed for it (server.site.league_web; signed GET)
    GET  /live, /live/events         the tables playing now, and their changes (Server-Sent Events)
    GET  /schedule, /schedule.json   the league's schedule with results (server.site.schedule_web)
    GET|POST /admin…                 the league's web admin, behind a login (server.site.admin_web)
    GET  /                           the home page: tonight's and the next fixtures, the latest results
    GET  /players…, /rankings…, /teams/<name>…, /rules.html, /table.csv   statistics (server/site/stats_web.py)
    GET  /static/site-<hash>.css|.js the site's stylesheet and script (server/site/assets.py)
    GET  /language?to=en&back=/path  the reader's language, kept in a cookie (server/site/language_web.py)

The receiver and the store are synchronous (SQLite under a lock): calls into them run in the
thread pool, so a slow client costs no thread, except what cannot wait: a kept page answered
from memory, a device's item when the SQLite writer is free (server/site/intake.py), and then the figures
step a reader waits for (server/tables/settling.py), and a bounded page built from SQLite.
"""
import logging
from urllib.parse import parse_qsl, quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Route

from server.league.errors import Refused
from server.site import (
    admin_web,
    assets,
    chrome,
    czech,
    home,
    intake,
    language,
    language_web,
    league_web,
    pages,
    schedule_web,
    stats_web,
)
from server.site.access import RefusalLimiter, admin_allowed
from server.site.answers import JSONAnswer, html_page, log_refusal
from server.site.answers import remote as _remote
from server.site.answers import too_many as _too_many
from server.site.errors import failed, failed_bare
from server.site.intake import RECORDS
from server.tables import exports, stats
from server.tables.sums import season_of

log = logging.getLogger("pocitadlo.server")



BUILDERS = 2        # pages built in the thread pool at once; more readers of other pages wait their turn
KEYED = ("season", "game", "min_partie", "competition", "q")    # the query parameters a kept page reads


def _page(build, *, on_loop: bool = False):
    """A GET endpoint: ``build(store, request)`` in the thread pool; a failure is a 500, logged.
    The figures of items stored before it are computed first, so a page never misses an item
    already answered: on SQLite (its only writers: this receiver, and commands that compute
    what they leave pending) by the step after the answers, which the page waits for
    (server/tables/settling.py); on PostgreSQL, where other receivers store items too, here
    (``settled``). ``on_loop``: on the event loop when the store is SQLite, whose reads never
    wait for a lock. At most BUILDERS builds run in the thread pool at once (a reader waits
    for its turn on the loop, holding no thread), so readers of pages that cost leave the
    thread pool and the interpreter's lock to the devices' posts."""
    async def endpoint(request):
        state = request.app.state
        store = state.receiver.store
        if store.dialect == "sqlite":
            await state.figures.caught_up()
            if on_loop:
                return build(store, request)
            async with state.builders:
                return await run_in_threadpool(build, store, request)
        async with state.builders:
            return await run_in_threadpool(settled(build), state.receiver, request)
    return _failing_500(endpoint)


def _failing_500(endpoint):
    """``endpoint``, whose failure (a bug) is answered 500 and logged; both in the reader's language."""
    async def answered(request):
        with reading(request.scope):
            try:
                return await endpoint(request)
            except HTTPException:
                raise
            except Exception:
                log.exception("GET %s failed", request.url.path)
                return failed_bare(request, 500, "internal error")
    return answered


def reading(scope):
    """The request's language chosen for what is built within (server/site/language.py), the
    switch leading back to the page as it is kept (``page_key``)."""
    path, query, chosen = page_key(scope)
    return language.reading(chosen, quote(path) + ("?" + query.decode() if query else ""))


def settled(build):
    """``build(store, request)`` once the figures of the items stored before are computed."""
    def built(receiver, request):
        receiver.settle()
        return build(receiver.store, request)
    return built


def _kept(build, *, bounded: bool = True, dated: bool = False):
    """A page kept until the store's generation moves on (server/site/page_cache.py): built once per
    change of the store, whichever receiver made it, not once per reader; the readers asking
    while it is built await that build. While the generation read last is fresh, ``Front``
    answers it before it gets here. ``bounded``: its cost does not grow with what is stored (a
    table from the running sums, one match's record), so on SQLite it is built on the event loop;
    the others (a list of every match, the statistics) in the thread pool, where the loop still
    gets its turns (a device's POST among them) while it is built. ``dated``: the page shows
    today (the home page), so it is kept per day in the league's zone too (``Front`` then leaves
    it to the route, whose key has the day)."""
    def settled_generation(receiver, pages) -> int:
        receiver.settle()
        return pages.generation(receiver.store)

    def built(store, request) -> tuple:
        with store.reading():
            return _parts(build(store, request))

    async def endpoint(request):
        state = request.app.state
        store, pages = state.receiver.store, state.pages
        if store.dialect == "sqlite":
            await state.figures.caught_up()
            now = pages.generation(store)
        else:
            now = await run_in_threadpool(settled_generation, state.receiver, pages)

        async def build_it():
            if bounded and store.dialect == "sqlite":
                return built(store, request)
            async with state.builders:
                return await run_in_threadpool(built, store, request)
        key = page_key(request.scope) + ((czech.today(store.clock).isoformat(),) if dated else ())
        return _answer(await pages.page(key, now, build_it))
    return _failing_500(endpoint)


def page_key(scope) -> tuple:
    """A kept page's key: its path, the query parameters it reads (KEYED; the last of each,
    as Starlette reads them) and its language: other parameters (``?x=1``, ``?x=2``, …) and
    cookies ask for the same page, not a build each; a page kept in one language is never
    another's."""
    query = scope["query_string"]
    if query:
        given = dict(parse_qsl(query.decode("latin-1"), keep_blank_values=True))
        query = urlencode(sorted((name, given[name]) for name in KEYED if name in given)).encode()
    return scope["path"], query, language.chosen(scope)


def _answer(page: tuple) -> Response:
    status, body, headers = page
    answer = Response(body, status_code=status)
    answer.raw_headers = list(headers)
    return answer


def _parts(answer: Response) -> tuple:
    return answer.status_code, answer.body, tuple(answer.raw_headers)


def _admin(build):
    """An admin view: only with the admin token (refused attempts count towards the client's limit)."""
    def checked(store, request):
        state = request.app.state
        if not state.limiter.allow(_remote(request)):
            return _too_many(state.limiter)
        if not admin_allowed(state.admin_token, request.headers.get("authorization")):
            reason = ("admin views need \"Authorization: Bearer <token>\" (serve --admin-token-file)"
                      if state.admin_token else "admin views are off (serve --admin-token-file turns them on)")
            log_refusal(store, Refused(401, reason), via="http-admin", what="an admin view", remote=_remote(request))
            return JSONAnswer({"code": 401, "status": "refused", "reason": reason}, status_code=401,
                              headers={"WWW-Authenticate": "Bearer"})
        return build(store, request)
    return checked


PAGE_OF_ITEMS = 1000    # items at most in one answer of the admin's list


def _records(store, request):
    """The stored items without their bodies, a page at a time: ``?after=<seq>&limit=<n>``; the
    answer's ``next`` asks for the page after (null on the last)."""
    params = request.query_params
    after = stats.count_arg(params.get("after"), "after", most=None) or 0
    limit = min(stats.count_arg(params.get("limit"), "limit") or PAGE_OF_ITEMS, PAGE_OF_ITEMS)
    items = store.items.listed(after=after, limit=limit)
    more = len(items) == limit and bool(store.items.listed(after=items[-1]["seq"], limit=1))
    return JSONAnswer({"items": items, "next": f"{RECORDS}?after={items[-1]['seq']}&limit={limit}" if more else None})


def _record(store, request):
    body = store.items.body(request.path_params["item_id"])
    if body is None:
        return JSONAnswer({"code": 404, "reason": "no such record"}, status_code=404)
    return Response(body, media_type="application/json; charset=utf-8")


def _match(store, request):
    match_id, suffix = request.path_params["name"], None
    for suffix in (".json", ".html"):
        if match_id.endswith(suffix):
            match_id = match_id[:-len(suffix)]
            break
    else:
        raise HTTPException(404)
    record = exports.match_record(store, match_id)
    if record is None:
        return failed(store, request, 404, f"no match {match_id!r}")
    if suffix == ".json":
        return JSONAnswer(record)
    frame = chrome.frame(store, here="", game=record["game"], season=season_of(record["date"]))
    return html_page(pages.match(record, frame))


def _table(game: str, html: bool):
    def build(store, request):
        season = stats.season_arg(request.query_params.get("season"))
        data = exports.league_table(store, game, season=season)
        if not html:
            return JSONAnswer(data)
        frame = chrome.frame(store, here="table", game=game, season=data["season"], asked=season is not None)
        return html_page(pages.league_table(data, frame, notes=schedule_web.expelled_notes(store, data["season"], game)))
    return build


def _home(store, request):
    return html_page(home.build(store, czech.today(store.clock)))


def _matches(store, request):
    return JSONAnswer(exports.matches(store, stats.season_arg(request.query_params.get("season"))))


def _refusals(store, request):
    report = store.refusals.report()
    report["rate_limited_since_start"] = request.app.state.limiter.limited
    return JSONAnswer(report)


def routes(receiver, *, body_deadline: float, limiter: RefusalLimiter, admin_token: str | None,
           league_source, today) -> list[Route]:
    """The site's routes: the devices' posts and league fetch, the pages, the admin."""
    return [
        Route(RECORDS, intake.post_records(receiver, body_deadline, limiter), methods=["POST"]),
        Route(intake.BATCH, intake.post_batch(receiver, body_deadline, limiter), methods=["POST"]),
        Route(league_web.LEAGUE, league_web.get_league(receiver, league_source, today, limiter), methods=["GET"]),
        Route(RECORDS, _page(_admin(stats_web.checked(_records))), methods=["GET"]),
        Route(RECORDS + "/{item_id:path}", _page(_record), methods=["GET"]),
        Route("/", _kept(_home, bounded=False, dated=True), methods=["GET"]),
        Route("/matches.json", _kept(stats_web.checked(_matches), bounded=False), methods=["GET"]),
        Route("/matches/{name:path}", _kept(_match), methods=["GET"]),
        Route("/table.json", _kept(stats_web.checked(_table("carom", False))), methods=["GET"]),
        Route("/table.html", _kept(stats_web.checked(_table("carom", True))), methods=["GET"]),
        Route("/table-8ball.json", _kept(stats_web.checked(_table("8ball", False))), methods=["GET"]),
        Route("/table-8ball.html", _kept(stats_web.checked(_table("8ball", True))), methods=["GET"]),
        Route("/refusals.json", _page(_admin(_refusals)), methods=["GET"]),
        Route("/schedule", _kept(schedule_web.schedule(html=True), bounded=False), methods=["GET"]),
        Route("/language", language_web.switch, methods=["GET"]),
        Route("/schedule.json", _kept(schedule_web.schedule(html=False), bounded=False), methods=["GET"]),
        *admin_web.routes(admin_token, receiver.store.clock),
        *stats_web.routes(lambda build: _kept(build, bounded=False)),
        *assets.routes(),
    ]


async def not_found(request, exc):
    """An unknown address (404) or method (405): a page in the site's style, or JSON for the API."""
    status = getattr(exc, "status_code", 404)
    with reading(request.scope):
        answer = failed_bare(request, status, "not found" if status == 404 else "method not allowed")
    if status == 405 and getattr(exc, "headers", None):
        answer.headers["Allow"] = exc.headers["Allow"]         # the methods the path takes
    return answer
