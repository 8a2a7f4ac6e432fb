"""A league season run from the receiver, as the season end-to-end tests run it (issue 16): the
organiser's `pocitadlo server …` commands, the fixture list they print, the setup menu's line for
a fixture of another night, and the receiver's CSV exports read back.

The receiver itself (`pocitadlo serve` with the web admin) is the ``receiver_on`` fixture of
tests/e2e/conftest.py.
"""
import csv
import datetime as dt
import io

from cli.main import main


def organiser(db: str, capsys):
    """``run(*argv)``: `pocitadlo server ARGV --db DB` as the organiser types it; its output."""
    def run(*argv) -> str:
        code = main(["server", *argv, "--db", db])
        out = capsys.readouterr()
        assert code == 0, out.err
        return out.out
    return run


FIXTURE_COLUMNS = ("id", "date", "start", "home", "away", "venue", "status", "result")


def fixtures_of(run, season: str, competition: str = "carom") -> list[dict]:
    """`fixture list` of a season and competition, each line as a dict by its columns."""
    text = run("fixture", "list", "--season", season, "--competition", competition)
    return [dict(zip(FIXTURE_COLUMNS, line.split("\t"))) for line in text.splitlines()]


def menu_entry(fixture: dict) -> str:
    """A fixture of another night in the setup menu: its date, then the teams."""
    day = dt.date.fromisoformat(fixture["date"])
    return f"{day.day}.{day.month}. {fixture['home']} – {fixture['away']}"


def rows_of(text: str) -> list[dict]:
    """A CSV export (UTF-8 with a BOM) as dicts by its header."""
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
