"""The web admin's sessions are kept by the receiver, not by the browser (server/site/admin_session.py):
logout, a restart (and so a new admin token) and an idle spell end them, a copied cookie dies with
its session, and a malformed cookie or CSRF field, whatever its bytes, is refused plainly — never
a 500 with a traceback."""
import logging

import pytest

from admin_http_helpers import TOKEN, AdminClient
from server.ingest.receiver import Receiver
from server.site.admin_session import IDLE, KEPT, LIFETIME, Sessions


@pytest.fixture
def store_place(tmp_path):
    """SQLite only: the sessions are the receiver's, whatever its database."""
    return str(tmp_path / "league.sqlite")


@pytest.fixture
def running(receiver, serving):
    with serving(receiver, admin_token=TOKEN) as server:
        yield server


def logged_in_client(port: int) -> AdminClient:
    admin = AdminClient(port)
    assert admin.login()[0] == 303 and admin.get("/admin")[0] == 200
    return admin


@pytest.mark.parametrize("cookie", [
    b"pocitadlo_admin=\xc3\xa9.abc",                      # UTF-8 bytes: text that is not ASCII
    b"pocitadlo_admin=\xff\xfe",                          # not even UTF-8
    b"pocitadlo_admin=" + "ř".encode() * 600,             # long and not ASCII
    b"pocitadlo_admin=abc.\xe2\x80\x8f",
])
def test_a_malformed_session_cookie_is_no_session_never_a_500(running, cookie, caplog):
    form = {"Content-Type": "application/x-www-form-urlencoded"}

    def sent(method, path, body=None, headers=None):
        return AdminClient(running.port).request(method, path, body, {"Cookie": cookie, **(headers or {})})[0]

    with caplog.at_level(logging.WARNING):
        statuses = [sent("GET", "/admin"), sent("GET", "/admin/login"),
                    sent("POST", "/admin/season", b"csrf=x&name=2026/27", form),
                    sent("POST", "/admin/logout", b"csrf=x", form),
                    sent("POST", "/admin/login", b"csrf=x&token=" + TOKEN.encode(), form)]
    assert statuses == [303, 200, 303, 403, 403]
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("csrf", ["%C3%A9", "%C5%99" * 40, "\u00e9".encode("latin-1").hex()])
def test_a_csrf_field_that_is_not_ascii_is_refused_403(running, csrf, caplog, store):
    admin = logged_in_client(running.port)
    with caplog.at_level(logging.WARNING):
        status, page, _ = admin.post("/admin/season", {}, raw=f"csrf={csrf}&name=2026/27".encode())
        login_status = AdminClient(running.port).post("/admin/login", {}, raw=f"csrf={csrf}&token=x".encode())[0]
    assert status == 403 and "Bezpečnostní kód formuláře nepatří k vašemu přihlášení" in page and login_status == 403
    assert store.league.seasons() == [] and not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_logout_ends_the_session_and_its_copied_cookie(running):
    """A cookie copied before the logout (another tab, a stolen copy) is refused after it."""
    admin = logged_in_client(running.port)
    copied = admin.cookie
    assert admin.post("/admin/logout", {})[0] == 303
    admin.cookie = copied
    assert admin.get("/admin")[0] == 303
    status, _, _ = admin.post("/admin/season", {"name": "2026/27"})
    assert status == 303


def test_a_restart_ends_every_session(store, serving):
    """A new admin token is read at the start: the sessions of the process before end with it."""
    with serving(Receiver(store), admin_token=TOKEN) as server:
        admin = logged_in_client(server.port)
    with serving(Receiver(store), admin_token=TOKEN) as server:
        admin.port = server.port
        assert admin.get("/admin")[0] == 303


def test_a_login_starts_a_new_session_not_the_one_before(clock):
    """Session fixation: the cookie a visitor had before logging in is not the admin's."""
    sessions = Sessions(clock)
    visitor = sessions.new(admin=False)
    admin = sessions.logged_in(visitor)
    assert admin["id"] != visitor["id"] and admin["csrf"] != visitor["csrf"]
    assert sessions.get(visitor["id"]) is None and sessions.get(admin["id"])["admin"]


def test_a_session_ends_after_an_idle_spell_and_at_its_lifetime(clock):
    sessions = Sessions(clock)
    idle = sessions.new(admin=True)
    clock.advance(IDLE + 1)
    assert sessions.get(idle["id"]) is None
    start, busy = clock.time(), sessions.new(admin=True)
    for _ in range(2 * LIFETIME // IDLE + 2):           # used every half idle spell
        clock.advance(IDLE // 2)
        if sessions.get(busy["id"]) is None:
            break
    assert LIFETIME <= clock.time() - start < LIFETIME + IDLE


def test_visitors_cannot_fill_the_sessions_nor_push_the_admin_out(clock):
    sessions = Sessions(clock)
    admin = sessions.logged_in(sessions.new(admin=False))
    for _ in range(3 * KEPT):
        sessions.new(admin=False)
    assert len(sessions) <= KEPT and sessions.get(admin["id"])["admin"]
