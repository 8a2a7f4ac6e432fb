"""The captains answer the zápis in the night fold (rules/night.py): sign (A.6.9d), object (A.6.3,
A.6.5) or — the referee's escape — go unsigned; the match item carries what they answered."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import night

HOME = ["Novák", "Dvořák"]
AWAY = ["Kučera", "Veselý"]
MATCH = {"ev": "match", "id": "m1", "game": "8ball", "date": "2026-11-29", "home": "Sokol", "away": "Jiskra",
         "present": {"home": HOME, "away": AWAY}, "partie_count": 2}
AT = "2026-11-29T22:15:00"


def closed(number: int) -> dict:
    return {"ev": "closed", "partie": number, "summary": {
        "id": f"m1-p{number}", "home": HOME[number - 1], "away": AWAY[number - 1], "score": "1:0",
        "team_points": {"home": 1, "away": 0}}}


def fold(*events):
    state = night.NightState()
    for event in events:
        state = night.apply(state, event)
    return state


OVER = (MATCH, closed(1), closed(2))


def test_a_6_9d_the_home_captain_answers_first_then_the_away_captain():
    """A.6.9d: the zápis is handed over at the end of the match: nobody signs before the result."""
    assert fold(MATCH, closed(1)).match.awaiting is None
    with pytest.raises(night.NightEventError):
        fold(MATCH, closed(1), night.sign_event("home", "Novák", AT))      # the match is not over
    state = fold(*OVER)
    assert state.match.awaiting == "home" and not state.match.signed_off
    state = night.apply(state, night.sign_event("home", "Novák", AT))
    assert state.match.awaiting == "away"
    state = night.apply(state, night.sign_event("away", "Veselý", AT))
    assert state.match.awaiting is None and state.match.signed_off


def test_a_6_1_the_captains_chosen_after_attendance_are_the_ones_who_answer():
    """A.6.1: each team's captain is chosen before the first partie from its players present; the
    sign-off is then that captain's (an objection too), and the match item names them."""
    event = night.match_event("m1", "8ball", "2026-11-29", 2, home="Sokol", away="Jiskra",
                              present={"home": HOME, "away": AWAY}, captains={"home": "Dvořák", "away": "Kučera"})
    state = fold(event, closed(1), closed(2))
    assert state.match.captains == {"home": "Dvořák", "away": "Kučera"}
    with pytest.raises(night.NightEventError, match="captain of home is 'Dvořák'"):
        night.apply(state, night.sign_event("home", "Novák", AT))
    with pytest.raises(night.NightEventError):
        night.apply(state, night.object_event("home", "Novák", "referee", 1, AT))
    state = night.apply(state, night.sign_event("home", "Dvořák", AT))
    state = night.apply(state, night.object_event("away", "Kučera", "scoring", None, AT))
    summary = night.match_summary(state.match, {"venue": "U Lva", "table": "1"})
    assert summary["captains"] == {"home": "Dvořák", "away": "Kučera"}
    assert summary["signatures"] == [{"side": "home", "captain": "Dvořák", "at": AT}]


def test_a_6_1_a_captain_not_present_is_refused_when_the_match_is_set_up():
    with pytest.raises(night.NightEventError, match="not among the players present"):
        fold(dict(MATCH, captains={"home": "Kučera", "away": "Veselý"}))
    assert "captains" not in night.match_event("m1", "carom", "2026-11-29", 4, home="Sokol", away="Jiskra",
                                               forfeit="away", captains={"home": "Novák"})   # nobody present


def test_a_6_9d_a_captain_answers_once():
    state = fold(*OVER, night.sign_event("home", "Novák", AT))
    with pytest.raises(night.NightEventError):
        night.apply(state, night.object_event("home", "Dvořák", "referee", 1, AT))
    with pytest.raises(night.NightEventError):
        night.apply(state, night.unsigned_event("home", AT))


def test_a_6_1_the_captain_is_a_player_present_for_the_team():
    """A.6.1: the captain is a member of the team in the match."""
    with pytest.raises(night.NightEventError):
        fold(*OVER, night.sign_event("home", "Kučera", AT))          # an away player for home
    with pytest.raises(night.NightEventError):
        fold(*OVER, night.sign_event("home", "", AT))
    with pytest.raises(night.NightEventError):
        fold(*OVER, night.sign_event("guests", "Novák", AT))          # no such side


@pytest.mark.parametrize("kind", night.OBJECTIONS)
def test_a_6_3_and_a_6_5_an_objection_names_its_kind_and_partie(kind):
    """A.6.3 (the referee's or the scorer's decision) and A.6.5 (an interrupted match): an objection
    instead of a signature, about one partie or the whole match."""
    state = fold(*OVER, night.object_event("home", "Dvořák", kind, 2, AT),
                 night.object_event("away", "Kučera", kind, None, AT))
    assert state.match.signed_off
    assert night.captains(state.match) == {"signatures": [], "unsigned": [], "objections": [
        {"side": "home", "captain": "Dvořák", "kind": kind, "partie": 2, "at": AT},
        {"side": "away", "captain": "Kučera", "kind": kind, "partie": None, "at": AT}]}


@pytest.mark.parametrize("kind, partie", [("tea", 1), ("referee", 3), ("referee", 0), ("scoring", True),
                                          ("scoring", "1")])
def test_a_6_3_an_objection_of_no_known_kind_or_partie_is_refused(kind, partie):
    with pytest.raises(night.NightEventError):
        fold(*OVER, night.object_event("home", "Novák", kind, partie, AT))


def test_the_escape_unsigned_lets_the_match_go_without_a_captain():
    """A captain gone home (or refusing) never keeps the match from being sent."""
    state = fold(*OVER, night.sign_event("home", "Novák", AT), night.unsigned_event("away", AT))
    assert state.match.signed_off
    summary = night.match_summary(state.match, {"venue": "U Lva", "table": "2"})
    assert summary["signatures"] == [{"side": "home", "captain": "Novák", "at": AT}]
    assert summary["unsigned"] == ["away"] and summary["objections"] == []


def test_a_3_7_in_a_forfeited_match_only_the_team_present_answers():
    state = fold({**MATCH, "present": {}, "forfeit": "away"})
    assert state.match.signing_sides == ("home",) and state.match.awaiting == "home"
    with pytest.raises(night.NightEventError):
        night.apply(state, night.sign_event("away", "Kučera", AT))
    state = night.apply(state, night.sign_event("home", "Kdokoli", AT))      # nobody marked present: any name
    assert state.match.signed_off


def test_a_single_partie_has_no_captains_and_its_summary_no_signatures():
    single = fold({"ev": "match", "id": "s", "game": "carom", "date": "2026-11-29", "partie_count": 1}).match
    assert single.signing_sides == () and single.awaiting is None
    with pytest.raises(night.NightEventError):
        fold({"ev": "match", "id": "s", "game": "carom", "date": "2026-11-29", "partie_count": 1},
             night.sign_event("home", "Novák", AT))


ANSWER = st.one_of(
    st.builds(lambda side, who: night.sign_event(side, who, AT), st.sampled_from(night.SIDES),
              st.sampled_from(HOME + AWAY)),
    st.builds(lambda side, who, kind, partie: night.object_event(side, who, kind, partie, AT),
              st.sampled_from(night.SIDES), st.sampled_from(HOME + AWAY), st.sampled_from(night.OBJECTIONS),
              st.sampled_from([None, 1, 2, 3])),
    st.builds(lambda side: night.unsigned_event(side, AT), st.sampled_from(night.SIDES)))


@settings(max_examples=150, deadline=None)
@given(answers=st.lists(ANSWER, max_size=6))
def test_a_6_9d_whatever_is_tried_each_side_answers_at_most_once_and_the_item_says_so(answers):
    """Invariant: refused answers change nothing; the item lists each side at most once, and the
    match may go exactly when every side has answered."""
    state = fold(*OVER)
    for answer in answers:
        try:
            state = night.apply(state, answer)
        except night.NightEventError:
            pass
    said = night.captains(state.match)
    sides = ([s["side"] for s in said["signatures"]] + [o["side"] for o in said["objections"]] + said["unsigned"])
    assert len(sides) == len(set(sides)) == len(state.match.answers)
    assert state.match.signed_off == (set(sides) == {"home", "away"})
    for entry in said["signatures"] + said["objections"]:
        assert entry["captain"] in (HOME if entry["side"] == "home" else AWAY)
