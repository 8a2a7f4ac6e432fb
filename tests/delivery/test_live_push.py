"""Live snapshots leave the device coalesced (the latest wins), and a failed one is dropped."""
import threading

import pytest

from delivery.live_push import LivePusher, live_url
from wire.answer import TransportError

WAIT = 10.0       # a hang bound, not a speed test


class Transport:
    """Records each post; the first waits for ``release`` (a slow receiver); ``failing`` refuses."""

    def __init__(self, failing=False):
        self.posted, self.failing = [], failing
        self.release, self.entered, self.done = threading.Event(), threading.Event(), threading.Semaphore(0)

    def post(self, body):
        self.entered.set()
        assert self.release.wait(WAIT)
        self.posted.append(body)
        self.done.release()
        if self.failing:
            raise TransportError("receiver away")
        return 200, b'{"status": "shown"}'


def test_the_live_endpoint_is_beside_the_records_one():
    assert live_url("https://liga.example.cz/api/v1/records") == "https://liga.example.cz/api/v1/live"


def test_snapshots_offered_during_a_post_coalesce_to_the_latest():
    transport = Transport()
    pusher = LivePusher(transport, interval=0)
    try:
        pusher.offer(b"1")
        assert transport.entered.wait(WAIT)
        for body in (b"2", b"3", b"4"):
            pusher.offer(body)
        transport.release.set()
        assert transport.done.acquire(timeout=WAIT) and transport.done.acquire(timeout=WAIT)
    finally:
        pusher.stop()        # joins the thread: the second post is counted once stop returns
    assert transport.posted == [b"1", b"4"] and pusher.sent == 2


@pytest.mark.parametrize("pause, posted", [(0, [b"1", b"2"]), (3600, [b"1"])])
def test_a_failed_snapshot_is_dropped_and_the_next_waits_out_the_pause(pause, posted):
    transport = Transport(failing=True)
    transport.release.set()
    pusher = LivePusher(transport, interval=0, pause=pause)
    try:
        pusher.offer(b"1")
        assert transport.done.acquire(timeout=WAIT)
        pusher.offer(b"2")
        if pause == 0:
            assert transport.done.acquire(timeout=WAIT)
    finally:
        pusher.stop()
    assert transport.posted == posted and pusher.failed == len(posted) and pusher.sent == 0
