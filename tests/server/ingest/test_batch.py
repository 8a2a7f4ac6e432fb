"""A device's backlog in one request (``POST /api/v1/batch``, server/site/intake.py): every item checked,
answered and logged as if posted alone, all durable when the answer leaves, one commit for them."""
import http.client
import json

from conftest import Client, signer
from server.site.intake import BATCH, BATCH_ITEMS
from wire.signing import Signer


def batch(*signed) -> bytes:
    return json.dumps({"items": [s.to_json() for s in signed]}).encode("utf-8")


def oversized(port: int) -> int:
    """The status of a batch announcing 2 MiB: refused on its Content-Length, before its body
    (which is therefore not sent: the receiver closes the connection, and a client still
    writing a body would see that instead of the answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)   # a net for a hang, not a speed bound
    try:
        conn.putrequest("POST", BATCH)
        conn.putheader("Content-Length", str(2 << 20))
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def post_batch(client: Client, body: bytes):
    status, _, data = client.request("POST", BATCH, body, {"Content-Type": "application/json"})
    return status, json.loads(data)


def test_a_match_in_one_batch_is_answered_item_by_item_and_counts_in_the_table(receiver, client, items):
    """RULES 1.8: a match's five items in one batch are stored and answered in order, and the
    match counts in the league table; the same batch again is five duplicates."""
    bodies = items("KD-1", 1)
    status, answer = post_batch(client, batch(*(signer("u-lva-1").sign(b) for b in bodies)))
    assert status == 200 and answer["status"] == "batch"
    assert [(a["code"], a["status"], a["id"]) for a in answer["answers"]] == \
        [(200, "stored", json.loads(b)["id"]) for b in bodies]
    assert [receiver.store.items.body(json.loads(b)["id"]) for b in bodies] == bodies
    table = json.loads(client.get("/table.json")[1])
    assert sorted((r["team"], r["partie"]) for r in table["rows"]) == [("Lvi", 4), ("Orli", 4)]
    _, again = post_batch(client, batch(*(signer("u-lva-1").sign(b) for b in bodies)))
    assert [a["status"] for a in again["answers"]] == ["duplicate"] * 5


def test_each_item_of_a_batch_is_refused_alone_with_its_reason(receiver, client, items):
    """A refused item (bad signature, another venue's device, a record that does not replay to
    its summary, a nonce used twice) is answered and logged as if posted alone; the others of
    the batch are stored."""
    first, second, third, fourth, _ = items("KD-2", 2)
    tampered = first.replace(b'"innings"', b'"innings" ', 1)     # the same JSON, other bytes: its own id
    reused = signer("u-lva-1").sign(fourth)
    answers = post_batch(client, batch(
        signer("u-lva-1").sign(first),
        Signer("u-lva-1", b"not-the-secret-0123456789").sign(second),
        signer("u-koule-1").sign(third),
        reused, reused,
        signer("u-lva-1").sign(tampered),
    ))[1]["answers"]
    assert [(a["code"], a["status"]) for a in answers] == [
        (200, "stored"), (401, "refused"), (403, "refused"), (200, "stored"), (401, "refused"), (409, "refused")]
    assert "bad signature" in answers[1]["reason"] and "replayed" in answers[4]["reason"]
    assert receiver.store.items.count() == 2
    assert [r["status"] for r in receiver.store.refusals.latest()[-4:]] == [401, 403, 401, 409]


def test_a_batch_that_fails_stores_none_of_it_and_answers_500(receiver, client, items, monkeypatch):
    """One transaction: a failure of the store midway (a full disk) leaves none of the batch
    stored, and the answer is a 500, so the device sends all of it again later."""
    bodies = items("KD-3", 3)
    put, calls = receiver.store.items.put, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise OSError("disk full")
        return put(*args, **kwargs)

    monkeypatch.setattr(receiver.store.items, "put", failing)
    status, answer = post_batch(client, batch(*(signer("u-lva-1").sign(b) for b in bodies)))
    assert status == 500 and answer["status"] == "error" and receiver.store.items.count() == 0
    monkeypatch.undo()
    status, answer = post_batch(client, batch(*(signer("u-lva-1").sign(b) for b in bodies)))
    assert [a["status"] for a in answer["answers"]] == ["stored"] * 5
    assert [m["match"] for m in json.loads(client.get("/matches.json")[1])] == ["KD-3"]


def test_a_malformed_batch_is_refused_with_its_reason_and_stores_nothing(receiver, client, items):
    signed = signer("u-lva-1").sign(items("KD-4", 4)[0])
    bad_item = {**signed.to_json(), "timestamp": "noon"}
    for body, reason in [
        (b"not json", "a batch must be JSON"),
        (b'{"items": {}}', "1 to 64 signed items"),
        (b'{"items": []}', "1 to 64 signed items"),
        (batch(*[signed] * (BATCH_ITEMS + 1)), "1 to 64 signed items"),
        (json.dumps({"items": [signed.to_json(), bad_item]}).encode(), "item 2 of the batch"),
        (json.dumps({"items": [{**signed.to_json(), "body": "\ud800"}]}).encode(), "item 1 of the batch"),
    ]:
        status, answer = post_batch(client, body)
        assert (status, answer["status"]) == (400, "refused") and reason in answer["reason"], body[:60]
    assert oversized(client.port) == 413
    assert receiver.store.items.count() == 0


def with_surrogate_line(body: bytes) -> bytes:
    """The item with a checksummed record line holding a lone surrogate (a crafted "\\ud800")."""
    item = json.loads(body)
    header, rest = item["record"].split("\n", 1)
    item["record"] = header + '\n{"cmd":"miss","at":"\\ud800","crc":"00000000"}\n' + rest
    return json.dumps(item).encode()


def test_a_record_line_with_a_lone_surrogate_is_refused_422_alone_and_the_batch_goes_on(receiver, client, items):
    """Its checksum cannot even be computed: the item is refused (422, the line named), alone or
    in a batch, where the others are stored; never a 500 for the whole batch."""
    first, second, *_ = items("KD-5", 5)
    status, answer = client.post(with_surrogate_line(first))
    assert status == 422 and "line 2: holds text that is not valid Unicode" in answer["reason"], answer
    status, answer = post_batch(client, batch(signer("u-lva-1").sign(with_surrogate_line(first)),
                                              signer("u-lva-1").sign(second)))
    assert status == 200 and [(a["code"], a["status"]) for a in answer["answers"]] == [(422, "refused"),
                                                                                         (200, "stored")]
    assert receiver.store.items.count() == 1
