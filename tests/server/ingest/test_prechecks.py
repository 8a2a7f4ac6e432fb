"""Items checked ahead in worker processes (server/ingest/prechecks.py): the receiver decides
exactly as it does checking in place, refusals included, and never waits for a worker that is
late or gone (issue 26: the import at half a bare SQLite loop's rate)."""
import json
import logging
import multiprocessing
import os
import pickle
import signal
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from conftest import match_items, register_devices, signer
from delivery.outbox import item_body
from server.ingest import importer, prechecks
from server.ingest.prechecks import Prechecks, as_checked, check_ahead
from server.ingest.receiver import Receiver
from server.league.errors import Refused
from server.league.verify import check, parse_body
from server.storage.store import Store


def altered(body: bytes) -> bytes:
    """The partie's summary claims a point more than its record replays to."""
    obj = json.loads(body)
    obj["summary"]["players"]["a"]["points"] += 1
    return json.dumps(obj, ensure_ascii=False).encode()


def test_an_item_checked_ahead_is_what_it_is_checked_in_place():
    for body in match_items("KD-1", seed=3):                    # four partie and their match
        ahead = pickle.loads(pickle.dumps(check_ahead(body)))          # as it comes back from a worker
        assert ahead.record == "" and ahead.summary == {}               # what the receiver has, not sent back
        assert as_checked(parse_body(body), ahead) == check(parse_body(body))


@pytest.mark.parametrize("body", [
    item_body("KD-9-p1", "partie", '{"game": "carom"}\n{"cmd": "nonsense"}\n', {}),    # does not replay
    altered(match_items("KD-1", seed=3)[0]),                                  # not to its summary
], ids=["does-not-replay", "not-to-its-summary"])
def test_an_item_refused_ahead_is_refused_as_in_place(body):
    ahead = pickle.loads(pickle.dumps(check_ahead(body)))
    with pytest.raises(Refused) as in_place:
        check(parse_body(body))
    assert isinstance(ahead, Refused)
    assert (ahead.status, ahead.reason) == (in_place.value.status, in_place.value.reason)
    assert ahead.status == 422 and "does not replay" in ahead.reason


def test_a_body_that_is_not_an_item_is_left_to_the_receiver():
    assert check_ahead(b"not json") is None                 # refused by the receiver, with its reason


def test_a_late_worker_is_not_waited_for():
    late = Future()
    assert Prechecks(workers=1).results_if_done([b"x"], late) == {}
    assert late.cancelled()


def test_a_broken_worker_pool_leaves_the_checks_to_the_receiver(caplog):
    broken = Future()
    broken.set_exception(BrokenProcessPool("a worker died"))
    ahead = Prechecks(workers=1)
    with caplog.at_level(logging.WARNING):
        assert ahead.results_if_done([b"x"], broken) == {}
    assert ahead.workers == 0 and ahead.submit([b"x"]) is None
    assert "the receiver checks them itself" in caplog.text
    queued = Future()
    queued.cancel()                     # what giving up does to the checks still queued
    assert ahead.results_if_done([b"y"], queued) == {}


class Waiting(Prechecks):
    """A worker always waited for: every batch but the first ones is checked in the worker."""

    checked_ahead = 0

    def results_if_done(self, bodies, future):
        found = self.results(bodies, future)
        self.checked_ahead += sum(result is not None for result in found.values())
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


def test_an_import_checked_in_a_worker_stores_and_refuses_what_one_checked_in_place_does(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 5)
    bodies = [body for n in range(6) for body in match_items(f"KD-{n + 1}", seed=n + 1)]
    bodies[12] = altered(bodies[12])                                             # refused: 422
    bodies[17] = item_body("KD-9-p1", "partie", '{"game": "carom"}\n{"cmd": "x"}\n', {})   # refused: 422
    lines = [json.dumps(signer("u-lva-1").sign(body).to_json(), ensure_ascii=False) for body in bodies]
    in_place = imported(tmp_path, "in-place", lines, Prechecks(workers=0))
    with Waiting(workers=1) as ahead:
        in_a_worker = imported(tmp_path, "worker", lines, ahead)
    assert ahead.checked_ahead >= 20                       # the batches after the first IN_PLACE ones
    assert in_a_worker == in_place
    assert in_place[0]["stored"] == 28 and [r["status"] for r in in_place[0]["refused"]] == [422, 422]


class Dying(Prechecks):
    """Its worker killed once it has checked one batch, with more batches queued."""

    def submit(self, bodies):
        future = super().submit(bodies)
        if future is not None and not getattr(self, "killed", False):
            future.result()
            self.killed = True
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)
        return future


def test_a_worker_killed_mid_import_leaves_the_rest_to_the_receiver(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 5)
    bodies = [body for n in range(6) for body in match_items(f"KD-{n + 1}", seed=n + 1)]
    lines = [json.dumps(signer("u-lva-1").sign(body).to_json(), ensure_ascii=False) for body in bodies]
    in_place = imported(tmp_path, "in-place", lines, Prechecks(workers=0))
    with Dying(workers=1) as dying:
        after_a_death = imported(tmp_path, "dying", lines, dying)
    # whether the pool is found broken before the last batches (and given up) is a race it may
    # lose: a check not done in time is done in place either way
    assert dying.killed
    assert after_a_death == in_place and in_place[0]["stored"] == 30


def test_workers_are_one_per_cpu_but_the_receivers(monkeypatch):
    monkeypatch.setattr(prechecks.os, "cpu_count", lambda: 4)
    assert Prechecks().workers == 3
    monkeypatch.setattr(prechecks.os, "cpu_count", lambda: 1)
    assert Prechecks().workers == 0 and Prechecks().submit([b"x"]) is None
