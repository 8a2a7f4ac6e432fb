"""A key pressed at the device reaches the league's /live board: the emulator player's service,
its live snapshots signed and posted over HTTP, the receiver on 127.0.0.1 (issue 15 part 2)."""
import pytest

from delivery.live_push import LivePusher
from delivery.transport_http import HttpTransport
from firmware_host.live.push import SnapshotFeed
from league_live_helpers import Events
from server.http_server import ReceiverServer
from server.receiver import Receiver
from server.store import Store
from wire.signing import Signer

pytestmark = pytest.mark.e2e

DEVICE, SECRET, VENUE = "lva-table-1", b"live-test-secret-0123456789", "Hospoda U Lva"
START_PARTIE = "\n1\n\n"


@pytest.fixture
def league(tmp_path):
    store = Store(str(tmp_path / "league.sqlite"))
    store.add_device(DEVICE, SECRET, venue=VENUE)
    server = ReceiverServer(("127.0.0.1", 0), Receiver(store))
    server.start()
    yield server
    server.shutdown()
    server.server_close()
    store.close()


def connect(player, port: int) -> LivePusher:
    """The device's snapshots to the league, as ``pocitadlo run`` wires them with [live] push."""
    transport = HttpTransport(f"http://127.0.0.1:{port}/api/v1/live", Signer(DEVICE, SECRET), timeout=2)
    pusher = LivePusher(transport, interval=0.05)
    feed = SnapshotFeed(pusher, {"venue": VENUE, "table": "1"}, player.service)
    player.service.observers.append(feed.observe)
    feed.observe(player.service.display.model)
    return pusher


def next_table(events, condition):
    for _ in range(100):
        name, data = events.next()
        if name == "table" and condition(data):
            return data
    raise AssertionError("no such table event in 100 events")


def test_a_key_at_the_device_reaches_the_league_live_board(emulator, league):
    player = emulator(points_limit=30)
    pusher = connect(player, league.port)
    events = Events(league.port)
    try:
        assert events.next()[0] == "tables"
        player.play(START_PARTIE + "127")
        table = next_table(events, lambda t: t["view"] == "carom" and t["summary"]["players"]["a"]["points"] == 13)
        assert (table["venue"], table["table"]) == (VENUE, "1")
        assert table["summary"]["counter"]["at_table"] == "a"
    finally:
        events.close()
        pusher.stop()
    assert pusher.failed == 0
