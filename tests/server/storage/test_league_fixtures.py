"""The league's fixtures in the store: the generated schedule (A.2.2-A.2.5), moves, postponements
(A.3.3) and no-shows with expulsion (A.3.7), and the table honouring the Decision (docs/league.md)."""
import datetime as dt

import pytest
from league_admin_helpers import (
    SEASON,
    device_receiver,
    fixture_between,
    free_working_day,
    no_show,
    on_the_day,
    play_as_device,
    set_up_league,
)

from clock import ManualClock
from server.league.admin_fields import LeagueError
from server.tables import exports, figures


@pytest.fixture
def league(carom_league):
    return carom_league


def test_A_2_5_the_generated_schedule_is_stored_home_and_away_from_17_00(league):
    fixtures = league.fixtures.of(SEASON, "carom")
    assert len(fixtures) == 12                       # 4 teams, each with each, home and away
    pairs = {(f["home"], f["away"]) for f in fixtures}
    assert len(pairs) == 12 and all((away, home) in pairs for home, away in pairs)
    assert {f["start"] for f in fixtures} == {"17:00"} and {f["status"] for f in fixtures} == {"scheduled"}
    lvi_home = fixture_between(league, "Lvi", "Orli")
    assert lvi_home["venue"] == "Hostinec U Lva" and lvi_home["id"].endswith("-lvi-orli")
    assert all(dt.date.fromisoformat(f["date"]).weekday() < 5 for f in fixtures)      # A.2.2


def test_a_schedule_is_drawn_once_unless_replaced_before_it_begins(league):
    with pytest.raises(LeagueError, match="already has a schedule of 12 fixtures"):
        league.fixtures.generate(SEASON, "carom")
    assert league.fixtures.generate(SEASON, "carom", replace=True)["fixtures"] == 12
    league.fixtures.postpone(fixture_between(league, "Lvi", "Orli")["id"], "Lvi")
    with pytest.raises(LeagueError, match="has begun"):
        league.fixtures.generate(SEASON, "carom", replace=True)


def test_a_schedule_needs_two_teams(store):
    store.league.add_season(SEASON)
    with pytest.raises(LeagueError, match="has 0 team"):
        store.fixtures.generate(SEASON, "8ball")


def test_the_organiser_moves_a_match_to_a_free_working_day_and_is_told_why_not_otherwise(league):
    fixture = fixture_between(league, "Lvi", "Orli")
    day = free_working_day(league, fixture)
    assert league.fixtures.move(fixture["id"], day)["date"] == day.isoformat()
    saturday = day + dt.timedelta(days=5 - day.weekday())
    with pytest.raises(LeagueError, match=r"working days only \(A.2.2\)"):
        league.fixtures.move(fixture["id"], saturday)
    with pytest.raises(LeagueError, match=r"outside the half-season .*A.2.1"):
        league.fixtures.move(fixture["id"], dt.date(2027, 1, 12))
    other = next(f for f in league.fixtures.of(SEASON, "carom") if "Lvi" in (f["home"], f["away"])
                 and f["id"] != fixture["id"] and f["date"][:4] == day.isoformat()[:4])
    with pytest.raises(LeagueError, match="Lvi already plays"):
        league.fixtures.move(fixture["id"], dt.date.fromisoformat(other["date"]))
    with pytest.raises(LeagueError, match="no fixture 'nope'"):
        league.fixtures.move("nope", day)


def test_A_3_3_a_team_postpones_at_most_twice_a_season_the_third_is_refused_with_the_reason(league):
    lvi = [f for f in league.fixtures.of(SEASON, "carom") if "Lvi" in (f["home"], f["away"])]
    first = league.fixtures.postpone(lvi[0]["id"], "Lvi", reason="směna")
    assert first["fixture"]["status"] == "postponed" and first["left"] == 1
    day = free_working_day(league, lvi[1])
    second = league.fixtures.postpone(lvi[1]["id"], "Lvi", to=day)
    assert second["fixture"]["date"] == day.isoformat() and second["fixture"]["status"] == "scheduled"
    with pytest.raises(LeagueError, match=rf"Lvi has already postponed 2 matches in 2026/27 \({lvi[0]['id']}, "
                                          rf"{lvi[1]['id']}\); a team may postpone at most 2 \(A.3.3\)"):
        league.fixtures.postpone(lvi[2]["id"], "Lvi")
    assert league.fixtures.get(lvi[2]["id"])["status"] == "scheduled"          # refused: nothing changed
    opponent = lvi[2]["away"] if lvi[2]["home"] == "Lvi" else lvi[2]["home"]
    assert league.fixtures.postpone(lvi[2]["id"], opponent)["postponements"] == 1   # counted per team
    assert [p["fixture"] for p in league.fixtures.postponements(SEASON, "carom", "Lvi")] == [lvi[0]["id"], lvi[1]["id"]]
    with pytest.raises(LeagueError, match="'Jiskra' does not play fixture"):
        league.fixtures.postpone(fixture_between(league, "Lvi", "Orli")["id"], "Jiskra")


def test_A_3_3_a_postponement_withdrawn_gives_the_team_its_postponement_back_and_the_old_date_if_still_valid(league):
    fixture = fixture_between(league, "Lvi", "Orli")
    league.fixtures.postpone(fixture["id"], "Lvi")
    done = league.fixtures.withdraw_postponement(fixture["id"], "Lvi")
    assert (done["fixture"]["status"], done["fixture"]["date"], done["kept"]) == ("scheduled", fixture["date"], None)
    assert league.fixtures.postponements(SEASON, "carom", "Lvi") == []


def test_A_3_3_a_postponement_withdrawn_keeps_the_date_the_match_was_moved_to_since_and_its_note(league):
    """The audit's case: postponed without a date, moved after the season with the organiser's
    override; withdrawing the postponement put it back on its past autumn date, with the note."""
    fixture = fixture_between(league, "Lvi", "Orli")
    league.fixtures.postpone(fixture["id"], "Lvi")
    moved = league.fixtures.move(fixture["id"], "2027-05-04", override="odložený podzimní zápas")
    assert "2027 is outside the half-season" in moved["override"]
    done = league.fixtures.withdraw_postponement(fixture["id"], "Lvi")
    assert (done["fixture"]["date"], done["fixture"]["override"]) == ("2027-05-04", moved["override"])
    assert done["kept"] == "it was given 2027-05-04 since"
    assert league.fixtures.postponements(SEASON, "carom", "Lvi") == []          # the count is back (A.3.3)


def test_A_3_3_a_postponement_withdrawn_after_the_old_date_passed_leaves_the_match_waiting_for_one(league):
    fixture = fixture_between(league, "Lvi", "Orli")
    league.fixtures.postpone(fixture["id"], "Lvi")
    on_the_day(league, fixture["id"]).clock.advance(24 * 3600)          # the day after the match's old date
    done = league.fixtures.withdraw_postponement(fixture["id"], "Lvi")
    assert done["fixture"]["status"] == "postponed" and "is in the past" in done["kept"]
    assert league.fixtures.postponements(SEASON, "carom", "Lvi") == []


def test_A_3_3_a_late_autumn_match_postponed_takes_a_spring_day_without_an_override(league):
    """The audit's late-November postponement: on the store's clock of 25 November 2026 every
    autumn day left is taken or past, and the spring half was refused unless overridden; a
    postponed match may take a day of the season's later half (docs/league.md "Decisions"), not
    one of the winter break."""
    fixture = max(league.fixtures.of(SEASON, "carom"), key=lambda f: f["date"] if f["date"] < "2027" else "")
    league.clock = ManualClock(dt.datetime(2026, 11, 25, 12, 0))
    spring = dt.date(2027, 3, 1)
    while any(f["date"] == spring.isoformat() and {f["home"], f["away"], f["venue"]} &
              {fixture["home"], fixture["away"], fixture["venue"]} for f in league.fixtures.of(SEASON, "carom")) \
            or spring.weekday() not in (1, 2):
        spring += dt.timedelta(days=1)
    with pytest.raises(LeagueError, match="outside the half-season of"):
        league.fixtures.move(fixture["id"], spring)                         # not postponed: its half only
    league.fixtures.postpone(fixture["id"], fixture["home"])
    with pytest.raises(LeagueError, match=r"outside the half-seasons a postponed .*A.2.1, A.3.3"):
        league.fixtures.move(fixture["id"], dt.date(2026, 12, 15))          # the winter break
    moved = league.fixtures.move(fixture["id"], spring)
    assert (moved["status"], moved["date"], moved["override"]) == ("scheduled", spring.isoformat(), None)
    other = next(f for f in league.fixtures.of(SEASON, "carom") if f["date"] < "2026-12" and f["status"] == "scheduled"
                 and f["id"] != fixture["id"] and not {f["home"], f["away"]} & {fixture["home"], fixture["away"]})
    postponed = league.fixtures.postpone(other["id"], other["away"], to=free_working_day(
        league, dict(other, date="2027-03-01")))["fixture"]             # postpone --to a spring day at once
    assert postponed["date"] > "2027" and postponed["override"] is None


def test_A_3_3_the_override_note_goes_with_the_date_it_explained(league):
    """Moved with an override onto a day Lvi had another match; that match moved away, the
    postponement withdrawn brings the match back to the day, which needs no override now: nor its
    note (it explained a clash that is gone)."""
    fixture, other = fixture_between(league, "Lvi", "Orli"), fixture_between(league, "Sokoli", "Lvi")
    day = free_working_day(league, fixture)
    league.fixtures.move(other["id"], day, override="hráno dříve")
    noted = league.fixtures.move(fixture["id"], day, override="dohoda kapitánů")["override"]
    assert "Lvi already plays" in noted
    league.fixtures.move(other["id"], other["date"], override="vráceno")
    league.fixtures.postpone(fixture["id"], "Orli")
    done = league.fixtures.withdraw_postponement(fixture["id"], "Orli")
    assert (done["fixture"]["date"], done["fixture"]["override"], done["kept"]) == (day.isoformat(), None, None)


def _play(store, match_items, sign):
    """The device's record of Lvi v Orli (carom_samples.match) under the fixture's id, through the receiver."""
    fixture = fixture_between(store, "Lvi", "Orli")
    receiver = device_receiver(store)
    for body in match_items(fixture["id"], date=fixture["date"]):
        status, answer = receiver.handle(sign("u-lva-1").sign(body), via="test")
        assert status == 200, answer
    return fixture


def test_A_3_7_a_no_show_forfeits_the_match_and_the_second_expels_the_team_its_results_annulled(league, items, sign):
    played = _play(league, items, sign)
    table = {r["team"]: r for r in exports.league_table(league, "carom", SEASON)["rows"]}
    assert {team: row["matches"] for team, row in table.items()} == {"Lvi": 1, "Orli": 1, "Sokoli": 0, "Jiskra": 0}
    first = no_show(league, fixture_between(league, "Orli", "Sokoli")["id"], "Orli")
    assert first == {"fixture": fixture_between(league, "Orli", "Sokoli")["id"], "absent": "Orli",
                     "forfeited_to": "Sokoli", "no_shows": 1, "expelled": False, "cancelled": []}
    figures.settle(league)          # the figures the no-show made due (the CLI and the admin do it at once)
    assert fixture_between(league, "Orli", "Sokoli")["status"] == "forfeited"
    table = {r["team"]: r for r in exports.league_table(league, "carom", SEASON)["rows"]}
    assert table["Sokoli"]["points"] == 8 and table["Orli"]["matches"] == 2      # forfeited 8 : 0
    second = no_show(league, fixture_between(league, "Jiskra", "Orli")["id"], "Orli", expel=True)
    figures.settle(league)
    assert second["expelled"] and second["no_shows"] == 2
    assert fixture_between(league, "Orli", "Lvi")["id"] in second["cancelled"]
    assert played["id"] not in second["cancelled"]
    assert league.league.team(SEASON, "carom", "Orli")["expelled"]
    rows = exports.league_table(league, "carom", SEASON)["rows"]
    assert [r["team"] for r in rows if r["matches"]] == []    # Lvi's only match was against Orli: annulled
    assert "Orli" not in {r["team"] for r in rows}           # and the expelled team is out of the table
    assert {f["status"] for f in league.fixtures.of(SEASON, "carom") if "Orli" in (f["home"], f["away"])} \
        == {"played", "forfeited", "cancelled"}
    with pytest.raises(LeagueError, match=r"Orli was expelled on .* \(A.3.7\)"):
        no_show(league, fixture_between(league, "Orli", "Jiskra")["id"], "Orli")


def test_A_3_7_a_no_show_for_a_match_already_forfeited_or_played_is_refused(league, items, sign):
    played = _play(league, items, sign)
    with pytest.raises(LeagueError, match="is played"):
        no_show(league, played["id"], "Orli")
    fixture = fixture_between(league, "Sokoli", "Jiskra")
    no_show(league, fixture["id"], "Jiskra")
    with pytest.raises(LeagueError, match="is forfeited"):
        no_show(league, fixture["id"], "Sokoli")
    with pytest.raises(LeagueError, match="only a match still to be played can move"):
        league.fixtures.move(fixture["id"], free_working_day(league, fixture))


def test_A_3_7_a_no_show_is_refused_before_the_matchs_day_and_for_a_match_postponed_without_a_date(league):
    """A.3.7 "nedostaví se k utkání": a team fails to turn up on the match's day, not before it;
    "today" is the store's clock (1 September 2026 here), never the wall clock."""
    fixture = fixture_between(league, "Orli", "Sokoli")
    with pytest.raises(LeagueError, match=rf"fixture {fixture['id']} is on {fixture['date']}, after today "
                                          r"\(2026-09-01\); a no-show is recorded on or after the match's day"):
        league.departures.no_show(fixture["id"], "Orli")
    league.fixtures.postpone(fixture["id"], "Sokoli")
    with pytest.raises(LeagueError, match="is postponed without a date; a no-show is recorded on or after"):
        no_show(league, fixture["id"], "Orli")
    assert league.fixtures.get(fixture["id"])["no_show"] is None
    assert league.fixtures.get(fixture["id"])["status"] == "postponed"
    assert no_show(league, fixture_between(league, "Lvi", "Orli")["id"], "Orli")["forfeited_to"] == "Lvi"


def test_A_3_7_the_no_show_that_expels_is_confirmed_explicitly_saying_what_it_annuls(league):
    no_show(league, fixture_between(league, "Orli", "Sokoli")["id"], "Orli")
    second = fixture_between(league, "Jiskra", "Orli")["id"]
    with pytest.raises(LeagueError, match=r"this is Orli's no-show 2: it expels the team \(A.3.7\), annuls its 1 "
                                          r"result\(s\) and cancels its other 4 fixture\(s\)"):
        no_show(league, second, "Orli")
    assert league.fixtures.get(second)["status"] == "scheduled" and not league.league.team(SEASON, "carom", "Orli")["expelled"]
    assert no_show(league, second, "Orli", expel=True)["expelled"]


def test_A_3_7_a_mistaken_no_show_is_withdrawn_and_the_fixture_is_as_it_was(league):
    fixture = fixture_between(league, "Orli", "Sokoli")
    no_show(league, fixture["id"], "Orli")
    figures.settle(league)
    withdrawn = league.departures.withdraw_no_show(fixture["id"])
    figures.settle(league)
    assert (withdrawn["status"], withdrawn["date"], withdrawn["no_show"], withdrawn["match"]) == \
        ("scheduled", fixture["date"], None, None)
    assert {r["team"]: r["matches"] for r in exports.league_table(league, "carom", SEASON)["rows"]} == \
        {"Lvi": 0, "Orli": 0, "Sokoli": 0, "Jiskra": 0}
    assert exports.match_record(league, fixture["id"]) is None
    other = fixture_between(league, "Jiskra", "Orli")["id"]
    assert not no_show(league, other, "Orli")["expelled"]        # the withdrawn one no longer counts
    with pytest.raises(LeagueError, match="has no no-show to withdraw"):
        league.departures.withdraw_no_show(fixture["id"])


def test_A_3_7_a_no_show_that_expelled_the_team_is_not_withdrawn(league):
    first = fixture_between(league, "Orli", "Sokoli")["id"]
    no_show(league, first, "Orli")
    no_show(league, fixture_between(league, "Jiskra", "Orli")["id"], "Orli", expel=True)
    with pytest.raises(LeagueError, match=r"Orli was expelled on .* \(A.3.7\); its no-shows are withdrawn once "
                                          "the team is reinstated"):
        league.departures.withdraw_no_show(first)
    assert league.fixtures.get(first)["status"] == "forfeited"


def test_A_2_3_the_draw_follows_the_published_lot_the_same_lot_the_same_schedule(store):
    set_up_league(store)

    def drawn(lot):
        plan = store.fixtures.generate(SEASON, "carom", lot=lot, replace=True)
        assert plan["lot"] == (lot or "2026/27 carom")
        return [(f["date"], f["home"], f["away"]) for f in store.fixtures.of(SEASON, "carom")]

    first = drawn("losování 2026-09-15")
    assert drawn("losování 2026-09-15") == first
    assert drawn(None) == drawn("2026/27 carom")


def test_A_3_7_an_expelled_team_leaves_the_8ball_table_too(store, sign):
    import carom_samples
    from delivery.outbox import item_body

    set_up_league(store, "8ball", rules={"8ball": {"partie_per_match": 2}})     # the sample's two
    store.fixtures.generate(SEASON, "8ball")
    fixture = fixture_between(store, "Jiskra", "Orli", "8ball")
    played, (match_id, *closing) = carom_samples.eightball_match(fixture["id"], "Jiskra", "Orli", ["hhhhhh", "wwwhhhwww"],
                                                           date=fixture["date"])
    bodies = [item_body(item_id, "partie", *rest) for item_id, *rest in played] + [item_body(match_id, "match",
                                                                                              *closing)]
    for body in bodies:
        status, answer = device_receiver(store).handle(sign("u-koule-1").sign(body), via="test")
        assert status == 200, answer
    assert {r["team"] for r in exports.league_table(store, "8ball", SEASON)["rows"] if r["matches"]} == \
        {"Jiskra", "Orli"}
    for home, away in (("Orli", "Sokoli"), ("Lvi", "Orli")):
        no_show(store, fixture_between(store, home, away, "8ball")["id"], "Orli", expel=True)
    figures.settle(store)
    rows = exports.league_table(store, "8ball", SEASON)["rows"]
    assert [r for r in rows if r["matches"]] == [] and "Orli" not in {r["team"] for r in rows}


def test_A_3_7_an_8ball_no_show_gives_the_winner_the_competitions_forfeit_score(store):
    """Issue 22: an 8-ball no-show counts in the table (the full score of a match won by default:
    4 individual matches, 1 point each, RULES 2.9), or the competition's forfeit_points when the
    organiser set it (before the season's first result, A.1.2); the schedule says for whom."""
    set_up_league(store, "8ball")
    store.fixtures.generate(SEASON, "8ball")
    no_show(store, fixture_between(store, "Lvi", "Orli", "8ball")["id"], "Orli")
    figures.settle(store)
    assert fixture_between(store, "Lvi", "Orli", "8ball")["forfeited_to"] == "Lvi"
    assert {r["team"]: r["points"] for r in exports.league_table(store, "8ball", SEASON)["rows"] if r["matches"]} == \
        {"Lvi": 4, "Orli": 0}
    with pytest.raises(LeagueError, match=r"forfeit_points \(A.3.7\) stays 4 this season"):
        store.league.set_rules(SEASON, "8ball", {"forfeit_points": "3"})


def test_A_3_7_the_forfeit_score_the_organiser_set_counts(store):
    set_up_league(store, "8ball")
    store.league.set_rules(SEASON, "8ball", {"forfeit_points": "3"})
    store.fixtures.generate(SEASON, "8ball")
    store.departures.no_show(fixture_between(store, "Lvi", "Orli", "8ball")["id"], "Orli")
    figures.settle(store)
    assert {r["team"]: r["points"] for r in exports.league_table(store, "8ball", SEASON)["rows"] if r["matches"]} == \
        {"Lvi": 3, "Orli": 0}


def test_a_fixture_is_played_by_the_device_match_that_names_it(league, items, sign):
    fixture = fixture_between(league, "Lvi", "Orli")
    match_id = play_as_device(league, items, sign, fixture)
    played = league.fixtures.get(fixture["id"])
    assert played["status"] == "played" and played["match"] == match_id
    assert played["points_home"] + played["points_away"] == 8
    assert fixture_between(league, "Orli", "Lvi")["status"] == "scheduled"      # the return leg is not


def test_A_3_7_the_device_record_of_the_no_show_takes_the_place_of_the_organisers(league, items, sign):
    """The organiser recorded Orli's no-show; the counter's own "Tým nepřišel" record of it follows
    and takes the forfeit's place (a zápis from the table). A match played for the fixture after
    all is refused: the forfeit stands, a correction is the organiser's act (issue 22)."""
    import carom_samples
    from delivery.outbox import item_body

    fixture = fixture_between(league, "Lvi", "Orli")
    no_show(league, fixture["id"], "Orli")
    figures.settle(league)
    assert {r["team"]: r["points"] for r in exports.league_table(league, "carom", SEASON)["rows"]} == \
        {"Lvi": 8, "Orli": 0, "Sokoli": 0, "Jiskra": 0}
    receiver = device_receiver(league)
    played = items(f"{fixture['id']}-played", date=fixture["date"], fixture=fixture["id"])
    status, answer = receiver.handle(sign("u-lva-1").sign(played[0]), via="test")
    assert status == 403 and "was forfeited: Orli did not turn up" in answer["reason"]
    match_id = f"{fixture['id']}-a1b2c3"
    item_id, text, summary = carom_samples.no_show(match_id, "Lvi", "Orli", "away", date=fixture["date"],
                                                   fixture=fixture["id"])
    body = item_body(item_id, "match", text, summary)
    assert receiver.handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    table = {r["team"]: r for r in exports.league_table(league, "carom", SEASON)["rows"]}
    assert (table["Lvi"]["points"], table["Lvi"]["matches"]) == (8, 1)
    assert league.fixtures.get(fixture["id"])["match"] == match_id
    assert exports.match_record(league, fixture["id"]) is None          # the organiser's stand-in is gone
    assert league.league.team(SEASON, "carom", "Orli")["expelled"] is None   # one no-show, counted once
    with pytest.raises(LeagueError, match=f"is the counter's match record {match_id}; only the organiser's own"):
        league.departures.withdraw_no_show(fixture["id"])


def test_A_3_4_a_player_who_played_for_a_team_this_season_joins_no_other(league, items, sign):
    """Lvi's partie were played by names on neither roster: the match is stored, those names are
    flagged on it; once "Lvi hráč 1" has played for Lvi, he cannot be put on Sokoli's roster this
    season, though he is on no roster (A.3.4: one team a season, over the season's history)."""
    match_id = play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli"))
    assert "Lvi hráč 1" in exports.match_record(league, match_id)["unrostered"]
    with pytest.raises(LeagueError, match=r"Lvi hráč 1 has played for team 'Lvi' in 2026/27; .*\(A.3.4\)"):
        league.league.add_player(SEASON, "carom", "Sokoli", "lvi  HRÁČ 1")
    with pytest.raises(LeagueError, match=r"Lvi hráč 1 has played for team 'Lvi'"):     # however it is written
        league.league.add_player(SEASON, "carom", "Sokoli", "lvi hrac 1")
    league.league.add_player(SEASON, "carom", "Lvi", "Lvi hráč 1")             # his own team's roster
    assert "Lvi hráč 1" not in exports.match_record(league, match_id)["unrostered"]


def test_A_3_4_the_other_teams_player_is_flagged_too(league, items, sign):
    """A name on the opponent's roster playing for the home team is flagged like a name on no
    roster: a player plays for one team a season (A.3.4), whichever rosters hold him."""
    league.league.add_player(SEASON, "carom", "Orli", "Lvi hráč 1")       # Orli's, then plays for Lvi
    match_id = play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli"))
    record = exports.match_record(league, match_id)
    assert "Lvi hráč 1" in [p["home"]["name"] for p in record["partie"]]
    assert "Lvi hráč 1" in record["unrostered"]


def _interrupted(store, fixture: dict, match_id: str, closed: int) -> None:
    """U Lva's counter records the fixture's match, interrupted after ``closed`` partie (A.6.5)."""
    import json

    import carom_samples
    from delivery.outbox import item_body

    played, _ = carom_samples.match(match_id, "Lvi", "Orli", date=fixture["date"], fixture=fixture["id"],
                                    points_limit=20, innings_limit=3)
    played = played[:closed]
    _, text, summary = carom_samples.closing(json.loads(played[0][1].splitlines()[0])["match"], played)
    summary["interrupted"] = {"partie": closed + 1, "reason": "closing", "captain": "Novák",
                              "at": "2026-10-06T20:10:00+02:00"}       # as rules/night.py's match_summary
    bodies = [item_body(pid, "partie", t, s) for pid, t, s in played] + [item_body(match_id, "match", text, summary)]
    receiver = device_receiver(store)
    for body in bodies:
        status, answer = receiver.handle(sign_as("u-lva-1", body), via="test")
        assert status == 200, answer


def sign_as(device: str, body: bytes):
    from conftest import signer

    return signer(device).sign(body)


def test_A_6_5_an_interrupted_match_is_pending_until_the_organiser_awards_it(league, store_place, capsys):
    """The match interrupted after 2 partie counts nowhere and the schedule says "interrupted"
    until the organiser's ruling (`pocitadlo server rule … award`), which is final."""
    from cli.main import main

    fixture = fixture_between(league, "Lvi", "Orli")
    _interrupted(league, fixture, "m-int", 2)
    assert fixture_between(league, "Lvi", "Orli")["status"] == "interrupted"
    assert exports.match_record(league, "m-int")["standing"] == "pending"
    assert [r for r in exports.league_table(league, "carom", SEASON)["rows"] if r["matches"] or r["points"]] == []
    rule = ["server", "rule", fixture["id"], "award", "--reason", "herna zavřena", "--db", store_place]
    assert main([*rule, "--points", "osm"]) == 2
    assert "written HOME:AWAY" in capsys.readouterr().err
    assert main([*rule, "--points", "6:2"]) == 0
    assert "awarded 6:2 (A.6.5)" in capsys.readouterr().out
    rows = exports.league_table(league, "carom", SEASON)["rows"]
    assert {r["team"]: r["points"] for r in rows if r["matches"]} == {"Lvi": 6, "Orli": 2}
    assert fixture_between(league, "Lvi", "Orli")["ruling"]["kind"] == "award"
    from server.site import pages

    zapis = pages.match(exports.match_record(league, "m-int"))      # decided: no longer "rozhodne organizátor"
    assert "rozhodne organizátor" not in zapis and "Výsledek 6 : 2 přiznal organizátor soutěže (A.6.5)" in zapis
    with pytest.raises(LeagueError, match=r"ruling is final \(A.6.5\)"):
        league.results.rule(fixture["id"], "award", points="8:0", reason="znovu")


def test_A_6_5_the_rest_of_an_interrupted_match_is_replayed_on_the_ruled_date(league, items):
    """The organiser rules the rest be replayed: the fixture gets the new date; the counter's match
    of the remaining partie is accepted as its rest, and a third match is refused."""
    fixture = fixture_between(league, "Lvi", "Orli")
    _interrupted(league, fixture, "m-int", 2)
    day = free_working_day(league, fixture)
    league.results.rule(fixture["id"], "replay", to=day, reason="zranění")
    figures.settle(league)          # as the CLI and the admin do after a change
    ruled = league.fixtures.get(fixture["id"])
    assert (ruled["date"], ruled["status"]) == (day.isoformat(), "scheduled")
    receiver = device_receiver(league)
    import carom_samples
    from delivery.outbox import item_body

    played, (mid, text, summary) = carom_samples.match("m-rest", "Lvi", "Orli", date=day.isoformat(),
                                                       fixture=fixture["id"], points_limit=20, innings_limit=3)
    played = played[:2]
    _, text, summary = carom_samples.closing(summary | {"id": "m-rest"}, played)
    for body in [item_body(p, "partie", t, s) for p, t, s in played] + [item_body("m-rest", "match", text, summary)]:
        status, answer = receiver.handle(sign_as("u-lva-1", body), via="test")
        assert status == 200, answer
    figures.settle(league)
    after = league.fixtures.get(fixture["id"])
    assert (after["match"], after["continuation"], after["status"]) == ("m-int", "m-rest", "played")
    _assert_results_follow_the_table(league)            # one fixture, judged once on its whole score
    rows = {r["team"]: r for r in exports.league_table(league, "carom", SEASON)["rows"]}
    home, away = after["points_home"], after["points_away"]
    expected = "won" if home > away else "lost" if home < away else "drawn"
    assert rows["Lvi"]["form"] == [expected]
    from server.site import home as home_page

    page = home_page.build(league, dt.date(2027, 6, 1))
    results = page[page.index("Poslední výsledky"):]      # one result, the whole score, the zápis of its start
    assert results.count("class=\"card\"") == 1 and f">{home} : {away}<" in results
    assert "/matches/m-int" in results and "/matches/m-rest" not in results
    from server.site import pages

    start, rest = (pages.match(exports.match_record(league, m)) for m in ("m-int", "m-rest"))
    assert "rozhodne organizátor" not in start and "nařídil dohrát zbývající partie" in start
    for page, other in ((start, "/matches/m-rest.html"), (rest, "/matches/m-int.html")):
        assert f"Výsledek utkání i s dohrávkou: {home} : {away}." in page and f'href="{other}"' in page
    assert "Dohrávka přerušeného utkání (A.6.5)." in rest
    status, answer = receiver.handle(sign_as("u-lva-1", items("m-third", date=day.isoformat(),
                                                                fixture=fixture["id"])[0]), via="test")
    assert status == 403 and "already has its result" in answer["reason"]


def _assert_results_follow_the_table(store) -> None:
    """The table's won, drawn, lost and form count the matches its "matches" counts (A.4.1)."""
    for row in exports.league_table(store, "carom", SEASON)["rows"]:
        assert row["matches_won"] + row["matches_drawn"] + row["matches_lost"] == row["matches"], row
        assert len(row["form"]) == min(row["matches"], 5), row


def test_A_4_1_results_count_no_match_the_table_leaves_out(league):
    """A match off the schedule (unassigned) and a friendly against a team outside the league count
    nowhere in the table: nor in its won, drawn, lost and form columns."""
    from conftest import match_items

    receiver = device_receiver(league)
    for body in match_items("m-off", date="2026-10-30") + match_items("m-fr", away="Hasiči", date="2026-10-29"):
        status, answer = receiver.handle(sign_as("u-lva-1", body), via="test")
        assert status == 200, answer
    figures.settle(league)
    assert [exports.match_record(league, m)["standing"] for m in ("m-off", "m-fr")] == ["unassigned", "friendly"]
    _assert_results_follow_the_table(league)
    assert all(not r["form"] for r in exports.league_table(league, "carom", SEASON)["rows"])


def test_migration_0010_keeps_the_result_the_schedule_showed_and_unassigns_the_rest(empty_store_place):
    """A store from before issue 22 holds two matches naming fixture f1 (a forged second one could
    land then): the result stays the one the schedule showed (closed, then the latest to arrive),
    the other is listed unassigned and counts nowhere."""
    import json

    import sqlalchemy as sa
    from sql_helpers import store_at

    from conftest import match_items
    from server.storage.store import Store

    store_place = empty_store_place
    with store_at(store_place, "0009", (
        "INSERT INTO seasons VALUES ('2026/27', '2026-10-01', '2026-11-30', '2027-03-01', '2027-04-30')",
        "INSERT INTO venues(name, days) VALUES ('Hostinec U Lva', '')",
        "INSERT INTO teams(id, season, competition, name, venue, captain, phone) VALUES "
        "(1, '2026/27', 'carom', 'Lvi', 'Hostinec U Lva', 'Novák', '777123456'), "
        "(2, '2026/27', 'carom', 'Orli', 'Hostinec U Lva', 'Kučera', '777123456')",
        "INSERT INTO fixtures VALUES ('f1', '2026/27', 'carom', 1, '2026-10-05', '17:00', 1, 2, 'Hostinec U Lva', "
        "'scheduled', '2026-10-05')",
    )) as db:
        for seed, match_id in ((1, "m-first"), (2, "m-later")):
            for body in match_items(match_id, seed=seed, date="2026-10-05", fixture="f1"):
                item = json.loads(body)
                db.execute(sa.text("INSERT INTO items(id, kind, game, match_id, device, via, received, body) VALUES "
                                   "(:id, :kind, 'carom', :m, 'u-lva-1', 'test', :at, :body)"),
                           {"id": item["id"], "kind": item["kind"], "m": match_id, "at": f"2026-10-05T2{seed}:00:00",
                            "body": body})
            db.execute(sa.text("INSERT INTO match_figures(match_id, seq, game, season, date, venue, home, away, "
                               "points_home, points_away, closed, fixture) VALUES (:m, :seq, 'carom', '2026/27', "
                               "'2026-10-05', 'Hostinec U Lva', 'Lvi', 'Orli', 4, 4, 1, 'f1')"),
                       {"m": match_id, "seq": seed * 10})
    store = Store(store_place)
    try:
        figures.bring_up_to_date(store)
        figures.settle(store)
        assert store.fixtures.get("f1")["match"] == "m-later"
        assert [m["match"] for m in store.results.unassigned(SEASON, "carom")] == ["m-first"]
        rows = exports.league_table(store, "carom", SEASON)["rows"]
        assert {r["team"]: r["matches"] for r in rows if r["matches"]} == {"Lvi": 1, "Orli": 1}
    finally:
        store.close()


def test_A_6_5_the_counters_own_interrupted_match_item_is_accepted_and_pending(league):
    """The match item as rules/night.py writes it when the referee interrupts at partie 2 (the
    venue closing, the home captain confirming): accepted, the fixture "interrupted"."""
    import json

    import carom_samples
    from delivery.outbox import item_body
    from rules import night

    fixture = fixture_between(league, "Lvi", "Orli")
    played, (match_id, text, _) = carom_samples.match("m-int", "Lvi", "Orli", date=fixture["date"],
                                                      fixture=fixture["id"], points_limit=20, innings_limit=3)
    pid, partie_text, partie_summary = played[0]
    present = {"home": ["Novák", "Dvořák", "Svoboda", "Černý"], "away": ["Procházka", "Kučera", "Veselý", "Horák"]}
    state = night.apply(night.NightState(), {"ev": "match", "id": match_id, "game": "carom", "date": fixture["date"],
                                             "home": "Lvi", "away": "Orli", "present": present, "partie_count": 4,
                                             "fixture": fixture["id"], "captains": {"home": "Novák", "away": "Kučera"}})
    state = night.apply(state, night.lot_event(state.match, 3))
    state = night.apply(state, night.closed_event(1, json.loads(partie_text.splitlines()[0]), partie_summary))
    state = night.apply(state, night.interrupt_event(state.match, "closing", "Novák", "2026-10-06T21:00:00+02:00"))
    summary = night.match_summary(state.match, {"device": "u-lva-1", "venue": fixture["venue"], "table": "1"})
    receiver = device_receiver(league)
    for body in (item_body(pid, "partie", partie_text, partie_summary), item_body(match_id, "match", text, summary)):
        status, answer = receiver.handle(sign_as("u-lva-1", body), via="test")
        assert status == 200, answer
    assert fixture_between(league, "Lvi", "Orli")["status"] == "interrupted"
    record = exports.match_record(league, match_id)
    assert record["standing"] == "pending" and record["interruption"]["reason_text"] == "zavírací doba herny"


def test_the_fixtures_past_their_day_with_nothing_recorded_are_overdue(league, items, sign):
    """The organiser's list to chase: neither a match played nor one forfeited (A.3.7) or postponed
    (A.3.3) is overdue, nor one on the store's today or after it."""
    from clock import ManualClock

    assert league.fixtures.overdue() == []                         # before the season
    fixtures = league.fixtures.of(SEASON, "carom")
    played = fixture_between(league, "Lvi", "Orli")              # the match the sample items play
    forfeited, postponed = [f for f in fixtures if f["id"] != played["id"]][:2]
    play_as_device(league, items, sign, played)
    no_show(league, forfeited["id"], forfeited["away"])
    league.fixtures.postpone(postponed["id"], postponed["home"])
    done = {played["id"], forfeited["id"], postponed["id"]}
    today = next(f["date"] for f in fixtures if f["date"] > max(played["date"], postponed["date"]))
    league.clock = ManualClock(dt.datetime.fromisoformat(f"{today}T12:00"))
    expected = [f["id"] for f in fixtures if f["date"] < today and f["id"] not in done]
    assert expected and [f["id"] for f in league.fixtures.overdue()] == expected
    assert [f["id"] for f in league.fixtures.overdue(SEASON, "carom")] == expected
    assert league.fixtures.overdue(SEASON, "8ball") == []


def test_A_3_7_no_fixture_is_added_for_an_expelled_team(league):
    for home, away in (("Orli", "Lvi"), ("Lvi", "Orli")):
        no_show(league, fixture_between(league, home, away)["id"], "Orli", expel=True)
    day = free_working_day(league, fixture_between(league, "Sokoli", "Jiskra"))
    with pytest.raises(LeagueError, match=r"Orli was expelled on \d{4}-\d\d-\d\d \(A.3.7\)"):
        league.fixtures.add(SEASON, "carom", "Sokoli", "Orli", day)
    added = league.fixtures.add(SEASON, "carom", "Sokoli", "Jiskra", day)      # A.2.1: its round, near its day
    nearest = min(league.fixtures.of(SEASON, "carom"),
                  key=lambda f: (f["id"] == added["id"], abs((dt.date.fromisoformat(f["date"]) - day).days)))
    assert (added["status"], added["round"]) == ("scheduled", nearest["round"])
