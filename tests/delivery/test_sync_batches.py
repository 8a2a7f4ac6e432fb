"""A backlog goes to the receiver in batches (delivery/sync.py, ``HttpTransport.send_many``, the
receiver's /api/v1/batch): fewer requests and commits, every item still answered on its own,
exactly once; an older receiver without batches gets them one at a time."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import carom_samples
from delivery.outbox import Outbox
from delivery.sync import Syncer
from delivery.transport_http import HttpTransport
from sync_helpers import DEVICE, SECRET, FakeClock, assert_exactly_once, drain, queue, records_url
from wire.signing import Signer


def counting(transport: HttpTransport) -> list:
    """Each batch ``transport`` sends, as the number of its items."""
    sent, send_many = [], transport.send_many

    def counted(bodies):
        sent.append(len(bodies))
        return send_many(bodies)

    transport.send_many = counted
    return sent


def test_a_backlog_goes_in_batches_each_item_once(tmp_path, sync_server, sync_store):
    outbox = queue(tmp_path / "outbox", 7)
    transport = HttpTransport(records_url(sync_server.port), Signer(DEVICE, SECRET), timeout=5)
    batches = counting(transport)
    clock = FakeClock()
    drain(Syncer(outbox, transport, clock=clock, batch=3), clock, outbox)
    assert batches == [3, 3] and sync_store.items.count() == 7      # the seventh alone, as a single post
    assert_exactly_once(outbox, sync_store, 7)


def test_an_item_refused_for_good_in_a_batch_is_set_aside_and_the_rest_delivered(tmp_path, sync_server, sync_store):
    outbox = queue(tmp_path / "outbox", 3)
    text, summary = carom_samples.partie("p-3", "A", "B", seed=4, points_limit=20, innings_limit=3)
    outbox.add("p-3", "partie", text, {**summary, "players": {}})       # does not replay to its summary
    clock = FakeClock()
    syncer = Syncer(outbox, HttpTransport(records_url(sync_server.port), Signer(DEVICE, SECRET), timeout=5),
                    clock=clock, batch=4)
    assert syncer.step() == 0.0
    assert [item.id for item in outbox.held()] == ["p-3"] and outbox.pending() == []
    assert sorted(r["id"] for r in sync_store.items.all()) == ["p-0", "p-1", "p-2"]
    assert "422" in syncer.status()["last_error"]


def test_a_wrong_device_clock_in_a_batch_is_corrected_from_the_receivers_time(tmp_path, sync_server, sync_store):
    """A Pi booted in 1970 sends its backlog: every item is answered 401 (stale), the syncer adopts
    the receiver's time and sends the batch again, at once."""
    outbox = queue(tmp_path / "outbox", 3)
    signer = Signer(DEVICE, SECRET, clock=lambda: 86400.0)
    syncer = Syncer(outbox, HttpTransport(records_url(sync_server.port), signer, timeout=5), batch=3)
    assert syncer.step() == 0.0
    assert_exactly_once(outbox, sync_store, 3)


class OlderReceiver(BaseHTTPRequestHandler):
    """A receiver that answers ``batch_status`` to /api/v1/batch (404: from before batches),
    "stored" for any item posted alone."""
    posts: list = []
    batch_status = 404

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.posts.append(self.path)
        if self.path != "/api/v1/records":
            return self._answer(self.batch_status, {"code": self.batch_status, "status": "refused", "reason": "no"})
        self._answer(200, {"code": 200, "status": "stored", "id": json.loads(body)["id"]})

    def _answer(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


B, R = "/api/v1/batch", "/api/v1/records"


@pytest.mark.parametrize("batch_status, posts", [
    (404, [B, R, R, R, R]),                 # no batches from this receiver: never asked again
    (405, [B, R, R, R, R]),
    (400, [B, R, B, R, B, R, R]),           # this batch refused whole: the oldest alone, then a batch again
    (413, [B, R, B, R, B, R, R]),
])
def test_a_receiver_refusing_a_batch_gets_the_items_one_at_a_time(tmp_path, batch_status, posts):
    outbox = queue(tmp_path / "outbox", 4)
    OlderReceiver.posts, OlderReceiver.batch_status = [], batch_status
    older = ThreadingHTTPServer(("127.0.0.1", 0), OlderReceiver)
    threading.Thread(target=older.serve_forever, daemon=True).start()
    try:
        clock = FakeClock()
        syncer = Syncer(outbox, HttpTransport(records_url(older.server_port), Signer(DEVICE, SECRET), timeout=5),
                        clock=clock)
        drain(syncer, clock, outbox)
    finally:
        older.shutdown()
        older.server_close()
    assert OlderReceiver.posts == posts
    assert Outbox(tmp_path / "outbox").pending() == [] and len(outbox.delivered_ids()) == 4
