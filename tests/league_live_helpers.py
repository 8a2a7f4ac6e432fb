"""Snapshots for the league's live board, and a bounded /live/events reader (live_helpers.Viewer)."""
import json
from typing import Any

import pytest

from delivery.live_push import LivePusher
from delivery.transport_http import HttpTransport
from firmware_host.live.push import SnapshotFeed
from live_helpers import START_PARTIE, Viewer  # noqa: F401 — for the league's tests
from rules.board import Board
from server.http_server import ReceiverServer
from server.ingest.receiver import Receiver
from server.storage.store import Store
from sync_helpers import post_json
from wire.live import snapshot
from wire.signing import Signer


def carom_view(a="Novák", b="Dvořák", points=(3, 1), inning=2, finished=False) -> dict:
    summary = {"game": "carom", "finished": finished, "result": None, "forfeit": None, "innings_limit": 15,
               "players": {"a": {"name": a, "points": points[0], "best_series": 3},
                           "b": {"name": b, "points": points[1], "best_series": 1}},
               "counter": {"at_table": "a", "inning": inning, "series": 0, "points_left": {"a": 1, "b": 1}}}
    return {"view": "carom", "summary": summary, "match": None}


def played(commands, a="Novák", b="Dvořák", *, game="carom", **header) -> dict:
    """The live view of a partie (carom: to 20 in 3 innings) or an 8-ball match (2 games a set, 1 set)
    after ``commands``, the rule core's own summary."""
    limits = {"points_limit": 20, "innings_limit": 3} if game == "carom" else {"games_to_win": 2, "sets_to_win": 1}
    board = Board({"game": game, "id": "live-x", "a": a, "b": b, **limits, **header})
    for command in commands:
        board.push(command)
    return {"view": game, "summary": board.summary(), "match": None}


def score(value: int) -> dict:
    return {"cmd": "score", "value": value}


MISS = {"cmd": "miss"}


def forfeit(by: str) -> dict:
    return {"cmd": "forfeit", "by": by}


# the four partie of RULES 1.7's facts: B at the table on a series of 3 (A 1 point in 1 inning, B 3 in
# none), B's equalising inning (A reached 20 in the first), A forfeits leading 10:1, a 20:20 draw
PLAYED = {"mid": [score(1), MISS, score(2), score(1)], "equalising": [score(10), score(10)],
          "forfeit": [score(10), MISS, score(1), MISS, forfeit("a")], "draw": [score(20), score(20)]}


def snap(venue: str, table="1", seq=1, record=None, **view) -> bytes:
    return snapshot(venue=venue, table=table, seq=seq, view=carom_view(**view), record=record)


def post_snapshot(port: int, body: bytes, headers: dict) -> tuple[int, dict]:
    """POST a snapshot to the league's /api/v1/live; (status, the JSON answer)."""
    return post_json(port, "/api/v1/live", body, headers)


def page_state(html: bytes) -> list:
    """The list embedded in /live (the page's first state)."""
    text = html.decode()
    start = text.index('<script id="live-data" type="application/json">') + len('<script id="live-data" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)])


class Events(Viewer):
    """A /live/events client on a raw socket: ``next()`` is (event name, data) of the next event."""

    def __init__(self, port: int, *, source: str | None = None):
        super().__init__(("127.0.0.1", port), path="/live/events", source=source)

    def next(self) -> tuple[str, object]:
        fields = self.next_event()
        return fields["event"], json.loads(fields["data"])


def follow(events: Events, board: dict, done) -> dict:
    """``board`` ((venue, table) -> entry) kept by the stream's events until ``done(board)``;
    every read bounded by the viewer's socket timeout."""
    while not done(board):
        name, data = events.next()
        entries: Any = data
        if name == "tables":
            board = {(entry["venue"], entry["table"]): entry for entry in entries}
        elif name == "table":
            board[(entries["venue"], entries["table"])] = entries
        elif name == "gone":
            board.pop((entries["venue"], entries["table"]), None)
    return board


DEVICE, SECRET, VENUE = "lva-table-1", b"live-test-secret-0123456789", "Hospoda U Lva"


@pytest.fixture
def league(tmp_path):
    """The league's receiver on 127.0.0.1 with DEVICE registered for VENUE (import it as a fixture)."""
    store = Store(str(tmp_path / "league.sqlite"))
    store.devices.add(DEVICE, SECRET, venue=VENUE)
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
