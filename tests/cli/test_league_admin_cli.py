"""`pocitadlo server` administers the league (docs/league.md): seasons, venues, teams, rosters, the
schedule, postponements and no-shows; a refusal is one line naming what is wrong, exit status 2."""
import datetime as dt

import pytest

from clock import ManualClock
from league_cli_helpers import SEASON, listed_fixtures, set_today
from server.league.schedule import working_day


@pytest.fixture
def league(cli_league):
    return cli_league


def test_a_season_is_set_up_and_its_schedule_generated_from_the_command_line(league):
    code, out, _ = league("schedule", "generate", *SEASON)
    assert code == 0 and out.startswith("stored 12 fixtures of carom 2026/27")
    fixtures = listed_fixtures(league)
    assert len(fixtures) == 12 and {f["status"] for f in fixtures} == {"scheduled"}
    code, out, _ = league("teams", *SEASON)
    assert "Lvi\tU Lva\tKapitán Lvi +420 777 000 000\tany working day\tLvi 1, Lvi 2" in out.splitlines()
    code, out, _ = league("venues")
    assert out.splitlines() == ["U Koule\tany working day\tno device", "U Lva\tpo, út, st, čt\tno device"]


@pytest.mark.parametrize("argv, message", [
    (("season", "add", "2026/28"), "season add: a season is written like 2026/27"),
    (("team", "add", "X", *SEASON, "--venue", "U Nikoho", "--captain", "K", "--phone", "777000111"),
     "team add: no venue 'U Nikoho'; add it first (venue add)"),
    (("team", "add", "X", *SEASON, "--venue", "U Lva", "--captain", "K", "--phone", "abc"),
     "team add: the captain's phone must be digits"),
    (("player", "add", "Lvi 1", "--team", "Orli", *SEASON),
     "player add: Lvi 1 already plays for team 'Lvi' in 2026/27; a player plays for one team a season (A.3.4)"),
    (("player", "add", "LVÍ 1", "--team", "Orli", *SEASON),
     "player add: LVÍ 1 already plays for team 'Lvi' as 'Lvi 1' in 2026/27; a player plays for one team a season"),
    (("team", "add", "X", "--season", "2030/31", "--venue", "U Lva", "--captain", "K", "--phone", "777000111"),
     "team add: no season '2030/31'; the seasons: 2026/27"),
    (("schedule", "move", "nope", "2026-10-06"), "schedule move: no fixture 'nope'"),
    (("teams", "--season", "2099/00"), "teams: no season '2099/00'; the seasons: 2026/27"),
    (("fixture", "list", "--season", "2026/2027"),
     "fixture list: a season is written like 2026/27 (two years that follow), got '2026/2027'"),
    (("competition", "show", "--season", "2027/28", "--competition", "8ball"),
     "competition show: no season '2027/28'; the seasons: 2026/27"),
    (("table", "--season", "2099/00"), "table: no season '2099/00'; the seasons: 2026/27"),
    (("venue", "add", "U Soboty", "--days", "so"), "venue add: weekdays are po, út, st, čt, pá"),
])
def test_a_refused_change_names_what_is_wrong_in_one_line_exit_2(league, argv, message):
    code, out, err = league(*argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_A_3_3_the_third_postponement_of_a_team_is_refused_from_the_command_line(league):
    league("schedule", "generate", *SEASON)
    lvi = [f for f in listed_fixtures(league) if "Lvi" in (f["home"], f["away"])]
    for n, fixture in enumerate(lvi[:2]):
        code, out, _ = league("postpone", fixture["id"], "--team", "Lvi", "--reason", "směna")
        assert code == 0 and f"Lvi has {1 - n} postponement(s) left" in out
    code, _, err = league("postpone", lvi[2]["id"], "--team", "Lvi")
    assert code == 2 and "Lvi has already postponed 2 matches in 2026/27" in err and "(A.3.3)" in err
    assert {f["id"]: f["status"] for f in listed_fixtures(league)}[lvi[2]["id"]] == "scheduled"


def test_A_3_7_two_no_shows_expel_the_team_from_the_command_line(league, monkeypatch):
    league("schedule", "generate", *SEASON)
    orli = [f for f in listed_fixtures(league) if "Orli" in (f["home"], f["away"])]
    code, _, err = league("no-show", orli[0]["id"], "--team", "Orli")
    assert code == 2 and "after today (2026-09-01); a no-show is recorded on or after the match's day (A.3.7)" in err
    set_today(monkeypatch, dt.date(2027, 5, 3))            # the season over: every match was due
    code, out, _ = league("no-show", orli[0]["id"], "--team", "Orli")
    assert code == 0 and "forfeited to" in out and "expelled" not in out
    code, out, _ = league("withdraw-no-show", orli[0]["id"])            # recorded by mistake
    assert code == 0 and out == f"{orli[0]['id']}: no-show withdrawn; scheduled on {orli[0]['date']} 17:00\n"
    league("no-show", orli[0]["id"], "--team", "Orli")
    code, _, err = league("no-show", orli[1]["id"], "--team", "Orli")
    assert code == 2 and "this is Orli's no-show 2: it expels the team (A.3.7), annuls its 1 result(s) and " \
                         "cancels its other 4 fixture(s)" in err and "--expel" in err
    assert {f["id"]: f["status"] for f in listed_fixtures(league)}[orli[1]["id"]] == "scheduled"     # refused: nothing changed
    code, out, _ = league("no-show", orli[1]["id"], "--team", "Orli", "--expel")
    assert code == 0 and "Orli is expelled (A.3.7)" in out
    code, _, err = league("withdraw-no-show", orli[0]["id"])
    assert code == 2 and "its no-shows are withdrawn once the team is reinstated" in err
    assert "4 fixture(s) cancelled" in out
    statuses = [f["status"] for f in listed_fixtures(league) if "Orli" in (f["home"], f["away"])]
    assert sorted(statuses) == ["cancelled"] * 4 + ["forfeited"] * 2
    code, out, _ = league("teams", *SEASON)
    assert "expelled" in next(line for line in out.splitlines() if line.startswith("Orli\t"))


def test_a_team_withdraws_and_is_reinstated_from_the_command_line(league):
    league("schedule", "generate", *SEASON)
    code, out, _ = league("team", "withdraw", "Orli", *SEASON, "--reason", "nemají hráče")
    assert code == 0 and out.startswith("Orli withdrew, carom 2026/27: its 0 result(s) annulled, 6 fixture(s) "
                                        "cancelled: ")
    code, out, _ = league("teams", *SEASON)
    assert "\twithdrew 2026-09-01: nemají hráče" in next(line for line in out.splitlines() if line.startswith("Orli\t"))
    code, _, err = league("team", "withdraw", "Orli", *SEASON, "--reason", "x", "--expel")
    assert code == 2 and err == "pocitadlo server: team withdraw: Orli left the competition on 2026-09-01: withdrew\n"
    code, out, _ = league("team", "reinstate", "Orli", *SEASON)
    assert code == 0 and "Orli is back in carom 2026/27" in out and "6 fixture(s) scheduled again" in out
    assert {f["status"] for f in listed_fixtures(league)} == {"scheduled"}
    code, out, _ = league("team", "withdraw", "Orli", *SEASON, "--reason", "nesportovní chování", "--expel")
    assert code == 0 and out.startswith("Orli expelled by the organiser's decision (A.1.2), carom 2026/27")
    code, _, err = league("team", "reinstate", "Lvi", *SEASON)
    assert code == 2 and "Lvi plays in carom 2026/27: it has not withdrawn nor been expelled" in err


def test_a_postponed_match_gets_its_date_with_schedule_move(league):
    league("schedule", "generate", *SEASON)
    fixture = listed_fixtures(league)[0]
    league("postpone", fixture["id"], "--team", fixture["home"])
    code, out, err = league("schedule", "move", fixture["id"], "2026-12-05")
    assert code == 2 and "working days only (A.2.2)" in err
    dates = {f["date"] for f in listed_fixtures(league) if {f["home"], f["away"], f["venue"]}
             & {fixture["home"], fixture["away"], fixture["venue"]}}
    day = next(d for d in (f"2026-10-{n:02d}" for n in range(5, 31)) if d not in dates
               and working_day(dt.date.fromisoformat(d)) and dt.date.fromisoformat(d).weekday() in (1, 2))
    code, out, err = league("schedule", "move", fixture["id"], day)
    assert code == 0, err
    assert {f["id"]: (f["date"], f["status"]) for f in listed_fixtures(league)}[fixture["id"]] == (day, "scheduled")


def test_a_device_is_registered_at_a_venue_of_the_league_and_listed_with_it(league):
    code, _, err = league("add-device", "u-lva-1", "--venue", "U Lvíčka")
    assert code == 2 and "add-device: no venue 'U Lvíčka' in the league; the venues: U Koule, U Lva" in err
    assert league("add-device", "u-lva-1", "--venue", "u  lva")[0] == 0          # the device's spelling
    code, out, _ = league("venues")
    assert "U Lva\tpo, út, st, čt\tu-lva-1" in out.splitlines()


def test_A_2_4_schedule_generate_honours_requested_days_where_it_can_and_prints_what_it_could_not(league):
    """A.2.4: Baník ask for Fridays, but their venue U Lva is open Monday to Thursday only; Slavoj
    ask for Tuesdays at U Koule, open any working day. The schedule is drawn all the same: Slavoj
    play at home on Tuesdays, Baník at home on a day U Lva is open, and the organiser is told,
    match by match, which request could not be honoured."""
    for team, venue, days in (("Baník", "U Lva", "pá"), ("Slavoj", "U Koule", "út")):
        code, _, err = league("team", "add", team, *SEASON, "--venue", venue, "--captain", f"Kapitán {team}",
                              "--phone", "777000111", "--days", days)
        assert code == 0, err
    code, out, _ = league("schedule", "generate", *SEASON)
    assert code == 0 and out.startswith("stored 30 fixtures")
    unmet = [line for line in out.splitlines() if line.startswith("not honoured: ")]
    fixtures = listed_fixtures(league)
    assert all(working_day(dt.date.fromisoformat(f["date"])) for f in fixtures)
    weekdays = {team: {dt.date.fromisoformat(f["date"]).weekday() for f in fixtures if f["home"] == team}
                for team in ("Baník", "Slavoj")}
    assert weekdays["Slavoj"] == {1} and weekdays["Baník"] <= {0, 1, 2, 3}
    assert [line for line in unmet if "Baník (home) asked for Friday" in line]
    assert not [line for line in unmet if "Slavoj (home)" in line]


def test_A_3_1_schedule_generate_warns_of_each_team_below_four_players_and_draws_all_the_same(league):
    code, out, _ = league("schedule", "generate", *SEASON)
    assert code == 0 and out.startswith("stored 12 fixtures")
    warnings = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert sorted(warnings) == [f"warning: {team} has 2 players on its roster; a team has at least 4 (A.3.1)"
                                for team in ("Jiskra", "Lvi", "Orli", "Sokoli")]


def test_A_3_3_the_organiser_overrides_a_refused_date_with_a_reason_the_schedule_shows(league, monkeypatch):
    """A late postponement can always get a date: a day in the past (the league's today moved on)
    and a day a team already plays are refused, naming --override; with a reason they are taken
    and `fixture list` shows the reason and what it overrode."""
    league("schedule", "generate", *SEASON)
    fixture, *others = listed_fixtures(league)
    busy = next(f for f in others if fixture["home"] in (f["home"], f["away"]))
    code, _, err = league("schedule", "move", fixture["id"], busy["date"])
    assert code == 2 and "already plays" in err and '--override "…", A.3.3' in err
    code, out, err = league("schedule", "move", fixture["id"], busy["date"], "--override", "dohoda kapitánů")
    assert code == 0 and "(override: dohoda kapitánů (" in out
    listed = {f["id"]: f for f in listed_fixtures(league)}[fixture["id"]]
    assert (listed["date"], listed["status"]) == (busy["date"], "scheduled")
    assert listed["note"].startswith("override: dohoda kapitánů (") and "already plays" in listed["note"]
    monkeypatch.setattr("server.storage.store.SystemClock", lambda: ManualClock(dt.datetime(2026, 11, 30, 12, 0)))
    code, _, err = league("schedule", "move", fixture["id"], "2026-10-06")
    assert code == 2 and "2026 is in the past (today is" in err
    assert league("schedule", "move", fixture["id"], "2026-10-06", "--override", "odklad pozdě")[0] == 0


def test_the_table_takes_the_competition_and_season_as_the_other_commands_do(league):
    """docs/league.md: every league command names its competition with --competition (carom unless
    given) and a season with --season; `table` too (--game stays its older name)."""
    import json

    code, out, err = league("table", "--competition", "8ball", *SEASON)
    assert code == 0, err
    table = json.loads(out)
    assert (table["game"], table["season"]) == ("8ball", "2026/27")
    assert json.loads(league("table", "--game", "8ball")[1])["game"] == "8ball"
    assert json.loads(league("table")[1])["game"] == "carom"
