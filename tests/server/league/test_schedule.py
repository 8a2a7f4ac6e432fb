"""The league's schedule (server/league/schedule.py): a double round robin home and away (A.2.5), the
first leg in the autumn half and the return leg in the spring half (A.2.1), on working days at 17:00
(A.2.2), the teams' requested weekdays and the venues' opening days honoured as far as possible and
everything not honoured reported (A.2.4); the organiser's moves refused with the reason. Pure and
fast: no clock, no database; every date is fixed here."""
import itertools
from collections import Counter
from datetime import date, time, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.league import berger
from server.league.schedule import (
    Entrant,
    Half,
    Plan,
    Planned,
    czech_holidays,
    draw,
    generate,
    move_refusal,
    season_halves,
    seat,
    working_day,
)
from server.league.workdays import easter_sunday, long_date

AUTUMN, SPRING = season_halves(2026)


def entrants(count: int, **days) -> list[Entrant]:
    return [Entrant(f"T{i}", f"V{i}", frozenset(days.get(f"T{i}", ()))) for i in range(count)]


def by_round(plan: Plan) -> dict[int, list[Planned]]:
    rounds: dict[int, list[Planned]] = {}
    for m in plan.matches:
        rounds.setdefault(m.round, []).append(m)
    return rounds


def dishonoured(plan: Plan, teams: list[Entrant], opening) -> set[tuple[int, str, str, str]]:
    """(round, home, away, kind) of every wish the plan's dates do not honour, recomputed here."""
    wishes = {e.team: e.days for e in teams}
    found = set()
    for m in plan.matches:
        weekday = m.date.weekday()
        if opening.get(m.venue) and weekday not in opening[m.venue]:
            found.add((m.round, m.home, m.away, "venue"))
        for kind, team in (("home", m.home), ("away", m.away)):
            if wishes[team] and weekday not in wishes[team]:
                found.add((m.round, m.home, m.away, kind))
    return found


# --- working days (A.2.2) ----------------------------------------------------------------------

@pytest.mark.parametrize("year, easter", [(2008, date(2008, 3, 23)), (2011, date(2011, 4, 24)),
                                          (2019, date(2019, 4, 21)), (2024, date(2024, 3, 31)),
                                          (2025, date(2025, 4, 20)), (2026, date(2026, 4, 5)),
                                          (2027, date(2027, 3, 28)), (2038, date(2038, 4, 25))])
def test_A_2_2_easter_sunday_of_known_years(year, easter):
    assert easter_sunday(year) == easter
    assert {easter - timedelta(days=2), easter + timedelta(days=1)} <= czech_holidays(year)


def test_A_2_2_czech_public_holidays_of_2027():
    assert czech_holidays(2027) == {date(2027, 1, 1), date(2027, 3, 26), date(2027, 3, 29), date(2027, 5, 1),
                                    date(2027, 5, 8), date(2027, 7, 5), date(2027, 7, 6), date(2027, 9, 28),
                                    date(2027, 10, 28), date(2027, 11, 17), date(2027, 12, 24),
                                    date(2027, 12, 25), date(2027, 12, 26)}


@pytest.mark.parametrize("day, extra, working", [
    (date(2026, 10, 14), (), True),                       # a Wednesday
    (date(2026, 10, 17), (), False),                      # Saturday
    (date(2026, 10, 18), (), False),                      # Sunday
    (date(2026, 10, 28), (), False),                      # Independence Day, a Wednesday
    (date(2026, 11, 17), (), False),                      # a Tuesday holiday
    (date(2027, 3, 26), (), False),                       # Good Friday
    (date(2027, 3, 29), (), False),                       # Easter Monday
    (date(2026, 10, 14), (date(2026, 10, 14),), False),   # the league's own day off
])
def test_A_2_2_working_days_are_monday_to_friday_without_holidays(day, extra, working):
    assert working_day(day, frozenset(extra)) is working


# --- the draw: Berger tables (A.2.5) -----------------------------------------------------------

@pytest.mark.parametrize("count", range(2, 17))
def test_A_2_5_berger_tables_pair_everyone_once_alternating_home_and_away(count):
    table = berger.rounds(count)
    assert len(table) == count - 1 + count % 2
    pairs = [frozenset(p) for r in table for p in r]
    assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2
    for r in table:
        playing = [t for p in r for t in p]
        assert len(playing) == len(set(playing))
    for team in range(count):
        pattern = [("H" if p[0] == team else "A") for r in table for p in r if team in p]
        longest = max(len(list(run)) for _, run in itertools.groupby(pattern))
        assert longest <= (1 if count % 2 else 2)
        assert abs(pattern.count("H") - pattern.count("A")) <= 1
    for p, q in berger.couples(count):
        assert not any({p, q} <= {h for h, _ in r} for r in table)


def test_A_2_5_teams_sharing_a_venue_are_never_at_home_in_the_same_round():
    teams = [Entrant("A", "Lev"), Entrant("B", "Koule"), Entrant("C", "Lev"), Entrant("D", "Sokolovna"),
             Entrant("E", "Koule"), Entrant("F", "Lev"), Entrant("G", "Radnice")]
    seated = seat(teams)
    assert sorted(seated, key=teams.index) == teams
    plan = generate(teams, AUTUMN, SPRING)
    for matches in by_round(plan).values():
        hosts = [m.home for m in matches]
        assert not {"A", "C"} <= set(hosts) and not {"B", "E"} <= set(hosts)


def test_A_2_5_with_no_shared_venue_the_draw_order_is_the_berger_order():
    teams = entrants(6)
    assert seat(teams) == teams


# --- the whole plan: properties (A.2.1, A.2.2, A.2.4, A.2.5) -----------------------------------

WEEKDAYS = st.frozensets(st.integers(0, 4), max_size=3)


@st.composite
def leagues(draw, short: bool):
    """Random teams, venues (some shared), requested and opening days, days off; the A.2.1 halves of
    a random year, or (`short`) halves of a few days, too short for every round."""
    count = draw(st.integers(2, 10 if short else 16))
    venues = draw(st.integers(1, count))
    teams = [Entrant(f"Team {i}", f"Venue {draw(st.integers(0, venues - 1))}", draw(WEEKDAYS))
             for i in range(count)]
    opening = {f"Venue {v}": draw(st.frozensets(st.integers(0, 6), max_size=4)) for v in range(venues)
               if draw(st.booleans())}
    if short:
        autumn, spring = (Half(first, first + timedelta(days=draw(st.integers(0, 20))))
                          for first in (draw(st.dates(date(2026, 10, 1), date(2026, 11, 30))),
                                        draw(st.dates(date(2027, 3, 1), date(2027, 4, 30)))))
    else:
        autumn, spring = season_halves(draw(st.integers(2020, 2040)))
    days_off = draw(st.frozensets(st.dates(autumn.first, autumn.last) | st.dates(spring.first, spring.last),
                                  max_size=6))
    return teams, autumn, spring, opening, days_off


def assert_valid_plan(teams, autumn, spring, opening, days_off):
    plan = generate(teams, autumn, spring, opening=opening, holidays=days_off)
    rounds = len(teams) - 1 + len(teams) % 2
    venue_of = {e.team: e.venue for e in teams}

    # A.2.5: every ordered pair (home, away) exactly once, at the home team's venue
    assert Counter((m.home, m.away) for m in plan.matches) == Counter(itertools.permutations(venue_of, 2))
    assert all(m.venue == venue_of[m.home] for m in plan.matches)
    # A.2.1, A.2.5: first leg in autumn, the same rounds with home and away swapped in spring; a match
    # outside its half is after it, and reported
    first = {m.round: set() for m in plan.matches}
    outside = set()
    for m in plan.matches:
        first[m.round].add((m.home, m.away))
        half = autumn if m.round <= rounds else spring
        if m.date not in half:
            assert m.date > half.last
            outside.add((m.round, m.home, m.away))
    for r in range(1, rounds + 1):
        assert {(a, h) for h, a in first[r]} == first[r + rounds]
    assert outside == {(u.match.round, u.match.home, u.match.away) for u in plan.details if u.kind == "half"}
    # A.2.2: working days only (the league's days off too), from 17:00
    assert all(working_day(m.date, days_off) and m.start == time(17, 0) for m in plan.matches)
    # one match a day per team and per venue (a venue has one league table)
    assert max(Counter((t, m.date) for m in plan.matches for t in (m.home, m.away)).values()) == 1
    assert max(Counter((m.venue, m.date) for m in plan.matches).values()) == 1
    # home and away balanced within each half, never three home or three away matches in a row
    for leg in (range(1, rounds + 1), range(rounds + 1, 2 * rounds + 1)):
        homes = Counter(m.home for m in plan.matches if m.round in leg)
        aways = Counter(m.away for m in plan.matches if m.round in leg)
        assert all(abs(homes[t] - aways[t]) <= 1 for t in venue_of)
        for team in venue_of:
            pattern = [m.home == team for m in sorted(plan.matches, key=lambda m: m.round)
                       if m.round in leg and team in (m.home, m.away)]
            assert max(len(list(run)) for _, run in itertools.groupby(pattern)) <= 2
    # A.2.4: every wish not honoured is reported, and nothing else
    reported = {(u.match.round, u.match.home, u.match.away, u.kind) for u in plan.details if u.kind != "half"}
    assert reported == dishonoured(plan, teams, opening)
    assert plan.unmet == tuple(u.text for u in plan.details)
    # deterministic
    assert generate(teams, autumn, spring, opening=opening, holidays=days_off) == plan


@settings(max_examples=120, deadline=None)
@given(leagues(short=False))
def test_A_2_1_A_2_2_A_2_4_A_2_5_every_plan_is_a_valid_double_round_robin(league):
    assert_valid_plan(*league)


@settings(max_examples=60, deadline=None)
@given(leagues(short=True))
def test_A_2_1_A_2_4_halves_too_short_still_give_a_valid_plan_with_the_rest_reported(league):
    assert_valid_plan(*league)


# --- honouring wishes and spreading rounds (A.2.1, A.2.4) --------------------------------------

def test_A_2_1_eight_teams_play_about_one_round_a_week_in_round_order():
    plan = generate(entrants(8), AUTUMN, SPRING)
    rounds = by_round(plan)
    assert sorted(rounds) == list(range(1, 15))
    weeks = [{m.date.isocalendar()[:2] for m in rounds[r]} for r in sorted(rounds)]
    assert all(len(w) == 1 for w in weeks) and len(set().union(*weeks)) == 14
    assert all(max(m.date for m in rounds[r]) < min(m.date for m in rounds[r + 1]) for r in range(1, 14))
    assert plan.unmet == ()


def test_A_2_4_the_home_teams_days_and_the_venues_opening_days_decide_the_day():
    teams = [Entrant("Sokol", "U Lva", frozenset({1, 3})), Entrant("Jiskra", "U Koule", frozenset({0})),
             Entrant("Orli", "Sokolovna"), Entrant("Lvi", "Radnice", frozenset({4}))]
    plan = generate(teams, AUTUMN, SPRING, opening={"Sokolovna": frozenset({2})})
    assert {u.kind for u in plan.details} == {"away"}
    for m in plan.matches:
        assert m.date.weekday() in {"U Lva": {1, 3}, "U Koule": {0}, "Sokolovna": {2}, "Radnice": {4}}[m.venue]


def test_A_2_4_wishes_that_agree_are_all_honoured():
    teams = [Entrant("Sokol", "U Lva", frozenset({1, 3})), Entrant("Jiskra", "U Koule", frozenset({3, 4})),
             Entrant("Orli", "Sokolovna"), Entrant("Lvi", "Radnice", frozenset({3}))]
    plan = generate(teams, AUTUMN, SPRING, opening={"Sokolovna": frozenset({2, 3})})
    assert plan.unmet == ()


def test_A_2_4_the_home_teams_wish_decides_and_the_away_teams_is_reported():
    teams = [Entrant("Sokol Dvůr", "Hospoda U Lva", frozenset({0})),
             Entrant("Jiskra Hořice", "Hospoda U Koule", frozenset({4}))]
    plan = generate(teams, AUTUMN, SPRING)
    assert [(m.home, m.date.weekday()) for m in plan.matches] == [("Sokol Dvůr", 0), ("Jiskra Hořice", 4)]
    autumn, spring = plan.matches
    assert plan.unmet == (
        f"round 1, Sokol Dvůr – Jiskra Hořice: Jiskra Hořice (away) asked for Friday; given Monday "
        f"{autumn.date.day} {'October' if autumn.date.month == 10 else 'November'} 2026",
        f"round 2, Jiskra Hořice – Sokol Dvůr: Sokol Dvůr (away) asked for Monday; given Friday "
        f"{spring.date.day} {'March' if spring.date.month == 3 else 'April'} 2027")


def test_A_2_4_a_venue_closed_on_every_working_day_is_reported():
    teams = entrants(3)
    plan = generate(teams, AUTUMN, SPRING, opening={"V0": frozenset({5, 6})})
    closed = [u for u in plan.details if u.kind == "venue"]
    assert len(closed) == 2 and all(u.who == "V0" and u.match.venue == "V0" for u in closed)
    assert "V0 is open on Saturday or Sunday only" in closed[0].text


def test_A_2_1_a_half_too_short_places_the_rest_after_it_and_reports_them():
    short = Half(date(2026, 10, 27), date(2026, 10, 29))      # Tue, Wed (a holiday), Thu: two working days
    plan = generate(entrants(4), short, SPRING)
    autumn = [m for m in plan.matches if m.round <= 3]
    inside = [m for m in autumn if m.date in short]
    after = [u for u in plan.details if u.kind == "half"]
    assert len(inside) + len(after) == 6 and len(after) >= 2
    assert all(u.match.date > short.last and working_day(u.match.date) for u in after)
    assert "no free working day in the autumn half (Tuesday 27 October 2026 – Thursday 29 October 2026)" \
        in after[0].text


def test_A_2_2_the_start_time_is_17_00_unless_the_league_says_otherwise():
    assert {m.start for m in generate(entrants(3), AUTUMN, SPRING).matches} == {time(17, 0)}
    assert {m.start for m in generate(entrants(3), AUTUMN, SPRING, start=time(17, 30)).matches} == {time(17, 30)}


def test_A_2_1_sixteen_teams_fit_in_the_halves_with_two_matches_a_week_at_most():
    plan = generate(entrants(16), AUTUMN, SPRING)
    assert len(plan.matches) == 240 and not [u for u in plan.details if u.kind == "half"]
    per_week = Counter((t, m.date.isocalendar()[:2]) for m in plan.matches for t in (m.home, m.away))
    assert max(per_week.values()) <= 2


@pytest.mark.parametrize("teams, autumn, spring, message", [
    (entrants(1), AUTUMN, SPRING, "at least two teams"),
    (entrants(2) + entrants(1), AUTUMN, SPRING, "only once"),
    ([Entrant("A", "X", frozenset({5})), Entrant("B", "Y")], AUTUMN, SPRING, r"0 \(Monday\) to 4 \(Friday\)"),
    ([Entrant("A", ""), Entrant("B", "Y")], AUTUMN, SPRING, "a name and a venue"),
    (entrants(2), SPRING, AUTUMN, "autumn half must end before"),
])
def test_input_no_schedule_can_be_made_from_is_refused(teams, autumn, spring, message):
    with pytest.raises(ValueError, match=message):
        generate(teams, autumn, spring)


def test_a_half_cannot_end_before_it_starts():
    with pytest.raises(ValueError, match="cannot end"):
        Half(date(2026, 11, 30), date(2026, 10, 1))


# --- the organiser moves a match (A.2.1, A.2.2) -------------------------------------------------

@pytest.fixture
def plan():
    teams = [Entrant("Sokol", "U Lva"), Entrant("Jiskra", "U Koule"), Entrant("Orli", "U Lva"),
             Entrant("Lvi", "Radnice")]
    return generate(teams, AUTUMN, SPRING)


def first_free_day(plan: Plan, match: Planned) -> date:
    day = AUTUMN.first
    while move_refusal(plan, match, day) is not None:
        day += timedelta(days=1)
    return day


def test_A_2_2_a_match_cannot_move_to_a_weekend_or_a_holiday(plan):
    match = plan.matches[0]
    assert move_refusal(plan, match, date(2026, 10, 17)) == \
        "Saturday 17 October 2026 is a weekend day: matches are played on working days only (A.2.2)"
    assert "is a public holiday" in move_refusal(plan, match, date(2026, 10, 28))
    free = first_free_day(plan, match)
    assert "is a day off of the league" in move_refusal(plan, match, free, frozenset({free}))


def test_A_2_1_a_match_cannot_move_out_of_its_half(plan):
    autumn_match = next(m for m in plan.matches if m.date in AUTUMN)
    spring_match = next(m for m in plan.matches if m.date in SPRING)
    assert move_refusal(plan, autumn_match, date(2026, 12, 1)) == (
        f"Tuesday 1 December 2026 is outside the half-season of {autumn_match.text()} "
        "(Thursday 1 October 2026 – Monday 30 November 2026, A.2.1)")
    assert "outside the half-season" in move_refusal(plan, spring_match, date(2026, 11, 3))
    assert "outside the half-season" in move_refusal(list(plan.matches), spring_match, date(2027, 5, 3))


def test_A_3_3_a_postponed_match_may_take_a_day_of_a_later_half_not_an_earlier_one_nor_a_break(plan):
    """A late-autumn match postponed (A.3.3 gives the right to it) is played in the spring half
    without the organiser's override; not in the winter break, not after the season, and a spring
    match postponed stays in the spring (docs/league.md "Decisions")."""
    autumn_match = next(m for m in plan.matches if m.date in AUTUMN)
    spring_match = next(m for m in plan.matches if m.date in SPRING)
    spring_day = next(d for d in (SPRING.first + timedelta(days=n) for n in range(60))
                      if move_refusal(plan, spring_match, d) is None and
                      move_refusal(plan, autumn_match, d, postponed=True) is None)
    assert "outside the half-season" in move_refusal(plan, autumn_match, spring_day)
    assert move_refusal(plan, autumn_match, spring_day, postponed=True) is None
    assert move_refusal(plan, autumn_match, date(2026, 12, 1), postponed=True) == (
        f"Tuesday 1 December 2026 is outside the half-seasons a postponed {autumn_match.text()} may take "
        "(Thursday 1 October 2026 – Monday 30 November 2026, Monday 1 March 2027 – Friday 30 April 2027, "
        "A.2.1, A.3.3)")
    assert "outside the half-season of" in move_refusal(plan, spring_match, date(2027, 5, 4), postponed=True)
    assert "outside the half-season of" in move_refusal(plan, spring_match, date(2026, 11, 3), postponed=True)


def test_a_match_cannot_move_to_a_day_a_team_already_plays_or_the_venue_hosts():
    """One match a day per team, and per venue (it has one league table)."""
    monday, tuesday = date(2026, 10, 5), date(2026, 10, 6)
    sokol = Planned(1, monday, time(17, 0), "Sokol", "Jiskra", "U Lva")
    orli = Planned(1, tuesday, time(17, 0), "Orli", "Lvi", "U Lva")
    jiskra = Planned(2, date(2026, 10, 12), time(17, 0), "Jiskra", "Orli", "U Koule")
    matches = [sokol, orli, jiskra]
    assert move_refusal(matches, sokol, tuesday) == "U Lva already hosts round 1, Orli – Lvi on Tuesday 6 October 2026"
    assert move_refusal(matches, jiskra, tuesday) == "Orli already plays round 1, Orli – Lvi on Tuesday 6 October 2026"
    assert move_refusal(matches, jiskra, monday) == \
        "Jiskra already plays round 1, Sokol – Jiskra on Monday 5 October 2026"
    assert move_refusal(matches, jiskra, date(2026, 10, 7)) is None


def test_a_match_may_move_to_a_free_working_day_of_its_half_or_stay(plan):
    match = plan.matches[0]
    assert move_refusal(plan, match, match.date) is None
    assert move_refusal(plan.matches, match, first_free_day(plan, match)) is None


def test_a_move_of_a_match_not_in_the_schedule_or_to_a_closed_venue_is_refused(plan):
    match = plan.matches[0]
    stranger = Planned(1, match.date, time(17, 0), "Nobody", "Else", "Nowhere")
    assert move_refusal(plan, stranger, match.date) == "round 1, Nobody – Else is not in this schedule"
    free = first_free_day(plan, match)
    closed = frozenset(set(range(7)) - {free.weekday()})
    assert move_refusal(plan, match, free, opening={match.venue: closed}) == \
        f"{match.venue} is not open on {long_date(free)}"


def test_A_2_3_the_draw_is_repeatable_from_its_lot_whatever_the_order_entered():
    teams = entrants(10)
    drawn = draw(teams, "2026/27 carom")
    assert drawn == draw(list(reversed(teams)), "2026/27 carom") and sorted(drawn, key=teams.index) == teams
    assert drawn != draw(teams, "another lot")


def test_A_2_4_a_venue_open_only_on_good_friday_s_weekday_plays_in_the_nearest_week_instead():
    """Spring 2027: Good Friday is 26 March. A venue open on Fridays only never hosts on a Thursday."""
    teams = [Entrant(f"T{i}", "Friday bar" if i == 0 else f"V{i}") for i in range(10)]
    plan = generate(teams, AUTUMN, SPRING, opening={"Friday bar": frozenset({4})})
    assert plan.unmet == ()
    assert all(m.date.weekday() == 4 and m.date != date(2027, 3, 26) for m in plan.matches if m.venue == "Friday bar")


def test_A_2_4_a_home_wish_lost_to_a_holiday_moves_the_match_to_the_next_free_week():
    """Spring 2027 (ten teams, a round every week): T0 asks for Fridays, everyone else for Mondays.
    Its round 13 home match falls in the week of Good Friday (26 March); it is played on Friday
    19 March instead, T0's one free Friday next to it, not on a day T0 did not ask for."""
    teams = [Entrant(f"T{i}", f"V{i}", frozenset({4} if i == 0 else {0})) for i in range(10)]
    plan = generate(teams, AUTUMN, SPRING)
    assert not [u for u in plan.details if u.kind == "home" and u.who == "T0"]
    assert [(m.date, m.away) for m in plan.matches if m.round == 13 and m.home == "T0"] == [(date(2027, 3, 19), "T6")]
    per_week = Counter((t, m.date.isocalendar()[:2]) for m in plan.matches for t in (m.home, m.away))
    assert max(per_week.values()) == 2
