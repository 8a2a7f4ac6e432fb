"""A match set up from the league's fixture names it in what goes to the receiver (issue 16), so
the receiver can link the result to the fixture it published; the match id keeps its own suffix."""
from rules import night

MATCH = {"ev": "match", "id": "2026-11-29-sokol-jiskra-a1b2c3", "game": "carom", "date": "2026-11-29",
         "home": "Sokol", "away": "Jiskra", "present": {"home": ["A1", "A2", "A3", "A4"],
                                                        "away": ["B1", "B2", "B3", "B4"]},
         "partie_count": 4, "fixture": "2026-11-29-sokol-jiskra"}
PLACE = {"device": "lev-2", "venue": "U Lva", "table": "2"}


def test_the_fixture_id_is_in_every_partie_header_and_in_the_match_summary():
    match = night.apply(night.NightState(), MATCH).match
    assert match.fixture == "2026-11-29-sokol-jiskra"
    header = night.partie_header(match, "A1", "B1", "a", {"points_limit": 20, "innings_limit": 2}, PLACE)
    assert header["match"]["fixture"] == "2026-11-29-sokol-jiskra"
    assert night.match_summary(match, PLACE)["fixture"] == "2026-11-29-sokol-jiskra"


def test_a_match_not_from_a_fixture_names_none():
    match = night.apply(night.NightState(), {k: v for k, v in MATCH.items() if k != "fixture"}).match
    header = night.partie_header(match, "A1", "B1", "a", {"points_limit": 20, "innings_limit": 2}, PLACE)
    assert "fixture" not in header["match"] and "fixture" not in night.match_summary(match, PLACE)
