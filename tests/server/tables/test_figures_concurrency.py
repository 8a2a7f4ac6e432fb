"""A match's figures written by two steps at once (two threads of one receiver, two receivers on
one PostgreSQL) come out as one step writes them: never a unique violation, never a match counted
twice in the tables or the players' sums (RULES 1.8, A.1.3; server/tables/figures.py ``refresh``).

Each round clears the figures, then both workers refresh the same match at the same moment; the
figures after the round must equal those one refresh writes alone."""
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from conftest import match_items, register_devices
from server.ingest.receiver import Receiver
from server.storage.store import Store
from server.tables import figures

ROOT = Path(__file__).resolve().parents[3]
ROUNDS = 100
HANG = 120          # seconds: only a hung worker takes this long
FIGURES = ("match_figures", "team_figures", "team_totals", "player_figures", "player_totals")

pytestmark = pytest.mark.slow


def stored_match(place: str, sign) -> None:
    """A carom match's items stored and figured, the figures then cleared (as a round begins)."""
    store = register_devices(Store(place))
    try:
        receiver = Receiver(store)
        for body in match_items("KD-1", seed=7):
            assert receiver.handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    finally:
        store.close()


class Tables:
    """The figures tables read and cleared on a connection of their own (not the store's)."""

    def __init__(self, place: str):
        self.engine = sa.create_engine(place if "://" in place else f"sqlite:///{place}")

    def snapshot(self) -> dict:
        with self.engine.connect() as conn:
            return {t: sorted(map(tuple, conn.exec_driver_sql(f"SELECT * FROM {t}").fetchall())) for t in FIGURES}

    def clear(self) -> None:
        with self.engine.begin() as conn:
            for table in FIGURES:
                conn.exec_driver_sql(f"DELETE FROM {table}")

    def close(self) -> None:
        self.engine.dispose()


def rounds(tables: Tables, one_round) -> None:
    """ROUNDS rounds of ``one_round()`` (both workers refreshing KD-1 at once) from cleared figures."""
    expected = tables.snapshot()
    assert expected["player_figures"] and expected["player_totals"] and expected["team_totals"]
    for n in range(ROUNDS):
        tables.clear()
        one_round()
        assert tables.snapshot() == expected, f"round {n}"


def test_two_threads_refreshing_one_match_at_once_write_it_once(store_place, sign):
    stored_match(store_place, sign)
    store, tables = Store(store_place), Tables(store_place)
    start = threading.Barrier(2, timeout=HANG)
    failures = []

    def refresh():
        try:
            start.wait()
            figures.refresh(store, "KD-1")
        except Exception as exc:        # noqa: BLE001 — any failure, the round reports it
            failures.append(exc)

    def one_round():
        workers = [threading.Thread(target=refresh) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(HANG)
        assert failures == []

    try:
        rounds(tables, one_round)
    finally:
        store.close()
        tables.close()


WORKER = """
import sys
from server.storage.store import Store
from server.tables import figures
store = Store(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    figures.refresh(store, "KD-1")
    print("done", flush=True)
store.close()
"""


def test_two_processes_refreshing_one_match_at_once_write_it_once(postgresql, sign):
    """Two receivers on one PostgreSQL (two processes, two connections)."""
    place = postgresql()
    stored_match(place, sign)
    tables = Tables(place)
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, place], cwd=ROOT, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for _ in range(2)]

    def one_round():
        for worker in workers:
            worker.stdin.write("go\n")
            worker.stdin.flush()
        assert [worker.stdout.readline() for worker in workers] == ["done\n", "done\n"]

    try:
        assert [worker.stdout.readline() for worker in workers] == ["ready\n", "ready\n"]
        rounds(tables, one_round)
    finally:
        for worker in workers:
            worker.stdin.close()
            worker.wait(HANG)
        tables.close()
