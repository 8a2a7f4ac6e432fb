"""A league season run from the receiver, as the season end-to-end tests run it (issue 16): the
season's set-up by the organiser's `pocitadlo server …` commands and the web admin's rosters, the
fixture list the commands print, the setup menu's line for a fixture of another night, and the
receiver's CSV exports read back.

The receiver itself (`pocitadlo serve` with the web admin) is the ``receiver_on`` fixture of
tests/conftest.py.
"""
import contextlib
import csv
import datetime as dt
import io
import re
from dataclasses import dataclass
from unittest import mock
from urllib.parse import unquote

from admin_http_helpers import TOKEN
from cli.main import main
from device_table_helpers import fetch, fetch_html
from server.league.czech_order import czech_key
from sync_helpers import wait_for


def organiser(db: str, capsys, clock=None):
    """``run(*argv)``: `pocitadlo server ARGV --db DB` as the organiser types it; its output.
    ``clock``: the store's clock in those commands (the league's "today": A.3.3 refuses a move to
    a day in the past), by default the wall clock."""
    def run(*argv) -> str:
        with contextlib.ExitStack() as stack:
            if clock is not None:
                stack.enter_context(mock.patch("server.storage.store.SystemClock", lambda: clock))
            code = main(["server", *argv, "--db", db])
        out = capsys.readouterr()
        assert code == 0, out.err
        return out.out
    return run


@dataclass(frozen=True)
class League:
    """What the organiser enters for a season of one competition."""
    season: str                 # "2025/26"
    competition: str            # carom or 8ball
    venues: dict                # name: the weekdays it is open ("po,út", "" for any)
    teams: dict                 # name: (venue, roster — the first is the captain, A.3.2)
    device: tuple               # (its id, its venue, its secret)
    rules: tuple = ()           # the competition's rules, KEY=VALUE (A.1.2): the counters play by them

    @property
    def in_season(self) -> tuple:
        return ("--season", self.season, "--competition", self.competition)


# The carom season of the season end-to-end tests (test_season_e2e, test_season_team_points_e2e)
CAROM_SEASON = "2025/26"
LVA, RUZEK = "Hospoda U Lva", "Na Růžku"
LVA_DEVICE, LVA_SECRET = "lva-stul-1", "season-device-secret-0123456789"
CAROM_TEAMS = {   # name: (venue, roster — the first is the captain, A.3.2)
    "Sokol Dvůr": (LVA, ("Novák", "Dvořák", "Svoboda", "Černý", "Procházka")),
    "Jiskra Hořice": (RUZEK, ("Kučera", "Veselý", "Horák", "Němec")),
    "Slavoj Bílá Třemešná": (LVA, ("Marek", "Pospíšil", "Hájek", "Jelínek")),
    "Baník Zábřezí": (RUZEK, ("Král", "Růžička", "Beneš", "Fiala")),
}


def carom_season(*rules: str) -> League:
    """That season of carom, its competition playing by ``rules`` (KEY=VALUE, A.1.2)."""
    return League(CAROM_SEASON, "carom", {LVA: "po,út,st,čt", RUZEK: ""}, CAROM_TEAMS,
                  (LVA_DEVICE, LVA, LVA_SECRET), rules=rules)


def set_up_the_season(run, league: League, tmp_path) -> None:
    """docs/league.md "Running a season", steps 1-4 on the command line (A.2.1, A.3.2, A.6.1), and
    the competition's rules (A.1.2)."""
    assert "autumn 2025-10-01..2025-11-30, spring 2026-03-01..2026-04-30" in run("season", "add", league.season)
    for venue, days in league.venues.items():
        run("venue", "add", venue, *(("--days", days) if days else ()))
    for name, (venue, players) in league.teams.items():
        assert f"({league.competition} {league.season})" in run(
            "team", "add", name, *league.in_season, "--venue", venue, "--captain", players[0], "--phone", "777 123 456")
    if league.rules:
        run("competition", "set", *league.in_season, *league.rules)
    device, venue, secret = league.device
    secret_file = tmp_path / f"{device}.secret"
    secret_file.write_text(secret, encoding="utf-8")
    run("add-device", device, "--venue", venue, "--secret-file", str(secret_file))


def fill_the_rosters(admin, league: League, twice: tuple[str, str]) -> None:
    """The rosters through the web admin (A.3.4): each player on one team; ``twice``, (a team, a
    player of another team), is refused."""
    status, _, _ = admin.login(TOKEN)
    assert status == 303 and admin.get(f"/admin?season={league.season}&competition={league.competition}")[0] == 200
    form = {"season": league.season, "competition": league.competition}
    for team, (_, players) in league.teams.items():
        for player in players:
            assert f"{player} přidán do družstva {team}." in admin.change("/admin/player-add",
                                                                          form | {"team": team, "name": player})
    team, player = twice
    status, page, _ = admin.post("/admin/player-add", form | {"team": team, "name": player})
    assert status == 400 and f"{player} už v sezóně {league.season} hraje za družstvo" in page and "(A.3.4)" in page


FIXTURE_COLUMNS = ("id", "date", "start", "home", "away", "venue", "status", "result")


def fixtures_of(run, season: str, competition: str = "carom") -> list[dict]:
    """`fixture list` of a season and competition, each line as a dict by its columns."""
    text = run("fixture", "list", "--season", season, "--competition", competition)
    return [dict(zip(FIXTURE_COLUMNS, line.split("\t"))) for line in text.splitlines()]


def menu_entry(fixture: dict) -> str:
    """A fixture of another night in the setup menu: its date, then the teams."""
    day = dt.date.fromisoformat(fixture["date"])
    return f"{day.day}.{day.month}. {fixture['home']} – {fixture['away']}"


def offered_tonight(table, fixture: dict) -> list[str]:
    """A device's ``table`` fetches the league (the fetch its keeper's thread makes); Enter on the
    ready screen opens the setup menu, tonight's ``fixture`` selected. The menu's entries."""
    assert table.service.night.keeper.refresh()
    assert table.screen["screen"] == "ready"
    table.ui("confirm")
    menu = table.screen
    entries = [item.split(" ", 1)[1] for item in menu["items"]]
    assert entries[menu["selected"]] == f"{fixture['home']} – {fixture['away']}"
    return entries


def assert_roster_shown(table, team: str, players) -> None:
    """The attendance screen of ``team`` lists its roster as the receiver has it, in Czech order."""
    present = table.screen
    assert team in present["title"]
    shown = [item.split(" ", 1)[1].lstrip("✓ ") for item in present["items"][:len(players)]]
    assert shown == sorted(players, key=czech_key)


def linked_result(port: int, league: League, fixture: dict, points: dict) -> dict:
    """A.1.3: the schedule (JSON and the page) has ``fixture`` played with ``points`` and links it
    to its result; the match record (zápis) there, fetched."""
    query = f"season={league.season}&competition={league.competition}"
    (entry,) = [f for f in fetch(port, f"/schedule.json?{query}")["fixtures"] if f["id"] == fixture["id"]]
    assert entry["status"] == "played" and (entry["points_home"], entry["points_away"]) == (points["home"], points["away"])
    page = fetch_html(port, f"/schedule?{query}")
    link = re.search(rf'<a href="/matches/([^"]+)\.html"[^>]*>{points["home"]} : {points["away"]}</a>', page)
    assert link, page
    assert unquote(link[1]) == entry["match"]
    record = fetch(port, f"/matches/{entry['match']}.json")
    assert record["match"] == entry["match"]
    return record


def rows_of(text: str) -> list[dict]:
    """A CSV export (UTF-8 with a BOM) as dicts by its header."""
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def seen_by_the_receiver(server) -> None:
    """The organiser's commands change the store from outside the receiver, like another receiver:
    its kept pages show such a change within page_cache.FRESH seconds (docs/server.md). Wait
    until the receiver has read the store's generation since, not for a time."""
    store, pages = server.receiver.store, server.app.state.pages
    now = store.generation()
    assert wait_for(lambda: pages.generation(store) >= now)
