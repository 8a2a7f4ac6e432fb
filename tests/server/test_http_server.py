"""Stopping the served receiver (server/http_server.py stops without uvicorn's fixed pauses): an
idle kept-alive connection is closed, an answer being received is still answered in full, and
the server's thread ends."""
import socket
import threading
import time

import pytest

DEADLINE = 30.0     # a hang bound, not a timing


@pytest.fixture
def store_place(tmp_path):          # HTTP only: one database kind is enough
    return str(tmp_path / "league.sqlite")


def _wait_for(condition) -> None:
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, "the condition was never met"
        time.sleep(0.005)


def _read_answer(sock: socket.socket) -> bytes:
    """One whole HTTP answer (its headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed inside the answer's headers: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed inside the answer's body"
        body += chunk
    return head + b"\r\n\r\n" + body


def _stopping(server) -> threading.Thread:
    stopper = threading.Thread(target=server.shutdown, daemon=True)
    stopper.start()
    _wait_for(lambda: not any(s.is_serving() for s in server._server.servers))
    return stopper


def test_stopping_closes_an_idle_kept_alive_connection(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE) as sock:
        sock.sendall(b"GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _read_answer(sock).startswith(b"HTTP/1.1 200")
        stopper = _stopping(server)
        assert sock.recv(1) == b""          # closed by the server, not left to time out
        stopper.join(DEADLINE)
        assert not stopper.is_alive()


def test_an_answer_being_received_when_told_to_stop_is_still_answered_in_full(server):
    body = b'{"not": "a signed item"}'
    with socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE) as sock:
        sock.sendall(b"POST /api/v1/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body[:5])
        stopper = _stopping(server)
        assert stopper.is_alive()           # it waits for the request under way
        sock.sendall(body[5:])
        answer = _read_answer(sock)
        assert answer.startswith(b"HTTP/1.1 4") and b"connection: close" in answer.lower()
        stopper.join(DEADLINE)
        assert not stopper.is_alive()
