"""The league's own data in the store (issue 16): seasons and halves (A.2.1), teams with captains
(A.3.2), rosters (A.3.4), venues and their devices, on SQLite and PostgreSQL."""
import datetime as dt
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from league_admin_helpers import KOULE, LVA, SEASON, set_up_league

from server.league.admin_fields import LeagueError
from server.storage.store import Store


def test_A_2_1_a_season_has_an_autumn_half_in_october_november_and_a_spring_half_in_march_april(store):
    season = store.league.add_season("2026/27")
    assert season["autumn"] == (dt.date(2026, 10, 1), dt.date(2026, 11, 30))
    assert season["spring"] == (dt.date(2027, 3, 1), dt.date(2027, 4, 30))
    shorter = store.league.add_season("2027/28", autumn="2027-10-04..2027-11-26", spring=("2028-03-06", "2028-04-28"))
    assert shorter["autumn"] == (dt.date(2027, 10, 4), dt.date(2027, 11, 26))
    assert [s["name"] for s in store.league.seasons()] == ["2026/27", "2027/28"]


@pytest.mark.postgresql_once
@pytest.mark.parametrize("name, autumn, spring, reason", [
    ("2026/28", None, None, "a season is written like 2026/27"),
    ("2028/29", "2028-09-20..2028-11-30", None, "within October-November 2028 (A.2.1)"),
    ("2028/29", None, "2029-03-01..2029-05-10", "within March-April 2029 (A.2.1)"),
    ("2028/29", "2028-11-30..2028-10-01", None, "ends (2028-10-01) before it begins"),
    ("2026/27", None, None, "season 2026/27 already exists"),
])
def test_A_2_1_a_season_outside_its_months_is_refused_with_the_reason(store, name, autumn, spring, reason):
    store.league.add_season("2026/27")
    with pytest.raises(LeagueError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        store.league.add_season(name, autumn, spring)


def test_A_3_2_a_team_is_entered_with_its_venue_captain_and_the_captains_phone(store):
    set_up_league(store)
    lvi = store.league.team(SEASON, "carom", "Lvi")
    assert (lvi["venue"], lvi["captain"], lvi["phone"], lvi["days"]) == (LVA, "Novák", "+420 777 123 456", "0,1,2")
    assert lvi["players"] == ["Černý", "Dvořák", "Novák", "Svoboda"]           # Czech alphabetical order
    with pytest.raises(LeagueError, match="the captain's phone must be digits"):
        store.league.add_team(SEASON, "carom", "Noví", venue=LVA, captain="Malý", phone="call me")
    with pytest.raises(LeagueError, match="the captain must not be empty"):
        store.league.add_team(SEASON, "carom", "Noví", venue=LVA, captain=" ", phone="777123456")
    with pytest.raises(LeagueError, match="no venue 'U Nikoho'"):
        store.league.add_team(SEASON, "carom", "Noví", venue="U Nikoho", captain="Malý", phone="777123456")
    with pytest.raises(LeagueError, match="team 'Lvi' already plays carom in 2026/27"):
        store.league.add_team(SEASON, "carom", "Lvi", venue=LVA, captain="Malý", phone="777123456")


def test_A_3_4_a_player_already_on_another_team_of_the_season_is_refused_naming_it(store):
    set_up_league(store)
    with pytest.raises(LeagueError, match=r"Novák already plays for team 'Lvi' in 2026/27; a player plays for "
                                          r"one team a season \(A.3.4\)"):
        store.league.add_player(SEASON, "carom", "Orli", "Novák")
    with pytest.raises(LeagueError, match="already plays for this team"):
        store.league.add_player(SEASON, "carom", "Lvi", "Novák")
    store.league.remove_player(SEASON, "carom", "Lvi", "Novák")
    store.league.add_player(SEASON, "carom", "Orli", "Novák")          # off the roster, free to join another
    assert "Novák" in store.league.team(SEASON, "carom", "Orli")["players"]
    store.league.add_season("2027/28")                                 # another season: another team is fine
    store.league.add_team("2027/28", "carom", "Lvi", venue=LVA, captain="Dvořák", phone="777123456")
    store.league.add_player("2027/28", "carom", "Lvi", "Novák")


def test_removing_a_player_not_on_the_roster_says_so(store):
    set_up_league(store)
    with pytest.raises(LeagueError, match="'Nikdo' is not on the roster of 'Lvi'"):
        store.league.remove_player(SEASON, "carom", "Lvi", "Nikdo")


def test_a_venue_lists_its_opening_days_and_the_devices_registered_there(store):
    set_up_league(store)
    venues = {v["name"]: v for v in store.league.venues()}
    assert venues[LVA] == {"name": LVA, "days": "0,1,2,3", "devices": ["u-lva-1"]}
    assert venues[KOULE]["devices"] == ["u-koule-1"] and venues[KOULE]["days"] == ""
    with pytest.raises(LeagueError, match="weekdays are po, út, st, čt, pá"):
        store.league.add_venue("U Soboty", "so")


@pytest.mark.parametrize("bad, reason", [("x" * 101, "at most 100 allowed"), ("a\nb", "one line of printable"),
                                         ("", "must not be empty")])
def test_names_are_bounded_and_one_line(store, bad, reason):
    with pytest.raises(LeagueError, match=reason):
        store.league.add_venue(bad)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["Lvi", "Orli", "Sokoli"]),
                          st.sampled_from(["Novák", "Dvořák", "Svoboda"])), max_size=15))
def test_A_3_4_whatever_the_organiser_does_no_player_is_on_two_teams_of_a_season(steps):
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"{folder}/league.sqlite")
        try:
            set_up_league(store, teams={name: (LVA, "", ("Kapitán " + name,)) for name in ("Lvi", "Orli", "Sokoli")})
            for add, team, player in steps:
                try:
                    (store.league.add_player if add else store.league.remove_player)(SEASON, "carom", team, player)
                except LeagueError as refusal:
                    assert "(A.3.4)" in str(refusal) if add else "is not on the roster" in str(refusal)
            rosters = [p for t in store.league.teams(SEASON, "carom") for p in t["players"]]
            assert len(rosters) == len(set(rosters))
        finally:
            store.close()


def test_the_next_season_is_carried_over_without_the_expelled_team_nor_the_schedule(store):
    """A.3.7: Orli expelled stay out; the others, their rosters (A.3.4) and the competition's rules
    (A.1.2) come over; nothing of the schedule does."""
    from league_admin_helpers import before_the_season, fixture_between, no_show

    set_up_league(before_the_season(store))
    store.league.set_rules(SEASON, "carom", {"entry_fee": "1500"})
    store.fixtures.generate(SEASON, "carom")
    no_show(store, fixture_between(store, "Orli", "Lvi")["id"], "Orli")
    no_show(store, fixture_between(store, "Lvi", "Orli")["id"], "Orli", expel=True)
    done = store.league.carry_over("2027/28", SEASON, "carom")
    assert (done["teams"], done["players"], done["rules"], done["left_out"]) == (3, 12, 3, ["Orli"])
    teams = store.league.teams("2027/28", "carom")
    assert [(t["name"], t["venue"], t["days"], t["expelled"]) for t in teams] == [
        ("Jiskra", KOULE, "3,4", None), ("Lvi", LVA, "0,1,2", None), ("Sokoli", LVA, "", None)]
    assert teams[1]["players"] == ["Černý", "Dvořák", "Novák", "Svoboda"]
    assert store.league.rules("2027/28", "carom")["entry_fee"] == 1500
    assert store.fixtures.of("2027/28", "carom") == []
    with pytest.raises(LeagueError, match=r"carom 2027/28 has 3 team\(s\) already"):
        store.league.carry_over("2027/28", SEASON, "carom")
