"""End to end: a whole season run from the league's receiver (issue 16 "Done when").

The organiser sets the season up as docs/league.md tells: `pocitadlo server …` commands (run
in-process on the receiver's SQLite store) for the season, venues, teams with their captains, the
device of a venue and the schedule, the web admin (over HTTP, logged in with the admin token) for
the rosters. The receiver is what `pocitadlo serve` listens with (cli.commands.serve._listen: the
store's league answers the devices' fetch). The device of the venue is the real service
(cli.commands.run.assemble from its config, [sync] over HTTP to the receiver) on a clock set to the
fixture's evening: it fetches the league, offers tonight's fixture with the real rosters, the
match is keyed in, its partie and match records are delivered, and the receiver's table, player
statistics, team page, schedule (the fixture links to its result) and exports follow. Six days later
the same device offers that night's fixture (not the one played), and the second match updates them
again; a no-show and a postponement at the other venue reach the schedule and the table.

Clauses: A.1.3 (teams, players, matches and statistics of the season on the league's site),
A.2.1 (the season's halves), A.2.2 (working days, 17:00), A.2.3 (the drawn schedule published),
A.2.5 (double round robin, home and away), A.3.2 / A.6.1 (teams with their captains), A.3.4
(rosters), A.3.3 (a postponement), A.3.7 (a no-show forfeits the match), RULES 1.5 / 1.6 / 1.8
(team points, the zápis, the league table).
"""
import datetime as dt
import re
from datetime import datetime
from urllib.parse import unquote

import pytest

from admin_http_helpers import TOKEN, AdminClient
from device_table_helpers import (
    AWAY_WINS,
    DRAW,
    HOME_WINS,
    NIGHT,
    Table,
    assert_arrived_once_and_intact,
    close_match,
    device_config,
    fetch,
    fetch_html,
    http_sync,
    play_partie,
)
from league_season_helpers import (
    CAROM_SEASON,
    CAROM_TEAMS,
    LVA,
    LVA_DEVICE,
    LVA_SECRET,
    RUZEK,
    assert_roster_shown,
    carom_season,
    fill_the_rosters,
    fixtures_of,
    linked_result,
    menu_entry,
    offered_tonight,
    organiser,
    rows_of,
    seen_by_the_receiver,
    set_up_the_season,
)
from server.league.schedule import working_day
from sync_helpers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SEASON, TEAMS, DEVICE, SECRET = CAROM_SEASON, CAROM_TEAMS, LVA_DEVICE, LVA_SECRET
LEAGUE = carom_season("points_limit=20", "innings_limit=3")      # the device config's (device_table_helpers)
FIRST_NIGHT = datetime(2026, 3, 11, 19, 30)      # the first spring match at Hospoda U Lva (see the schedule)
MOVED_TO = "2026-03-17"                           # its next one, moved by the organiser to the next Tuesday
SECOND_PAIR = [DRAW, HOME_WINS, AWAY_WINS, HOME_WINS]      # the second night's partie: home 5 : 3 away


def the_device(tmp_path, port: int, clock) -> Table:
    """The counter at Hospoda U Lva: no league.toml, its league comes from the receiver."""
    return Table(device_config(tmp_path / "device.toml", DEVICE, SECRET, http_sync(port)), clock)


def play_tonight(table: Table, fixture: dict, nights, *, offered=None, played=None) -> dict:
    """Ready → the setup menu offers tonight's fixture (selected), the ``offered`` one of the same
    week with its date, and not the ``played`` one → both rosters as the receiver has them,
    everybody present → the lot draw → the partie of ``nights`` → the captains sign. Returns the
    match result screen."""
    entries = offered_tonight(table, fixture)
    assert offered is None or menu_entry(offered) in entries
    assert played is None or not [e for e in entries if played["home"] in e and played["away"] in e], entries
    for side in ("home", "away"):
        table.ui("confirm")
        assert_roster_shown(table, fixture[side], TEAMS[fixture[side]][1])     # Černý first, not last
    table.ui("confirm", "confirm", "confirm")                                  # all present; the captains (A.6.1)
    lot = table.screen
    assert lot["screen"] == "lotdraw" and len(lot["pairs"]) == 4
    table.ui("confirm")
    for home_lag, cmds, _ in nights:
        play_partie(table, home_lag, cmds)
    return close_match(table)


def test_a_whole_season_is_run_from_the_receiver(tmp_path, capsys, receiver_on, evening):
    """Issue 16 "Done when": create the season, generate the schedule, the device fetches its
    fixtures, matches arrive, the tables and statistics update (A.1.3, A.2.1, A.2.2, A.2.3, A.2.5,
    A.3.2, A.3.3, A.3.4, A.3.7, A.6.1; RULES 1.5, 1.6, 1.8)."""
    db = str(tmp_path / "league.sqlite")
    run = organiser(db, capsys, clock=evening)
    set_up_the_season(run, LEAGUE, tmp_path)
    clock = evening                      # the device's and the receiver's, running from the first night
    clock.set(FIRST_NIGHT)
    server = receiver_on(db, clock)
    fill_the_rosters(AdminClient(server.port), LEAGUE, twice=("Jiskra Hořice", "Novák"))
    assert run("schedule", "generate", *LEAGUE.in_season).startswith("stored 12 fixtures of carom 2025/26")

    fixtures = fixtures_of(run, SEASON)                                          # A.2.5, A.2.2
    assert len(fixtures) == 12 and {f["start"] for f in fixtures} == {"17:00"}
    assert all(working_day(dt.date.fromisoformat(f["date"])) for f in fixtures)
    assert sorted((f["home"], f["away"]) for f in fixtures) == sorted(
        (h, a) for h in TEAMS for a in TEAMS if h != a)
    schedule = fetch(server.port, f"/schedule.json?season={SEASON}")              # A.2.3: published
    assert [f["id"] for f in schedule["fixtures"]] == [f["id"] for f in fixtures]
    team_links = set(re.findall(r'href="/teams/([^"]+)\.html\?', fetch_html(server.port, "/schedule")))
    assert {unquote(link) for link in team_links} == set(TEAMS)
    for name, (venue, players) in TEAMS.items():                                 # A.1.3, A.3.2, before a match
        assert name in fetch_html(server.port, f"/teams/{name}.html")
        league = fetch(server.port, f"/teams/{name}.json?season={SEASON}")["league"]
        assert (league["venue"], league["captain"], sorted(league["roster"])) == (venue, players[0], sorted(players))
        assert len(league["fixtures"]) == 6
    at_lva = [f for f in fixtures if f["venue"] == LVA and f["date"] >= "2026-03-01"]
    first, second = at_lva[:2]
    assert first["date"] == FIRST_NIGHT.date().isoformat() and second["date"] == "2026-03-25"
    admin = AdminClient(server.port)
    admin.login(TOKEN)
    admin.get(f"/admin?season={SEASON}")
    assert "přesunuto na" in admin.change("/admin/move", {"season": SEASON, "fixture": second["id"], "date": MOVED_TO})
    second = dict(second, date=MOVED_TO)

    table = the_device(tmp_path, server.port, clock)
    try:
        result = play_tonight(table, first, NIGHT, offered=second)
        assert result["points"] == {"home": 3, "away": 5}
        assert wait_for(table.sent, timeout=20)
        assert len(assert_arrived_once_and_intact(table, server.receiver.store)) == 5
        check_the_site(server.port, first, {"home": 3, "away": 5})

        clock.advance(dt.timedelta(days=6))                                       # six days later, 19:30
        result = play_tonight(table, second, SECOND_PAIR, played=first)
        assert result["points"] == {"home": 5, "away": 3}
        assert wait_for(table.sent, timeout=20)
        assert len(assert_arrived_once_and_intact(table, server.receiver.store)) == 10
        check_the_site(server.port, second, {"home": 5, "away": 3})
    finally:
        table.close()

    # meanwhile at Na Růžku: Jiskra did not come (A.3.7), Slavoj ask to postpone their match (A.3.3)
    at_ruzek = [f for f in fixtures if f["venue"] == RUZEK and f["date"] >= "2026-03-01"]
    assert "forfeited to Baník Zábřezí" in run("no-show", at_ruzek[0]["id"], "--team", "Jiskra Hořice")
    assert "1 postponement(s) left" in run("postpone", at_ruzek[1]["id"], "--team", "Slavoj Bílá Třemešná")
    status = {f["id"]: f["status"] for f in fixtures_of(run, SEASON)}
    assert [status[f["id"]] for f in (first, second, *at_ruzek[:2])] == ["played", "played", "forfeited", "postponed"]
    seen_by_the_receiver(server)
    assert "kontumováno" in fetch_html(server.port, "/schedule") and "odloženo" in fetch_html(server.port, "/schedule")

    rows = {row["team"]: row for row in fetch(server.port, f"/table.json?season={SEASON}")["rows"]}   # RULES 1.8
    assert {team: row["points"] for team, row in rows.items()} == {
        "Slavoj Bílá Třemešná": 3, "Sokol Dvůr": 10, "Baník Zábřezí": 3 + 8, "Jiskra Hořice": 0}
    assert rows["Baník Zábřezí"]["place"] == 1 and rows["Baník Zábřezí"]["matches"] == 2
    assert rows["Sokol Dvůr"]["place"] == 2 and rows["Sokol Dvůr"]["matches"] == 2
    assert [r["team"] for r in rows_of(fetch_html(server.port, f"/table.csv?season={SEASON}"))] == \
        ["Baník Zábřezí", "Sokol Dvůr", "Slavoj Bílá Třemešná", "Jiskra Hořice"]


def check_the_site(port: int, fixture: dict, points: dict) -> None:
    """A.1.3: the match on the schedule links to its result (the match record, its zápis); the
    teams' pages, the players' statistics and the exports (JSON, CSV) have it."""
    record = linked_result(port, LEAGUE, fixture, points)
    match_id = record["match"]
    assert (record["home"], record["away"], record["fixture"]) == (fixture["home"], fixture["away"], fixture["id"])
    assert record["points"] == points and record["closed"] is True
    played = {side: {p[side]["name"] for p in record["partie"]} for side in ("home", "away")}
    rows = {r["player"]: r for r in fetch(port, f"/players.json?season={SEASON}")["rows"]}
    players_csv = rows_of(fetch_html(port, f"/players.csv?season={SEASON}"))
    for side in ("home", "away"):
        team = fetch(port, f"/teams/{fixture[side]}.json?season={SEASON}")
        assert match_id in [m["match"] for m in team["matches"]]
        assert {f["id"]: f["match"] for f in team["league"]["fixtures"]}[fixture["id"]] == match_id
        assert played[side] <= {p["player"] for p in team["players"]} <= set(TEAMS[fixture[side]][1])
        for name in played[side]:
            assert rows[name]["team"] == fixture[side] and rows[name]["partie"] >= 1
            assert name in {row["player"] for row in players_csv}
            assert fetch(port, f"/players/{name}.json?season={SEASON}")["player"] == name
    table = {row["team"]: row for row in rows_of(fetch_html(port, f"/table.csv?season={SEASON}"))}
    assert {fixture["home"], fixture["away"]} <= set(table) and {row["season"] for row in table.values()} == {SEASON}

