"""The receiver as a real HTTP(S) server on 127.0.0.1: idempotent storage, signatures, refusals."""
import json
import shutil
import ssl
import subprocess

import pytest
from http_helpers import get, partie_body, post, signed_post, url

import carom_samples
from delivery.outbox import Outbox, item_body
from delivery.sync import Syncer
from delivery.transport_http import HttpTransport
from server.site.routes import RECORDS
from sync_helpers import SECRET, running_server
from wire.answer import TransportError
from wire.signing import Signer


def test_a_whole_match_arrives_exactly_once_and_byte_identical(tmp_path, sync_server, sync_store):
    """RULES 1.6: four partie and the match item travel from the outbox to the store unchanged."""
    played, (mid, mtext, msummary) = carom_samples.match("KD-2026-07", "Lvi", "Orli", seed=3)
    outbox = Outbox(tmp_path / "outbox")
    for pid, text, summary in played:
        assert outbox.add(pid, "partie", text, summary)
    outbox.add(mid, "match", mtext, msummary)
    syncer = Syncer(outbox, HttpTransport(url(sync_server), Signer("u-lva-1", SECRET), timeout=5))
    while syncer.step() == 0.0:
        pass
    assert syncer.status() == {"unsent": 0, "last_delivery": outbox.last_delivery(), "last_error": None, "device_refused": False}
    assert sync_store.items.count() == 5
    for pid, text, summary in played:
        assert sync_store.items.body(pid) == item_body(pid, "partie", text, summary)
    assert json.loads(sync_store.items.body(played[0][0]))["record"] == played[0][1]   # verbatim


def test_the_same_item_twice_is_already_there(sync_server, sync_store):
    body = partie_body()
    status, answer = signed_post(sync_server, body)
    assert (status, answer["status"], answer["id"]) == (200, "stored", "p-1")
    status, answer = signed_post(sync_server, body)
    assert (status, answer["status"], answer["reason"]) == (200, "duplicate", "already have it")
    assert sync_store.items.count() == 1


def test_the_same_id_with_other_bytes_is_a_conflict_and_the_stored_one_stays(sync_server, sync_store):
    first = partie_body(seed=1)
    signed_post(sync_server, first)
    status, answer = signed_post(sync_server, partie_body(seed=2))
    assert status == 409 and "conflict" in answer["reason"]
    assert sync_store.items.body("p-1") == first
    assert sync_store.refusals.latest()[-1]["status"] == 409


@pytest.mark.parametrize("fault, reason", [
    ("wrong secret", "bad signature"),
    ("altered body", "bad signature"),
    ("unknown device", "unknown device"),
    ("missing headers", "missing header"),
    ("replayed", "replayed message"),
    ("stale", "stale timestamp"),
])
def test_forged_altered_and_replayed_posts_are_refused(sync_server, sync_store, fault, reason):
    body = partie_body()
    signer = Signer("u-lva-1", SECRET)
    if fault == "wrong secret":
        signer = Signer("u-lva-1", b"not-the-registered-secret")
    elif fault == "unknown device":
        signer = Signer("u-tygra-9", SECRET)
    elif fault == "stale":
        signer = Signer("u-lva-1", SECRET, clock=lambda: 1_000_000_000.0)
    signed = signer.sign(body)
    headers = signed.headers()
    if fault == "altered body":
        body = body.replace(b"Dvo\xc5\x99\xc3\xa1k", b"Dvorak")
    elif fault == "missing headers":
        headers = {}
    elif fault == "replayed":
        assert post(sync_server, body, headers)[0] == 200
        store_before = sync_store.items.count()
    status, answer = post(sync_server, body, headers)
    assert status == 401 and reason in answer["reason"]
    if fault == "replayed":
        assert sync_store.items.count() == store_before
    else:
        assert sync_store.items.count() == 0
    assert sync_store.refusals.latest()[-1]["reason"] == answer["reason"]


def test_malformed_json_is_refused_with_400(sync_server, sync_store):
    status, answer = signed_post(sync_server, b'{"id": "p-1", "kind": ')
    assert status == 400 and "malformed JSON" in answer["reason"]
    assert sync_store.items.count() == 0
    [logged] = sync_store.refusals.latest()
    assert (logged["status"], logged["device"], logged["via"]) == (400, "u-lva-1", "http")


def test_a_record_that_does_not_replay_to_its_own_summary_is_refused(sync_server, sync_store):
    """RULES 1.5: the posted figures must be the ones the record replays to."""
    text, summary = carom_samples.partie("p-1", "Novák", "Dvořák", seed=4, points_limit=30, innings_limit=5)
    summary["players"]["a"]["points"] += 1
    status, answer = signed_post(sync_server, item_body("p-1", "partie", text, summary))
    assert status == 422 and '"players" differs' in answer["reason"]
    assert sync_store.items.count() == 0


def test_a_torn_record_line_is_refused(sync_server, sync_store):
    text, summary = carom_samples.partie("p-1", "Novák", "Dvořák", seed=4, points_limit=30, innings_limit=5)
    torn = text.replace('"value":1,', '"value":2,', 1)
    status, answer = signed_post(sync_server, item_body("p-1", "partie", torn, summary))
    assert status == 422 and "checksum mismatch" in answer["reason"]


def test_a_record_whose_header_names_another_id_is_refused(sync_server):
    text, summary = carom_samples.partie("p-1", "Novák", "Dvořák", seed=4, points_limit=30, innings_limit=5)
    status, answer = signed_post(sync_server, item_body("p-2", "partie", text, summary))
    assert status == 422 and "header id" in answer["reason"]


def test_a_wrong_device_clock_is_corrected_from_the_receivers_time(tmp_path, sync_server, sync_store):
    """A Pi without network or RTC may boot in 1970; the syncer adopts the receiver's time."""
    outbox = Outbox(tmp_path / "outbox")
    text, summary = carom_samples.partie("p-9", "A", "B", seed=9, points_limit=30, innings_limit=5)
    outbox.add("p-9", "partie", text, summary)
    signer = Signer("u-lva-1", SECRET, clock=lambda: 86400.0)
    syncer = Syncer(outbox, HttpTransport(url(sync_server), signer, timeout=5))
    assert syncer.step() == 0.0
    assert sync_store.items.count() == 1 and outbox.unsent() == 0


def test_exports_are_served(tmp_path, sync_server, sync_store):
    played, (mid, mtext, msummary) = carom_samples.match("KD-1", "Lvi", "Orli", seed=5)
    for pid, text, summary in played:
        signed_post(sync_server, item_body(pid, "partie", text, summary))
    signed_post(sync_server, item_body(mid, "match", mtext, msummary))
    status, data = get(sync_server, "/matches/KD-1.json")
    record = json.loads(data)
    assert status == 200 and record["closed"] and record["missing_partie"] == []
    assert record["points"] == msummary["points"]
    status, page = get(sync_server, "/matches/KD-1.html")
    assert status == 200 and "Zápis o utkání: Lvi – Orli".encode() in page
    status, data = get(sync_server, "/table.json")
    assert [row["team"] for row in json.loads(data)["rows"]] != []
    status, data = get(sync_server, f"{RECORDS}/{played[0][0]}")
    assert data == item_body(played[0][0], "partie", played[0][1], played[0][2])
    assert get(sync_server, "/matches/nope.json")[0] == 404


def test_the_store_is_in_wal_mode(sync_store):
    assert sync_store.journal_mode() == "wal"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_https_with_a_self_signed_certificate(tmp_path, sync_store):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    with running_server(sync_store, certfile=str(cert), keyfile=str(key)) as srv:
        transport = HttpTransport(f"https://127.0.0.1:{srv.port}{RECORDS}", Signer("u-lva-1", SECRET),
                                  timeout=5, ca_file=str(cert))
        assert transport.send(partie_body()).status == 200
        untrusting = HttpTransport(f"https://127.0.0.1:{srv.port}{RECORDS}", Signer("u-lva-1", SECRET),
                                   timeout=5, ssl_context=ssl.create_default_context())
        with pytest.raises(TransportError, match="has a certificate this device does not trust"):
            untrusting.send(partie_body())
    assert sync_store.items.count() == 1


def test_an_8ball_record_is_verified_stored_and_listed(sync_server, sync_store):
    """RULES 2.9: the 8-ball record replays to its summary like a carom one; the server lists it."""
    from pathlib import Path

    from rules.record import replay_lines

    text = (Path(__file__).resolve().parents[3] / "examples" / "8ball-quick.jsonl").read_text(encoding="utf-8")
    summary = json.loads(json.dumps(replay_lines(text.splitlines()).summary(), ensure_ascii=False))
    assert signed_post(sync_server, item_body("ex-8ball-quick", "partie", text, summary))[0] == 200
    summary["winner"] = "a"
    other = text.replace('"id":"ex-8ball-quick"', '"id":"ex-8ball-quick-2"')
    status, answer = signed_post(sync_server, item_body("ex-8ball-quick-2", "partie", other, summary))
    assert status == 422 and '"winner" differs' in answer["reason"]
    assert [(r["id"], r["game"]) for r in sync_store.items.all()] == [("ex-8ball-quick", "8ball")]


def test_a_receiver_failure_is_a_500_and_the_device_retries(tmp_path, sync_store, monkeypatch):
    """A full disk at the league's server: 500, nothing stored, the item stays in the outbox."""
    import sqlite3

    with running_server(sync_store) as srv:
        def full_disk(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(sync_store.items, "put", full_disk)
        outbox = Outbox(tmp_path / "outbox")
        text, summary = carom_samples.partie("p-7", "A", "B", seed=7, points_limit=30, innings_limit=5)
        outbox.add("p-7", "partie", text, summary)
        syncer = Syncer(outbox, HttpTransport(url(srv), Signer("u-lva-1", SECRET), timeout=5))
        assert syncer.step() > 0
        assert "500 internal error" in syncer.status()["last_error"] and outbox.unsent() == 1
        monkeypatch.undo()
        syncer.retry_now()
        assert syncer.step() == 0.0 and sync_store.items.count() == 1
