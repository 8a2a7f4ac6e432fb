"""The organiser's season tools on the command line (docs/league.md "Command line"): the next
season carried over from this one, through the real `main()`: what it prints, its exit status."""
import datetime as dt

import pytest

from league_cli_helpers import SEASON, listed_fixtures, set_today

NEXT = ("--season", "2027/28")


@pytest.fixture
def league(cli_league):
    return cli_league


def _expel(league, monkeypatch, team: str) -> None:
    """A.3.7: two no-shows of ``team``, the second confirmed, at the end of the season."""
    league("schedule", "generate", *SEASON)
    theirs = [f for f in listed_fixtures(league) if team in (f["home"], f["away"])]
    set_today(monkeypatch, dt.date(2027, 5, 3))
    assert league("no-show", theirs[0]["id"], "--team", team)[0] == 0
    assert league("no-show", theirs[1]["id"], "--team", team, "--expel")[0] == 0


def test_the_next_season_carries_over_teams_rosters_and_rules_but_not_the_expelled_or_the_schedule(
        league, monkeypatch):
    """A.3.2 (venue, captain, phone), A.2.4 (the days asked for), A.3.4 (rosters), A.1.2/A.1.5
    (the competition's rules); A.3.7: an expelled team stays out."""
    assert league("team", "add", "Baník", *SEASON, "--venue", "U Koule", "--captain", "Kapitán Baník",
                  "--phone", "777000111", "--days", "út,čt")[0] == 0
    assert league("player", "add", "Baník 1", "--team", "Baník", *SEASON)[0] == 0
    assert league("competition", "set", *SEASON, "entry_fee=1500", "prize_key=50/30/20", "win_points=3")[0] == 0
    _expel(league, monkeypatch, "Orli")
    code, out, err = league("season", "add", "2027/28", "--from", "2026/27")
    assert code == 0, err
    assert out.splitlines() == [
        "season 2027/28: autumn 2027-10-01..2027-11-30, spring 2028-03-01..2028-04-30; from carom 2026/27: "
        "4 team(s), 7 player(s) on their rosters, 3 rule(s) set; no fixtures, results, no-shows or postponements",
        "left out (expelled, A.3.7): Orli"]
    teams = league("teams", *NEXT)[1].splitlines()
    assert [line.split("\t")[0] for line in teams] == ["Baník", "Jiskra", "Lvi", "Sokoli"]
    assert "Baník\tU Koule\tKapitán Baník 777000111\tút, čt\tBaník 1" in teams
    assert "Lvi\tU Lva\tKapitán Lvi +420 777 000 000\tany working day\tLvi 1, Lvi 2" in teams
    rules = {line.split("\t")[0]: line.split("\t")[1] for line in league("competition", "show", *NEXT)[1].splitlines()}
    assert (rules["entry_fee"], rules["prize_key"], rules["win_points"]) == ("1500", "50/30/20", "3")
    assert listed_fixtures(league, *NEXT) == []
    code, out, _ = league("schedule", "generate", *NEXT)      # the new season's own schedule, from nothing
    assert code == 0 and out.startswith("stored 12 fixtures of carom 2027/28")
    assert {f["status"] for f in listed_fixtures(league, *NEXT)} == {"scheduled"}


def test_each_competition_is_carried_over_into_the_season_already_added(league):
    """The 8-ball teams follow the carom ones into 2027/28 (the season exists, its 8-ball has no teams)."""
    assert league("team", "add", "Kulaři", *SEASON, "--competition", "8ball", "--venue", "U Lva",
                  "--captain", "K", "--phone", "777000111")[0] == 0
    assert league("season", "add", "2027/28", "--from", "2026/27")[0] == 0
    code, out, err = league("season", "add", "2027/28", "--from", "2026/27", "--competition", "8ball")
    assert code == 0, err
    assert "from 8ball 2026/27: 1 team(s), 0 player(s)" in out
    assert [line.split("\t")[0] for line in league("teams", *NEXT, "--competition", "8ball")[1].splitlines()] == [
        "Kulaři"]


@pytest.mark.parametrize("argv, message", [
    (("--from", "2020/21"), "season add: no season '2020/21'; the seasons: 2026/27"),
    (("--from", "2026/2027"), "season add: a season is written like 2026/27 (two years that follow)"),
    (("--from", "2026/27", "--competition", "8ball"),
     "season add: season 2026/27 has no 8ball teams to carry over (--competition names the competition)"),
])
def test_a_carry_over_from_no_such_season_or_competition_is_refused_in_one_line(league, argv, message):
    code, out, err = league("season", "add", "2027/28", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and out == ""
    assert [line.split("\t")[0] for line in league("season", "list")[1].splitlines()] == ["2026/27"]


def test_a_competition_with_teams_already_is_not_carried_over_into(league):
    assert league("season", "add", "2027/28", "--from", "2026/27")[0] == 0
    code, out, err = league("season", "add", "2027/28", "--from", "2026/27")
    assert code == 2 and err.strip().splitlines() == [
        "pocitadlo server: season add: carom 2027/28 has 4 team(s) already; a season is carried over into a "
        "competition without teams"]
    code, _, err = league("season", "add", "2027/28", "--from", "2026/27", "--autumn", "2027-10-04..2027-11-26")
    assert code == 2 and "season 2027/28 already exists; its halves stay as they are" in err
    assert len(league("teams", *NEXT)[1].splitlines()) == 4


def test_a_season_added_without_from_says_it_starts_empty_and_names_from(league):
    code, out, _ = league("season", "add", "2027/28")
    assert code == 0 and out == ("season 2027/28: autumn 2027-10-01..2027-11-30, spring 2028-03-01..2028-04-30; it "
                                 "starts empty: no teams, rosters or rules of its own (--from SEASON carries them over "
                                 "from a season)\n")
    assert league("teams", *NEXT)[1] == ""


def test_fixture_list_overdue_lists_the_matches_past_their_day_with_nothing_recorded(league, monkeypatch):
    """By the store's today (injected, never the wall date): a forfeited (A.3.7) or postponed
    (A.3.3) match is not overdue, nor one on today's date."""
    league("schedule", "generate", *SEASON)
    code, out, _ = league("fixture", "list", *SEASON, "--overdue")
    assert code == 0 and out == "no carom 2026/27 fixture is overdue (today is 2026-09-01)\n"
    fixtures = listed_fixtures(league)
    today = fixtures[4]["date"]
    set_today(monkeypatch, dt.date.fromisoformat(today))
    forfeited, postponed, *waiting = [f for f in fixtures if f["date"] < today]
    assert waiting and league("no-show", forfeited["id"], "--team", forfeited["away"])[0] == 0
    assert league("postpone", postponed["id"], "--team", postponed["home"])[0] == 0
    code, out, _ = league("fixture", "list", *SEASON, "--overdue")
    assert code == 0 and [line.split("\t")[0] for line in out.splitlines()] == [f["id"] for f in waiting]
    assert all(line.split("\t")[6] == "scheduled" for line in out.splitlines())


def _free_day(fixtures: list[dict], *teams_and_venues: str) -> str:
    """A Tuesday or Wednesday of October 2026, a working day, on which none of these plays or hosts."""
    from server.league.schedule import working_day

    busy = {f["date"] for f in fixtures if {f["home"], f["away"], f["venue"]} & set(teams_and_venues)}
    return next(d for d in (dt.date(2026, 10, n) for n in range(5, 31)) if d.isoformat() not in busy
                and working_day(d) and d.weekday() in (1, 2)).isoformat()


def test_A_2_2_a_fixture_added_by_hand_for_a_team_admitted_late(league):
    """Baník join after the draw: their match is added with the id the schedule would give it, on a
    day a move could take (A.2.2 a working day, A.2.1 in a half, A.3.3 neither team busy)."""
    league("schedule", "generate", *SEASON)
    assert league("team", "add", "Baník", *SEASON, "--venue", "U Koule", "--captain", "K", "--phone",
                  "777000111")[0] == 0
    day = _free_day(listed_fixtures(league), "Baník", "Lvi", "U Koule")
    code, out, err = league("fixture", "add", "baník", "LVI", day, "--time", "18:30", *SEASON)
    assert code == 0, err
    added = f"{day}-banik-lvi"
    assert out.startswith(f"added {added} (Baník – Lvi) on {day} 18:30 at U Koule, round ")
    assert out.rstrip("\n").rsplit(" ", 1)[1].isdigit()
    listed = {f["id"]: f for f in listed_fixtures(league)}[added]
    assert (listed["date"], listed["start"], listed["home"], listed["away"], listed["venue"], listed["status"]) == (
        day, "18:30", "Baník", "Lvi", "U Koule", "scheduled")
    code, _, err = league("fixture", "add", "Baník", "Lvi", day, *SEASON)
    assert code == 2 and f"fixture add: fixture {added} exists already (fixture list shows it)" in err


def test_A_3_3_a_fixture_added_on_a_refused_day_needs_the_organisers_override(league):
    league("schedule", "generate", *SEASON)
    busy = listed_fixtures(league)[0]
    home, away = busy["home"], next(t for t in ("Lvi", "Orli", "Sokoli", "Jiskra") if t not in (busy["home"],
                                                                                               busy["away"]))
    code, out, err = league("fixture", "add", home, away, busy["date"], *SEASON)
    assert code == 2 and f"already plays round 1, {busy['home']} – {busy['away']}" in err
    assert "cannot be added on" in err and '--override "…", A.3.3' in err and out == ""
    code, out, err = league("fixture", "add", home, away, busy["date"], *SEASON, "--override", "dohoda kapitánů")
    assert code == 0 and "(override: dohoda kapitánů (" in out


@pytest.mark.parametrize("argv, message", [
    (("Lvi", "lvi", "2026-10-06"), "fixture add: a fixture is between two teams; Lvi cannot play itself"),
    (("Lvi", "Baník", "2026-10-06"), "fixture add: no team 'Baník' in carom 2026/27"),
    (("Lvi", "Orli", "2026-10-10"), "matches are played on working days only (A.2.2)"),
    (("Lvi", "Orli", "2026-12-15"), "is outside the half-season of round"),
    (("Lvi", "Orli", "2026-10-06", "--time", "25:00"), "fixture add: the start must be a time like 17:00, got '25:00'"),
    (("Lvi", "Orli", "6. 10."), "fixture add: the date must be a date like 2026-10-05, got '6. 10.'"),
])
def test_a_fixture_add_that_is_refused_names_why_in_one_line_and_adds_nothing(league, argv, message):
    code, out, err = league("fixture", "add", *argv, *SEASON)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and out == ""
    assert listed_fixtures(league) == []


def test_A_3_2_team_edit_corrects_the_captain_and_phone_and_keeps_what_is_not_given(league):
    code, out, err = league("team", "edit", "lvi", *SEASON, "--captain", "Jan Novák", "--phone", "+420 777 999 888")
    assert code == 0, err
    assert out == "team Lvi (carom 2026/27): captain Jan Novák +420 777 999 888, any working day\n"
    assert league("team", "edit", "Lvi", *SEASON, "--days", "út,čt")[0] == 0
    teams = league("teams", *SEASON)[1].splitlines()
    assert "Lvi\tU Lva\tJan Novák +420 777 999 888\tút, čt\tLvi 1, Lvi 2" in teams
    code, out, err = league("team", "edit", "Lvi", *SEASON, "--phone", "nic")
    assert code == 2 and err.startswith("pocitadlo server: team edit: the captain's phone must be digits") and out == ""
    code, _, err = league("team", "edit", "Baník", *SEASON, "--captain", "K")
    assert code == 2 and "team edit: no team 'Baník' in carom 2026/27" in err


def test_A_3_4_player_rename_corrects_a_roster_name_but_never_into_another_teams_player(league):
    code, out, err = league("player", "rename", "lvi 1", "Lví Jednička", "--team", "Lvi", *SEASON)
    assert code == 0 and out == "lvi 1 of Lvi (2026/27) is now Lví Jednička\n", err
    assert "Lvi\tU Lva\tKapitán Lvi +420 777 000 000\tany working day\tLvi 2, Lví Jednička" in league(
        "teams", *SEASON)[1].splitlines()
    code, _, err = league("player", "rename", "Lvi 2", "orli 1", "--team", "Lvi", *SEASON)
    assert code == 2 and "player rename: orli 1 already plays for team 'Orli' as 'Orli 1' in 2026/27" in err
    code, _, err = league("player", "rename", "Nikdo", "Někdo", "--team", "Lvi", *SEASON)
    assert code == 2 and "player rename: 'Nikdo' is not on the roster of 'Lvi' in 2026/27" in err


def test_A_3_3_withdraw_postponement_gives_the_allowance_and_the_date_back(league):
    league("schedule", "generate", *SEASON)
    fixture = listed_fixtures(league)[0]
    code, out, _ = league("postpone", fixture["id"], "--team", fixture["home"])
    assert code == 0 and f"{fixture['home']} has 1 postponement(s) left" in out
    code, out, err = league("withdraw-postponement", fixture["id"], "--team", fixture["home"])
    assert code == 0, err
    assert out == (f"{fixture['id']}: {fixture['home']}'s postponement withdrawn (A.3.3); scheduled on "
                   f"{fixture['date']} 17:00\n")
    assert {f["id"]: f["status"] for f in listed_fixtures(league)}[fixture["id"]] == "scheduled"
    code, out, _ = league("postpone", fixture["id"], "--team", fixture["home"])
    assert code == 0 and f"{fixture['home']} has 1 postponement(s) left" in out              # not 0: it was given back
    code, _, err = league("withdraw-postponement", fixture["id"], "--team", fixture["away"])
    assert code == 2 and err.strip().splitlines() == [
        f"pocitadlo server: withdraw-postponement: {fixture['away']} has no postponement of fixture {fixture['id']}"]
