"""deploy/Caddyfile as shipped, run by Debian's Caddy in front of a receiver (docs/server.md, "On
the internet: behind Caddy"): HSTS on every answer, compression on the public pages but never on
the admin's, whose pages carry the CSRF token (BREACH)."""
import http.client

import pytest
from caddy_helpers import caddy_in_front

TOKEN = "organiser-admin-token-0123456789"

pytestmark = pytest.mark.slow


@pytest.fixture
def store_place(tmp_path):
    return str(tmp_path / "league.sqlite")


def fetched(port: int, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()


def test_behind_the_shipped_caddyfile_hsts_everywhere_and_no_compression_on_the_admin(receiver, serving, tmp_path):
    with serving(receiver, admin_token=TOKEN, proxies=["127.0.0.1"]) as server, \
            caddy_in_front(tmp_path, "Caddyfile", {"127.0.0.1:8080": server.port}) as port:
        answers = {path: fetched(port, path) for path in ("/table.html", "/rules.html", "/admin/login", "/admin")}
    for path, (_, headers) in answers.items():
        assert headers["strict-transport-security"].startswith("max-age="), path
    assert answers["/rules.html"][1].get("content-encoding") == "gzip"          # a public page: compressed
    for path in ("/admin/login", "/admin"):
        status, headers = answers[path]
        assert status in (200, 303) and "content-encoding" not in headers, (path, headers)
    assert answers["/admin/login"][1]["cache-control"] == "no-store"
