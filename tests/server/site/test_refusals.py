"""Every refusal a client earns counts towards its limit, and every one counted is in the refusal
log (server/site/access.py, server/storage/refusals.py): the refused items of a batch, the bodies
that never arrived (408), the admin's wrong tokens. The bucket has a floor, so a burst of refusals
costs a client seconds, not half an hour; and the log keeps each client's first refusal beside the
latest ones, so a flood cannot wipe the evidence of who came before it."""
import http.client
import json
import socket

import pytest

from clock import ManualClock
from conftest import signer
from server.site.access import RefusalLimiter
from server.storage.store import Store
from wire.signing import Signer

HANG = 60


@pytest.fixture
def store_place(tmp_path):
    return str(tmp_path / "league.sqlite")


def post_batch(port: int, signed: list, source: str = "127.0.0.1") -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG, source_address=(source, 0))
    try:
        conn.request("POST", "/api/v1/batch", json.dumps({"items": [s.to_json() for s in signed]}).encode(),
                     {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_refused_items_of_a_batch_count_towards_the_limit(receiver, serving, items):
    """Issue 26, item 1: a batch of forged items was answered 200, so one address could write
    thousands of refusals a second. Each refused item counts; a batch with none valid is a 4xx."""
    forged = [Signer("u-lva-1", b"not-the-secret-0123456789").sign(body) for body in items("KD-1", 1)]
    limiter = RefusalLimiter(clock=ManualClock(0.0).monotonic)      # no refill while the test runs
    with serving(receiver, limiter=limiter) as server:
        first = post_batch(server.port, forged * 3)                    # 15 refused items
        second = post_batch(server.port, forged)                       # 5 more: the bucket of 20 is empty
        third = post_batch(server.port, forged)
        elsewhere = post_batch(server.port, [signer("u-lva-1").sign(items("KD-2", 2)[0]), *forged[:1]],
                               source="127.0.0.2")
    assert first[0] == 400 and [a["code"] for a in first[1]["answers"]] == [401] * 15
    assert second[0] == 400 and third[0] == 429
    assert elsewhere[0] == 200 and [a["code"] for a in elsewhere[1]["answers"]] == [200, 401]
    assert receiver.store.refusals.report()["total"] == 21


def test_the_bucket_has_a_floor():
    """Issue 26, item 15: 1,000 refusals at once (slow bodies answered 408 together) took a token
    each from an empty bucket, locking the address out for half an hour."""
    clock = ManualClock(0.0)
    limiter = RefusalLimiter(burst=20, per_second=0.5, clock=clock.monotonic)
    for _ in range(1000):
        limiter.refused("10.0.0.1")
    assert not limiter.allow("10.0.0.1")
    clock.advance(2)                    # one token back, as after any burst
    assert limiter.allow("10.0.0.1")


def test_an_ipv6_client_is_its_64(receiver):
    limiter = RefusalLimiter(burst=2, per_second=0.001, clock=ManualClock(0.0).monotonic)
    for host in range(1, 4):
        limiter.refused(f"2001:db8:1:2::{host}")
    assert not limiter.allow("2001:db8:1:2::99") and limiter.allow("2001:db8:1:3::1")


def test_a_post_without_a_length_is_logged_as_it_is_counted(receiver, serving):
    """Issue 26, item 15: the 408s and 411s counted but were in no log (the 408: test_abuse.py)."""
    with serving(receiver) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG)
        sock.sendall(b"POST /api/v1/records HTTP/1.1\r\nHost: x\r\n\r\n")          # no Content-Length
        assert sock.recv(1024).startswith(b"HTTP/1.1 411 ")
        sock.close()
    [refusal] = receiver.store.refusals.latest()
    assert (refusal["status"], refusal["via"], refusal["remote"]) == (411, "http", "127.0.0.1")


def test_a_wrong_admin_token_is_logged_as_it_is_counted(receiver, serving):
    with serving(receiver, admin_token="s3cret-admin-token-0123456789") as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG)
        conn.request("GET", "/refusals.json", headers={"Authorization": "Bearer guess"})
        assert conn.getresponse().status == 401
        conn.close()
    [refusal] = receiver.store.refusals.latest()
    assert (refusal["status"], refusal["via"], refusal["remote"]) == (401, "http-admin", "127.0.0.1")


def test_the_log_keeps_each_clients_first_refusal_beside_the_latest(tmp_path):
    store = Store(tmp_path / "league.sqlite")
    store.refusals.keep = 10
    try:
        store.refusals.log(via="http", remote="192.0.2.1", device="u-lva-1", item_id="KD-1", status=409,
                           reason="conflict: the first evidence")
        for n in range(500):
            store.refusals.log(via="http", remote="198.51.100.7", device=None, item_id=None, status=401,
                               reason=f"bad signature {n}")
        report = store.refusals.report()
    finally:
        store.close()
    assert len(report["latest"]) == 10 and report["total"] == 501
    clients = {(c["client"], c["status"]): c for c in report["clients"]}
    first = clients[("192.0.2.1", 409)]
    assert first["count"] == 1 and first["first_reason"] == "conflict: the first evidence"
    flood = clients[("198.51.100.7", 401)]
    assert flood["count"] == 500 and flood["first_reason"] == "bad signature 0" and flood["last_reason"] == "bad signature 499"
    assert list(clients)[0] == ("198.51.100.7", 401)           # the most refused first
