"""A team that leaves its competition: it withdraws, or the organiser expels it by decision (A.1.2),
treated as an expulsion of A.3.7 (results annulled, open fixtures cancelled, out of the table and of
the devices' league) and kept with the reason; and its reinstatement, of any expulsion (docs/league.md
"Decisions")."""
import datetime as dt

import pytest
from league_admin_helpers import KOULE, SEASON, fixture_between, no_show, on_the_day

from server.league.admin_fields import LeagueError
from server.tables import exports, figures
from server.tables.league_document import league_document


@pytest.fixture
def league(carom_league):
    return carom_league


def _table(store) -> dict:
    figures.settle(store)
    return {r["team"]: r["matches"] for r in exports.league_table(store, "carom", SEASON)["rows"]}


def _orli(store) -> list[dict]:
    return [f for f in store.fixtures.of(SEASON, "carom") if "Orli" in (f["home"], f["away"])]


@pytest.mark.parametrize("expel, how", [(False, "withdrew"), (True, "decision")])
def test_a_team_withdrawn_or_expelled_by_decision_is_treated_as_an_A_3_7_expulsion_with_its_reason(league, expel, how):
    forfeited = fixture_between(league, "Orli", "Sokoli")["id"]
    no_show(league, forfeited, "Sokoli")                      # Orli's one result: a forfeit in its favour
    assert _table(league)["Orli"] == 1
    done = league.departures.withdraw_team(SEASON, "carom", "orli", reason="nemá hráče", expel=expel)
    assert (done["team"], done["how"], done["annulled"], len(done["cancelled"])) == ("Orli", how, 1, 5)
    team = league.league.team(SEASON, "carom", "Orli")
    assert team["expelled"] and (team["expelled_how"], team["expelled_reason"]) == (how, "nemá hráče")
    assert "Orli" not in _table(league) and _table(league)["Sokoli"] == 0      # its result annulled
    assert {f["status"] for f in _orli(league)} == {"forfeited", "cancelled"}
    document = league_document(league, KOULE, dt.date(2026, 11, 1))
    assert "Orli" not in {t["name"] for t in document["teams"]}
    assert not [f for f in document["fixtures"] if "Orli" in (f["home"], f["away"])]
    with pytest.raises(LeagueError, match=r"Orli left the competition on 20..-..-..: (withdrew|expelled by the "
                                          "organiser's decision)"):
        league.departures.withdraw_team(SEASON, "carom", "Orli", reason="znovu")


@pytest.mark.parametrize("expel, left", [(False, r"Orli withdrew from the competition on 20..-..-.. \(A\.1\.2\)"),
                                         (True, r"Orli was expelled by the organiser's decision on 20..-..-.. "
                                                r"\(A\.1\.2\)")])
def test_A_1_2_a_team_that_left_is_refused_a_fixture_and_a_no_show_saying_how_it_left(league, expel, left):
    """Not "expelled (A.3.7)" for a team that withdrew or was expelled by the organiser's decision."""
    forfeited, cancelled = fixture_between(league, "Orli", "Sokoli")["id"], fixture_between(league, "Jiskra", "Orli")["id"]
    no_show(league, forfeited, "Orli")
    league.departures.withdraw_team(SEASON, "carom", "Orli", reason="nemá hráče", expel=expel)
    with pytest.raises(LeagueError, match=rf"^{left}$"):
        league.fixtures.add(SEASON, "carom", "Orli", "Lvi", "2026-12-01")
    with pytest.raises(LeagueError, match=rf"^{left}$"):
        no_show(league, cancelled, "Orli")
    with pytest.raises(LeagueError, match=rf"^{left}; its no-shows are withdrawn once the team is reinstated"):
        league.departures.withdraw_no_show(forfeited)


def test_a_withdrawal_needs_a_reason_and_a_team_of_the_competition(league):
    with pytest.raises(LeagueError, match="the reason must not be empty"):
        league.departures.withdraw_team(SEASON, "carom", "Orli", reason="  ")
    with pytest.raises(LeagueError, match="no team 'Kosi' in carom 2026/27"):
        league.departures.withdraw_team(SEASON, "carom", "Kosi", reason="x")
    assert not league.league.team(SEASON, "carom", "Orli")["expelled"]


def test_a_reinstated_team_counts_again_its_fixtures_ahead_scheduled_and_those_passed_waiting_for_a_date(league):
    """Reinstated on the evening of its first cancelled fixture's date: that one and the later ones
    are scheduled again on their dates; one whose date passed while the team was out is postponed
    (a new date is the organiser's schedule move), and the forfeit stays."""
    forfeited = fixture_between(league, "Orli", "Sokoli")["id"]
    no_show(league, forfeited, "Sokoli")
    cancelled = league.departures.withdraw_team(SEASON, "carom", "Orli", reason="odstoupili")["cancelled"]
    on_the_day(league, cancelled[1])
    done = league.departures.reinstate_team(SEASON, "carom", "Orli")
    assert done["scheduled"] == cancelled[1:] and [f for f, _ in done["postponed"]] == cancelled[:1]
    assert "has passed" in done["postponed"][0][1]
    team = league.league.team(SEASON, "carom", "Orli")
    assert (team["expelled"], team["expelled_how"], team["expelled_reason"]) == (None, None, None)
    statuses = {f["id"]: f["status"] for f in _orli(league)}
    assert statuses == {forfeited: "forfeited", cancelled[0]: "postponed",
                        **{f: "scheduled" for f in cancelled[1:]}}
    assert _table(league)["Orli"] == 1 and _table(league)["Sokoli"] == 1      # the forfeit counts again
    with pytest.raises(LeagueError, match="Orli plays in carom 2026/27: it has not withdrawn nor been expelled"):
        league.departures.reinstate_team(SEASON, "carom", "Orli")


def test_A_3_7_a_team_expelled_by_its_no_shows_is_reinstated_the_no_shows_stay_and_the_next_expels_again(league):
    first, second = fixture_between(league, "Orli", "Sokoli")["id"], fixture_between(league, "Jiskra", "Orli")["id"]
    no_show(league, first, "Orli")
    expelled = no_show(league, second, "Orli", expel=True)
    assert league.league.team(SEASON, "carom", "Orli")["expelled_how"] == "no-shows"
    done = league.departures.reinstate_team(SEASON, "carom", "Orli")
    assert done["no_shows"] == 2 and sorted(done["scheduled"]) == sorted(expelled["cancelled"])
    assert {league.fixtures.get(f)["status"] for f in (first, second)} == {"forfeited"}
    assert _table(league)["Orli"] == 2
    third = fixture_between(league, "Orli", "Lvi")["id"]
    with pytest.raises(LeagueError, match="this is Orli's no-show 3: it expels the team"):
        no_show(league, third, "Orli")
    league.departures.withdraw_no_show(second)         # reinstated, its mistaken no-show can go now
    assert league.fixtures.get(second)["status"] == "scheduled"


def test_a_fixture_against_a_team_still_out_stays_cancelled_when_the_other_is_reinstated(league):
    league.departures.withdraw_team(SEASON, "carom", "Orli", reason="a")
    league.departures.withdraw_team(SEASON, "carom", "Jiskra", reason="b", expel=True)
    done = league.departures.reinstate_team(SEASON, "carom", "Jiskra")
    between = {fixture_between(league, "Orli", "Jiskra")["id"], fixture_between(league, "Jiskra", "Orli")["id"]}
    assert not between & set(done["scheduled"]) and len(done["scheduled"]) == 4
    assert {league.fixtures.get(f)["status"] for f in between} == {"cancelled"}
