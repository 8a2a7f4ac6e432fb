"""The receiver's ASGI application (Starlette): the site's routes and the live board's, behind ``Front``."""
import asyncio

from starlette.applications import Starlette
from starlette.routing import Route

from server.live import web as live_web
from server.live.board import LiveBoard
from server.site.access import RefusalLimiter
from server.site.answers import PAGE_CSP
from server.site.group_commit import GroupCommit
from server.site.page_cache import PageCache
from server.site.routes import BUILDERS, not_found, page_key, routes
from server.tables.settling import DELAY as FIGURES_DELAY
from server.tables.settling import Later

BODY_DEADLINE = 10.0      # seconds to receive a whole POST body once its headers are in
NOSNIFF = (b"x-content-type-options", b"nosniff")
HSTS = (b"strict-transport-security", b"max-age=31536000")     # a year: the browser asks by HTTPS only
NO_STORE = (b"cache-control", b"no-store")
PAGE_POLICY = (b"content-security-policy", PAGE_CSP.encode())


def hardened(scope, headers) -> list:
    """An answer's headers with what every answer carries: it says what it is and the browser
    must not guess (X-Content-Type-Options); an answer without a Content-Security-Policy of its
    own (JSON, CSV, the site's stylesheet and script: the site's pages carry theirs,
    server.site.answers.SITE_CSP) gets the strictest: no script, nothing loaded, no framing; the
    admin's answers are never stored by a
    browser or a proxy (they carry the CSRF token); over TLS, HSTS."""
    out = [*headers, NOSNIFF]
    if all(name != b"content-security-policy" for name, _ in headers):
        out.append(PAGE_POLICY)
    if scope["path"].startswith("/admin"):
        out = [header for header in out if header[0] != b"cache-control"] + [NO_STORE]
    if scope["scheme"] == "https":
        out.append(HSTS)
    return out


class Front:
    """In front of the routes: a kept page that is fresh (server/site/page_cache.py ``kept_now``) is
    answered at once, its bytes as built, without routing or a response object (a reader costs
    the event loop little, so a device's POST waits little behind the readers); every answer
    gets the headers ``hardened`` adds."""

    def __init__(self, app):
        self.app, self.state = app, app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET":
            page = await self._kept(page_key(scope))
            if page is not None:
                status, body, headers = page
                await send({"type": "http.response.start", "status": status, "headers": hardened(scope, headers)})
                await send({"type": "http.response.body", "body": body})
                return

        async def sending(message):
            if message["type"] == "http.response.start":
                message["headers"] = hardened(scope, message.get("headers", []))
            await send(message)
        await self.app(scope, receive, sending)

    async def _kept(self, key):
        """The kept page to answer at once: fresh, or (SQLite) kept at the generation after the
        figures of this receiver's items answered before are computed (which a reader waits for,
        as the route would have it wait) — readers of a kept page that a device's item made
        out of date wait here, not in the routes, and only the first builds it again."""
        pages, store = self.state.pages, self.state.receiver.store
        page = pages.kept_now(key, store.changes)
        if page is not None or store.dialect != "sqlite" or not pages.has(key):
            return page
        try:
            await self.state.figures.caught_up()
            return pages.kept_at(key, pages.generation(store))
        except Exception:           # noqa: BLE001 — the route answers it, and logs what failed
            return None


def create_app(receiver, *, body_deadline: float = BODY_DEADLINE, admin_token: str | None = None,
               limiter: RefusalLimiter | None = None, league_source=None, today=None,
               figures_delay: float = FIGURES_DELAY):
    """The receiver's ASGI application; ``admin_token`` opens the admin views (none: they stay shut);
    ``league_source(venue, today) -> dict | None`` answers the devices' league fetch (none: 404),
    ``today()`` its date (default: the store's clock); ``figures_delay``: seconds from a stored
    item to the step that computes the figures after the answers (server/tables/settling.py)."""
    limiter = limiter or RefusalLimiter()
    receiver.store.refusals.on_logged = limiter.refused      # a refusal counts as it is logged
    today = today or (lambda: receiver.store.clock.today())
    board = LiveBoard(receiver)
    live = [
        Route(live_web.LIVE, live_web.post_live(board, body_deadline, limiter), methods=["POST"]),
        Route("/live", live_web.live_page(board), methods=["GET"]),
        Route("/live/events", live_web.live_events(board), methods=["GET"]),
        Route("/live.js", live_web.live_script, methods=["GET"]),
    ]
    site = routes(receiver, body_deadline=body_deadline, limiter=limiter, admin_token=admin_token,
                  league_source=league_source, today=today)
    app = Starlette(routes=live + site, exception_handlers={404: not_found, 405: not_found})
    app.state.receiver, app.state.admin_token, app.state.limiter = receiver, admin_token, limiter
    app.state.live = board
    app.state.pages = PageCache()
    app.state.builders = asyncio.Semaphore(BUILDERS)
    app.state.figures = Later(receiver, figures_delay)
    app.state.group = GroupCommit(receiver)
    return Front(app)
