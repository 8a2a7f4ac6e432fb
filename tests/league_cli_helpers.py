"""What the tests of `pocitadlo server`'s league commands share: ``cli_league``, a league in a store
administered through the real `main()` (a plugin of tests/conftest.py), and its readers."""
import datetime as dt

import pytest

from cli.main import main
from clock import ManualClock

SEASON = ("--season", "2026/27")


def listed_fixtures(run, *season) -> list[dict]:
    """`fixture list` of the season, a dict per line."""
    code, out, _ = run("fixture", "list", *(season or SEASON))
    assert code == 0
    return [dict(zip(("id", "date", "start", "home", "away", "venue", "status", "result", "note"), line.split("\t")))
            for line in out.splitlines()]


def set_today(monkeypatch, day: dt.date) -> None:
    """The store's "today" from now on (the CLI's store takes the wall clock, whatever day the tests run)."""
    monkeypatch.setattr("server.storage.store.SystemClock", lambda: ManualClock(dt.datetime.combine(day, dt.time(12))))


@pytest.fixture
def cli_league(tmp_path, capsys, monkeypatch):
    """A store with a season, two venues and four teams of two players; ``run(*argv)`` runs
    ``pocitadlo server ARGV --db STORE`` and returns (exit status, stdout, stderr). The store's
    "today" is 1 September 2026, before the season (A.3.3 refuses a day in the past), whatever
    day the tests run."""
    db = str(tmp_path / "league.sqlite")
    set_today(monkeypatch, dt.date(2026, 9, 1))

    def run(*argv):
        code = main(["server", *argv, "--db", db])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert run("season", "add", "2026/27")[0] == 0
    run("venue", "add", "U Lva", "--days", "po,út,st,čt")
    run("venue", "add", "U Koule")
    for n, name in enumerate(("Lvi", "Orli", "Sokoli", "Jiskra")):
        code, out, err = run("team", "add", name, *SEASON, "--venue", ("U Lva", "U Koule")[n % 2],
                             "--captain", f"Kapitán {name}", "--phone", "+420 777 000 00" + str(n))
        assert code == 0, err
        for player in (f"{name} 1", f"{name} 2"):
            assert run("player", "add", player, "--team", name, *SEASON)[0] == 0
    return run
