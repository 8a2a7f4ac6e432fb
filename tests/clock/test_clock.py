"""The one clock (issue 10): clock/ is the only reader of the wall clock; a ManualClock answers in
its own zone and moves only when told."""
import ast
import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clock import ManualClock, SystemClock

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("rules", "config", "wire", "delivery", "input", "display", "firmware_host", "server", "cli",
           "bench", "tests")
# time.time(), time.localtime(), datetime.now(), date.today() and their kin read the wall clock
TIME_READS = {"time", "time_ns", "localtime", "gmtime", "ctime", "asctime"}
DATETIME_READS = {"now", "utcnow", "today"}


def wall_clock_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, expression) of every reference to a wall-clock reader — called or passed as a default."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "datetime"):
            for alias in node.names:
                if alias.name in TIME_READS and node.module == "time":
                    found.append((node.lineno, f"from time import {alias.name}"))
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", None)
        if owner == "time" and node.attr in TIME_READS:
            found.append((node.lineno, f"time.{node.attr}"))
        elif owner in ("datetime", "date", "dt") and node.attr in DATETIME_READS:
            found.append((node.lineno, f"{owner}.{node.attr}"))
        elif owner == "time" and node.attr == "strftime":
            found.append((node.lineno, "time.strftime"))
    return found


def test_no_module_but_the_clock_adapter_reads_the_wall_clock():
    offenders = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            offenders += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in wall_clock_reads(tree)]
    assert offenders == [], "read the time from an injected clock (clock/) instead:\n" + "\n".join(offenders)


# The databases' own clocks: SQL that reads them would answer from the server's wall clock.
SQL_CLOCK = re.compile(r"current_(date|time|timestamp)|localtime(stamp)?|(?<![.\w])(?<!def )now\(|'now'|func\.now", re.I)


def test_no_sql_reads_the_database_s_clock():
    """The store writes the times its clock gives (Store.now()). This is also why CI's second run,
    on a shifted clock, runs the store's tests on SQLite only: PostgreSQL runs the same Python."""
    offenders = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                 for path in sorted((ROOT / "server").rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if SQL_CLOCK.search(line)]
    assert offenders == []


@pytest.mark.parametrize("line", ["SELECT CURRENT_TIMESTAMP", "default=sa.func.now()", "datetime('now')",
                                  "WHERE day < current_date", "SELECT NOW()"])
def test_the_sql_scan_finds_each_way_of_reading_the_database_s_clock(line):
    assert SQL_CLOCK.search(line)


@pytest.mark.parametrize("source", [
    "import time\nt = time.time()", "import time\ndef f(clock=time.time): pass",
    "from time import time", "import datetime as dt\ndt.date.today()", "from datetime import datetime\ndatetime.now()",
    "import datetime\ndatetime.datetime.utcnow()", "import time\ntime.strftime('%H:%M')", "import time\ntime.localtime()",
])
def test_the_scan_finds_each_way_of_reading_the_wall_clock(source):
    assert wall_clock_reads(ast.parse(source))


@pytest.mark.parametrize("source", ["import time\ntime.monotonic()", "import time\ntime.sleep(1)",
                                    "import time\ntime.perf_counter()", "clock.now()", "x.today"])
def test_the_scan_lets_monotonic_time_and_injected_clocks_through(source):
    assert not wall_clock_reads(ast.parse(source))


def test_a_manual_clock_answers_in_its_own_zone_and_moves_only_when_told():
    prague_winter = timezone(timedelta(hours=1))
    clock = ManualClock(datetime(2026, 12, 31, 23, 59), zone=prague_winter)
    assert clock.now() == datetime(2026, 12, 31, 23, 59, tzinfo=prague_winter)
    assert clock.utc() == datetime(2026, 12, 31, 22, 59, tzinfo=timezone.utc)
    assert clock.today() == date(2026, 12, 31) and clock.time() == clock.monotonic()
    clock.advance(60)
    assert clock.today() == date(2027, 1, 1) and clock.now().strftime("%H:%M") == "00:00"
    clock.set(datetime(2027, 3, 4, 19, 30))
    assert clock.now().strftime("%Y-%m-%d %H:%M") == "2027-03-04 19:30"


def test_the_system_clock_is_local_aware_and_monotonic_does_not_go_back():
    clock = SystemClock()
    now = clock.now()
    assert now.tzinfo is not None and clock.utc().tzinfo == timezone.utc
    assert abs(now.timestamp() - clock.time()) < 3600           # the same instant, however slow the machine
    first = clock.monotonic()
    assert clock.monotonic() >= first


ZONES = ["UTC", "Europe/Prague", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kathmandu",
         "Africa/Monrovia", "Pacific/Chatham", "America/Santiago"]
# around the zones' offset changes: Prague's 2026 DST ends and starts, Lord Howe's half-hour
# change, Monrovia's -0:44:30 of 1972, and seconds anywhere from 1960 to 2040
SECONDS = st.one_of(st.integers(-315_619_200, 2_208_988_800),
                    st.sampled_from([1774746000, 1792890000, 1775314800, 63_593_070, 1_800_000_000]).flatmap(
                        lambda at: st.integers(at - 7200, at + 7200)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ZONES), SECONDS, st.lists(st.integers(-90, 200), max_size=6))
def test_the_system_clocks_journal_time_is_what_datetime_writes(zone, second, steps):
    """SystemClock.iso_seconds keeps the text of the local minute (the time every journal line
    carries, on the way from a key to its frame): at every second — the first, seconds after it in
    the same minute and in others, across the zone's offset changes — it is what
    ``datetime.now().astimezone().isoformat(timespec="seconds")`` writes for that second."""
    import os
    import time

    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        clock = SystemClock()
        for at in [second] + [second + step for step in steps]:
            expected = datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")
            assert clock._iso_at(at) == expected, (zone, at)
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_the_system_clocks_journal_time_is_now():
    clock = SystemClock()
    made = datetime.fromisoformat(clock.iso_seconds())
    assert made.tzinfo is not None and abs(made.timestamp() - clock.time()) < 3600
