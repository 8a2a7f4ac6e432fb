"""JSON nested too deeply for the parser (RecursionError inside json.loads) is refused with a reason
on every way into the receiver — a backlog line, a posted body, a serial frame — never an internal
error, and nothing stored changes."""
import json
from types import SimpleNamespace

from http_helpers import partie_body, post, signed_post

from delivery.transport_serial import SerialTransport
from server.ingest.importer import import_backlog
from server.ingest.receiver import Receiver
from sync_helpers import DEVICE, SECRET, relay, serial_listener
from wire.answer import Answer
from wire.signing import Signer

DEEP = "[" * 100_000
DEEP_BODY = DEEP.encode()
DEEP_FRAME = b"[" * 50_000          # a frame's payload is at most 64 KiB


def signed_line(body: bytes) -> str:
    return json.dumps(Signer(DEVICE, SECRET).sign(body).to_json(), ensure_ascii=False)


def test_a_deeply_nested_backlog_line_is_refused_and_the_rest_is_imported(tmp_path, sync_store):
    good = [partie_body("p-1", seed=1), partie_body("p-2", seed=2)]
    backlog = tmp_path / "backlog.jsonl"
    backlog.write_text("\n".join([signed_line(good[0]), DEEP, signed_line(DEEP_BODY), signed_line(good[1])]) + "\n",
                       encoding="utf-8")
    counts = import_backlog(Receiver(sync_store), backlog)
    assert counts["stored"] == 2 and sync_store.items.count() == 2
    assert [(r["line"], r["status"]) for r in counts["refused"]] == [(2, 400), (3, 400)]
    assert all("nested too deeply" in r["reason"] for r in counts["refused"])
    assert [r["status"] for r in sync_store.refusals.latest()] == [400, 400]


def test_a_deeply_nested_backlog_line_does_not_touch_what_is_stored(tmp_path, sync_store):
    first = tmp_path / "first.jsonl"
    first.write_text(signed_line(partie_body("p-1")) + "\n", encoding="utf-8")
    import_backlog(Receiver(sync_store), first)
    before = sync_store.items.body("p-1")
    deep = tmp_path / "deep.jsonl"
    deep.write_text(DEEP + "\n", encoding="utf-8")
    counts = import_backlog(Receiver(sync_store), deep)
    assert counts["stored"] == 0 and len(counts["refused"]) == 1
    assert sync_store.items.count() == 1 and sync_store.items.body("p-1") == before


def test_a_deeply_nested_post_is_a_400_and_is_logged(sync_server, sync_store):
    status, answer = signed_post(sync_server, DEEP_BODY)
    assert status == 400 and answer["status"] == "refused"
    assert "malformed JSON" in answer["reason"] and "nested too deeply" in answer["reason"]
    [logged] = sync_store.refusals.latest()
    assert (logged["status"], logged["device"], logged["via"]) == (400, DEVICE, "http")
    assert sync_store.items.count() == 0
    assert signed_post(sync_server, partie_body("p-1"))[0] == 200      # the server goes on


def test_an_unsigned_deeply_nested_post_is_refused_for_its_signature(sync_server, sync_store):
    status, answer = post(sync_server, DEEP_BODY, {"Content-Type": "application/json"})
    assert status == 401 and "missing header" in answer["reason"]


class RawSigner:
    """Sends the payload as it is (a frame whose signature line is whatever the test wants)."""

    def sign(self, payload):
        return SimpleNamespace(pack=lambda: payload)


def send_over_serial(store, payload: bytes, signer) -> Answer:
    with relay() as cable, serial_listener(Receiver(store), cable.listener_port):
        transport = SerialTransport(cable.device_port, signer, ack_timeout=5.0, tries=3)   # a hang bound: a clean link answers at once
        try:
            return transport.send(payload)
        finally:
            transport.close()


def test_a_frame_with_a_deeply_nested_signature_line_is_refused_in_the_ack(sync_store):
    answer = send_over_serial(sync_store, DEEP_FRAME + b"\n{}", RawSigner())
    assert answer.status == 401 and "nested too deeply" in answer.message
    [logged] = sync_store.refusals.latest()
    assert (logged["status"], logged["via"]) == (401, "serial") and sync_store.items.count() == 0


def test_a_signed_frame_with_a_deeply_nested_body_is_a_400_in_the_ack(sync_store):
    answer = send_over_serial(sync_store, DEEP_FRAME, Signer(DEVICE, SECRET))
    assert answer.status == 400 and "nested too deeply" in answer.message
    [logged] = sync_store.refusals.latest()
    assert (logged["status"], logged["device"], logged["via"]) == (400, DEVICE, "serial")
    assert sync_store.items.count() == 0


def test_serve_import_reports_a_deeply_nested_line_as_refused(tmp_path, capsys):
    from cli.main import main

    db = tmp_path / "league.sqlite"
    (tmp_path / "secret").write_bytes(SECRET)
    assert main(["server", "--db", str(db), "add-device", DEVICE, "--venue", "Hostinec U Lva", "--secret-file", str(tmp_path / "secret")]) == 0
    backlog = tmp_path / "backlog.jsonl"
    backlog.write_text(DEEP + "\n" + signed_line(partie_body("p-1")) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["server", "--db", str(db), "import", str(backlog)]) == 3     # a line refused: not a bug (1)
    captured = capsys.readouterr()
    assert "line 1: refused (400): malformed JSON: nested too deeply\n" in captured.out
    assert "stored 1, already had 0, refused 1" in captured.out
    assert "internal error" not in captured.err and "Traceback" not in captured.err
