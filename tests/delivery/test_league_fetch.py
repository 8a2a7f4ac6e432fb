"""The device's league fetch against a real local receiver (delivery/league_fetch.py, issue 16):
only the receiver's signed word for this request comes back; anything else is a clear reason."""
import http.client
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from delivery.league_fetch import FetchFailed, league_url
from league_fetch_helpers import LVA, fetcher_for, league_document, league_receiver
from wire.league import parse_document


@pytest.fixture
def receiver(tmp_path, evening):
    with league_receiver(tmp_path / "league.sqlite", evening, {LVA: league_document(evening.today())}) as running:
        yield running


@contextmanager
def relay(target_port: int, change):
    """An HTTP relay in front of the receiver (a captive portal, a meddling proxy): it forwards the
    request and returns ``change(status, headers, body)`` instead of the answer."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            conn = http.client.HTTPConnection("127.0.0.1", target_port, timeout=5)
            conn.request("GET", self.path, headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
            response = conn.getresponse()
            status, headers, body = change(response.status, dict(response.getheaders()), response.read())
            conn.close()
            self.send_response(status)
            for name, value in headers.items():
                if name.lower() not in ("content-length", "date", "server"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_league_url_sits_beside_the_records_url():
    assert league_url("https://liga.example.cz/api/v1/records") == "https://liga.example.cz/api/v1/league"


def test_the_device_fetches_and_verifies_its_venues_league(receiver, evening):
    server, source, _ = receiver
    answer = fetcher_for(server.port, evening).fetch()
    assert answer.venue == LVA and answer.document == parse_document(league_document(evening.today()))
    assert source.asked == [(LVA, evening.today())]


@pytest.mark.parametrize("change, reason", [
    (lambda s, h, b: (s, h, b.replace("Novák".encode(), "Nowak".encode())), "bad signature"),
    (lambda s, h, b: (200, {"Content-Type": "text/html"}, b"<html>Log in to the hotel Wi-Fi</html>"),
     "not signed by the receiver"),
    (lambda s, h, b: (s, {**h, "x-pocitadlo-nonce": "0" * 32}, b), "replayed answer"),
    (lambda s, h, b: (s, {**h, "x-pocitadlo-timestamp": str(int(h["x-pocitadlo-timestamp"]) - 3600)}, b),
     "stale answer"),
    (lambda s, h, b: (503, {}, b"busy"), "refused: 503"),
])
def test_an_altered_or_foreign_answer_is_a_clear_reason(receiver, evening, change, reason):
    server, _, _ = receiver
    with relay(server.port, change) as port:
        with pytest.raises(FetchFailed, match=reason):
            fetcher_for(port, evening).fetch()


def test_a_device_with_a_wrong_clock_learns_the_receivers_time_and_fetches(receiver, evening):
    server, _, _ = receiver
    fetcher = fetcher_for(server.port, evening)
    fetcher.signer.offset = -2 * 3600            # a Pi without RTC booted two hours behind
    assert fetcher.fetch().venue == LVA
    assert abs(fetcher.signer.now() - evening.time()) < 60


def test_refusals_and_silence_are_reasons_not_tracebacks(receiver, evening, tmp_path):
    server, source, _ = receiver
    source.documents.clear()
    with pytest.raises(FetchFailed, match="404 no league data"):
        fetcher_for(server.port, evening).fetch()
    with pytest.raises(FetchFailed, match="unknown device"):
        fetcher_for(server.port, evening, device="u-stranger").fetch()
    closed = server.port
    server.shutdown()
    server.server_close()
    with pytest.raises(FetchFailed, match="no answer"):
        fetcher_for(closed, evening).fetch()
