"""The receiver reads the time only through its injected clock (clock/): stamps and freshness."""
from datetime import datetime

from clock import ManualClock
from server.ingest.receiver import Receiver
from server.storage.store import Store


def test_stamps_and_the_signature_window_come_from_the_injected_clock(tmp_path):
    clock = ManualClock(datetime(2026, 3, 4, 19, 0))
    store = Store(tmp_path / "league.sqlite", clock=clock)
    try:
        store.devices.add("u-lva-1", b"x" * 30, venue="Hostinec U Lva")
        store.refusals.log(via="http", remote=None, device=None, item_id=None, status=401, reason="r")
        assert store.devices.all()[0]["added"] == "2026-03-04T19:00:00+00:00"
        assert store.refusals.latest()[0]["at"] == "2026-03-04T19:00:00+00:00"
        assert Receiver(store)._answer(200, "stored", "x", "stored")["server_time"] == clock.time()
    finally:
        store.close()
