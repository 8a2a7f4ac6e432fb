"""Fixtures shared by the suite: one clock per test, and a "tonight" built from it.

No test depends on today's date: the clock is a ManualClock on a fixed evening in its own zone, and
a league's fixtures are written relative to that clock's date (CI runs the suite again under a
shifted wall clock to prove it).
"""
import json
import re
import time
from argparse import Namespace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from clock import ManualClock

EXAMPLES = Path(__file__).resolve().parents[1] / "config" / "examples"
CET = timezone(timedelta(hours=1), "CET")
EVENING = datetime(2026, 3, 4, 19, 30)           # a Wednesday; any date would do
# (days from tonight, home, away): the bundled league's teams, a match tonight at Hospoda U Lva
TONIGHTS = ((0, "Sokol Dvůr", "Jiskra Hořice"), (7, "Jiskra Hořice", "Slavoj Bílá Třemešná"))


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


def league_text(tonight, fixtures=TONIGHTS) -> str:
    """The bundled example league's teams with ``fixtures`` (days from ``tonight``, home, away)."""
    teams = re.split(r"^\[\[fixtures\]\]", (EXAMPLES / "league.toml").read_text(encoding="utf-8"),
                     flags=re.M)[0]
    return teams + "".join(f"[[fixtures]]\ndate = {(tonight + timedelta(days=days)).isoformat()}\n"
                           f"home = {json.dumps(home, ensure_ascii=False)}\n"
                           f"away = {json.dumps(away, ensure_ascii=False)}\n\n"
                           for days, home, away in fixtures)


@pytest.fixture
def league_file(tmp_path, clock):
    """A factory: ``league_file(fixtures=…, name=…)`` writes a league whose fixtures are relative
    to the test's clock (tonight's match at Hospoda U Lva unless told otherwise); its path."""
    def write(fixtures=TONIGHTS, name="league.toml") -> Path:
        path = tmp_path / name
        path.write_text(league_text(clock.today(), fixtures), encoding="utf-8")
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
