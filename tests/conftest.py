"""Fixtures shared by the suite: one clock per test, and a "tonight" built from it.

No test depends on today's date: the clock is a ManualClock on a fixed evening in its own zone, and
a league's fixtures are written relative to that clock's date (CI runs the suite again under a
shifted wall clock to prove it).
"""
import json
import os
import shutil
import signal
import sys
import time
from argparse import Namespace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from clock import ManualClock
from leagues import EXAMPLES, TONIGHTS, league_text

# Fixtures of the helper modules, for every test that names them (a receiver's store and server, a
# browser's page, the league of the live tests) without importing them by name.
pytest_plugins = ["sync_helpers", "browser_helpers", "league_live_helpers", "league_cli_helpers"]

# A suite started as a shell's background job inherits SIGINT ignored, and so would every program it
# starts: the Ctrl-C tests would see no Ctrl-C. Any handler here makes the programs start with the
# default one.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _temporary_files_in_memory(place: Path = Path("/dev/shm"), room: int = 4 << 30) -> None:
    """The suite's temporary files in memory where a roomy tmpfs is at hand: its stores and
    journals sync to the disk at every commit, and on a shared disk those syncs were a quarter of
    some tests' time. Nothing tested depends on a real disk's sync: the power-cut tests cut the
    writes themselves. Left as it is when PYTEST_DEBUG_TEMPROOT is set, or there is no such room
    (a container's 64 MB /dev/shm)."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or not os.access(place, os.W_OK):
        return
    if shutil.disk_usage(place).free >= room:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(place)


_temporary_files_in_memory()


def _bytecode_kept() -> None:
    """Compiled modules kept (``__pycache__``, ignored by git) even where the environment says
    PYTHONDONTWRITEBYTECODE, as this machine's does: without them each worker compiled every
    module again and rewrote every test module's asserts (8 s of its 10 s start), and so did every
    interpreter a test starts."""
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_kept()


def pytest_collection_modifyitems(config, items):
    """The modules with browser tests first, then those with slow tests, each in its own order:
    run in parallel, a slow test collected last (the site's browser sweeps take a minute) kept
    one worker busy while the others had nothing left to do. And of a test marked
    ``postgresql_once`` (cases of input refused before anything is stored: the same SQL in each)
    only the first case runs on PostgreSQL; every case runs on SQLite."""
    browser = {item.path for item in items if item.get_closest_marker("browser")}
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: (item.path not in browser, item.path not in slow))
    first, once = set(), []
    for item in items:
        if item.get_closest_marker("postgresql_once") and _database_kind(item) == "postgresql":
            test = (item.path, item.originalname)
            if test in first:
                once.append(item)
            first.add(test)
    if once:
        config.hook.pytest_deselected(items=once)
        dropped = set(once)
        items[:] = [item for item in items if item not in dropped]


def _database_kind(item) -> str | None:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return params.get("store_place", params.get("empty_store_place"))


CET = timezone(timedelta(hours=1), "CET")
EVENING = datetime(2026, 3, 4, 19, 30)           # a Wednesday; any date would do


@pytest.fixture
def clock():
    return ManualClock(EVENING, zone=CET)


class RunningClock(ManualClock):
    """The same fixed evening, but running in real time from when it was made: for tests whose
    threads and sockets wait for real (a syncer's backoff, a receiver's answer)."""

    def __init__(self, start: datetime, zone):
        super().__init__(start, zone)
        self._started = time.monotonic()

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return self._t + time.monotonic() - self._started


@pytest.fixture
def evening():
    return RunningClock(EVENING, zone=CET)


@pytest.fixture
def league_file(tmp_path, clock):
    """A factory: ``league_file(fixtures=…, name=…, teams=…, tonight=…)`` writes a league (the
    bundled league's teams unless ``teams`` are given, tonight's match at Hospoda U Lva unless
    other ``fixtures`` are) with its fixtures relative to ``tonight`` (by default the date of the
    test's clock); its path."""
    def write(fixtures=TONIGHTS, name="league.toml", teams=None, tonight=None) -> Path:
        path = tmp_path / name
        path.write_text(league_text(tonight or clock.today(), fixtures, teams), encoding="utf-8")
        return path
    return write


@pytest.fixture
def emulator(tmp_path, clock, league_file):
    """A factory of `pocitadlo emulate --keys` players on the bundled emulator config (carom or
    8-ball) with small limits, the test's league file and the test's clock."""
    def make(data="data", game="carom", fixtures=TONIGHTS, **limits):
        from cli.commands import emulate

        name = "emulator.toml" if game == "carom" else "emulator-8ball.toml"
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        league = league_file(fixtures)
        text = text.replace('league = "league.toml"', f"league = {json.dumps(str(league))}")
        for option, value in limits.items():
            text = "\n".join(f"{option} = {value}" if line.startswith(f"{option} =") else line
                             for line in text.splitlines())
        path = tmp_path / f"{game}.toml"
        path.write_text(text, encoding="utf-8")
        args = Namespace(config=str(path), data=str(tmp_path / data), keys="script", frames=None)
        return emulate.ScriptPlayer(emulate.emulator_config(args), clock=clock)
    return make


@pytest.fixture
def receiver_on(tmp_path):
    """``start(db, clock)``: the league's receiver as `pocitadlo serve --admin-token-file` runs it
    (the store's league answers the devices' fetch; the web admin opens with
    admin_http_helpers.TOKEN), on 127.0.0.1; stopped after the test."""
    from admin_http_helpers import TOKEN
    from cli.commands import serve
    from cli.main import UserError
    from server.http_server import ReceiverServer
    from server.ingest.receiver import Receiver
    from server.storage.store import Store

    running = []

    def start(db: str, clock):
        token = tmp_path / "admin.token"
        token.write_text(TOKEN, encoding="utf-8")
        store = Store(db, clock=clock)
        args = Namespace(cert=None, key=None, listen="127.0.0.1:0", admin_token_file=str(token), proxy=None)
        server = serve._listen(args, "127.0.0.1", 0, Receiver(store), ReceiverServer, UserError)
        server.start(poll_interval=0.02)
        running.append((server, store))
        return server

    yield start
    for server, store in running:
        server.shutdown()
        server.server_close()
        store.close()
