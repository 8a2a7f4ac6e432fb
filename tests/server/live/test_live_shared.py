"""The live board shared by the receivers on one database (issue 26): a snapshot one receiver takes
is shown by another (on /live, and on a stream open there), a replay is older on every receiver,
a table not heard from leaves every board, and a device's tables stay bounded in the store, not
only in one receiver's copy (issue 26 item 13). Two stores on one database stand for two
receiver processes; on SQLite and on PostgreSQL."""
import asyncio
from datetime import datetime

import pytest

from clock import ManualClock
from conftest import KOULE, LVA, Client, register_devices, serving, signer
from league_live_helpers import Events, follow, page_state, snap
from league_live_helpers import post_snapshot as post_live
from server.ingest.receiver import Receiver
from server.live.board import TABLES_PER_DEVICE, LiveBoard
from server.storage.store import Store


@pytest.fixture
def nodes(store_place):
    """(the clock, two receivers' boards on one database): each its own store, as two processes."""
    clock = ManualClock(datetime(2026, 11, 27, 19, 0))
    stores = [register_devices(Store(store_place, clock=clock)), Store(store_place, clock=clock)]
    yield clock, [LiveBoard(Receiver(store), expiry=60) for store in stores]
    for store in stores:
        store.close()


def table(venue: str, name: str, seq: int = 1, points: int = 0) -> dict:
    return {"venue": venue, "table": name, "seq": seq, "points": points}


def put(board: LiveBoard, device: str, timestamp: int, entry: dict) -> bool:
    return asyncio.run(board.put(device, timestamp, entry))


def shown(board: LiveBoard) -> list:
    """The board as its receiver shows it on /live: its copy brought up to the store's."""
    asyncio.run(board.refresh())
    return [(entry["table"], entry["points"]) for entry in board.entries()]


def test_a_snapshot_one_receiver_takes_is_shown_by_the_other(nodes):
    _, (a, b) = nodes
    assert put(a, "u-lva-1", 100, table(LVA, "1", points=3))
    assert shown(b) == shown(a) == [("1", 3)]
    assert put(b, "u-lva-1", 101, table(LVA, "1", seq=2, points=5))
    assert shown(a) == shown(b) == [("1", 5)]
    odd = dict(table(LVA, "1", seq=3), name="\ud800\x00</script>")     # as JSON escapes can spell them
    assert put(b, "u-lva-1", 102, odd) and shown(a) == [("1", 0)] and a.entries()[0]["name"] == odd["name"]


def test_a_replay_is_older_on_either_receiver(nodes):
    """The order (signed timestamp, seq) of a device's latest snapshot is the store's: a replay to
    the other receiver cannot turn the board back; a restarted device's later timestamp can."""
    _, (a, b) = nodes
    assert put(a, "u-lva-1", 100, table(LVA, "1", seq=5, points=9))
    assert not put(b, "u-lva-1", 100, table(LVA, "1", seq=5, points=9))
    assert not put(b, "u-lva-1", 100, table(LVA, "1", seq=4, points=1))
    assert not put(b, "u-lva-1", 99, table(LVA, "1", seq=40, points=1))
    assert shown(a) == shown(b) == [("1", 9)]
    assert put(b, "u-lva-1", 101, table(LVA, "1", seq=0, points=0))
    assert shown(a) == shown(b) == [("1", 0)]


def test_a_table_not_heard_from_expires(nodes, store_place):
    """On every receiver: the one that took it, one that had shown it, one started afterwards."""
    clock, (a, b) = nodes
    put(a, "u-lva-1", 100, table(LVA, "1"))
    assert shown(b) == [("1", 0)]
    clock.advance(59)
    assert shown(a) == shown(b) == [("1", 0)]
    clock.advance(2)
    later = Store(store_place, clock=clock)
    try:
        assert shown(a) == shown(b) == shown(LiveBoard(Receiver(later), expiry=60)) == []
    finally:
        later.close()


def test_one_device_holds_at_most_two_tables_on_the_board(nodes):
    """A device posting snapshots of table after table, to either receiver, moves its own older
    tables off the stored board: it shows its latest two, another device's table stays."""
    _, (a, b) = nodes
    put(b, "u-koule-1", 1, table(KOULE, "9"))
    for n in range(1, 21):
        put((a, b)[n % 2], "u-lva-1", n, table(LVA, f"t{n}"))
    assert TABLES_PER_DEVICE == 2
    assert [name for name, _ in shown(a)] == [name for name, _ in shown(b)] == ["9", "t19", "t20"]
    _, _, stored = a.receiver.store.live.since(-1)
    assert stored == {(KOULE, "9"), (LVA, "t19"), (LVA, "t20")}


def test_stale_tables_leave_the_board_as_snapshots_arrive_with_no_viewer(nodes):
    clock, (a, b) = nodes
    put(a, "u-koule-1", 1, table(KOULE, "9"))
    clock.advance(61)
    put(b, "u-lva-1", 2, table(LVA, "1"))
    _, _, stored = a.receiver.store.live.since(-1)
    assert stored == {(LVA, "1")} and shown(a) == shown(b) == [("1", 0)]


def test_a_removed_devices_tables_leave_every_board_at_once(nodes):
    """Audit report 11: a device removed (`server remove-device`) is not shown as playing for the
    rest of its tables' expiry: its tables leave the stored board and every receiver's copy;
    another device's table stays."""
    _, (a, b) = nodes
    put(a, "u-koule-1", 1, table(KOULE, "9"))
    put(a, "u-lva-1", 2, table(LVA, "1"))
    put(b, "u-lva-1", 3, table(LVA, "2"))
    assert shown(a) == shown(b) == [("9", 0), ("1", 0), ("2", 0)]
    b.receiver.store.devices.remove("u-lva-1")
    assert shown(a) == shown(b) == [("9", 0)]
    _, _, stored = a.receiver.store.live.since(-1)
    assert stored == {(KOULE, "9")}


def test_a_snapshot_posted_to_one_receiver_reaches_a_stream_on_the_other(store_place):
    """Receivers A and B on one database: a device's snapshots posted to A — its third table
    moving its first off — reach a stream open on B, and /live is the same from both."""
    stores = [register_devices(Store(store_place)), Store(store_place)]
    try:
        with serving(Receiver(stores[0])) as a, serving(Receiver(stores[1])) as b:
            events = Events(b.port)
            try:
                assert events.next() == ("tables", [])
                for n in (1, 2, 3):
                    body = snap(LVA, table=str(n), seq=n, points=(n, 0))
                    assert post_live(a.port, body, signer("u-lva-1").sign(body).headers())[0] == 200
                board = follow(events, {}, lambda board: sorted(board) == [(LVA, "2"), (LVA, "3")]
                               and board[(LVA, "3")]["summary"]["players"]["a"]["points"] == 3)
            finally:
                events.close()
            pages = [page_state(Client(port).get("/live")[1]) for port in (a.port, b.port)]
    finally:
        for store in stores:
            store.close()
    assert pages[0] == pages[1] == [board[key] for key in sorted(board)]
