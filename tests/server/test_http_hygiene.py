"""Finding 6: an aborted client costs no traceback; every answer carries nosniff."""
import logging
import socket
import struct

import pytest


@pytest.mark.parametrize("path", ["/", "/table.json", "/table.html", "/matches/none.json", "/nowhere",
                                  "/api/v1/records/nope"])
def test_every_answer_says_nosniff(client, path):
    status, headers, _ = client.request("GET", path)
    assert {k.lower(): v for k, v in headers.items()}["x-content-type-options"] == "nosniff"


def test_a_post_answer_says_nosniff_and_what_it_is(client, items):
    status, headers, _ = client.request("POST", "/api/v1/records", items()[0], {})
    headers = {k.lower(): v for k, v in headers.items()}
    assert status == 401 and headers["x-content-type-options"] == "nosniff"
    assert headers["content-type"] == "application/json; charset=utf-8"


def _abort(port: int, request: bytes) -> None:
    """Send ``request`` and reset the connection at once, without reading the answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(request)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_clients_that_hang_up_mid_answer_leave_no_traceback(client, server, items, caplog):
    caplog.set_level(logging.DEBUG)
    body = items()[0]
    for _ in range(20):
        _abort(server.port, b"GET /table.html HTTP/1.1\r\nHost: x\r\n\r\n")
        _abort(server.port, b"POST /api/v1/records HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body)
               + body[:len(body) // 2])
        _abort(server.port, b"GET /tab")
    assert client.get("/table.json")[0] == 200          # still serving, after all of them were handled
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []
    assert "Traceback" not in caplog.text
