"""A device's item is answered once it is verified and durable; its match's figures (the tables,
the match list, the players' sums: RULES 1.8, 2.9, A.1.3) are computed after the answer, in one
batched step, and nothing that reads them misses an item already answered or sees a match half
computed (server/tables/figures.py ``settle``, server/tables/settling.py)."""
import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from admin_http_helpers import TOKEN, AdminClient
from conftest import SECRETS, Client, register_devices
from server.ingest.receiver import Receiver
from server.storage.store import Store
from server.tables import exports, figures, stats
from server.tables.settling import Later
from sync_helpers import wait_for

ROOT = Path(__file__).resolve().parents[3]
HANG = 60          # seconds: only a hung receiver takes this long


def receive_match(receiver, sign, items, match_id="KD-1", seed=1):
    for body in items(match_id, seed):
        status, answer = receiver.receive(sign("u-lva-1").sign(body), via="test")
        assert (status, answer["status"]) == (200, "stored")


def shown(store) -> tuple:
    """What the pages read of the figures: the carom table, the match list, the players."""
    return exports.league_table(store)["rows"], exports.matches(store), stats.players(store)["rows"]


def test_the_answer_waits_for_the_item_only_and_one_step_computes_the_figures(receiver, sign, items):
    """RULES 1.8: a match counts in the table once its figures are computed, by one step for every
    item answered before it (two matches, ten items: one step, one move of the generation)."""
    receive_match(receiver, sign, items, "KD-1", 1)
    receive_match(receiver, sign, items, "KD-2", 2)
    store = receiver.store
    assert store.figures.pending() and exports.league_table(store)["rows"] == [] and exports.matches(store) == []
    generation = store.generation()
    assert receiver.settle() is True
    assert not store.figures.pending() and store.generation() == generation + 1
    rows = exports.league_table(store)["rows"]
    assert sorted((r["team"], r["matches"], r["partie"]) for r in rows) == [("Lvi", 2, 8), ("Orli", 2, 8)]
    assert [m["match"] for m in exports.matches(store)] == ["KD-1", "KD-2"]
    assert receiver.settle() is False and store.generation() == generation + 1


def test_the_figures_after_the_answers_equal_those_computed_item_by_item(receiver, sign, items, tmp_path):
    """The batched step gives the table, the list and the players' sums (RULES 1.8, A.1.3) that
    computing the figures after every item gives."""
    receive_match(receiver, sign, items, "KD-1", 3)
    receive_match(receiver, sign, items, "KD-2", 4)
    receiver.settle()
    reference = register_devices(Store(tmp_path / "one-by-one.sqlite"))
    try:
        one_by_one = Receiver(reference)
        for match_id, seed in (("KD-1", 3), ("KD-2", 4)):
            for body in items(match_id, seed):
                assert one_by_one.handle(sign("u-lva-1").sign(body), via="test")[0] == 200
        assert shown(receiver.store) == shown(reference)
    finally:
        reference.close()


def test_a_step_that_fails_changes_nothing_and_is_taken_again(receiver, sign, items, monkeypatch):
    """One transaction: a step that fails on its second match leaves no figure of the first
    (no page shows a half-computed batch) and the items still marked; the next step computes all."""
    receive_match(receiver, sign, items, "KD-1", 5)
    receive_match(receiver, sign, items, "KD-2", 6)
    refresh = figures._refresh

    def failing(store, match_id, totals=None):
        if match_id == "KD-2":
            raise OSError("disk full")
        refresh(store, match_id, totals)

    monkeypatch.setattr(figures, "_refresh", failing)
    with pytest.raises(OSError):
        receiver.settle()
    store = receiver.store
    assert shown(store) == ([], [], []) and store.figures.pending()
    monkeypatch.undo()
    assert receiver.settle() is True
    assert [m["match"] for m in exports.matches(store)] == ["KD-1", "KD-2"]


def test_a_step_of_one_match_leaves_the_others_for_the_next(receiver, sign, items):
    """RULES 1.8: a step asked for one match computes the first to arrive; the items count as
    computed only once a step finds nothing left pending."""
    receive_match(receiver, sign, items, "KD-1", 12)
    receive_match(receiver, sign, items, "KD-2", 13)
    store = receiver.store
    assert receiver.settle(matches=1) is True
    assert [m["match"] for m in exports.matches(store)] == ["KD-1"] and store.figures.pending() and receiver.unsettled
    assert receiver.settle(matches=1) is True and receiver.unsettled
    assert receiver.settle(matches=1) is False and not receiver.unsettled and not store.figures.pending()
    assert [m["match"] for m in exports.matches(store)] == ["KD-1", "KD-2"]


def test_the_step_on_the_event_loop_lets_other_work_in_between_two_matches(sign, items, tmp_path):
    """On SQLite the step after the answers runs on the event loop one match at a time, and the
    loop runs what waits (a device's POST) between two: a task on the loop sees the matches
    counted one by one (RULES 1.8), not all at once."""
    store = register_devices(Store(tmp_path / "league.sqlite"))
    try:
        receiver = Receiver(store)
        for n, match_id in enumerate(("KD-1", "KD-2", "KD-3")):
            receive_match(receiver, sign, items, match_id, 20 + n)
        seen = []

        async def watching():
            done = Later(receiver, delay=0.0).soon()
            while not done.done():
                seen.append(len(exports.matches(store)))
                await asyncio.sleep(0)
            return done.result()

        assert asyncio.run(watching()) is True
        assert {1, 2} <= set(seen) and len(exports.matches(store)) == 3 and not receiver.unsettled
    finally:
        store.close()


CRASHING = """
import os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from server.ingest.receiver import Receiver
from server.storage.store import Store
from wire.signing import Signer
store = Store(sys.argv[2])
receiver = Receiver(store)
for body in sys.argv[4:]:
    assert receiver.receive(Signer("u-lva-1", sys.argv[3].encode()).sign(Path(body).read_bytes()), via="test")[1]["status"] == "stored"
os._exit(0)         # stopped between the answers and their figures: no step, no close
"""


def test_a_receiver_stopped_before_the_figures_leaves_them_to_the_next_start(store, store_place, items, tmp_path):
    """A receiver process ends right after answering a match's items (no step after the answers):
    the items are stored and marked, and the next receiver to open the store computes the
    figures (RULES 1.8: the table counts the match)."""
    bodies = []
    for n, body in enumerate(items("KD-1", 7)):
        bodies.append(tmp_path / f"{n}.json")
        bodies[-1].write_bytes(body)
    subprocess.run([sys.executable, "-c", CRASHING, str(ROOT), store_place, SECRETS["u-lva-1"].decode(),
                    *map(str, bodies)], check=True, timeout=120)
    assert store.items.count() == 5 and store.figures.pending() and exports.league_table(store)["rows"] == []
    Receiver(store)                 # the next start
    assert not store.figures.pending()
    rows = exports.league_table(store)["rows"]
    assert sorted((r["team"], r["matches"], r["partie"]) for r in rows) == [("Lvi", 1, 4), ("Orli", 1, 4)]


def test_a_page_asked_after_the_answer_shows_the_item(receiver, serving, items):
    """The step after the answers has not run (it waits an hour here), yet the table and the list
    asked right after a device's answer count its match: a page computes what is pending first."""
    with serving(receiver, figures_delay=3600) as server:
        client = Client(server.port)
        for body in items("KD-1", 8):
            assert client.post(body)[1]["status"] == "stored"
        assert receiver.store.figures.pending()
        table = json.loads(client.get("/table.json")[1])
        assert sorted((r["team"], r["partie"]) for r in table["rows"]) == [("Lvi", 4), ("Orli", 4)]
        assert [m["match"] for m in json.loads(client.get("/matches.json")[1])] == ["KD-1"]
        assert not receiver.store.figures.pending()


def test_the_step_after_the_answers_runs_without_a_reader(receiver, serving, items):
    """With nobody reading, the figures still follow the answers (``figures_delay`` after the
    first item; the wait below only bounds a hang)."""
    with serving(receiver, figures_delay=0.0) as server:
        client = Client(server.port)
        for body in items("KD-1", 9):
            assert client.post(body)[1]["status"] == "stored"
        assert wait_for(lambda: not receiver.store.figures.pending())
    assert [m["match"] for m in exports.matches(receiver.store)] == ["KD-1"]


def test_an_admin_change_reads_the_figures_of_every_item_answered(receiver, sign, items, serving):
    """A change of the league's own data from the web admin (here a venue) first computes what is
    pending: it may read the figures (a no-show refused for a match already played, A.3.7)."""
    with serving(receiver, admin_token=TOKEN, figures_delay=3600) as server:
        admin = AdminClient(server.port)
        assert admin.login()[0] == 303 and admin.get("/admin")[0] == 200      # the page: its CSRF token
        receive_match(receiver, sign, items, "KD-1", 10)
        assert receiver.store.figures.pending()
        assert admin.post("/admin/venue", {"name": "Hostinec U Lva"})[0] == 303
        assert not receiver.store.figures.pending() and len(exports.matches(receiver.store)) == 1


def test_a_step_asked_without_waiting_gives_way_to_one_under_way(receiver, sign, items, monkeypatch):
    """A reader on the event loop holding the SQLite writer asks for a step without waiting: with
    another step under way (which may be waiting for that writer) it gets None at once, never a
    deadlock; the step under way then computes the figures."""
    receive_match(receiver, sign, items, "KD-1", 11)
    settle, inside, go_on = figures.settle, threading.Event(), threading.Event()

    def slow(store, **options):
        inside.set()
        assert go_on.wait(HANG)
        return settle(store, **options)

    monkeypatch.setattr(figures, "settle", slow)
    under_way = threading.Thread(target=receiver.settle)
    under_way.start()
    try:
        assert inside.wait(HANG)
        assert receiver.settle(wait=False) is None and receiver.unsettled
    finally:
        go_on.set()
        under_way.join(HANG)
    assert not receiver.unsettled and [m["match"] for m in exports.matches(receiver.store)] == ["KD-1"]
