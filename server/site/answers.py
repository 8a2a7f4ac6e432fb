"""The receiver's answers shared by its endpoints: JSON answers, refusals, a bounded body read."""
import asyncio
import json
import logging

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, Response

log = logging.getLogger("pocitadlo.server")
# a page's Content-Security-Policy: its own inline style only; no script, nothing loaded, no framing
PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"


class JSONAnswer(Response):
    """Compact JSON: the json module's C encoder (an indent would take its pure-Python one, several
    times slower on a league table, rebuilt after every stored item)."""
    media_type = "application/json; charset=utf-8"

    def render(self, content) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# The site's pages load only the site's own stylesheet and script, may fetch only from the site (the
# live page's events; a crawler's check of /robots.txt from the page), and may not be framed.
SITE_CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def html_page(text: str, status: int = 200) -> HTMLResponse:
    """An HTML page of the site under its Content-Security-Policy; its language is chosen by a
    cookie (server/site/language.py), so a cache keeps a copy per cookie."""
    return HTMLResponse(text, status_code=status, headers={"Content-Security-Policy": SITE_CSP, "Vary": "Cookie"})


def refused(status: int, reason: str, **extra) -> JSONAnswer:
    return JSONAnswer({"code": status, "status": "refused", "reason": reason, **extra}, status_code=status)


def remote(request) -> str | None:
    return request.client.host if request.client else None


async def read_body(request, length: int, deadline: float) -> bytes:
    """The body, at most ``length`` bytes; TimeoutError when it is not in within ``deadline``
    seconds (a deadline on this task, not a task of its own: a body already received is read
    without a turn of the event loop)."""
    chunks, size = [], 0
    async with asyncio.timeout(deadline):
        async for chunk in request.stream():
            size += len(chunk)
            if size > length:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def too_many(limiter) -> JSONAnswer:
    answer = refused(429, "too many refused requests from this address; slow down")
    answer.headers["Retry-After"] = str(limiter.retry_after())
    return answer


def limited(limiter, handle):
    """An endpoint around ``handle(request, remote)``: a client that keeps being refused is
    answered 429 before any work (server.site.access.RefusalLimiter; its refusals count as they
    are logged)."""
    async def endpoint(request):
        client = remote(request)
        if not limiter.allow(client):
            return too_many(limiter)
        return await handle(request, client)
    return endpoint


def log_refusal(store, exc, *, via: str, what: str, device=None, remote=None) -> None:
    """Log a refusal of a request that stores nothing (a live snapshot, a league fetch, an admin
    view, a body that never came) and keep it in the store's refusal log, like a refused post:
    it counts towards the client's limit there."""
    shown = ascii(device) if device is not None else None
    log.warning("refused %s from %s (%s): %s %s", what, shown, remote or "-", exc.status, exc.reason)
    store.refusals.log(via=via, remote=remote, device=shown, item_id=None, status=exc.status, reason=exc.reason)


async def logged_refusal(store, exc, *, via: str, what: str, device=None, remote=None, **extra) -> JSONAnswer:
    """``log_refusal`` (in the thread pool), then the answer with the reason (and ``extra``)."""
    await run_in_threadpool(lambda: log_refusal(store, exc, via=via, what=what, device=device, remote=remote))
    return refused(exc.status, exc.reason, **extra)
