"""Issue 22: an incoming league item is held to its competition (A.1.2: the organiser's rules, 422
naming the rule and the value), and a no-show entered at the table ("Tým nepřišel") counts exactly
as the organiser's (A.3.7: the second expels the team, its results annulled everywhere)."""
import datetime as dt
import json

import pytest
from league_admin_helpers import KOULE, SEASON, device_receiver, fixture_between

import carom_samples
from delivery.outbox import item_body
from server.site import pages
from server.tables import exports, stats


@pytest.fixture
def league(carom_league):
    return carom_league         # carom 2026/27 plays to 20 points in 3 innings (the samples' rules)


def _post(store, body: bytes, device: str = "u-lva-1") -> tuple[int, dict]:
    from conftest import signer

    return device_receiver(store).handle(signer(device).sign(body), via="test")


def test_A_1_2_a_league_partie_played_with_a_1_inning_limit_is_refused_naming_the_rule(league, items):
    """A misconfigured counter's partie of a fixture, played with innings_limit 1: 422 with the
    rule and both values, nothing stored, the fixture still to be played."""
    fixture = fixture_between(league, "Lvi", "Orli")
    first = items("m-1", date=fixture["date"], fixture=fixture["id"], innings_limit=1)[0]
    status, answer = _post(league, first)
    assert status == 422
    assert answer["reason"] == ("carom 2026/27 plays innings_limit 3 (A.5.2); this partie was played with "
                                "innings_limit 1 (the counter's rules: its league document, else its config)")
    assert league.items.count() == 0 and league.fixtures.get(fixture["id"])["match"] is None


@pytest.mark.parametrize("competition, header, rule", [
    ({"win_points": "3"}, {}, "win_points 3 (A.5.3); this partie was played with win_points 2"),
    ({}, {"draw_points": 2}, "draw_points 1 (A.5.4); this partie was played with draw_points 2"),
    ({"loss_points": "1"}, {"win_points": 3}, "win_points 2 (A.5.3); this partie was played with win_points 3"),
])
def test_A_5_3_to_A_5_5_a_partie_played_with_other_team_points_is_refused_naming_the_rule(league, items, competition,
                                                                                           header, rule):
    """A.5.3-A.5.5: the team points are rules of play: a partie whose header counts other team points
    than its competition's (a counter without the league document, an older one) is refused like one
    played to another points limit, nothing stored."""
    if competition:
        league.league.set_rules(SEASON, "carom", competition)
    fixture = fixture_between(league, "Lvi", "Orli")
    first = items("m-tp", date=fixture["date"], fixture=fixture["id"], rules=header)[0]
    status, answer = _post(league, first)
    assert status == 422 and answer["reason"] == f"carom 2026/27 plays {rule} (the counter's rules: its league " \
        "document, else its config)"
    assert league.items.count() == 0


def test_A_5_3_a_match_played_with_the_competitions_team_points_replays_and_counts_them(league, items):
    """A.5.3: a competition with win_points 3, its counter's headers saying so: every partie replays
    at the receiver to the device's summary (the partie's team points 3 or 0, a draw 1), the match
    is stored, and the table counts what the zápis said."""
    league.league.set_rules(SEASON, "carom", {"win_points": "3"})
    fixture = fixture_between(league, "Lvi", "Orli")
    bodies = items("m-tp3", date=fixture["date"], fixture=fixture["id"], rules={"win_points": 3})
    for body in bodies:
        assert _post(league, body)[0] == 200
    summaries = [json.loads(body)["summary"] for body in bodies[:-1]]
    assert {s["players"][p]["team_points"] for s in summaries for p in "ab"} <= {0, 1, 3}
    points = json.loads(bodies[-1])["summary"]["points"]
    table = {r["team"]: r["points"] for r in exports.league_table(league, "carom", SEASON)["rows"]}
    assert (table["Lvi"], table["Orli"]) == (points["home"], points["away"])
    assert sum(points.values()) == sum(2 if s["result"] == "draw" else 3 for s in summaries)


def test_A_3_6_a_league_match_item_listing_too_few_partie_is_refused(league, items):
    fixture = fixture_between(league, "Lvi", "Orli")
    played, (match_id, text, summary) = carom_samples.match("m-2", "Lvi", "Orli", date=fixture["date"],
                                                            fixture=fixture["id"], points_limit=20, innings_limit=3)
    summary = {**summary, "partie": summary["partie"][:3]}
    status, answer = _post(league, item_body(match_id, "match", text, summary))
    assert status == 422 and "plays partie_per_match 4 (A.3.6, RULES 2.9); this match lists 3" in answer["reason"]


def test_a_match_dated_more_than_a_day_after_the_receivers_today_is_refused_and_its_fixture_stays(league, items):
    """The audit's match of 11 March 2027 posted on 3 December 2026 was stored and made its fixture
    played. "Today" is the store's clock (clock/), never the wall clock: a day ahead is taken (a
    counter near midnight), two are refused (422: the device's outbox holds it as refused)."""
    from clock import ManualClock, SystemClock
    from conftest import signer
    from server.ingest.receiver import Receiver

    fixture = fixture_between(league, "Lvi", "Orli")
    day = dt.date.fromisoformat(fixture["date"])
    receiver = Receiver(league, clock=SystemClock().time)       # the signatures' freshness: the wall clock
    bodies = items("m-ahead", date=fixture["date"], fixture=fixture["id"])
    league.clock = ManualClock(dt.datetime.combine(day - dt.timedelta(days=2), dt.time(20, 0)))
    for body in (bodies[0], bodies[-1]):
        status, answer = receiver.handle(signer("u-lva-1").sign(body), via="test")
        assert status == 422 and answer["reason"] == (
            f"the match is dated {fixture['date']}, after the receiver's date ({day - dt.timedelta(days=2)}): a "
            "match is sent on the day it is played (is the counter's date right?)")
    assert league.items.count() == 0 and league.fixtures.get(fixture["id"])["status"] == "scheduled"
    league.clock = ManualClock(dt.datetime.combine(day - dt.timedelta(days=1), dt.time(23, 0)))
    assert all(receiver.handle(signer("u-lva-1").sign(body), via="test")[0] == 200 for body in bodies)
    assert league.fixtures.get(fixture["id"])["status"] == "played"


def test_a_single_partie_outside_the_league_keeps_its_own_rules(league):
    text, summary = carom_samples.partie("solo-1", "Novák", "Dvořák", seed=2, points_limit=50, innings_limit=1)
    assert _post(league, item_body("solo-1", "partie", text, summary), "u-nowhere")[0] == 200


def _no_show_at_table(store, home: str, away: str, absent: str, device: str = "u-lva-1") -> dict:
    fixture = fixture_between(store, home, away)
    match_id, text, summary = carom_samples.no_show(f"{fixture['id']}-t", home, away, absent, date=fixture["date"],
                                                    fixture=fixture["id"], venue=fixture["venue"])
    status, answer = _post(store, item_body(match_id, "match", text, summary), device)
    assert status == 200, answer
    return store.fixtures.get(fixture["id"])


def test_A_3_7_a_no_show_at_the_table_counts_as_the_organisers_and_the_second_expels(league, items):
    """Orli do not turn up at U Lva twice ("Tým nepřišel" on the counter): the first forfeits the
    match to Lvi (the competition's forfeit score, 8 : 0), the second expels Orli and annuls its
    results, for it and its opponents (the Decision in docs/league.md): Jiskra's match with Orli and
    Lvi's forfeit leave the table, the rankings and the players' statistics."""
    jiskra = fixture_between(league, "Jiskra", "Orli")
    for body in items("m-jiskra", home="Jiskra", away="Orli", venue=KOULE, date=jiskra["date"],
                      fixture=jiskra["id"]):
        assert _post(league, body, "u-koule-1")[0] == 200
    assert {r["team"] for r in exports.league_table(league, "carom", SEASON)["rows"] if r["matches"]} == \
        {"Jiskra", "Orli"}
    first = _no_show_at_table(league, "Lvi", "Orli", "away")
    assert (first["status"], first["forfeited_to"], first["no_show"]["team"]) == ("forfeited", "Lvi", "Orli")
    table = {r["team"]: r["points"] for r in exports.league_table(league, "carom", SEASON)["rows"]}
    assert table["Lvi"] == 8 and league.league.team(SEASON, "carom", "Orli")["expelled"] is None
    _no_show_at_table(league, "Sokoli", "Orli", "away")
    assert league.league.team(SEASON, "carom", "Orli")["expelled"] is not None
    assert fixture_between(league, "Orli", "Lvi")["status"] == "cancelled"
    annulled = exports.match_record(league, "m-jiskra")
    assert annulled["standing"] == "annulled" and "anulováno: družstvo vyřazeno ze soutěže (A.3.7)" in pages.match(annulled)
    rows = exports.league_table(league, "carom", SEASON)["rows"]                # every team listed, none counted
    assert [r for r in rows if r["matches"] or r["points"]] == [] and "Orli" not in {r["team"] for r in rows}
    assert stats.players(league, "carom", SEASON)["rows"] == []      # the rankings are ranked from these


def test_A_6_5_the_interruption_reasons_are_the_counters():
    from rules.night import INTERRUPTIONS
    from server.league.match_fields import REASONS

    assert list(REASONS) == list(INTERRUPTIONS)


@pytest.mark.postgresql_once
@pytest.mark.parametrize("interrupted, reason", [
    ({"partie": 3, "reason": "weather", "captain": None, "at": "2026-10-06T20:10:00+02:00"},
     "\"interrupted\" \"reason\" must be one of dispute, equipment, injury, closing, other"),
    ({"partie": 2, "reason": "closing", "captain": None, "at": "2026-10-06T20:10:00+02:00"},
     "\"interrupted\" at partie 2: 1 partie were closed before; the match lists 2"),
])
def test_A_6_5_a_malformed_interruption_is_refused_naming_it(league, interrupted, reason):
    import json

    fixture = fixture_between(league, "Lvi", "Orli")
    played, _ = carom_samples.match("m-int", "Lvi", "Orli", date=fixture["date"], fixture=fixture["id"],
                                    points_limit=20, innings_limit=3)
    for pid, text, summary in played[:2]:
        assert _post(league, item_body(pid, "partie", text, summary))[0] == 200
    _, text, summary = carom_samples.closing(json.loads(played[0][1].splitlines()[0])["match"], played[:2])
    status, answer = _post(league, item_body("m-int", "match", text, {**summary, "interrupted": interrupted}))
    assert status == 422 and answer["reason"] == reason
