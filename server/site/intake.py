"""The devices' POST endpoints: one signed item, or a batch of them stored with one commit.

    POST /api/v1/records   one item; the signature in the wire.signing headers
    POST /api/v1/batch     {"items": [<signed item>, ...]}: each as a line of an exported backlog
                           (wire.signing ``Signed.to_json``: device, timestamp, nonce, signature,
                           [origin], body as text), at most BATCH_ITEMS; answered
                           {"code": 200, "status": "batch", "answers": [<each item's answer>]};
                           the same with 400 when none of its items was taken

A batch is a device's backlog after an outage: every item is checked, answered and logged as if
posted alone (``Receiver.receive_many``), and all are durable when the answer leaves, but they
share one commit's wait for the disk. Posts of devices sending at once share a commit likewise
(server/site/group_commit.py). A client that keeps being refused is answered 429 before
any work.
"""
import asyncio

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from rules.record import parse_json
from server.ingest.receiver import MAX_BODY
from server.league.errors import Refused
from server.site.answers import JSONAnswer, limited, logged_refusal, read_body
from server.site.group_commit import Failed
from wire.signing import Signed

RECORDS = "/api/v1/records"
BATCH = "/api/v1/batch"
BATCH_ITEMS = 64          # items at most in one batch (its body is bounded by MAX_BODY too)


def post_records(receiver, body_deadline: float, limiter):
    return limited(limiter, _in_flight(lambda request, remote: _post(request, receiver, body_deadline, remote)))


def post_batch(receiver, body_deadline: float, limiter):
    return limited(limiter, _in_flight(lambda request, remote: _post_batch(request, receiver, body_deadline, remote)))


def _in_flight(handle):
    """``handle`` counted among the posts in flight (server/site/group_commit.py ``posting``)."""
    async def counted(request, remote):
        with request.app.state.group.posting():
            return await handle(request, remote)
    return counted


async def _post(request, receiver, body_deadline: float, remote):
    body = await _body(request, receiver, body_deadline, remote)
    if isinstance(body, Response):
        return body
    try:
        signed = Signed.from_headers(request.headers, body)
    except ValueError as exc:
        status, answer = await run_in_threadpool(receiver.refuse_unsigned, str(exc), status=401,
                                                 via="http", remote=remote)
        return JSONAnswer(answer, status_code=status)
    status, answers = await _durably(request, remote, [signed])
    if status != 200:
        return JSONAnswer(answers, status_code=status)
    [(status, answer)] = answers
    return JSONAnswer(answer, status_code=status)


async def _post_batch(request, receiver, body_deadline: float, remote):
    body = await _body(request, receiver, body_deadline, remote)
    if isinstance(body, Response):
        return body
    try:
        items = _batch_items(body)
    except ValueError as exc:
        status, answer = await run_in_threadpool(receiver.refuse_unsigned, str(exc), via="http", remote=remote)
        return JSONAnswer(answer, status_code=status)
    status, answers = await _durably(request, remote, items)
    if status != 200:
        return JSONAnswer(answers, status_code=status)
    # a batch with no item taken is a 400 (each refused item counted and logged); a device from
    # before this reads a 400 as "send them alone", a newer one reads each item's answer in it
    status = 200 if any(code == 200 for code, _ in answers) else 400
    return JSONAnswer({"code": status, "status": "batch", "answers": [answer for _, answer in answers]},
                      status_code=status)


def _batch_items(body: bytes) -> list[Signed]:
    """The signed items of a batch body; ValueError says what is wrong with it (or its first bad item)."""
    try:
        obj = parse_json(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"a batch must be JSON: {exc}") from None
    items = obj.get("items") if isinstance(obj, dict) else None
    if not isinstance(items, list) or not 1 <= len(items) <= BATCH_ITEMS:
        raise ValueError(f"a batch is {{\"items\": [...]}} with 1 to {BATCH_ITEMS} signed items")
    out = []
    for n, item in enumerate(items, start=1):
        try:
            out.append(Signed.from_json(item))
        except (ValueError, UnicodeEncodeError) as exc:
            raise ValueError(f"item {n} of the batch: {exc}") from None
    return out


async def _body(request, receiver, body_deadline: float, remote) -> bytes | Response:
    """The POST's body, or the answer that refuses it (no length, too large, too slow, gone);
    every refusal logged, so that it counts towards the client's limit."""
    try:
        length = int(request.headers.get("content-length", ""))
    except ValueError:
        return await _refused(receiver, Refused(411, "Content-Length required"), remote)
    if length < 0 or length > MAX_BODY:
        status, answer = await run_in_threadpool(
            receiver.refuse_unsigned, f"body too large ({length} bytes)", status=413, via="http", remote=remote)
        return JSONAnswer(answer, status_code=status, headers={"Connection": "close"})
    try:
        return await read_body(request, length, body_deadline)
    except asyncio.TimeoutError:
        return await _refused(receiver, Refused(408, f"the body did not arrive within {body_deadline:g} s"), remote)
    except ClientDisconnect:      # it hung up mid-body: nobody to answer
        await _refused(receiver, Refused(400, "the client hung up before its body was in"), remote)
        return Response(status_code=400)


async def _refused(receiver, exc: Refused, remote) -> JSONAnswer:
    return await logged_refusal(receiver.store, exc, via="http", what="a post", remote=remote)


async def _durably(request, remote, signed: list) -> tuple[int, list[tuple[int, dict]] | dict]:
    """The receiver's answers for a post's items once they are durable, stored with the posts of
    other devices arriving meanwhile (server/site/group_commit.py), their match's figures to
    follow after the answer (server/tables/settling.py); a failure is (500, an answer) so that the
    device tries again later."""
    answers = await request.app.state.group.store(signed, remote)
    if isinstance(answers, Failed):     # logged where it failed
        return 500, {"code": 500, "status": "error", "reason": "internal error"}
    if any(answer["status"] == "stored" for _, answer in answers):
        request.app.state.figures.soon()
    return 200, answers
