"""A league match that breaks who plays (A.3.6, RULES 1.6 Decision: each player once) or who answers
for a team (A.6.1: a captain is a member of his team in the match) is stored, flagged and held out
of the table until the organiser awards it (server/league/irregular.py, standing.py). On SQLite
and PostgreSQL."""
import datetime as dt

import pytest
from league_admin_helpers import SEASON, device_receiver, fixture_between, free_working_day, lineup_items

from conftest import signer
from server.league.admin_fields import LeagueError
from server.site import calendar, chrome, stats_pages
from server.site.schedule_web import status_text
from server.tables import exports, figures, stats

LVI = ["Novák", "Dvořák", "Svoboda", "Černý"]
ORLI = ["Procházka", "Kučera", "Veselý", "Horák"]


@pytest.fixture
def league(carom_league):
    return carom_league


def _send(store, bodies) -> None:
    receiver = device_receiver(store)
    for body in bodies:
        status, answer = receiver.handle(signer("u-lva-1").sign(body), via="test")
        assert status == 200, answer


def _counted(store) -> dict:
    figures.settle(store)           # after an organiser's change, as the CLI and the web admin do
    return {r["team"]: r["points"] for r in exports.league_table(store, "carom", SEASON)["rows"] if r["matches"]}


def test_a_match_as_the_lot_and_attendance_make_it_is_regular_and_counted(league):
    fixture = fixture_between(league, "Lvi", "Orli")
    answers = {"captains": {"home": "Novák", "away": "Kučera"},
               "signatures": [{"side": "home", "captain": "Novák", "at": "2026-10-06T21:00:00+02:00"}],
               "objections": [{"side": "away", "captain": "Kučera", "kind": "referee", "partie": 2,
                               "at": "2026-10-06T21:01:00+02:00"}]}
    _send(league, lineup_items("m-ok", fixture, LVI, ORLI, **answers))
    record = exports.match_record(league, "m-ok")
    assert (record["irregular"], record["standing"]) == ([], "counted")
    assert league.fixtures.get(fixture["id"])["status"] == "played" and set(_counted(league)) == {"Lvi", "Orli"}


def test_A_3_6_a_player_who_plays_twice_holds_the_match_until_the_organiser_awards_it(league):
    """Novák plays partie 1 and 3 for Lvi: the lot picks each player once (RULES 1.6), so the match
    counts nowhere, the schedule says why, a replay is refused and the award counts."""
    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-twice", fixture, ["Novák", "Dvořák", "novák ", "Černý"], ORLI))
    record = exports.match_record(league, "m-twice")
    assert record["irregular"] == [{"rule": "A.3.6", "side": "home", "name": "Novák", "partie": [1, 3]}]
    assert record["standing"] == "pending" and _counted(league) == {}
    held = league.fixtures.get(fixture["id"])
    assert held["status"] == "irregular" and held["irregular"] == record["irregular"]
    assert status_text(held) == "nesrovnalost v zápisu, čeká na rozhodnutí (A.3.6)"
    assert league.figures.flagged("carom", SEASON) == [
        {"match": "m-twice", "date": fixture["date"], "home": "Lvi", "away": "Orli", "standing": "pending",
         "fixture": fixture["id"], "irregular": record["irregular"]}]
    with pytest.raises(LeagueError, match=r"broke A.3.6 or A.6.1: the organiser awards it"):
        league.results.rule(fixture["id"], "replay", to=free_working_day(league, fixture), reason="znovu")
    league.results.rule(fixture["id"], "award", points="0:8", reason="Novák hrál dvakrát")
    assert _counted(league) == {"Lvi": 0, "Orli": 8}
    assert exports.match_record(league, "m-twice")["standing"] == "counted"
    assert league.figures.flagged("carom", SEASON)[0]["standing"] == "counted"


def test_A_3_6_only_where_players_play_once_8ball_players_play_several_matches():
    """RULES 2.9: in an 8-ball team match a player may play several individual matches; its
    captains are held to A.6.1 all the same (B, who played for the away team, signs for home)."""
    from server.league.irregular import irregularities
    from server.tables import games

    game = games.table_game("8ball")
    record = {"game": "8ball", "individual": [{"home": {"name": "A"}, "away": {"name": "B"}, "number": n}
                                             for n in (1, 2)],
              "captains": {"home": "A", "away": "B"}, "signatures": [{"side": "home", "captain": "B"}]}
    assert not game.plays_once(record) and games.table_game("carom").plays_once({})
    assert irregularities(record, game.lineup(record), {"home": [], "away": []}, plays_once=False) == [
        {"rule": "A.6.1", "side": "home", "name": "B", "played_for": "away"}]


def test_A_6_1_a_captain_who_played_for_the_other_team_holds_the_match(league):
    """Novák, who played for Lvi, signs for Orli: the match's own record shows it, so the match is
    held. Nobody of Lvi's roster captains Lvi: flagged too."""
    fixture = fixture_between(league, "Lvi", "Orli")
    answers = {"captains": {"home": "Pan Nikdo", "away": "Novák"},
               "signatures": [{"side": "home", "captain": "Pan Nikdo", "at": "2026-10-06T21:00:00+02:00"},
                              {"side": "away", "captain": "Novák", "at": "2026-10-06T21:01:00+02:00"}]}
    _send(league, lineup_items("m-cap", fixture, LVI, ORLI, **answers))
    record = exports.match_record(league, "m-cap")
    assert record["irregular"] == [{"rule": "A.6.1", "side": "home", "name": "Pan Nikdo", "played_for": None},
                                   {"rule": "A.6.1", "side": "away", "name": "Novák", "played_for": "home"}]
    assert record["standing"] == "pending" and _counted(league) == {}
    assert league.fixtures.get(fixture["id"])["irregular"] == record["irregular"][1:]     # what holds it


def test_A_6_1_a_captain_off_the_roster_is_flagged_and_a_roster_edit_never_moves_the_table(league):
    """A captain on neither list only because of the roster is flagged, like a name off the roster
    (A.3.4), and the match counts: rosters change during the season, the match's record does not.
    Removing a rostered captain who did not play later flags him, and the table stays."""
    league.league.add_player(SEASON, "carom", "Lvi", "Zeman")
    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-roster", fixture, LVI, ORLI, captains={"home": "Zeman", "away": "Pan Nikdo"}))
    record = exports.match_record(league, "m-roster")
    assert record["irregular"] == [{"rule": "A.6.1", "side": "away", "name": "Pan Nikdo", "played_for": None}]
    counted = _counted(league)
    assert record["standing"] == "counted" and set(counted) == {"Lvi", "Orli"}
    assert league.fixtures.get(fixture["id"])["status"] == "played"
    league.league.remove_player(SEASON, "carom", "Lvi", "Zeman")
    league.league.set_rules(SEASON, "carom", {"entry_fee": 500})         # every match computed again
    assert [e["name"] for e in exports.match_record(league, "m-roster")["irregular"]] == ["Zeman", "Pan Nikdo"]
    assert exports.match_record(league, "m-roster")["standing"] == "counted" and _counted(league) == counted


def test_A_6_1_a_member_of_the_team_is_its_roster_or_who_played_for_it(league):
    """A captain on his team's roster who did not play, and one who played for his team though not
    on its roster (flagged only for that, A.3.4), are members of their team in the match."""
    league.league.add_player(SEASON, "carom", "Lvi", "Marek Lev")       # on the roster, not drawn
    fixture = fixture_between(league, "Lvi", "Orli")
    answers = {"captains": {"home": "marek  lev", "away": "Host"},
               "signatures": [{"side": "away", "captain": "Host", "at": "2026-10-06T21:01:00+02:00"}]}
    _send(league, lineup_items("m-members", fixture, LVI, ["Host", *ORLI[1:]], **answers))
    record = exports.match_record(league, "m-members")
    assert record["irregular"] == [] and record["unrostered"] == ["Host"] and record["standing"] == "counted"


def test_an_irregular_match_off_the_schedule_waits_for_its_assignment_then_for_the_ruling(league):
    """Off the schedule it counts nowhere anyway (unassigned); assigned, it is held for the ruling."""
    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-off", dict(fixture, id=None, date="2026-09-30"), LVI, ["Procházka"] * 4))
    record = exports.match_record(league, "m-off")
    assert record["standing"] == "unassigned" and record["irregular"][0]["partie"] == [1, 2, 3, 4]
    league.results.assign("m-off", fixture["id"])
    assert exports.match_record(league, "m-off")["standing"] == "pending" and _counted(league) == {}


def test_A_6_5_an_award_is_final_no_match_is_assigned_in_its_place(league):
    """The audit's case: an irregular match awarded (A.3.6), then a clean match of the same teams
    assigned to the fixture, which moved the award, its clause and reason onto the clean match."""
    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-twice", fixture, ["Novák"] * 4, ORLI))
    league.results.rule(fixture["id"], "award", points="6:2", reason="Novák hrál čtyřikrát")
    _send(league, lineup_items("m-clean", dict(fixture, id=None, date="2026-09-30"), LVI, ORLI))
    with pytest.raises(LeagueError, match=r"was ruled on \(award, .*\); the organiser's ruling is final \(A.3.6\) "
                                          "and no match takes its place"):
        league.results.assign("m-clean", fixture["id"])
    ruled = league.fixtures.get(fixture["id"])
    assert (ruled["match"], ruled["ruling"]["points_home"]) == ("m-twice", 6)
    assert exports.match_record(league, "m-clean")["standing"] == "unassigned" and _counted(league) == \
        {"Lvi": 6, "Orli": 2}


def test_A_6_1_the_organiser_awards_a_match_a_stranger_captained_from_the_command_line(league, store_place, capsys):
    from cli.main import main

    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-cap", fixture, LVI, ORLI, captains={"home": "Novák", "away": "Dvořák"}))
    rule = ["server", "rule", fixture["id"], "--reason", "kapitán hostů nebyl členem družstva", "--db", store_place]
    assert main([*rule[:3], "replay", "--to", "2026-10-20", *rule[3:]]) == 2
    assert "broke A.3.6 or A.6.1: the organiser awards it" in capsys.readouterr().err
    assert main([*rule[:3], "award", "--points", "4:4", *rule[3:]]) == 0
    assert "awarded 4:4 (A.6.1)" in capsys.readouterr().out
    assert _counted(league) == {"Lvi": 4, "Orli": 4}


def test_an_award_is_a_score_a_match_can_end_with_and_the_zapis_says_it_was_awarded(league):
    """A.6.5, A.3.6: the ruling is final, so a typo's 80:0, 9:0 or 5:2 (4 partie at 2/1/0 always
    add up to 8, A.5.3-A.5.5) and 0:0 are refused, and so is a missing score; the award's zápis
    says who decided and why, and what was played."""
    from server.site import pages

    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-twice", fixture, ["Novák", "Dvořák", "Novák", "Černý"], ORLI))
    for points in ("80:0", "9:0", "5:4", "5:2", "0:0"):
        with pytest.raises(LeagueError, match=f"an award of {points} is no score a match of carom 2026/27 ends with: "
                                              r"played, the team points add up to 8 \(A.5.3-A.5.5, RULES 2.9\); "
                                              r"a forfeit is 8:0 or 0:8 \(A.3.7\)"):
            league.results.rule(fixture["id"], "award", points=points, reason="překlep")
    with pytest.raises(LeagueError, match="the awarded score is missing"):
        league.results.rule(fixture["id"], "award", points=None, reason="bez bodů")
    league.results.rule(fixture["id"], "award", points="3:5", reason="Novák hrál dvakrát")
    with pytest.raises(LeagueError, match=r"ruling is final \(A.3.6\)"):
        league.results.rule(fixture["id"], "award", points="0:8", reason="znovu")
    _counted(league)
    record = exports.match_record(league, "m-twice")
    declared = record["declared_points"]
    page = pages.match(record)
    assert "výsledek přiznal organizátor soutěže (A.3.6)" in page
    assert league.fixtures.get(fixture["id"])["status"] == "played"
    assert status_text(league.fixtures.get(fixture["id"])) == "výsledek přiznal organizátor soutěže (A.3.6)"
    assert (f"Výsledek 3 : 5 přiznal organizátor soutěže (A.3.6) (odehráno {declared['home']} : "
            f"{declared['away']}); důvod: Novák hrál dvakrát.") in page
    assert "Zařízení uvedlo" not in page


def test_the_home_pages_results_say_which_the_table_does_not_count(league):
    """The latest results on the home page: a held match (A.3.6) and one off the schedule are
    marked, not shown as plain results the table does not have; an awarded one says so."""
    import datetime as dt

    from server.site import home

    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-twice", fixture, ["Novák", "Dvořák", "Novák", "Černý"], ORLI))
    _send(league, lineup_items("m-off", dict(fixture, id=None, date="2026-09-30"), LVI, ORLI))
    page = home.build(league, dt.date(2027, 5, 1))
    results = page[page.index("Poslední výsledky"):]
    assert "nesrovnalost v zápisu, čeká na rozhodnutí (A.3.6)" in results
    assert "mimo rozpis, nezapočteno do tabulky" in results
    league.results.rule(fixture["id"], "award", points="0:8", reason="Novák hrál dvakrát")
    figures.settle(league)
    page = home.build(league, dt.date(2027, 5, 1))
    assert "0 : 8" in page and "výsledek přiznal organizátor soutěže (A.3.6)" in page


def _team_says(store, team: str) -> tuple[str, str]:
    """The team's page and its calendar feed, as their routes build them."""
    data = stats.team(store, team, "carom", SEASON)
    now = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)
    return stats_pages.team(data, chrome.PRINTABLE), calendar.feed(data, "Liga", now).decode().replace("\r\n ", "")


def test_A_3_6_the_team_page_and_its_calendar_say_what_the_schedule_says_of_a_held_then_awarded_match(league):
    """The team page and its iCalendar feed said a held match was "čeká na rozhodnutí (A.6.5)" and
    a plain "Výsledek 2 : 6", and an awarded one a bare score: they now say it as the schedule does."""
    fixture = fixture_between(league, "Lvi", "Orli")
    _send(league, lineup_items("m-twice", fixture, ["Novák", "Dvořák", "Novák", "Černý"], ORLI))
    for team in ("Lvi", "Orli"):
        page, feed = _team_says(league, team)
        assert "nesrovnalost v zápisu, čeká na rozhodnutí (A.3.6)" in page and "(A.6.5)" not in page
        assert "Nesrovnalost v zápisu\\, čeká na rozhodnutí (A.3.6)." in feed
    league.results.rule(fixture["id"], "award", points="0:8", reason="Novák hrál dvakrát")
    figures.settle(league)          # as the CLI and the web admin do after a ruling
    page, feed = _team_says(league, "Lvi")
    assert "výsledek přiznal organizátor soutěže (A.3.6)" in page
    assert "Výsledek 0 : 8. Výsledek přiznal organizátor soutěže (A.3.6)." in feed
