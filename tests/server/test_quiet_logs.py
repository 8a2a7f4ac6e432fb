"""The receiver's log cannot be flooded (server/quiet_logs.py): lines of one kind (a warning or an
error with the same message template) are logged at most BURST times per INTERVAL, the rest
counted and said in the next line of that kind; a client that hangs up mid-form leaves no
traceback."""
import http.client
import logging
import socket
import struct

import pytest

from clock import ManualClock
from server import quiet_logs
from server.quiet_logs import BURST, INTERVAL, Quieter
from server.site.access import RefusalLimiter
from sync_helpers import post_json


@pytest.fixture
def store_place(tmp_path):
    return str(tmp_path / "league.sqlite")


@pytest.fixture
def quiet():
    """The receiver's loggers quietened as ``pocitadlo serve`` quietens them, for one test: by a
    Quieter of its own (one another test left on them would count this test's lines with its own)."""
    quieter = quiet_logs.install()
    assert all(logging.getLogger(name).filters == [quieter] for name in quiet_logs.LOGGERS)
    yield quieter
    quiet_logs.uninstall(quieter)


def record(msg: str, *args, level=logging.WARNING, name="pocitadlo.server") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_one_kind_of_line_passes_a_burst_per_interval_then_is_counted():
    clock = ManualClock(1000.0)
    quieter = Quieter(clock=clock.monotonic)
    passed = [quieter.filter(record("refused %s from %s", n, "10.0.0.1")) for n in range(BURST + 30)]
    assert passed == [True] * BURST + [False] * 30
    assert quieter.filter(record("another %s", 1))              # another kind has its own count
    clock.advance(INTERVAL)
    later = record("refused %s from %s", "x", "10.0.0.2")
    assert quieter.filter(later)
    assert later.getMessage() == f"refused x from 10.0.0.2 (and 30 more like it in the {INTERVAL:g} s before, not logged)"


def test_info_lines_are_never_held_back():
    quieter = Quieter(clock=ManualClock(0.0).monotonic)
    assert all(quieter.filter(record("stored %s", n, level=logging.INFO)) for n in range(BURST * 3))


def test_a_flood_of_refusals_from_many_addresses_logs_a_burst(receiver, serving, caplog, quiet):
    caplog.set_level(logging.INFO)
    limiter = RefusalLimiter(clock=ManualClock(0.0).monotonic)      # no refill, however slow the machine
    with serving(receiver, limiter=limiter) as server:
        for n in range(2, 8):                   # 6 addresses x 20 refusals before each is limited
            for _ in range(25):
                post_json(server.port, "/api/v1/records", b"{}", {}, source=f"127.0.0.{n}")
    lines = [r for r in caplog.records if r.name == "pocitadlo.server" and "refused" in r.getMessage()]
    assert len(lines) <= BURST
    assert receiver.store.refusals.report()["total"] == 120       # the refusal log still counts each
    assert limiter.limited == 30


def test_a_client_that_hangs_up_mid_form_leaves_no_traceback(receiver, serving, caplog):
    caplog.set_level(logging.DEBUG)
    with serving(receiver, admin_token="organiser-admin-token-0123456789") as server:
        for path in ("/admin/login", "/admin/logout", "/admin/season"):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         "Content-Length: 5000\r\n\r\ncsrf=abc&token=".encode())
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/admin/login")
        assert conn.getresponse().status == 200             # still serving, after all were handled
        conn.close()
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


def test_a_failure_repeated_by_a_client_writes_its_traceback_a_burst_of_times(receiver, serving, caplog, quiet,
                                                                              monkeypatch, items, sign):
    """A bug that answers 500 (here: every store fails) is logged with its traceback, but a
    client repeating it cannot write one per request."""
    def failing(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(receiver, "receive_posts", failing)
    caplog.set_level(logging.INFO)
    body = items()[0]
    with serving(receiver) as server:
        statuses = {post_json(server.port, "/api/v1/records", body, sign("u-lva-1").sign(body).headers())[0]
                    for _ in range(50)}
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert statuses == {500} and 1 <= len(tracebacks) <= BURST


def test_pocitadlo_serve_quietens_its_log(tmp_path, monkeypatch):
    """The product path: `pocitadlo serve` puts the Quieter on the receiver's loggers at start."""
    from cli.commands import serve
    from cli.main import main

    seen = []
    monkeypatch.setattr(serve, "_serve", lambda *args: seen.append(
        [f for f in logging.getLogger("pocitadlo.server").filters if isinstance(f, Quieter)]) or 0)
    try:
        assert main(["serve", "--db", str(tmp_path / "league.sqlite")]) == 0
        assert len(seen) == 1 and len(seen[0]) == 1
    finally:
        for quieter in seen[0] if seen else []:
            quiet_logs.uninstall(quieter)
