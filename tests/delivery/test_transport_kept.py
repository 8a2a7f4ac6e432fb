"""Posts one after the other share a connection (delivery/transport_http.py): a kept connection
within KEPT_FOR seconds, a new one after; a kept connection the receiver closed meanwhile costs
no failed attempt: the post goes again on a new connection, signed anew."""
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from delivery import transport_http
from delivery.transport_http import HttpTransport
from wire.signing import HEADER_NONCE, Signer


class Receiver:
    """A receiver answering each post "stored" for its item, noting (connection, nonce) of each;
    ``close_after``: it closes each connection after its answer, without saying so."""

    def __init__(self, close_after: bool = False):
        self.posts: list[tuple[int, str]] = []
        seen, numbers = self.posts, itertools.count()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                self.number = next(numbers)        # this connection's

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                seen.append((self.number, self.headers[HEADER_NONCE]))
                answer = json.dumps({"code": 200, "status": "stored", "id": json.loads(body)["id"],
                                     "reason": "stored"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                self.close_connection = close_after

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/v1/records"

    def connections(self) -> int:
        return len({connection for connection, _ in self.posts})

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def bodies():
    return [json.dumps({"id": f"p-{n}", "kind": "partie", "record": "", "summary": {}}).encode() for n in range(4)]


def delivered(receiver: Receiver, bodies) -> bool:
    """Whether ``bodies`` were each delivered, sent one after the other by one transport."""
    transport = HttpTransport(receiver.url, Signer("u-lva-1", b"secret-0123456789abcdef"), timeout=5)
    try:
        return all(transport.send(body).delivered for body in bodies)
    finally:
        transport.close()
        receiver.stop()


def test_posts_one_after_the_other_share_one_connection(bodies):
    receiver = Receiver()
    assert delivered(receiver, bodies)
    assert len(receiver.posts) == 4 and receiver.connections() == 1
    assert len({nonce for _, nonce in receiver.posts}) == 4


def test_a_connection_kept_longer_than_kept_for_is_not_used_again(bodies, monkeypatch):
    monkeypatch.setattr(transport_http, "KEPT_FOR", -1.0)
    receiver = Receiver()
    assert delivered(receiver, bodies)
    assert receiver.connections() == 4


def test_a_kept_connection_the_receiver_closed_costs_no_failed_attempt(bodies):
    receiver = Receiver(close_after=True)
    assert delivered(receiver, bodies)
    assert len(receiver.posts) == 4 and receiver.connections() == 4
