"""End to end: an 8-ball season of the Podkrušnohorská billiard liga run from the league's receiver.

The counterpart of test_season_e2e.py (the carom season) for the competition ``8ball``: the
organiser sets the season up with `pocitadlo server … --competition 8ball` (season, venues, teams
with their captains, the device of a venue, the drawn schedule) and the web admin (the rosters).
The venue's device is the real service (cli.commands.run.assemble from its config, game 8ball,
[sync] over HTTP to the receiver) on a clock set to the fixture's evening: it fetches the league,
offers tonight's 8-ball fixture with the real rosters, the team match is keyed in — individual
matches raced in games and sets, one of them forfeited by a player — the captains sign, and the
individual matches and the match item arrive once and intact. The receiver's 8-ball table, the
players' statistics and rankings, the team pages, the schedule (the fixture links to its result)
and the exports follow. On the venue's next fixture the away team does not come (keyed on the
device); at the other venue the organiser records a no-show.

Clauses: RULES 2.1 (game, set, match), 2.3 (the home player racks, the away player breaks the
first game), 2.9 (races set by the organiser; team score = individual matches won; the records),
8B:8 (sets of won games; each set opened by the other player); issue 13 (an 8-ball forfeit is a
won individual match, not a won game); the league's part A as the site applies it to both
competitions: A.1.3 (the season's teams, players, matches and statistics on the site), A.2.1,
A.2.2, A.2.3, A.2.5 (the drawn double round robin on working days from 17:00), A.3.2 / A.6.1
(teams with their captains, who sign), A.3.4 (one team a season per competition), A.3.7 (a team
that does not come forfeits the match).
"""
import datetime as dt

import pytest

from admin_http_helpers import AdminClient
from device_table_helpers import (
    CLOSE,
    Table,
    assert_arrived_once_and_intact,
    close_match,
    device_config,
    fetch,
    fetch_html,
    http_sync,
)
from league_season_helpers import (
    League,
    assert_roster_shown,
    fill_the_rosters,
    fixtures_of,
    linked_result,
    offered_tonight,
    organiser,
    rows_of,
    seen_by_the_receiver,
    set_up_the_season,
)
from server.league.czech_order import czech_key
from server.league.schedule import working_day
from sync_helpers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SEASON = "2025/26"
LVA, SIBENIK = "Hospoda U Lva", "Pod Šibeníkem"
DEVICE, SECRET = "lva-stul-1", "season8-device-secret-0123456789"
TEAMS = {   # name: (venue, roster — the first is the captain, A.3.2)
    "Baník Most": (LVA, ("Chalupa", "Hrubý", "Šťastný", "Cibulka")),
    "Kohouti Litvínov": (SIBENIK, ("Říha", "Zeman", "Čermák", "Bartoš")),
    "Krušnohor Jirkov": (LVA, ("Vlček", "Sýkora", "Kolář", "Urban")),
    "Štěpánka Meziboří": (SIBENIK, ("Toman", "Doležal", "Mach", "Kříž")),
}
CAROM = ("Sokol Dvůr", "Slavoj Bílá Třemešná")     # the venue's carom league too, at its other table
RACES = (2, 2, 3)            # RULES 2.9 (config): 2 games win a set, 2 sets an individual match, 3 of them a team match
LEAGUE = League(SEASON, "8ball", {LVA: "po,út,st,čt", SIBENIK: ""}, TEAMS, (DEVICE, LVA, SECRET),
                rules=(f"games_to_win={RACES[0]}", f"sets_to_win={RACES[1]}", f"partie_per_match={RACES[2]}"))
GAME = {"home": {"cmd": "game", "winner": "a"}, "away": {"cmd": "game", "winner": "b"}}   # the home player is a
# the first night's individual matches: the games won by side in order ("|" between sets), then how it
# ends; what it gives the home player (won?, sets home:away, games home:away, set winners)
NIGHT = [
    ("home home | home away home", None, (True, (2, 0), (4, 1), ["home", "home"])),
    ("home home | away away | away home away", None, (False, (1, 2), (3, 4), ["home", "away", "away"])),
    # the away player gives up after a game: the home player wins the match, not a game (issue 13);
    # the set, 1:0 in a race to 2, is nobody's
    ("home", {"cmd": "forfeit", "by": "b"}, (True, (0, 0), (1, 0), [None])),
]


def carom_the_same_evening(run, fixture: dict) -> None:
    """Hospoda U Lva hosts the carom league too: a carom match at its other table on the evening
    of ``fixture``. The 8-ball device asks for its game's league, not the venue's nearest (carom
    first): it was offered the carom match and rosters."""
    for team in CAROM:
        run("team", "add", team, "--season", SEASON, "--venue", LVA, "--captain", "Novák", "--phone", "777 123 456")
    run("schedule", "generate", "--season", SEASON)
    spring = [f for f in fixtures_of(run, SEASON) if f["date"] >= "2026-03-01"]
    run("schedule", "move", spring[0]["id"], fixture["date"])
    assert [f["date"] for f in fixtures_of(run, SEASON) if f["id"] == spring[0]["id"]] == [fixture["date"]]


def the_device(tmp_path, port: int, clock) -> Table:
    """The 8-ball counter at Hospoda U Lva: no league.toml, its league comes from the receiver."""
    config = device_config(tmp_path / "device.toml", DEVICE, SECRET, http_sync(port), game="8ball", eightball=RACES)
    return Table(config, clock)


def start_tonight(table: Table, fixture: dict) -> None:
    """Tonight's fixture → both rosters as the receiver has them (Czech order), everybody present."""
    offered_tonight(table, fixture)
    table.ui("confirm")
    for side in ("home", "away"):
        assert_roster_shown(table, fixture[side], TEAMS[fixture[side]][1])    # Čermák after Bartoš, Chalupa after Hrubý
        table.ui("confirm")
    table.ui("confirm", "confirm")                          # the captains (A.6.1): the first present


def play_individual(table: Table, number: int, games: str, ending) -> None:
    """Individual match ``number``: the n-th player present of each team, the games won in the
    order given ("|" between sets), then ``ending`` (a forfeit) or nothing; closed."""
    assert table.screen["title"] == f"Zápas {number}: domácí"
    table.ui(number, "confirm", number, "confirm")
    table.play(*(GAME[side] for side in games.replace("|", " ").split()))
    if ending:
        table.play(ending)
    assert table.service.night.board.finished, table.screen
    table.ui(*CLOSE)                                             # close the individual match? yes


def test_an_eightball_season_is_run_from_the_receiver(tmp_path, capsys, receiver_on, evening):
    """The 8-ball season (competition 8ball) from set-up to the site: RULES 2.1, 2.3, 2.9, 8B:8,
    issue 13 (a forfeit is a won individual match), A.1.3, A.2.1-A.2.5, A.3.2, A.3.4, A.3.7, A.6.1."""
    db = str(tmp_path / "league.sqlite")
    run = organiser(db, capsys, clock=evening)
    set_up_the_season(run, LEAGUE, tmp_path)
    clock = evening
    server = receiver_on(db, clock)
    fill_the_rosters(AdminClient(server.port), LEAGUE, twice=("Kohouti Litvínov", "Chalupa"))   # A.3.4
    assert run("schedule", "generate", *LEAGUE.in_season).startswith(f"stored 12 fixtures of 8ball {SEASON}")

    fixtures = fixtures_of(run, SEASON, "8ball")                                 # A.2.5, A.2.2
    assert len(fixtures) == 12 and {f["start"] for f in fixtures} == {"17:00"}
    assert all(working_day(dt.date.fromisoformat(f["date"])) for f in fixtures)
    assert sorted((f["home"], f["away"]) for f in fixtures) == sorted(
        (h, a) for h in TEAMS for a in TEAMS if h != a)
    schedule = fetch(server.port, f"/schedule.json?season={SEASON}&competition=8ball")   # A.2.3: published
    assert schedule["competition"] == "8ball" and [f["id"] for f in schedule["fixtures"]] == [f["id"] for f in fixtures]
    for name, (venue, players) in TEAMS.items():                                 # A.1.3, A.3.2, before a match
        league = fetch(server.port, f"/teams/{name}.json?game=8ball&season={SEASON}")["league"]
        assert (league["venue"], league["captain"], sorted(league["roster"])) == (venue, players[0], sorted(players))
        assert len(league["fixtures"]) == 6
    first, second = [f for f in fixtures if f["venue"] == LVA and f["date"] >= "2026-03-01"][:2]
    carom_the_same_evening(run, first)
    clock.set(dt.datetime.fromisoformat(first["date"]).replace(hour=19, minute=30))

    table = the_device(tmp_path, server.port, clock)
    try:
        start_tonight(table, first)
        for number, (games, ending, _) in enumerate(NIGHT, start=1):
            play_individual(table, number, games, ending)
        assert close_match(table)["points"] == {"home": 2, "away": 1}           # RULES 2.9: individual matches won
        assert wait_for(table.sent, timeout=20)
        assert len(assert_arrived_once_and_intact(table, server.receiver.store)) == 4
        match_id = check_the_match(server.port, first)
        check_the_site(server.port, first, match_id)

        clock.set(dt.datetime.fromisoformat(second["date"]).replace(hour=19, minute=30))
        offered_tonight(table, second)
        table.ui("confirm", "confirm")                                          # tonight's fixture, the home team present
        table.ui("down", "confirm", 1, "menu")                                  # A.3.7: the away team did not come
        assert close_match(table)["points"] == {"home": 3, "away": 0}
        assert wait_for(table.sent, timeout=20)
        assert len(assert_arrived_once_and_intact(table, server.receiver.store)) == 5
    finally:
        table.close()
    entry = next(f for f in fetch(server.port, f"/schedule.json?season={SEASON}&competition=8ball")["fixtures"]
                 if f["id"] == second["id"])
    # A.3.7 (issue 22): the no-show at the table is the away team's no-show, as the organiser's would be
    assert entry["status"] == "forfeited" and (entry["points_home"], entry["points_away"]) == (3, 0)

    at_sibenik = [f for f in fixtures if f["venue"] == SIBENIK and f["date"] >= "2026-03-01"]   # A.3.7 by the organiser
    absent = at_sibenik[0]["away"]
    assert f"forfeited to {at_sibenik[0]['home']}" in run("no-show", at_sibenik[0]["id"], "--team", absent)
    status = {f["id"]: f["status"] for f in fixtures_of(run, SEASON, "8ball")}
    assert [status[f["id"]] for f in (first, second, at_sibenik[0])] == ["played", "forfeited", "forfeited"]
    seen_by_the_receiver(server)
    assert "kontumováno" in fetch_html(server.port, f"/schedule?season={SEASON}&competition=8ball")

    check_the_table(server.port, first, second, at_sibenik[0])


def player_of(fixture: dict, side: str, number: int) -> str:
    """The player of ``side`` in individual match ``number``: the n-th present, in Czech order."""
    return sorted(TEAMS[fixture[side]][1], key=czech_key)[number - 1]


def check_the_match(port: int, fixture: dict) -> str:
    """The schedule links the fixture to its result (A.1.3); the match record (zápis) lists the
    individual matches with their players, winners, sets and games (RULES 2.9), the breaks
    (RULES 2.3 with 8B:2b, 8B:8) and the captains' signatures (A.6.1). Returns the match's id."""
    record = linked_result(port, LEAGUE, fixture, {"home": 2, "away": 1})
    match_id = record["match"]
    assert record["game"] == "8ball" and record["fixture"] == fixture["id"] and record["closed"] is True
    assert (record["home"], record["away"]) == (fixture["home"], fixture["away"])
    assert record["points"] == record["declared_points"] == {"home": 2, "away": 1}          # RULES 2.9
    assert record["missing_partie"] == [] and record["forfeit"] is None
    assert [s["side"] for s in record["signatures"]] == ["home", "away"] and record["unsigned"] == []
    individual = record["individual"]
    assert [m["number"] for m in individual] == [1, 2, 3]
    for number, (m, (_, ending, (won, sets, games, set_winners))) in enumerate(zip(individual, NIGHT), start=1):
        assert (m["home"]["name"], m["away"]["name"]) == (player_of(fixture, "home", number),
                                                          player_of(fixture, "away", number))
        assert (m["games_to_win"], m["sets_to_win"]) == RACES[:2]
        assert m["winner"] == ("home" if won else "away") and m["forfeit"] == (ending and "away")
        assert (m["home"]["sets"], m["away"]["sets"]) == sets
        assert (m["home"]["games"], m["away"]["games"]) == games
        assert [s["winner"] for s in m["sets"]] == set_winners
        openers = [g["breaker"] for g in m["games"] if g["game"] == 1]
        # RULES 2.3 (8B:2b): away breaks the 1st individual match, home the 2nd …; 8B:8 sets alternate
        first, then = ("away", "home") if number % 2 else ("home", "away")
        assert openers == [first, then, first][:len(openers)]
    assert record["totals"] == {"home": {"sets": 3, "games": 8, "matches": 2},
                                "away": {"sets": 2, "games": 5, "matches": 1}}
    page = fetch_html(port, f"/matches/{match_id}.html")
    assert "skrečováno" in page and all(m["home"]["name"] in page for m in individual)
    return match_id


def check_the_site(port: int, fixture: dict, match_id: str) -> None:
    """A.1.3: the players' statistics and rankings for game=8ball, the teams' pages and the
    exports (JSON, CSV) have the match's individual matches (a forfeit: won, not a game)."""
    rows = {r["player"]: r for r in fetch(port, f"/players.json?game=8ball&season={SEASON}")["rows"]}
    assert len(rows) == 6
    for number, (_, ending, (won, sets, games, _)) in enumerate(NIGHT, start=1):
        for side, mine in (("home", 0), ("away", 1)):
            name = player_of(fixture, side, number)
            row = rows[name]
            wins = won if side == "home" else not won
            assert row["team"] == fixture[side] and row["individual"] == 1
            assert (row["won"], row["lost"]) == (int(wins), int(not wins))
            assert (row["sets_won"], row["sets_lost"]) == (sets[mine], sets[1 - mine])
            assert (row["games_won"], row["games_lost"]) == (games[mine], games[1 - mine])
            (played,) = fetch(port, f"/players/{name}.json?game=8ball&season={SEASON}")["partie"]
            assert played["match"] == match_id and played["forfeited"] == bool(ending and side == "away")
    players_csv = rows_of(fetch_html(port, f"/players.csv?game=8ball&season={SEASON}"))
    assert {r["player"] for r in players_csv} == set(rows) and {r["season"] for r in players_csv} == {SEASON}
    assert fetch(port, f"/players.json?season={SEASON}")["rows"] == []                  # nothing in carom

    rankings = {r["key"]: r["rows"] for r in fetch(port, f"/rankings.json?game=8ball&season={SEASON}")["rankings"]}
    best = player_of(fixture, "home", 1)                                     # 1:0 in matches, +3 in games
    assert rankings["individual_won"][0]["value"] == "1:0" and len(rankings["individual_won"]) == 6
    assert rankings["games_difference"][0] == {"place": 1, "player": best, "team": fixture["home"], "value": "+3",
                                               "partie": 1}
    assert best in {r["player"] for r in rows_of(fetch_html(port, f"/rankings.csv?game=8ball&season={SEASON}"))}

    for side in ("home", "away"):
        team = fetch(port, f"/teams/{fixture[side]}.json?game=8ball&season={SEASON}")
        assert team["game"] == "8ball" and match_id in [m["match"] for m in team["matches"]]
        assert {f["id"]: f["match"] for f in team["league"]["fixtures"]}[fixture["id"]] == match_id
        assert {p["player"] for p in team["players"]} == {player_of(fixture, side, n) for n in (1, 2, 3)}
        assert team["table"]["individual_won"] == (2 if side == "home" else 1)
        assert fixture[side] in fetch_html(port, f"/teams/{fixture[side]}.html?game=8ball&season={SEASON}")


def check_the_table(port: int, first: dict, second: dict, forfeited: dict) -> None:
    """RULES 2.9: the 8-ball table (individual matches won and lost, sets, games; points = individual
    matches won; a team that did not come, at the table (``second``) or by the organiser's no-show
    (``forfeited``): the competition's forfeit score, the match's 3 : 0, issue 22) and its CSV
    export in the same order."""
    every = {row["team"]: row for row in fetch(port, f"/table-8ball.json?season={SEASON}")["rows"]}
    assert set(every) == set(TEAMS)                                     # every team, from the first day
    rows = {team: row for team, row in every.items() if row["matches"]}
    assert set(rows) == {f[side] for f in (first, second, forfeited) for side in ("home", "away")}
    expected = {team: dict.fromkeys(("matches", "points", "individual_won", "individual_lost", "sets_won",
                                      "sets_lost", "games_won", "games_lost"), 0) for team in rows}
    for side, mine in (("home", 0), ("away", 1)):
        line = expected[first[side]]
        line["matches"] += 1
        line["individual_won"] += (2, 1)[mine]
        line["individual_lost"] += (1, 2)[mine]
        line["points"] += (2, 1)[mine]
        line["sets_won"], line["sets_lost"] = line["sets_won"] + (3, 2)[mine], line["sets_lost"] + (2, 3)[mine]
        line["games_won"], line["games_lost"] = line["games_won"] + (8, 5)[mine], line["games_lost"] + (5, 8)[mine]
        expected[second[side]]["matches"] += 1
        expected[forfeited[side]]["matches"] += 1
    expected[second["home"]]["points"] += 3
    expected[forfeited["home"]]["points"] += 3
    assert {team: {key: row[key] for key in expected[team]} for team, row in rows.items()} == expected
    ordered = sorted(every.values(), key=lambda r: r["place"])
    assert [r["team"] for r in ordered] == [r["team"] for r in
                                            rows_of(fetch_html(port, f"/table-8ball.csv?season={SEASON}"))]
    assert [r["points"] for r in ordered] == sorted((r["points"] for r in ordered), reverse=True)
    assert [r for r in fetch(port, f"/table.json?season={SEASON}")["rows"] if r["matches"]] == []   # carom: none played
