"""``GET /api/v1/league``: a venue's device fetches its league, signed by the receiver.

The request is signed by the device like a record post, over an empty body (wire.signing
headers); the receiver checks it the same way (server.ingest.receiver.Receiver.authenticate: registered
device, signature, 300 s window, nonce) and that the device is registered for a venue. The answer
is ``league_source(venue, today)`` — the league document (wire.league) for that venue — in the
envelope of wire.league_answer, signed with the device's own secret. ``?game=carom|8ball``, the
device's game, asks for that competition's league (a venue may host both): ``league_source(venue,
today, competition=game)``. Refusals are answered and
logged like a post's (400 a bad request, 401 unsigned or not authentic, 403 no venue, 404 no league data), carry the
receiver's ``server_time`` (a device with a wrong clock adopts it) and count towards the client's
refusal limit (server.site.access).
"""
import logging

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from server.league.admin_fields import COMPETITIONS
from server.league.errors import Refused
from server.site.answers import JSONAnswer, limited, logged_refusal
from server.tables import figures
from wire.league import LeagueError, parse_document
from wire.league_answer import envelope, sign_answer
from wire.signing import Signed

log = logging.getLogger("pocitadlo.server")

LEAGUE = "/api/v1/league"


def get_league(receiver, league_source, today, limiter):
    """The endpoint; ``league_source(venue, today) -> dict | None``, ``today()`` the receiver's date."""
    async def handle(request, remote):
        try:
            signed = Signed.from_headers(request.headers, b"")
            answer = await run_in_threadpool(_answer, receiver, league_source, today, signed, request)
        except ValueError as exc:       # the signature headers are missing or malformed
            return await _refuse(receiver, Refused(401, str(exc)), None, remote)
        except Refused as exc:
            return await _refuse(receiver, exc, signed.device, remote)
        return answer
    return limited(limiter, handle)


def _answer(receiver, league_source, today, signed: Signed, request) -> Response:
    if request.headers.get("content-length", "0") != "0" or "transfer-encoding" in request.headers:
        raise Refused(400, "a league request has no body")
    game = request.query_params.get("game")
    if game is not None and game not in COMPETITIONS:
        raise Refused(400, f"game must be one of {', '.join(COMPETITIONS)}, got {game[:40]!r}")
    if signed.origin is not None:
        raise Refused(401, "a league request cannot be relayed: the device asks itself")
    receiver.authenticate(signed)
    store = receiver.store
    venue = store.devices.venue_of(signed.device)
    if venue is None:
        raise Refused(403, f"device {signed.device!r} is not registered for a venue "
                           "(pocitadlo server add-device --venue)")
    day = today()
    figures.settle(store)       # a fixture played is not offered again, its last item answered or not
    asked = {"competition": game} if game is not None else {}
    document = league_source(venue, day, **asked) if league_source is not None else None
    if document is None:
        raise Refused(404, "no league data")
    try:
        body = envelope(venue, day, parse_document(document))
    except LeagueError as exc:          # the receiver's own data: a bug to fix there, not the device's fault
        log.error("the league document for %r is not valid: %s", venue, exc)
        return JSONAnswer({"code": 500, "status": "error", "reason": "the receiver's league data is not valid"},
                          status_code=500)
    answer = sign_answer(store.devices.secret_of(signed.device), signed.device, int(receiver.now()), signed.nonce, body)
    log.info("league for %r sent to %s", venue, signed.device)
    return Response(body, media_type=JSONAnswer.media_type,
                    headers={**answer.headers(), "Cache-Control": "no-store"})


async def _refuse(receiver, exc: Refused, device, remote) -> JSONAnswer:
    return await logged_refusal(receiver.store, exc, via="http-league", what="a league request",
                                device=device, remote=remote, server_time=receiver.now())
