"""The receiver's own bound on a request's headers (server/guard.py): a header section too large
or with too many headers is answered 431 and the connection closed, before it is kept whole in
memory; a request within the bounds is served. And the guard runs only on the uvicorn versions it
was tested with (pyproject pins them)."""
import socket
from importlib.metadata import requires, version

import pytest

from server.guard import MAX_HEADER_BYTES, MAX_HEADERS, TESTED_UVICORN

HANG = 60          # seconds: only a hung receiver takes this long


@pytest.fixture
def store_place(tmp_path):
    return str(tmp_path / "league.sqlite")


def answer_to(port: int, chunks) -> bytes:
    """Send the chunks (stopping once the receiver has answered or closed); its answer's bytes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)
    try:
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        received = b""
        while True:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            received += data
        return received
    finally:
        sock.close()


def huge_header(size: int):
    yield b"GET /table.json HTTP/1.1\r\nHost: x\r\nX-Big: "
    for _ in range(size // 65536):
        yield b"a" * 65536
    yield b"\r\n\r\n"


def many_headers(count: int):
    yield b"GET /table.json HTTP/1.1\r\nHost: x\r\n"
    for n in range(0, count, 1000):
        yield b"".join(b"X-H%d: 1\r\n" % i for i in range(n, min(count, n + 1000)))
    yield b"\r\n"


def test_a_header_section_too_large_is_answered_431_and_closed(server):
    answer = answer_to(server.port, huge_header(8 << 20))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
    assert b"connection: close" in answer.lower()


def test_too_many_headers_are_answered_431(server):
    answer = answer_to(server.port, many_headers(100_000))
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]


def test_headers_within_the_bounds_are_served(server):
    cookie = b"Cookie: " + b"c" * (MAX_HEADER_BYTES // 2) + b"\r\n"
    extra = b"".join(b"X-H%d: 1\r\n" % n for n in range(MAX_HEADERS - 3))
    answer = answer_to(server.port, [b"GET /table.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + cookie
                                     + extra + b"\r\n"])
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]


def test_a_connection_serves_request_after_request_under_the_bound(server):
    """The bound is per request: a kept-alive connection's requests do not add up."""
    one = b"GET /table.json HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * (MAX_HEADER_BYTES // 3) + b"\r\n\r\n"
    last = one.replace(b"Host: x\r\n", b"Host: x\r\nConnection: close\r\n")
    answer = answer_to(server.port, [one] * 5 + [last])
    assert answer.count(b"HTTP/1.1 200 ") == 6, answer[:200]


def test_the_guard_runs_on_the_uvicorn_it_was_tested_with():
    """server/guard.py builds on uvicorn's HttpToolsProtocol, which is not a public interface:
    pyproject pins uvicorn to the versions the guard is tested with, and this names them."""
    installed = tuple(int(n) for n in version("uvicorn").split(".")[:2])
    assert TESTED_UVICORN[0] <= installed < TESTED_UVICORN[1]
    pins = [r for r in requires("pocitadlo") if r.startswith("uvicorn")]
    low, high = (".".join(map(str, v)) for v in TESTED_UVICORN)
    assert pins and all(f">={low}" in pin and f"<{high}" in pin for pin in pins), pins
