"""The durable outbox and the delivery loop's decisions (delivery/outbox.py, sync.py)."""
import json
import logging
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delivery.outbox import Outbox, file_name, item_body
from delivery.sync import Backoff, Syncer
from sync_helpers import FakeClock
from wire.answer import Answer, TransportError
from wire.signing import Signed, Signer

SUMMARY = {"game": "carom", "finished": True, "result": "a"}
RECORD = '{"game":"carom","id":"p-1","a":"Novák","b":"Dvořák"}\n{"cmd":"miss"}\n'


class ScriptedTransport:
    """Answers from a script: an Answer, or an exception to raise; records what it was sent."""

    def __init__(self, *answers):
        self.answers, self.sent, self.signer = list(answers), [], None

    def send(self, body):
        self.sent.append(body)
        answer = self.answers.pop(0) if self.answers else Answer(200, "stored")
        if isinstance(answer, Exception):
            raise answer
        return answer

    def close(self):
        pass


def test_add_is_durable_and_keeps_the_exact_bytes(tmp_path):
    box = Outbox(tmp_path)
    assert box.add("p-1", "partie", RECORD, SUMMARY) is True
    [item] = Outbox(tmp_path).pending()          # a fresh Outbox: what is on disk
    assert item.body == item_body("p-1", "partie", RECORD, SUMMARY)
    assert item.content["record"] == RECORD and item.content["summary"] == SUMMARY
    assert os.listdir(tmp_path / "tmp") == []


def test_adding_the_same_id_twice_keeps_one(tmp_path):
    """The service re-adds finished partie after a restart: that must not double them."""
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    assert box.add("p-1", "partie", RECORD, SUMMARY) is False
    box.mark_delivered("p-1", "2026-11-27T22:00:00+01:00")
    assert box.add("p-1", "partie", RECORD, SUMMARY) is False       # delivered ones too
    assert box.pending() == [] and box.delivered_ids() == ["p-1"]


def test_ids_that_are_not_file_names_are_hashed():
    assert file_name("KD-2026/07 p1") != file_name("KD-2026/07 p2")
    assert "/" not in file_name("../../etc/passwd") and file_name("p-1") == "p-1.json"


@pytest.mark.parametrize("args, fault", [
    (("", "partie", RECORD, SUMMARY), "non-empty text id"),
    (("p", "frame", RECORD, SUMMARY), "kind must be one of"),
])
def test_bad_items_are_refused(tmp_path, args, fault):
    with pytest.raises(ValueError, match=fault):
        Outbox(tmp_path).add(*args)


def test_pending_is_oldest_first_and_delivery_moves_it(tmp_path):
    box = Outbox(tmp_path)
    for i, name in enumerate(["zeta", "alfa", "mid"]):
        box.add(name, "partie", RECORD, SUMMARY)
        os.utime(tmp_path / "pending" / f"{name}.json", ns=(i * 10**9, i * 10**9))
    assert [i.id for i in box.pending()] == ["zeta", "alfa", "mid"]
    box.mark_delivered("zeta", "2026-11-27T21:30:00+01:00")
    assert [i.id for i in box.pending()] == ["alfa", "mid"]
    assert box.last_delivery() == "2026-11-27T21:30:00+01:00" and box.unsent() == 2


def test_export_writes_signed_lines_the_receiver_can_check(tmp_path):
    box = Outbox(tmp_path / "box")
    box.add("p-1", "partie", RECORD, SUMMARY)
    box.add("m-1", "match", "{}\n", {"match": {"id": "m-1"}})
    assert box.export(tmp_path / "backlog.jsonl", Signer("u-lva-1", b"k" * 20)) == 2
    lines = [Signed.from_json(json.loads(line)) for line in (tmp_path / "backlog.jsonl").read_text("utf-8").splitlines()]
    assert [json.loads(s.body)["id"] for s in lines] == ["p-1", "m-1"]
    assert all(s.valid_for(b"k" * 20) and not s.valid_for(b"x" * 20) for s in lines)
    assert box.unsent() == 2      # exporting does not count as delivered


def _refuse(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("breaks", ["replace", "fsync"])
def test_a_failed_export_leaves_no_temp_file_and_the_old_backlog_intact(tmp_path, monkeypatch, breaks):
    box = Outbox(tmp_path / "box")
    box.add("p-1", "partie", RECORD, SUMMARY)
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / "backlog.jsonl").write_bytes(b"yesterday's backlog\n")
    monkeypatch.setattr(os, breaks, _refuse)
    with pytest.raises(OSError, match="No space left"):
        box.export(stick / "backlog.jsonl")
    monkeypatch.undo()
    assert sorted(p.name for p in stick.iterdir()) == ["backlog.jsonl"]
    assert (stick / "backlog.jsonl").read_bytes() == b"yesterday's backlog\n"
    assert box.unsent() == 1


def test_exporting_onto_a_folder_fails_without_a_temp_file(tmp_path):
    box = Outbox(tmp_path / "box")
    box.add("p-1", "partie", RECORD, SUMMARY)
    (tmp_path / "backlog.jsonl").mkdir()
    with pytest.raises(IsADirectoryError):
        box.export(tmp_path / "backlog.jsonl")
    assert not (tmp_path / "backlog.jsonl.tmp").exists()


def test_a_failed_add_leaves_no_temp_file(tmp_path, monkeypatch):
    box = Outbox(tmp_path)
    monkeypatch.setattr(os, "replace", _refuse)
    with pytest.raises(OSError):
        box.add("p-1", "partie", RECORD, SUMMARY)
    monkeypatch.undo()
    assert list((tmp_path / "tmp").iterdir()) == [] and box.unsent() == 0


def test_a_delivery_marks_the_item_and_clears_the_error(tmp_path):
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    transport = ScriptedTransport(TransportError("connection refused"), Answer(200, "already have it"))
    clock = FakeClock()
    syncer = Syncer(box, transport, clock=clock, rand=lambda: 1.0)
    assert syncer.step() == 2.0
    assert syncer.status()["last_error"] == "p-1: connection refused" and syncer.status()["unsent"] == 1
    assert syncer.step() == pytest.approx(2.0)          # not due yet: nothing sent
    assert len(transport.sent) == 1
    clock.t = 2.0
    assert syncer.step() == 0.0
    assert syncer.status()["last_error"] is None and syncer.status()["unsent"] == 0
    assert transport.sent == [item_body("p-1", "partie", RECORD, SUMMARY)] * 2


@pytest.mark.parametrize("status", [400, 409, 413, 422])
def test_a_final_refusal_is_held_aside_not_lost_and_does_not_block_the_rest(tmp_path, status):
    box = Outbox(tmp_path)
    box.add("bad", "partie", RECORD, SUMMARY)
    os.utime(tmp_path / "pending" / "bad.json", ns=(0, 0))
    box.add("good", "partie", RECORD, SUMMARY)
    syncer = Syncer(box, ScriptedTransport(Answer(status, "no")), clock=FakeClock())
    assert syncer.step() == 0.0 and syncer.step() == 0.0
    assert [i.id for i in box.held()] == ["bad"] and box.held()[0].why == f"{status} no"
    assert box.delivered_ids() == ["good"] and syncer.status()["unsent"] == 1
    assert "refused" in syncer.status()["last_error"]
    assert box.retry_held() == 1 and [i.id for i in box.pending()] == ["bad"]


@pytest.mark.parametrize("status", [401, 500, 503])
def test_other_answers_are_retried_with_backoff(tmp_path, status):
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    syncer = Syncer(box, ScriptedTransport(Answer(status, "later")), clock=FakeClock(), rand=lambda: 0.0)
    assert syncer.step() == 1.0          # backoff_initial 2.0 with the lowest jitter
    assert box.held() == [] and len(box.pending()) == 1


@pytest.mark.parametrize("failure, reason", [(TransportError("connection refused"), "connection refused"),
                                             (Answer(503, "later"), "503 later")])
def test_a_one_shot_send_says_the_item_stays_and_promises_no_next_try(tmp_path, caplog, failure, reason):
    """`pocitadlo outbox retry` ends after send_all: it must not announce a retry it will not make."""
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    syncer = Syncer(box, ScriptedTransport(failure), clock=FakeClock())
    with caplog.at_level(logging.WARNING, logger="delivery.sync"):
        assert syncer.send_all() > 0
    assert caplog.messages == [f"sync: not delivered: p-1: {reason}; it stays in the outbox"]
    assert box.unsent() == 1 and reason in syncer.status()["last_error"]


def test_the_background_syncer_still_says_when_it_tries_again(tmp_path, caplog):
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    syncer = Syncer(box, ScriptedTransport(TransportError("connection refused")), clock=FakeClock(),
                    rand=lambda: 0.0)
    with caplog.at_level(logging.WARNING, logger="delivery.sync"):
        assert syncer.step() == 1.0
    assert caplog.messages == ["sync: p-1: connection refused; next try in 1.0 s"]


def test_an_answer_nested_too_deeply_still_yields_its_status():
    """A proxy or a broken receiver answering deeply nested JSON: a 503 to retry, not an internal error."""
    answer = Answer.from_json(503, b"[" * 100_000)
    assert answer.status == 503 and answer.message == "[" * 200 and not answer.final


def test_retry_now_skips_the_wait(tmp_path):
    box = Outbox(tmp_path)
    box.add("p-1", "partie", RECORD, SUMMARY)
    syncer = Syncer(box, ScriptedTransport(TransportError("down")), clock=FakeClock())
    assert syncer.step() > 0
    syncer.retry_now()
    assert syncer.step() == 0.0 and box.unsent() == 0


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 100), st.floats(0.01, 10_000), st.lists(st.floats(0, 1), min_size=1, max_size=80))
def test_backoff_doubles_up_to_the_cap_with_bounded_jitter(initial, cap, draws):
    cap = max(cap, initial)
    randoms = iter(draws)
    backoff = Backoff(initial, cap, rand=lambda: next(randoms))
    for n, r in enumerate(draws, start=1):
        base = min(cap, initial * 2 ** (n - 1))
        delay = backoff.next_delay()
        assert base / 2 <= delay <= base + 1e-9
        assert delay == pytest.approx(base * (0.5 + r / 2))


def test_the_service_thread_delivers_a_new_item_when_woken(tmp_path):
    """Syncer.start: the service adds a partie, wakes the syncer, the status shows it delivered."""
    import threading

    box = Outbox(tmp_path)
    sent = threading.Event()

    class Transport(ScriptedTransport):
        def send(self, body):
            answer = super().send(body)
            sent.set()
            return answer

    syncer = Syncer(box, Transport())
    thread = syncer.start()
    try:
        box.add("p-1", "partie", RECORD, SUMMARY)
        syncer.wake()
        assert sent.wait(5)
    finally:
        syncer.stop()
        thread.join(5)
    assert not thread.is_alive()
    assert syncer.status()["unsent"] == 0 and syncer.status()["last_delivery"] is not None


def test_transport_none_only_counts_the_backlog(tmp_path):
    from config.options import Section
    from delivery.settings import read

    syncer = Syncer.from_settings(read(Section({"outbox": str(tmp_path)}, "sync")))
    syncer.outbox.add("p-1", "partie", RECORD, SUMMARY)
    assert syncer.step() == float("inf")
    assert syncer.status() == {"unsent": 1, "last_delivery": None, "last_error": None, "device_refused": False}


def test_status_counts_held_items_without_reading_them(tmp_path, caplog):
    """The ready screen asks for the status on every draw: counting what the receiver refused must not
    read (or complain about) each held item again."""
    from delivery.outbox import Outbox
    from delivery.sync import Syncer

    outbox = Outbox(tmp_path / "outbox")
    outbox.add("p-1", "partie", "{}", {})
    outbox.hold("p-1", "409 conflict")
    (tmp_path / "outbox" / "held" / "p-1.json").write_bytes(b"damaged")
    syncer = Syncer(outbox, None)
    with caplog.at_level("ERROR"):
        status = syncer.status()
    assert status["last_error"] == "1 refused by the receiver (see pocitadlo outbox)"
    assert status["unsent"] == 1 and caplog.records == []


def test_a_device_the_receiver_refuses_is_told_apart_from_a_network_fault(tmp_path):
    """A wrong secret or an unregistered device (401, 403) is retried like an outage, but the status
    says which it is, and the outbox keeps the last error for `pocitadlo outbox list` (the service
    and the command share only the outbox's folder) until a delivery goes through."""
    outbox = Outbox(tmp_path / "outbox")
    outbox.add("p-1", "partie", RECORD, SUMMARY)
    transport = ScriptedTransport(Answer(401, "unknown device 'u-lva-1'"), TransportError("no answer"))
    syncer = Syncer(outbox, transport, clock=FakeClock(), rand=lambda: 0.0)
    assert syncer.step() > 0
    assert syncer.status()["device_refused"] is True
    assert Outbox(tmp_path / "outbox").last_error() == "p-1: 401 unknown device 'u-lva-1'"
    syncer.retry_now()
    assert syncer.step() > 0
    assert syncer.status()["device_refused"] is False
    assert outbox.last_error() == "p-1: no answer"
    syncer.retry_now()
    assert syncer.step() == 0.0 and outbox.unsent() == 0
    assert outbox.last_error() is None and syncer.status()["device_refused"] is False


def test_a_kept_error_is_bounded(tmp_path):
    outbox = Outbox(tmp_path / "outbox")
    outbox.keep_error("x" * 10_000)
    assert outbox.last_error() == "x" * 500
