"""The organiser's season tools in the web admin (docs/league.md "Web admin"), over real HTTP with
the login and CSRF: the next season carried over from this one."""
from league_admin_helpers import KOULE, LVA, SEASON, set_up_league


def test_a_season_is_added_from_the_one_before_with_its_teams_rosters_and_rules(logged_in, store):
    """A.3.2, A.3.4, A.1.2: the season form's "Převzít ze sezóny" carries the competition over."""
    set_up_league(store)
    store.league.set_rules(SEASON, "carom", {"entry_fee": "1500"})
    page = logged_in.change("/admin/season", {"season": SEASON, "competition": "carom", "name": "2027/28",
                                              "source": SEASON})
    assert ("Hotovo: sezóna 2027/28 přidána ze sezóny 2026/27: družstev 4, hráčů na soupiskách 16, pravidel 3; "
            "bez rozpisu a výsledků.") in page
    teams = store.league.teams("2027/28", "carom")
    assert [(t["name"], t["venue"]) for t in teams] == [("Jiskra", KOULE), ("Lvi", LVA), ("Orli", KOULE),
                                                        ("Sokoli", LVA)]
    assert store.league.rules("2027/28", "carom")["entry_fee"] == 1500
    assert '<option selected>2027/28</option>' in page          # the front page shows the season just added
    status, page, _ = logged_in.post("/admin/season", {"season": SEASON, "competition": "carom", "name": "2027/28",
                                                       "source": SEASON})
    assert status == 400 and ("Odmítnuto: Soutěž karambol 2027/28 už má družstev: 4; převzít lze jen do soutěže bez "
                              "družstev.") in page
    status, page, _ = logged_in.post("/admin/season", {"season": SEASON, "competition": "8ball", "name": "2028/29",
                                                       "source": SEASON})
    assert status == 400 and "Sezóna 2026/27 nemá v soutěži 8-ball žádná družstva k převzetí." in page
    assert [s["name"] for s in store.league.seasons()] == [SEASON, "2027/28"]


def test_a_season_added_empty_says_so(logged_in, store):
    page = logged_in.change("/admin/season", {"name": "2026/27"})
    assert "Začíná prázdná: bez družstev, soupisek a vlastních pravidel" in page
    assert '<select name="source"><option value="">nic (prázdná sezóna)</option><option>2026/27</option>' in page


def test_the_front_page_warns_of_the_matches_past_their_day_with_no_result(logged_in, carom_league):
    """Each links to its fixture's page, where the organiser records the no-show (A.3.7) or moves
    the match (A.3.3); by the store's today (injected), not the wall date."""
    import datetime as dt
    from urllib.parse import quote

    from clock import ManualClock
    from server.site import czech

    assert "Utkání po termínu bez výsledku" not in logged_in.get("/admin")[1]          # before the season
    fixtures = carom_league.fixtures.of(SEASON, "carom")
    today = fixtures[2]["date"]
    carom_league.clock = ManualClock(dt.datetime.fromisoformat(f"{today}T12:00"))
    page = logged_in.get("/admin")[1]
    block = page.split("Utkání po termínu bez výsledku", 1)[1].split("</div>", 1)[0]
    links = [(f'<a href="/admin/fixture?id={quote(f["id"])}">{czech.match_name(f["home"], f["away"], f["date"])}'
              f"</a> (Královédvorská kulečníková liga {SEASON}, {f['venue']})") for f in fixtures if f["date"] < today]
    assert links and all(link in block for link in links)
    assert block.count("<li>") == len(links)


def test_a_fixture_is_added_on_the_front_page_its_date_checked_as_a_moves_A_3_3(logged_in, carom_league):
    from league_admin_helpers import fixture_between, free_working_day

    context = {"season": SEASON, "competition": "carom"}
    busy = fixture_between(carom_league, "Lvi", "Orli")
    status, page, _ = logged_in.post("/admin/fixture-add", context | {"home": "Sokoli", "away": "Lvi",
                                                                      "date": busy["date"]})
    assert status == 400 and "nelze přidat na" in page and "vyplňte „výjimka z pravidel“" in page
    assert f'value="{busy["date"]}"' in page                      # the refused form shows what was sent
    day = free_working_day(carom_league, fixture_between(carom_league, "Sokoli", "Lvi"))
    page = logged_in.change("/admin/fixture-add", context | {"home": "Sokoli", "away": "Lvi", "date": day.isoformat(),
                                                              "time": "18:00"})
    assert "Hotovo: utkání Sokoli – Lvi přidáno na" in page and "18:00" in page
    added = carom_league.fixtures.get(f"{day.isoformat()}-sokoli-lvi")
    assert (added["start"], added["venue"], added["status"]) == ("18:00", LVA, "scheduled")
    page = logged_in.change("/admin/fixture-add", context | {"home": "Sokoli", "away": "Lvi", "date": busy["date"],
                                                              "override": "dohoda kapitánů"})
    assert "Výjimka: dohoda kapitánů" in page


def test_the_season_tools_say_it_in_english_to_an_english_reader(logged_in_english, carom_league):
    import datetime as dt

    from clock import ManualClock

    page = logged_in_english.change("/admin/season", {"season": SEASON, "competition": "carom", "name": "2027/28",
                                                      "source": SEASON})
    assert ("season 2027/28 added from season 2026/27: 4 team(s), 16 player(s) on their rosters, 2 rule(s); no "
            "schedule or results.") in page and "Carry over from season" in page
    carom_league.clock = ManualClock(dt.datetime(2027, 5, 3, 12, 0))         # the season over, nothing played
    page = logged_in_english.get(f"/admin?season={SEASON}")[1]
    assert "Matches past their day with no result" in page and "Add a match: home" in page
