"""Partie records replayed ahead in worker processes (server/ingest/prechecks.py): the receiver
decides exactly as it does replaying in place, refusals included, and never waits for a worker
that is late or gone (issue 26: the import at half a bare SQLite loop's rate)."""
import json
import logging
import pickle
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from conftest import match_items, register_devices, signer
from delivery.outbox import item_body
from server.ingest import importer, prechecks
from server.ingest.prechecks import Prechecks, replay_ahead
from server.ingest.receiver import Receiver
from server.league.errors import Refused
from server.league.verify import check, parse_body
from server.storage.store import Store


def altered(body: bytes) -> bytes:
    """The partie's summary claims a point more than its record replays to."""
    obj = json.loads(body)
    obj["summary"]["players"]["a"]["points"] += 1
    return json.dumps(obj, ensure_ascii=False).encode()


def test_a_partie_checked_with_its_replay_done_ahead_is_what_it_is_checked_in_place():
    for body in match_items("KD-1", seed=3)[:4]:
        ahead = pickle.loads(pickle.dumps(replay_ahead(body)))          # as it comes back from a worker
        assert check(parse_body(body), ahead) == check(parse_body(body))


def test_a_record_that_does_not_replay_is_refused_ahead_as_in_place():
    bad = item_body("KD-9-p1", "partie", '{"game": "carom"}\n{"cmd": "nonsense"}\n', {})
    ahead = pickle.loads(pickle.dumps(replay_ahead(bad)))
    with pytest.raises(Refused) as in_place:
        check(parse_body(bad))
    assert isinstance(ahead, Refused)
    assert (ahead.status, ahead.reason) == (in_place.value.status, in_place.value.reason) == (422, ahead.reason)
    assert ahead.reason.startswith("the record does not replay")


def test_a_summary_the_record_does_not_replay_to_is_refused_with_the_replay_done_ahead():
    body = altered(match_items("KD-1", seed=3)[0])
    with pytest.raises(Refused, match="does not replay to its own summary"):
        check(parse_body(body), replay_ahead(body))


def test_bodies_not_replayed_ahead_are_left_to_the_receiver():
    match_item = match_items("KD-1", seed=3)[-1]
    assert replay_ahead(match_item) is None                 # a match item: nothing to replay
    assert replay_ahead(b"not json") is None                # refused by the receiver, with its reason


def test_a_late_worker_is_not_waited_for():
    late = Future()
    assert Prechecks(workers=1).results_if_done([b"x"], late) == {}
    assert late.cancelled()


def test_a_broken_worker_pool_leaves_the_replays_to_the_receiver(caplog):
    broken = Future()
    broken.set_exception(BrokenProcessPool("a worker died"))
    ahead = Prechecks(workers=1)
    with caplog.at_level(logging.WARNING):
        assert ahead.results_if_done([b"x"], broken) == {}
    assert ahead.workers == 0 and ahead.submit([b"x"]) is None
    assert "the receiver replays them itself" in caplog.text


class Waiting(Prechecks):
    """A worker always waited for: every batch but the first ones is replayed in the worker."""

    replayed_ahead = 0

    def results_if_done(self, bodies, future):
        found = self.results(bodies, future)
        self.replayed_ahead += sum(result is not None for result in found.values())
        return found


def imported(tmp_path, name: str, lines: list[str], ahead: Prechecks) -> tuple[dict, list]:
    backlog = tmp_path / f"{name}.jsonl"
    backlog.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = register_devices(Store(tmp_path / f"{name}.sqlite"))
    try:
        counts = importer.import_backlog(Receiver(store), backlog, prechecks=ahead)
        stored = sorted((row["id"], row["kind"]) for row in store.items.all())
        refusals = sorted((r["item_id"], r["status"], r["reason"]) for r in store.refusals.latest(100))
    finally:
        store.close()
    return counts, [stored, refusals]


def test_an_import_replayed_in_a_worker_stores_and_refuses_what_one_replayed_in_place_does(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 5)
    bodies = [body for n in range(6) for body in match_items(f"KD-{n + 1}", seed=n + 1)]
    bodies[12] = altered(bodies[12])                                             # refused: 422
    bodies[17] = item_body("KD-9-p1", "partie", '{"game": "carom"}\n{"cmd": "x"}\n', {})   # refused: 422
    lines = [json.dumps(signer("u-lva-1").sign(body).to_json(), ensure_ascii=False) for body in bodies]
    in_place = imported(tmp_path, "in-place", lines, Prechecks(workers=0))
    with Waiting(workers=1) as ahead:
        in_a_worker = imported(tmp_path, "worker", lines, ahead)
    assert ahead.replayed_ahead >= 15                      # the batches after the first IN_PLACE ones
    assert in_a_worker == in_place
    assert in_place[0]["stored"] == 28 and [r["status"] for r in in_place[0]["refused"]] == [422, 422]


def test_workers_are_one_per_cpu_but_the_receivers(monkeypatch):
    monkeypatch.setattr(prechecks.os, "cpu_count", lambda: 4)
    assert Prechecks().workers == 3
    monkeypatch.setattr(prechecks.os, "cpu_count", lambda: 1)
    assert Prechecks().workers == 0 and Prechecks().submit([b"x"]) is None
