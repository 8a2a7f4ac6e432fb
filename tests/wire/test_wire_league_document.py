"""The league document a receiver sends its devices (wire/league.py, issue 16): strict checks,
a canonical form that round-trips, and every malformed document refused with the field named."""
import copy
import datetime as dt
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league_fetch_helpers import league_document
from wire.league import MAX_TEXT, LeagueError, parse_document

TONIGHT = dt.date(2026, 3, 4)

names = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cn")),
                min_size=1, max_size=20)


@st.composite
def documents(draw) -> dict:
    """Any valid league document: unique teams and players, fixtures between distinct teams."""
    team_names = draw(st.lists(names, min_size=2, max_size=6, unique=True))
    teams = []
    for name in team_names:
        players = draw(st.lists(names, max_size=6, unique=True))
        teams.append({"name": name, "venue": draw(st.one_of(st.just(""), names)), "players": players,
                      "captain": draw(st.sampled_from(players)) if players and draw(st.booleans()) else None})
    fixtures = []
    for i in range(draw(st.integers(0, 8))):
        home, away = draw(st.lists(st.sampled_from(team_names), min_size=2, max_size=2, unique=True))
        day = TONIGHT + dt.timedelta(days=draw(st.integers(-60, 60)))
        fixtures.append({"id": f"{day.isoformat()}-{i}", "date": day.isoformat(), "home": home, "away": away,
                         "start": draw(st.sampled_from([None, "17:00", "09:30"])),
                         "venue": draw(st.one_of(st.none(), names))})
    return {"league": {"name": draw(names), "season": "2026/27", "competition": "carom"},
            "teams": teams, "fixtures": fixtures}


@settings(max_examples=80, deadline=None)
@given(documents())
def test_a_valid_document_round_trips_through_json_unchanged(doc):
    parsed = parse_document(doc)
    again = parse_document(json.loads(json.dumps(parsed, ensure_ascii=False)))
    assert again == parsed
    assert [t["name"] for t in parsed["teams"]] == [t["name"] for t in doc["teams"]]
    assert [f["id"] for f in parsed["fixtures"]] == [f["id"] for f in doc["fixtures"]]


@settings(max_examples=80, deadline=None)
@given(documents())
def test_a_fixture_without_a_venue_is_played_at_its_home_teams(doc):
    parsed = parse_document(doc)
    venues = {t["name"]: t["venue"] for t in parsed["teams"]}
    for given_fixture, fixture in zip(doc["fixtures"], parsed["fixtures"]):
        if not given_fixture["venue"]:
            assert fixture["venue"] == venues[fixture["home"]]


# One breakage each: (what is done to a valid document, the words the error must contain)
BREAKAGES = [
    (lambda d: d.update(teams="Sokol"), '"teams" must be a list'),
    (lambda d: d["teams"][0].update(name=""), '"teams" 1 "name"'),
    (lambda d: d["teams"][0].update(name=7), '"teams" 1 "name" must be a text'),
    (lambda d: d["teams"][0].update(name="x" * (MAX_TEXT + 1)), "1 to 200 characters"),
    (lambda d: d["teams"][0].update(name="Sokol\ud800"), "not valid Unicode"),
    (lambda d: d["teams"][0].update(name="Sokol\x1b[2J"), "printable"),
    (lambda d: d["teams"][1].update(name=d["teams"][0]["name"]), "listed twice"),
    (lambda d: d["teams"][0]["players"].append(d["teams"][0]["players"][0]), "player 'Novák' is listed twice"),
    (lambda d: d["teams"][0].update(players=["Novák", None]), '"players" 2 must be a text'),
    (lambda d: d["teams"][0].update(captain="Nobody"), "not on the team's roster"),
    (lambda d: d["fixtures"][0].update(date="2026-02-30"), "not a day of the calendar"),
    (lambda d: d["fixtures"][0].update(date="4.3.2026"), "a date like 2026-11-29"),
    (lambda d: d["fixtures"][0].update(date=20260304), "a date like 2026-11-29"),
    (lambda d: d["fixtures"][0].update(start="25:00"), "not a time of day"),
    (lambda d: d["fixtures"][0].update(start="5pm"), "a time like 17:00"),
    (lambda d: d["fixtures"][0].update(home="Nobody FC"), "no team 'Nobody FC'"),
    (lambda d: d["fixtures"][0].update(away=d["fixtures"][0]["home"]), "cannot play itself"),
    (lambda d: d["fixtures"][0].update(id="../../etc/passwd"), '"fixtures" 1 "id"'),
    (lambda d: d["fixtures"].append(dict(d["fixtures"][0])), "fixture id"),
    (lambda d: d["fixtures"][0].update(venue=["U Lva"]), '"fixtures" 1 "venue" must be a text'),
    (lambda d: d.update(league="Liga"), '"league" must be a JSON object'),
    (lambda d: d["teams"].extend({"name": f"T{i}", "players": []} for i in range(600)), "at most 500"),
]


@pytest.mark.parametrize("breakage, words", BREAKAGES)
def test_a_malformed_document_is_refused_naming_the_field(breakage, words):
    doc = copy.deepcopy(league_document(TONIGHT))
    breakage(doc)
    with pytest.raises(LeagueError) as refused:
        parse_document(doc)
    assert words in str(refused.value)


@pytest.mark.parametrize("doc", [None, [], "league", 3])
def test_what_is_not_an_object_is_refused(doc):
    with pytest.raises(LeagueError, match="must be a JSON object"):
        parse_document(doc)


@settings(max_examples=60, deadline=None)
@given(documents(), st.sampled_from(["teams", "fixtures"]), st.data())
def test_any_field_of_the_wrong_type_is_refused_never_crashes(doc, part, data):
    if not doc[part]:
        return
    entry = data.draw(st.sampled_from(doc[part]))
    key = data.draw(st.sampled_from(sorted(k for k in entry if k not in ("captain", "venue", "start"))))
    entry[key] = data.draw(st.one_of(st.integers(), st.lists(st.integers(), min_size=1, max_size=2),
                                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
    with pytest.raises(LeagueError):
        parse_document(doc)


def test_texts_are_stripped_and_unknown_keys_left_out():
    doc = league_document(TONIGHT)
    doc["teams"][0]["name"] = "  Sokol Dvůr "
    doc["teams"][0]["founded"] = 1921
    doc["newer"] = {"anything": True}
    parsed = parse_document(doc)
    assert parsed["teams"][0]["name"] == "Sokol Dvůr" and "founded" not in parsed["teams"][0]
    assert set(parsed) == {"league", "teams", "fixtures"}


def test_A_5_3_to_A_5_5_the_competitions_team_points_are_rules_of_play_0_to_100():
    """A.5.3-A.5.5, RULES 2.9: the team points the organiser sets travel with the rules of play;
    0 is a value they may take (a partie lost brings nothing), unlike the limits."""
    doc = league_document(TONIGHT)
    doc["league"]["rules"] = {"points_limit": 200, "win_points": 3, "draw_points": 0, "loss_points": 100}
    assert parse_document(doc)["league"]["rules"] == {"points_limit": 200, "win_points": 3, "draw_points": 0,
                                                      "loss_points": 100}


@pytest.mark.parametrize("key, value", [("win_points", -1), ("win_points", 101), ("draw_points", True),
                                        ("loss_points", "1"), ("loss_points", 1.0), ("win_points", None)])
def test_A_5_3_to_A_5_5_team_points_out_of_range_are_refused_naming_the_key(key, value):
    doc = league_document(TONIGHT)
    doc["league"]["rules"] = {key: value}
    with pytest.raises(LeagueError) as refused:
        parse_document(doc)
    assert f'"league" "rules" "{key}" must be a whole number 0 to 100, got ' in str(refused.value)


def test_a_limit_of_0_is_still_refused():
    doc = league_document(TONIGHT)
    doc["league"]["rules"] = {"points_limit": 0}
    with pytest.raises(LeagueError, match='"points_limit" must be a whole number 1 to 10000, got 0'):
        parse_document(doc)
