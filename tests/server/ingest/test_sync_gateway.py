"""A venue gateway: device → serial (pty) → gateway → HTTP → league's receiver, on 127.0.0.1.

The gateway relays every record byte-identical with the device's own signature (docs/sync.md,
"Gateway"); the league's receiver checks it and still refuses forgeries.
"""
import http.client
import json
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import carom_samples
from cli.main import main
from delivery.outbox import item_body
from delivery.sync import Syncer
from delivery.transport_http import HttpTransport
from delivery.transport_serial import SerialTransport
from server.ingest.forward import ForwardQueue, forwarder
from server.ingest.receiver import Receiver
from server.storage.store import Store
from sync_helpers import (
    DEVICE,
    FakeClock,
    assert_exactly_once,
    deliver_all,
    drain,
    league_store,
    proxy,
    queue,
    records_url,
    relay,
    running_server,
    serial_listener,
    wait_for,
)
from wire.signing import RelaySigner, Signed, Signer

ROOT = Path(__file__).resolve().parents[3]
SECRET = b"gateway-test-device-secret"
GATEWAY, GATEWAY_SECRET = "gw-lva", b"gateway-test-gateway-secret"


@pytest.fixture
def league(tmp_path):
    with league_store(tmp_path / "league.sqlite", SECRET) as store:
        store.devices.add(GATEWAY, GATEWAY_SECRET, role="gateway")
        yield store


@pytest.fixture
def gateway(tmp_path):
    with league_store(tmp_path / "gateway.sqlite", SECRET) as store:
        yield store


def to_gateway_over_serial(tmp_path, gateway_receiver, n, fault=None):
    """The device delivers ``n`` partie over a pty cable to the gateway's serial listener."""
    with relay(fault) as cable, serial_listener(gateway_receiver, cable.listener_port, quiet_gap=0.1):
        outbox = queue(tmp_path / "outbox", n)
        transport = SerialTransport(cable.device_port, Signer(DEVICE, SECRET), ack_timeout=0.15, tries=8)
        deliver_all(outbox, transport)
    return outbox


def test_device_serial_gateway_http_league_exactly_once_and_byte_identical(tmp_path, league, gateway):
    """Each record crosses a damaged serial line and a faulty network and arrives once, unchanged,
    still signed by the device that made it."""
    woken, chunks, flipped = [], [], []

    def flip_every_seventh_chunk(chunk, direction):
        chunks.append(direction)
        if len(chunks) % 7 != 3:
            return chunk
        flipped.append(direction)
        return chunk[:-1] + bytes([chunk[-1] ^ 1])

    outbox = to_gateway_over_serial(tmp_path, Receiver(gateway, on_stored=lambda: woken.append(1)), 5,
                                    fault=flip_every_seventh_chunk)
    assert flipped                                         # the line really was damaged
    assert_exactly_once(outbox, gateway, 5)
    assert len(woken) == 5                                 # each new record wakes the forwarder
    clock = FakeClock()
    with running_server(league) as server, proxy(server.port, ["500", "lost-answer", "reset", "slow"]) as between:
        relay_syncer = forwarder(gateway, records_url(between.port), GATEWAY, GATEWAY_SECRET, timeout=2,
                                 clock=clock, backoff_initial=1.0, backoff_max=8.0)
        assert relay_syncer.status()["unsent"] == 5
        drain(relay_syncer, clock, relay_syncer.outbox)
    assert between.seen[:4] == ["500", "lost-answer", "reset", "slow"]
    assert_exactly_once(outbox, league, 5)
    for row in league.items.all():
        assert (row["device"], row["via"]) == (DEVICE, f"http:{GATEWAY}")
        assert league.items.origin(row["id"]) == gateway.items.origin(row["id"])     # the device's own signature
    assert relay_syncer.status() == {"unsent": 0, "last_delivery": relay_syncer.outbox.last_delivery(),
                                     "last_error": None, "device_refused": False}
    # a gateway restarted later sends nothing again: what was forwarded is in its store
    assert ForwardQueue(gateway).pending() == []


def test_league_down_then_back_with_the_gateway_thread_running(tmp_path, league, gateway):
    """The Syncer thread keeps retrying while the league's server is down; a new record wakes it."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    relay_syncer = forwarder(gateway, records_url(port), GATEWAY, GATEWAY_SECRET, timeout=2,
                             backoff_initial=0.05, backoff_max=0.2)
    receiver = Receiver(gateway, on_stored=relay_syncer.wake)
    thread = relay_syncer.start()
    try:
        outbox = to_gateway_over_serial(tmp_path, receiver, 3)
        with running_server(league, port=port):
            wait_for(lambda: league.items.count() >= 3)
    finally:
        relay_syncer.stop()
        thread.join(5)
    assert_exactly_once(outbox, league, 3)


def relayed(body, *, device_secret=SECRET, gateway=GATEWAY, gateway_secret=GATEWAY_SECRET, origin_body=None,
            device=DEVICE):
    """A gateway's post: the device signed ``origin_body`` (default: ``body``), the gateway ``body``."""
    origin = Signer(device, device_secret).sign(origin_body or body)
    return RelaySigner(gateway, gateway_secret, lambda b: replace(origin, body=b)).sign(body)


def partie_body(item_id="p-1", seed=1):
    text, summary = carom_samples.partie(item_id, "Novák", "Dvořák", seed=seed, points_limit=30, innings_limit=5)
    return item_body(item_id, "partie", text, summary)


@pytest.mark.parametrize("forgery, reason", [
    ("origin signed with a wrong secret", "bad origin signature"),
    ("body altered at the gateway", "bad origin signature"),
    ("origin device unknown", "unknown origin device"),
    ("gateway signs its own record", "is a gateway"),
    ("a device relays", "not a registered gateway"),
    ("wrong gateway secret", "bad signature"),
    ("gateway not registered", "not a registered gateway"),
])
def test_the_league_refuses_forgeries_through_a_gateway(league, forgery, reason):
    body = partie_body()
    if forgery == "origin signed with a wrong secret":
        signed = relayed(body, device_secret=b"not-the-device-secret-at-all")
    elif forgery == "body altered at the gateway":
        signed = relayed(body.replace("Dvořák".encode(), b"Dvorak"), origin_body=body)
    elif forgery == "origin device unknown":
        signed = relayed(body, device="u-tygra-9")
    elif forgery == "gateway signs its own record":
        signed = Signer(GATEWAY, GATEWAY_SECRET).sign(body)
    elif forgery == "a device relays":
        signed = relayed(body, gateway=DEVICE, gateway_secret=SECRET)
    elif forgery == "wrong gateway secret":
        signed = relayed(body, gateway_secret=b"not-the-gateway-secret")
    else:
        signed = relayed(body, gateway="gw-unknown")
    status, answer = Receiver(league).handle(signed, via="http")
    assert status == 401 and reason in answer["reason"], answer
    assert league.items.count() == 0 and league.refusals.latest()[-1]["reason"] == answer["reason"]


def test_through_a_gateway_a_removed_device_or_gateway_is_refused_and_what_it_relayed_stays(league):
    """Audit report 11: a device removed at the league (`server remove-device`) is refused when a
    gateway relays its records, as an unknown origin; a removed gateway relays no more."""
    receiver = Receiver(league)
    assert receiver.handle(relayed(partie_body("p-1")), via="http")[0] == 200
    league.devices.remove(DEVICE)
    status, answer = receiver.handle(relayed(partie_body("p-2", seed=2)), via="http")
    assert status == 401 and answer["reason"] == f"unknown origin device {DEVICE!r}"
    league.devices.remove(GATEWAY)
    status, answer = receiver.handle(relayed(partie_body("p-3", seed=3)), via="http")
    assert status == 401 and "not a registered gateway" in answer["reason"]
    assert [row["id"] for row in league.items.all()] == ["p-1"]


def test_a_relayed_post_is_not_replayable(league):
    signed = relayed(partie_body())
    receiver = Receiver(league)
    assert receiver.handle(signed, via="http")[0] == 200
    status, answer = receiver.handle(signed, via="http")
    assert status == 401 and "replayed" in answer["reason"]


def test_relayed_headers_round_trip_over_http(league):
    """The origin travels in X-Pocitadlo-Origin-* headers; a half set of them is refused."""
    body = partie_body()
    with running_server(league) as server:
        transport = HttpTransport(records_url(server.port), RelaySigner(
            GATEWAY, GATEWAY_SECRET, lambda b: Signer(DEVICE, SECRET).sign(b)), timeout=5)
        assert transport.send(body).status == 200
        headers = relayed(partie_body("p-2", seed=2)).headers()
        del headers["X-Pocitadlo-Origin-Nonce"]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("POST", "/api/v1/records", body=partie_body("p-2", seed=2), headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read())
        conn.close()
    assert response.status == 401 and "X-Pocitadlo-Origin-Nonce" in answer["reason"]
    assert league.items.body("p-1") == body and league.items.count() == 1


def test_pocitadlo_serve_forward_end_to_end(tmp_path, league):
    """`pocitadlo serve --listen off --serial PTY --forward URL` as a real process in between."""
    db = tmp_path / "gateway.sqlite"
    (tmp_path / "device.secret").write_text(SECRET.decode(), encoding="utf-8")
    (tmp_path / "gw.secret").write_text(GATEWAY_SECRET.decode(), encoding="utf-8")
    assert main(["server", "--db", str(db), "add-device", DEVICE, "--venue", "Hostinec U Lva", "--secret-file", str(tmp_path / "device.secret")]) == 0
    with running_server(league) as server, relay() as cable, open(tmp_path / "gateway.log", "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())", "serve",
             "--db", str(db), "--listen", "off", "--serial", cable.listener_port,
             "--forward", records_url(server.port), "--allow-plain-http",
             "--gateway-id", GATEWAY, "--gateway-secret-file", str(tmp_path / "gw.secret")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            assert "forwarding to http://127.0.0.1" in process.stdout.readline()
            outbox = queue(tmp_path / "outbox", 4)
            deliver_all(outbox, SerialTransport(cable.device_port, Signer(DEVICE, SECRET), ack_timeout=5.0, tries=5))
            assert wait_for(lambda: league.items.count() >= 4), (tmp_path / "gateway.log").read_text()
        finally:
            process.terminate()
            process.wait(10)
    assert_exactly_once(outbox, league, 4)
    assert {row["via"] for row in league.items.all()} == {f"http:{GATEWAY}"}


def test_serve_forward_refuses_plain_http_without_opt_in(tmp_path, capsys):
    code = main(["serve", "--db", str(tmp_path / "gw.sqlite"), "--listen", "off", "--forward",
                 "http://liga.example/api/v1/records", "--gateway-id", GATEWAY, "--gateway-secret-file", "x"])
    assert code == 2 and "--allow-plain-http" in capsys.readouterr().err


def test_add_gateway_registers_the_gateway_role(tmp_path, capsys):
    db = str(tmp_path / "league.sqlite")
    assert main(["server", "--db", db, "add-gateway", GATEWAY]) == 0
    assert f"registered gateway {GATEWAY}" in capsys.readouterr().out
    assert main(["server", "--db", db, "devices"]) == 0
    assert capsys.readouterr().out.startswith(f"{GATEWAY}\tgateway\t")
    store = Store(db)
    try:
        assert store.devices.role_of(GATEWAY) == "gateway" and store.devices.secret_of(GATEWAY) is None
    finally:
        store.close()


def test_a_store_from_before_gateways_is_upgraded_when_opened(tmp_path):
    """Old stores get the role and origin columns; their devices stay devices."""
    import sqlite3

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE devices (id TEXT PRIMARY KEY, secret BLOB NOT NULL, note TEXT NOT NULL "
                     "DEFAULT '', added TEXT NOT NULL); CREATE TABLE items (id TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                     "game TEXT, match_id TEXT, device TEXT NOT NULL, via TEXT NOT NULL, received TEXT NOT NULL, "
                     "body BLOB NOT NULL);")
    db.execute("INSERT INTO devices VALUES (?, ?, '', '2026-01-01')", (DEVICE, SECRET))
    db.execute("INSERT INTO items VALUES ('old-1', 'partie', 'carom', NULL, ?, 'http', '2026-01-01', ?)",
               (DEVICE, partie_body("old-1")))
    db.commit()
    db.close()
    store = Store(path)
    try:
        assert store.devices.role_of(DEVICE) == "device" and store.devices.secret_of(DEVICE) == SECRET
        assert store.items.origin("old-1") is None and ForwardQueue(store).unsent() == 1
        assert Receiver(store).handle(Signer(DEVICE, SECRET).sign(partie_body("p-1")), via="http")[0] == 200
        assert store.items.origin("p-1")["device"] == DEVICE
    finally:
        store.close()


def test_items_stored_before_gateways_are_listed_as_unrelayable(gateway):
    """An item without a kept device signature is held (listed), never sent with a made-up one."""
    gateway.items.put("old-1", "partie", partie_body("old-1"), device=DEVICE, via="http")
    queue_ = ForwardQueue(gateway)
    assert queue_.pending() == [] and [i.id for i in queue_.held()] == ["old-1"] and queue_.unsent() == 1
    assert "cannot be relayed" in queue_.held()[0].why


def test_a_relayed_signature_round_trips_on_every_transport():
    """HTTP headers, the serial payload and a backlog line all carry the origin unchanged."""
    signed = relayed(partie_body())
    assert signed.origin is not None and signed.origin.device == DEVICE and signed.device == GATEWAY
    assert Signed.from_headers(signed.headers(), signed.body) == signed
    assert Signed.unpack(signed.pack()) == signed
    assert Signed.from_json(json.loads(json.dumps(signed.to_json()))) == signed
    nested = replace(signed, origin=replace(signed.origin, origin=signed.origin))
    with pytest.raises(ValueError, match="malformed"):
        Signed.unpack(nested.pack())


def test_a_backlog_sent_to_a_gateway_in_batches_reaches_the_league_once_with_its_signatures(tmp_path, league,
                                                                                           gateway):
    """A counter's backlog goes to the venue's gateway over HTTP in batches (/api/v1/batch); each
    item is stored there with the device's own signature and relayed one by one to the league."""
    outbox = queue(tmp_path / "outbox", 7)
    woken, batches = [], []
    with running_server(gateway, on_stored=lambda: woken.append(1)) as at_gateway:
        transport = HttpTransport(records_url(at_gateway.port), Signer(DEVICE, SECRET), timeout=5)
        send_many = transport.send_many
        transport.send_many = lambda bodies: batches.append(len(bodies)) or send_many(bodies)
        clock = FakeClock()
        drain(Syncer(outbox, transport, clock=clock, batch=4), clock, outbox)
    assert batches == [4, 3] and len(woken) == 2           # one wake a batch: its items share a commit
    assert_exactly_once(outbox, gateway, 7)
    clock = FakeClock()
    with running_server(league) as server:
        relay_syncer = forwarder(gateway, records_url(server.port), GATEWAY, GATEWAY_SECRET, timeout=2, clock=clock)
        drain(relay_syncer, clock, relay_syncer.outbox)
    assert_exactly_once(outbox, league, 7)
    for row in league.items.all():
        assert (row["device"], row["via"]) == (DEVICE, f"http:{GATEWAY}")
        assert league.items.origin(row["id"]) == gateway.items.origin(row["id"]) is not None
