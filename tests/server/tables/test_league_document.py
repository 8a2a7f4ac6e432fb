"""league_document(store, venue, today, days): the league as a venue's device fetches it
(docs/league.md, interface 2 of issue 16)."""
import datetime as dt

from league_admin_helpers import (
    KOULE,
    LVA,
    SEASON,
    TEAMS,
    before_the_season,
    fixture_between,
    free_working_day,
    no_show,
    play_as_device,
    set_up_league,
)

from server.tables.league_document import league_document


def test_no_league_data_for_a_venue_is_none(store):
    assert league_document(store, LVA, dt.date(2026, 10, 20)) is None
    set_up_league(store)
    assert league_document(store, "U Nikoho", dt.date(2026, 10, 20)) is None


def test_the_document_has_the_league_every_team_with_roster_and_captain_and_the_venues_near_fixtures(store):
    """A.6.1: the roster is whom the captain of a match is chosen from; A.3.2: the team's captain.
    The roster is in Czech alphabetical order on every database (the season's end-to-end test found
    it in code-point order on SQLite, Černý after Svoboda on the attendance screen)."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    today = dt.date(2026, 10, 20)
    document = league_document(store, LVA, today)
    assert document["league"] == {"name": "Královédvorská kulečníková liga", "season": "2026/27",
                                  "competition": "carom",       # and its rules of play (issue 22)
                                  "rules": {"points_limit": 20, "innings_limit": 3, "partie_per_match": 4,
                                            "win_points": 2, "draw_points": 1, "loss_points": 0}}
    lvi = next(t for t in document["teams"] if t["name"] == "Lvi")
    assert lvi == {"name": "Lvi", "venue": LVA, "players": ["Černý", "Dvořák", "Novák", "Svoboda"],
                   "captain": "Novák"}
    assert {t["name"] for t in document["teams"]} == {"Lvi", "Orli", "Sokoli", "Jiskra"}
    expected = [f for f in store.fixtures.of(SEASON, "carom") if f["venue"] == LVA
                and abs((dt.date.fromisoformat(f["date"]) - today).days) <= 28]
    assert expected and [f["id"] for f in document["fixtures"]] == [f["id"] for f in expected]
    assert set(document["fixtures"][0]) == {"id", "date", "start", "home", "away", "venue"}
    assert document["fixtures"][0]["start"] == "17:00"
    assert all(f["venue"] == LVA for f in document["fixtures"])
    near = league_document(store, " hostinec  u LVA ", today, days=3)     # the device's spelling of its venue
    assert all(abs((dt.date.fromisoformat(f["date"]) - today).days) <= 3 for f in near["fixtures"])


def test_a_moved_match_is_fetched_on_its_new_date_and_a_postponed_or_forfeited_one_not_at_all(store):
    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    moved = fixture_between(store, "Orli", "Jiskra")
    day = free_working_day(store, moved)
    store.fixtures.move(moved["id"], day)
    dates = {f["id"]: f["date"] for f in league_document(store, KOULE, day)["fixtures"]}
    assert dates[moved["id"]] == day.isoformat()
    store.fixtures.postpone(moved["id"], "Jiskra")
    assert moved["id"] not in {f["id"] for f in league_document(store, KOULE, day)["fixtures"]}


def test_an_expelled_team_is_left_out_of_the_document(store):
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    for home, away in (("Orli", "Sokoli"), ("Jiskra", "Orli")):
        no_show(store, fixture_between(store, home, away)["id"], "Orli", expel=True)
    document = league_document(store, KOULE, dt.date(2026, 11, 1))
    assert "Orli" not in {t["name"] for t in document["teams"]}
    assert not [f for f in document["fixtures"] if "Orli" in (f["home"], f["away"])]


def test_a_played_match_is_not_offered_to_the_device_again(store, items, sign):
    """Found by the season's end-to-end test: a week after a match was played and its closed record
    stored, the venue's device still offered it in the setup menu ("11.3. Slavoj – Sokol"), and a
    match played again for it would replace its result. The document leaves it out once played."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")           # at Lvi's venue, LVA
    day = dt.date.fromisoformat(fixture["date"])
    assert fixture["id"] in {f["id"] for f in league_document(store, LVA, day)["fixtures"]}
    play_as_device(store, items, sign, fixture)
    assert store.fixtures.get(fixture["id"])["status"] == "played"
    for later in (day, day + dt.timedelta(days=6)):
        assert fixture["id"] not in {f["id"] for f in league_document(store, LVA, later)["fixtures"]}


EIGHTBALL_TEAMS = {"Koule": (LVA, "", ("Toman", "Doležal")), "Tágo": (KOULE, "", ("Mach", "Kříž"))}


def test_a_venue_with_a_carom_and_an_8ball_league_answers_each_device_with_its_games_league(store):
    """A venue hosting both leagues the same evening (two tables): the 8-ball device asked for the
    8-ball league (``competition``, its [device] game) and was given the carom one, whose fixtures
    and rosters it would have offered (the 8-ball season end-to-end test); without a
    competition the nearest league, carom first, as before."""
    set_up_league(store)
    set_up_league(store, "8ball", teams=EIGHTBALL_TEAMS)
    store.fixtures.generate(SEASON, "carom")
    store.fixtures.generate(SEASON, "8ball")
    carom_days = {f["date"] for f in store.fixtures.of(SEASON, "carom") if f["venue"] == LVA}
    tonight = next(f for f in store.fixtures.of(SEASON, "8ball") if f["venue"] == LVA and f["date"] in carom_days)
    today = dt.date.fromisoformat(tonight["date"])                     # a carom match at LVA the same evening
    assert league_document(store, LVA, today)["league"]["competition"] == "carom"      # the nearest, carom first
    carom = league_document(store, LVA, today, competition="carom")
    eightball = league_document(store, LVA, today, competition="8ball")
    assert (carom["league"]["competition"], eightball["league"]["competition"]) == ("carom", "8ball")
    assert {t["name"] for t in eightball["teams"]} == {"Koule", "Tágo"}
    assert tonight["id"] in [f["id"] for f in eightball["fixtures"]]
    assert {t["name"] for t in carom["teams"]} == set(TEAMS)
    assert [f["id"] for f in league_document(store, LVA, today, competition="8ball", days=0)["fixtures"]] == [tonight["id"]]


def test_a_venue_without_the_devices_league_has_no_league_data_for_it(store):
    set_up_league(store)
    assert league_document(store, LVA, dt.date(2026, 10, 20), competition="8ball") is None
    assert league_document(store, LVA, dt.date(2026, 10, 20), competition="carom") is not None


def test_a_captain_not_on_the_roster_leaves_the_document_valid_for_the_devices(store):
    """A.3.2 / A.3.4: the organiser adds a team with its captain before its roster (docs/league.md
    steps 3 and 5), or removes the captain from the roster during the season. The document's
    captain must be on the roster (wire.league), so the whole league was refused to every device
    of the venue (500, the 8-ball season end-to-end test); now that team is sent without one."""
    from wire.league import parse_document

    set_up_league(store)
    store.league.add_team(SEASON, "carom", "Nováčci", venue=LVA, captain="Zelený", phone="+420 777 123 456")
    store.league.remove_player(SEASON, "carom", "Lvi", "Novák")                 # Lvi's captain leaves the roster
    document = league_document(store, LVA, dt.date(2026, 10, 20))
    teams = {t["name"]: t for t in parse_document(document)["teams"]}
    assert (teams["Nováčci"]["players"], teams["Nováčci"]["captain"]) == ([], None)
    assert teams["Lvi"]["captain"] is None and "Novák" not in teams["Lvi"]["players"]
    assert teams["Sokoli"]["captain"] == "Němec"


def test_a_fixture_added_by_hand_is_in_the_venues_document(carom_league):
    """The device of the home team's venue is offered the added match (with its start) as any other."""
    day = free_working_day(carom_league, fixture_between(carom_league, "Orli", "Lvi"))
    added = carom_league.fixtures.add(SEASON, "carom", "Orli", "Lvi", day, start="18:00")
    document = league_document(carom_league, KOULE, day)
    assert {"id": added["id"], "date": day.isoformat(), "start": "18:00", "home": "Orli", "away": "Lvi",
            "venue": KOULE} in document["fixtures"]
    assert added["id"] not in [f["id"] for f in league_document(carom_league, LVA, day)["fixtures"]]
