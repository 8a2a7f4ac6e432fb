"""Finding 6: an aborted client costs no traceback; every answer carries nosniff."""
import logging
import socket
import struct

import pytest

from conftest import Client


@pytest.mark.postgresql_once
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


HTML_PAGES = ["/", "/table.html", "/table-8ball.html", "/matches/KD-1.html", "/schedule", "/players.html",
              "/rankings.html", "/players/Lvi%20hr%C3%A1%C4%8D%201.html", "/teams/Lvi.html", "/rules.html", "/live",
              "/admin/login", "/nowhere.html"]


def headers_of(client, method: str, path: str) -> tuple[int, dict]:
    status, headers, _ = client.request(method, path)
    return status, {k.lower(): v for k, v in headers.items()}


def test_every_html_page_has_a_content_security_policy(client, items):
    """No page may load, frame or run what it does not name, kept pages (built once, answered
    from memory) as much as the others, and a 404 too."""
    for body in items():
        assert client.post(body)[0] == 200
    for _ in range(2):                  # built, then kept
        for path in HTML_PAGES:
            status, headers = headers_of(client, "GET", path)
            policy = headers.get("content-security-policy", "")
            assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, (path, status)
            assert status == (404 if path == "/nowhere.html" else 200), path


@pytest.mark.postgresql_once
@pytest.mark.parametrize("method, path", [("GET", "/admin"), ("GET", "/admin/login"), ("POST", "/admin/logout"),
                                          ("POST", "/admin/season")])
def test_the_admin_is_never_cached(client, method, path):
    status, headers = headers_of(client, method, path)
    assert headers["cache-control"] == "no-store", (status, headers)


@pytest.mark.parametrize("method, path", [("POST", "/table.json"), ("DELETE", "/matches/KD-1.json"),
                                          ("PUT", "/api/v1/records")])
def test_a_method_not_allowed_says_which_are(client, method, path):
    status, headers = headers_of(client, method, path)
    assert status == 405 and headers["allow"]
    assert set(headers["allow"].replace(" ", "").split(",")) >= ({"POST"} if method == "PUT" else {"GET"})


def test_over_tls_every_answer_asks_for_tls_next_time(receiver, serving, tmp_path):
    import http.client
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    with serving(receiver, certfile=str(cert), keyfile=str(key)) as server:
        for path in ("/table.json", "/table.json", "/nowhere"):
            conn = http.client.HTTPSConnection("127.0.0.1", server.port, timeout=30,
                                               context=ssl._create_unverified_context())
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                assert response.getheader("strict-transport-security") == "max-age=31536000", path
            finally:
                conn.close()
    with serving(receiver) as plain:
        status, headers = headers_of(Client(plain.port), "GET", "/table.json")
        assert "strict-transport-security" not in headers
