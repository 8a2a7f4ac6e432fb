"""The live board's endpoints: ``POST /api/v1/live``, ``GET /live``, ``/live/events``, ``/live.js``.

The page is a Jinja2 template (autoescaped) with the current list embedded as JSON (``<``, ``>``
and ``&`` escaped) and a script that draws with ``textContent`` only, under a Content-Security-
Policy that allows only the receiver's own script and event stream.
"""
import asyncio
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.responses import Response, StreamingResponse

from server.league.errors import Refused
from server.live.board import sse
from server.site import chrome, pages
from server.site.answers import JSONAnswer, html_page, limited, logged_refusal, read_body, remote
from server.site.routes import reading
from wire.live import MAX_SNAPSHOT
from wire.signing import Signed

LIVE = "/api/v1/live"

SCRIPT = (Path(__file__).resolve().parent.parent / "site" / "templates" / "live.js").read_bytes()


def post_live(board, body_deadline: float, limiter):
    """A device's signed snapshot: 200 "shown", or refused like a record (logged, so counted by the limiter)."""
    async def handle(request, remote):
        try:
            length = int(request.headers.get("content-length", ""))
        except ValueError:
            return await _refuse(board, Refused(411, "Content-Length required"), None, remote)
        if not 0 <= length <= MAX_SNAPSHOT:
            return await _refuse(board, Refused(413, f"snapshot too large ({length} bytes)"), None, remote)
        try:
            body = await read_body(request, length, body_deadline)
            signed = Signed.from_headers(request.headers, body)
        except asyncio.TimeoutError:
            return await _refuse(board, Refused(408, f"the body did not arrive within {body_deadline:g} s"), None,
                                 remote)
        except ClientDisconnect:        # it hung up mid-body: nobody to answer
            await _refuse(board, Refused(400, "the client hung up before its body was in"), None, remote)
            return Response(status_code=400)
        except ValueError as exc:
            return await _refuse(board, Refused(401, str(exc)), None, remote)
        try:
            snap, _ = await run_in_threadpool(board.verify, signed)
        except Refused as exc:
            return await _refuse(board, exc, signed.device, remote)
        shown = await board.put(signed.device, signed.timestamp, snap)
        return JSONAnswer({"code": 200, "status": "shown" if shown else "older", "id": None,
                           "reason": "on the live board" if shown else "a newer snapshot is shown"})
    return limited(limiter, handle)


async def _refuse(board, exc: Refused, device, remote) -> JSONAnswer:
    return await logged_refusal(board.receiver.store, exc, via="http-live", what="a live snapshot",
                                device=device, remote=remote)


def live_page(board):
    async def endpoint(request):
        await board.refresh()
        await board.link_records()
        with reading(request.scope):        # in the reader's language (server/site/language.py)
            frame = await run_in_threadpool(chrome.frame, board.receiver.store, here="live", game=None, season=None)
            return html_page(pages.live(sse_data(board.entries()), frame))
    return endpoint


def sse_data(entries) -> str:
    """The list as JSON safe inside a <script type="application/json"> element."""
    return sse("tables", entries).decode("ascii").split("data: ", 1)[1].rstrip("\n")


def live_events(board):
    """The stream; its connection ends with it (a viewer ended to make room is gone at once)."""
    async def endpoint(request):
        return StreamingResponse(board.stream(remote(request)), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no",
                                          "Connection": "close"})
    return endpoint


async def live_script(request):
    return Response(SCRIPT, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"})
