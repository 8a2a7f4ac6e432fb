"""Findings 3 and 4: slow clients cannot starve the receiver, refused clients are slowed down,
the refusal log is bounded and counted, and the admin views need the admin token.

Every wait here is a hang bound (socket timeouts of tens of seconds), never a speed assertion."""
import http.client
import json
import socket

import pytest

from cli.main import main
from clock import ManualClock
from server.site import routes as web
from server.site.access import RefusalLimiter
from sync_helpers import post_json

HANG = 60          # seconds: only a hung receiver takes this long


def _slow_swarm(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each sent one byte of a request and then nothing."""
    swarm = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)
        sock.sendall(b"P")
        swarm.append(sock)
    return swarm


def _closed_by_receiver(sock: socket.socket) -> bool:
    """The receiver closed this connection (an orderly close, or a reset: it left our bytes unread)."""
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True


def _post_from(port: int, body: bytes, headers: dict, source: str = "127.0.0.1"):
    return post_json(port, "/api/v1/records", body, headers, timeout=HANG, source=source)


def test_a_device_is_answered_while_a_thousand_slow_clients_hold_connections(receiver, items, sign, serving):
    with serving(receiver) as server:
        swarm = _slow_swarm(server.port, 1000)
        try:
            body = items()[0]
            status, answer = _post_from(server.port, body, sign("u-lva-1").sign(body).headers())
            assert (status, answer["status"]) == (200, "stored")
        finally:
            for sock in swarm:
                sock.close()


def test_above_the_connection_cap_the_slowest_waiting_client_makes_room(receiver, items, sign, serving):
    with serving(receiver, max_connections=50) as server:
        swarm = _slow_swarm(server.port, 120)
        try:
            body = items()[0]
            assert _post_from(server.port, body, sign("u-lva-1").sign(body).headers())[0] == 200
            assert _closed_by_receiver(swarm[0])          # the oldest waiting client was closed
        finally:
            for sock in swarm:
                sock.close()


def test_a_client_that_never_finishes_its_headers_is_dropped(receiver, serving):
    with serving(receiver, header_deadline=0.2) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG)
        sock.sendall(b"GET /table.json HT")
        assert _closed_by_receiver(sock)
        sock.close()


def test_a_body_that_never_arrives_is_answered_408(receiver, serving):
    """... and logged, as it counts towards the client's limit (issue 26, item 15)."""
    with serving(receiver, body_deadline=0.2) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG)
        sock.sendall(b"POST /api/v1/records HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"id\"")
        assert sock.recv(1024).startswith(b"HTTP/1.1 408 ")
        sock.close()
    [refusal] = receiver.store.refusals.latest()
    assert (refusal["status"], refusal["via"], refusal["remote"]) == (408, "http", "127.0.0.1")


def test_an_unsigned_flood_is_limited_per_client_and_a_device_elsewhere_still_delivers(
        receiver, store, items, sign, serving):
    limiter = RefusalLimiter(burst=5, per_second=0.001, clock=ManualClock().time)
    with serving(receiver, limiter=limiter) as server:
        flood = [_post_from(server.port, b"{}", {})[0] for _ in range(30)]
        assert flood == [401] * 5 + [429] * 25
        body = items()[0]
        assert _post_from(server.port, body, sign("u-lva-1").sign(body).headers(), source="127.0.0.2")[0] == 200
    assert store.refusals.report()["total"] == 5 and limiter.limited == 25


def test_the_refusal_log_keeps_the_latest_and_counts_them_all(tmp_path):
    from server.storage.store import Store

    store = Store(tmp_path / "league.sqlite", keep_refusals=10)
    try:
        for n in range(50):
            store.refusals.log(via="http", remote="127.0.0.9", device=None, item_id=f"x-{n}", status=401, reason="r")
        store.refusals.log(via="serial", remote=None, device=None, item_id="y", status=400, reason="r")
        assert [r["item_id"] for r in store.refusals.latest()] == [f"x-{n}" for n in range(41, 50)] + ["y"]
        report = store.refusals.report(latest=2)
        assert report["total"] == 51 and [r["item_id"] for r in report["latest"]] == ["x-49", "y"]
        assert report["counted"] == [{"status": 400, "via": "serial", "count": 1},
                                     {"status": 401, "via": "http", "count": 50}]
    finally:
        store.close()


@pytest.mark.postgresql_once
@pytest.mark.parametrize("path", ["/refusals.json", "/api/v1/records"])
def test_admin_views_need_the_admin_token(receiver, serving, path):
    with serving(receiver) as shut:
        status, _, data = _get(shut.port, path)
        assert status == 401 and "admin views are off" in json.loads(data)["reason"]
    with serving(receiver, admin_token="s3cret-admin-token-0123456789") as server:
        assert _get(server.port, path)[0] == 401
        assert _get(server.port, path, "Bearer wrong")[0] == 401
        status, headers, data = _get(server.port, path, "Bearer s3cret-admin-token-0123456789")
        assert status == 200 and isinstance(json.loads(data), (dict, list))


def test_the_admin_list_of_items_is_paged_and_bounded(receiver, serving, sign, items, monkeypatch):
    """The admin's list of stored items answers a page at a time (at most PAGE_OF_ITEMS, never
    the bodies), with the link to the next page; a bad paging parameter is a 400 with its reason."""
    for body in items("KD-1", 5):
        assert receiver.handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    token = "Bearer s3cret-admin-token-0123456789"
    with serving(receiver, admin_token=token.split()[1]) as server:
        pages, path = [], "/api/v1/records?limit=2"
        while path is not None:
            status, _, data = _get(server.port, path, token)
            assert status == 200
            pages.append(json.loads(data)["items"])
            path = json.loads(data)["next"]
        assert [len(page) for page in pages] == [2, 2, 1]
        listed = [item for page in pages for item in page]
        assert [item["id"] for item in listed] == [item["id"] for item in receiver.store.items.all()]
        assert all("body" not in item for item in listed)
        monkeypatch.setattr(web, "PAGE_OF_ITEMS", 3)
        capped = json.loads(_get(server.port, "/api/v1/records?limit=50", token)[2])
        assert len(capped["items"]) == 3 and capped["next"] == f"/api/v1/records?after={listed[2]['seq']}&limit=3"
        status, _, data = _get(server.port, "/api/v1/records?after=x", token)
        assert status == 400 and "after must be a whole number" in json.loads(data)["reason"]


def _get(port, path, authorization=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    try:
        conn.request("GET", path, headers={"Authorization": authorization} if authorization else {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_server_refusals_prints_the_counted_report(store, capsys):
    store.refusals.log(via="http", remote="127.0.0.9", device=None, item_id=None, status=401, reason="missing header")
    assert main(["server", "--db", store.path, "refusals"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["total"] == 1 and report["latest"][0]["reason"] == "missing header"


def _wrong_logins(port: int, count: int) -> list[int]:
    """``count`` wrong admin tokens from 127.0.0.1, each claiming another client (X-Forwarded-For)."""
    statuses = []
    for n in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        try:
            conn.request("GET", "/refusals.json", headers={"Authorization": f"Bearer guess-{n}",
                                                           "X-Forwarded-For": f"198.51.100.{n}"})
            response = conn.getresponse()
            response.read()
            statuses.append(response.status)
        finally:
            conn.close()
    return statuses


@pytest.mark.parametrize("proxies", [None, ["10.9.9.9"]])
def test_forwarded_headers_are_not_trusted_from_an_address_not_named_a_proxy(receiver, serving, proxies):
    """40 wrong admin tokens, each with another X-Forwarded-For: without --proxy (or from an
    address that is not the proxy) the header is ignored, so they are one client, and limited."""
    limiter = RefusalLimiter(clock=ManualClock().time)         # no refill while they arrive, however slowly
    with serving(receiver, admin_token="s3cret-admin-token-0123456789", proxies=proxies, limiter=limiter) as server:
        statuses = _wrong_logins(server.port, 40)
    assert statuses[:20] == [401] * 20 and set(statuses[20:]) == {429}


def test_behind_the_named_proxy_each_forwarded_client_is_its_own(receiver, serving):
    with serving(receiver, admin_token="s3cret-admin-token-0123456789", proxies=["127.0.0.1"]) as server:
        statuses = _wrong_logins(server.port, 40)
    assert statuses == [401] * 40


def test_serve_refuses_a_proxy_that_is_no_address(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_status:
        main(["serve", "--db", str(tmp_path / "league.sqlite"), "--listen", "127.0.0.1:0", "--proxy", "caddy"])
    err = capsys.readouterr().err
    assert exit_status.value.code == 2 and err.count("\n") == 1 and "--proxy" in err and "'caddy'" in err
