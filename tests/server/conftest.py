"""Shared fixtures of the receiver's tests: a store with devices of two venues, the receiver,
and it served over HTTP on 127.0.0.1."""
import http.client
import json
import logging
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

import carom_samples
from admin_http_helpers import TOKEN, AdminClient
from clock import ManualClock
from delivery.outbox import item_body
from server.http_server import ReceiverServer
from server.ingest.receiver import Receiver
from server.site.access import RefusalLimiter
from server.storage.store import Store
from wire.signing import Signer

LVA, KOULE = "Hostinec U Lva", "Hospoda U Koule"          # carom_samples.match's and carom_samples.eightball_match's venues
SECRETS = {"u-lva-1": b"lva-secret-0123456789abcdef", "u-koule-1": b"koule-secret-0123456789abcd",
           "u-nowhere": b"nowhere-secret-0123456789ab", "gw-lva": b"gateway-secret-0123456789ab"}


@pytest.fixture(autouse=True)
def _receiver_loggers_as_found():
    """The receiver's loggers' filters as before the test: ``pocitadlo serve`` run in the test's
    process (``main(["serve", ...])``) quietens them for the rest of the process, and a Quieter
    left there would hold back the later tests' lines, counted over their real minutes."""
    from server.quiet_logs import LOGGERS

    loggers = [logging.getLogger(name) for name in LOGGERS]
    found = [list(logger.filters) for logger in loggers]
    yield
    for logger, filters in zip(loggers, found):
        logger.filters[:] = filters


def signer(device: str) -> Signer:
    return Signer(device, SECRETS[device])


def _started(pgserver, pgdata, tries: int = 6):
    """pgserver's server on ``pgdata``. Its ``pg_ctl start`` waits at most 10 s, which a loaded
    machine can exceed while the server is still coming up: asking again finds it running (or
    starts it), so a slow start is waited for instead of failing the session."""
    import subprocess

    for attempt in range(tries):
        try:
            return pgserver.get_server(pgdata, cleanup_mode="stop")
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            if attempt == tries - 1:
                raise


def _data_directory() -> Path:
    """The server's folder, beside pytest's per-user one, not in it: run as root, pgserver runs
    PostgreSQL as a user of its own, and every pytest session that starts makes its per-user
    folder private again (mode 0700), so a second suite started on the machine cut a running
    session's server off its own files (PANIC: pg_control, Permission denied)."""
    return Path(tempfile.mkdtemp(prefix="pocitadlo-pg-", dir=os.environ.get("PYTEST_DEBUG_TEMPROOT")))


@pytest.fixture(scope="session")
def postgresql():
    """A real PostgreSQL server for the session (pgserver ships its binaries); yields a function
    that makes a fresh, empty database and returns its SQLAlchemy URL."""
    import itertools

    import pgserver
    import sqlalchemy as sa

    pgdata = _data_directory()
    server = _started(pgserver, pgdata)
    base = server.get_uri().replace("postgresql://", "postgresql+psycopg://", 1)
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:       # a throwaway cluster: no flushes to disk, in a busy suite,
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.exec_driver_sql(f"ALTER SYSTEM SET {setting} = off")
        conn.exec_driver_sql("ALTER SYSTEM SET max_wal_size = '96MB'")    # and its log small: it may be in memory
        conn.exec_driver_sql("SELECT pg_reload_conf()")
    numbers = itertools.count()

    def url(name: str) -> str:
        return base.replace("/postgres?", f"/{name}?", 1)

    def fresh_database(migrated: bool = True) -> str:
        """A new database: a copy of one the migrations made once (Alembic's run per test was a
        fifth of the PostgreSQL tests' time), or with ``migrated=False`` an empty one."""
        name = f"league_{next(numbers)}"
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {name}" + (" TEMPLATE league_migrated" if migrated else ""))
        return url(name)

    def drop(place: str) -> None:
        """Drop a database fresh_database made (~8 MB each: a session makes hundreds)."""
        name = place.split("?", 1)[0].rsplit("/", 1)[1]
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    fresh_database.drop = drop      # type: ignore[attr-defined]

    with admin.connect() as conn:
        conn.exec_driver_sql("CREATE DATABASE league_migrated")
    Store(url("league_migrated")).close()      # its connections closed: a template must have none
    yield fresh_database
    admin.dispose()
    server.cleanup()
    shutil.rmtree(pgdata, ignore_errors=True)


def _place(request, tmp_path, *, migrated: bool) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "league.sqlite")
    databases = request.getfixturevalue("postgresql")
    place = databases(migrated=migrated)
    request.addfinalizer(lambda: databases.drop(place))
    return place


@pytest.fixture(params=["sqlite", "postgresql"])
def store_place(request, tmp_path):
    """Where the store lives: a SQLite file, or a database on the session's PostgreSQL server."""
    return _place(request, tmp_path, migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_store_place(request, tmp_path):
    """Where a store is yet to be made (a migration test's older store): a new SQLite file, or an
    empty database on the session's PostgreSQL server (not a copy of the migrated one)."""
    return _place(request, tmp_path, migrated=False)


def register_devices(s: Store) -> Store:
    """The devices of the receiver's tests: one of each venue, one of none, a gateway."""
    s.devices.add("u-lva-1", SECRETS["u-lva-1"], venue=LVA)
    s.devices.add("u-koule-1", SECRETS["u-koule-1"], venue=KOULE)
    s.devices.add("u-nowhere", SECRETS["u-nowhere"])
    s.devices.add("gw-lva", SECRETS["gw-lva"], role="gateway")
    return s


@pytest.fixture
def store(store_place):
    s = register_devices(Store(store_place))
    yield s
    s.close()


@pytest.fixture
def carom_league(store):
    """The store with league_admin_helpers' league, its carom schedule drawn, its clock before the
    season (A.3.3 refuses a day in the past: the tests do not depend on the day they run)."""
    from league_admin_helpers import SEASON, before_the_season, set_up_league

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    return store


@pytest.fixture
def receiver(store):
    return Receiver(store)


@contextmanager
def serving(receiver, **options):
    server = ReceiverServer(("127.0.0.1", 0), receiver, **options)
    server.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(name="serving")
def serving_fixture():
    """``serving(receiver, **options)``: the receiver on 127.0.0.1 for the duration of a block."""
    return serving


@pytest.fixture
def server(receiver):
    with serving(receiver) as srv:
        yield srv


@pytest.fixture
def admin_port(receiver):
    """The port of the receiver served with the web admin on (admin_http_helpers.TOKEN)."""
    limiter = RefusalLimiter(clock=ManualClock(0.0).monotonic)      # no refill, however slow the machine
    with serving(receiver, admin_token=TOKEN, limiter=limiter) as srv:
        yield srv.port


@pytest.fixture
def admin(admin_port):
    """A browser-like client of the web admin (tests/admin_http_helpers.py), not logged in."""
    return AdminClient(admin_port)


@pytest.fixture
def logged_in(admin):
    return admin.enter()


@pytest.fixture
def logged_in_english(admin_port):
    """The organiser, logged in, reading the admin in English (the ``lang`` cookie)."""
    return AdminClient(admin_port, language="en").enter()


class Client:
    """Plain HTTP/1.1 requests to the receiver on 127.0.0.1 (each on its own connection)."""

    def __init__(self, port: int):
        self.port = port

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)   # a net for a hang, not a speed bound
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path: str):
        status, _, data = self.request("GET", path)
        return status, data

    def post(self, body: bytes, device: str = "u-lva-1"):
        status, _, data = self.request("POST", "/api/v1/records", body, signer(device).sign(body).headers())
        return status, json.loads(data)


@pytest.fixture
def client(server):
    return Client(server.port)


def match_items(match_id="KD-1", seed=1, home="Lvi", away="Orli", points_limit=20, innings_limit=3, **options):
    """A carom league match (carom_samples.match) as item bodies: four partie, then the match item."""
    played, (mid, mtext, msummary) = carom_samples.match(match_id, home, away, seed=seed, points_limit=points_limit,
                                                   innings_limit=innings_limit, **options)
    return [item_body(pid, "partie", text, summary) for pid, text, summary in played] + \
        [item_body(mid, "match", mtext, msummary)]


@pytest.fixture
def items():
    return match_items


@pytest.fixture
def sign():
    return signer


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    """The demo league of tests/site_helpers.py served on 127.0.0.1 (a Site)."""
    from site_helpers import serve_demo

    with serve_demo(tmp_path_factory.mktemp("site")) as served:
        yield served
