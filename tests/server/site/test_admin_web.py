"""The league's web admin over real HTTP (docs/league.md "Web admin"): a login with the admin token,
an HttpOnly SameSite=Strict session cookie, CSRF on every form, refusals with their reason,
everything escaped; and the public schedule with results."""
import json
import re
from urllib.parse import quote

import pytest
from league_admin_helpers import SEASON, device_receiver, fixture_between, no_show, on_the_day, set_up_league
from markupsafe import escape

from admin_http_helpers import AdminClient
from server.site import czech
from server.site.admin_session import Sessions
from server.tables import figures


def test_admin_pages_need_the_login(admin):
    status, _, headers = admin.get("/admin")
    assert status == 303 and headers["location"] == "/admin/login"
    status, page, _ = admin.get("/admin/login")
    assert status == 200 and 'type="password" name="token"' in page


def test_a_wrong_token_is_refused_and_counted_against_the_client(admin, receiver):
    status, page, _ = admin.login("not-the-token")
    assert status == 401 and "Přístupový kód správce nesouhlasí." in page
    assert admin.get("/admin")[0] == 303
    statuses = [admin.post("/admin/login", {"token": f"guess-{n}"})[0] for n in range(25)]
    assert statuses[0] == 401 and statuses[-1] == 429        # guessing is slowed down (server.site.access)


def test_with_no_admin_token_the_web_admin_is_off(receiver, serving):
    with serving(receiver) as server:
        client = AdminClient(server.port)
        status, page, _ = client.login("")
    assert status == 401 and "Správa ligy na webu je vypnutá" in page


def test_the_admin_footer_leads_back_to_the_site_and_claims_no_played_matches(logged_in, store, items, sign):
    """The admin's pages have no "last change" of the site (it said "Zatím žádné odehrané utkání"
    with matches stored) and no link to themselves twice."""
    for body in items("m-1"):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    for path in ("/admin", "/admin/audit"):
        footer = logged_in.get(path)[1].split("<footer", 1)[1]
        assert '<a href="/">Stránky ligy</a> · <a href="/rules.html">Pravidla</a>' in footer
        assert "Zatím žádné" not in footer and "Správa ligy" not in footer


def test_the_session_cookie_is_http_only_same_site_strict(logged_in):
    cookie = logged_in.set_cookie.lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/admin" in cookie
    assert "secure" not in cookie                     # plain HTTP here; HTTPS: see the next test
    status, page, _ = logged_in.get("/admin")
    assert status == 200 and "Odhlásit" in page
    name, value = logged_in.cookie.split("=", 1)
    logged_in.cookie = f"{name}={value[:-1]}{'0' if value[-1] != '0' else '1'}"       # a guessed id
    assert logged_in.get("/admin")[0] == 303


def test_over_https_the_session_cookie_is_secure(clock):
    from starlette.responses import Response

    sessions, answer = Sessions(clock), Response()
    sessions.set_cookie(answer, sessions.new(admin=True), secure=True)
    assert "; secure" in answer.headers["set-cookie"].lower()


def test_a_session_expires(clock):
    sessions = Sessions(clock)
    session = sessions.new(admin=True)
    assert sessions.get(session["id"])["admin"]
    for _ in range(8 * 6):
        clock.advance(600)
        sessions.get(session["id"])
    assert sessions.get(session["id"]) is None


def test_a_form_without_the_csrf_token_is_refused_and_changes_nothing(logged_in, store):
    status, page, _ = logged_in.post("/admin/season", {"name": "2026/27"}, csrf=False)
    assert status == 403 and "Bezpečnostní kód formuláře nepatří k vašemu přihlášení" in page
    status, page, _ = logged_in.post("/admin/season", {"name": "2026/27", "csrf": "forged"}, csrf=False)
    assert status == 403 and store.league.seasons() == []


@pytest.mark.parametrize("raw, status, reason", [
    (b"csrf=x&name=" + b"a" * 17_000, 413, "Formulář smí mít nejvýše 16384 bajtů."),
    (b"&".join(b"f%d=1" % n for n in range(30)), 400, "Formulář není správně zakódovaný v UTF-8"),
])
def test_a_form_too_big_or_not_utf8_is_refused_with_the_reason(logged_in, raw, status, reason):
    answer, page, _ = logged_in.post("/admin/venue", {}, raw=raw)
    assert answer == status and reason in page


def test_invalid_utf8_in_a_field_is_refused(logged_in, store):
    raw = f"csrf={logged_in.csrf}&name=%FF%FE".encode()
    status, page, _ = logged_in.post("/admin/venue", {}, raw=raw)
    assert status == 400 and "Formulář není správně zakódovaný v UTF-8" in page and store.league.venues() == []


def test_the_organiser_runs_a_season_from_the_web_A_3_4_A_3_3_A_3_7(logged_in, store):
    from league_admin_helpers import before_the_season

    before_the_season(store)                # a move to 24 December is refused as a holiday, not as past
    post, change = logged_in.post, logged_in.change
    assert "Hotovo: sezóna 2026/27 přidána." in change("/admin/season", {"name": "2026/27"})
    status, page, _ = post("/admin/season", {"name": "2026/27", "autumn": "2026-09-01..2026-11-30"})
    assert status == 400 and ("Pole „podzimní část“ musí ležet v období říjen–listopad 2026 (A.2.1); "
                              "út 1. 9. 2026 mezi ně nepatří.") in page
    assert 'value="2026-09-01..2026-11-30"' in page                  # the refused form shows what was sent
    assert "pondělí, středa" in change("/admin/venue", {"name": "Hostinec U Lva", "day0": "1", "day2": "1"})
    change("/admin/venue", {"name": "Hospoda U Koule"})
    context = {"season": SEASON, "competition": "carom"}
    for name, venue in (("Lvi", "Hostinec U Lva"), ("Orli", "Hospoda U Koule"), ("Sokoli", "Hostinec U Lva")):
        change("/admin/team", context | {"name": name, "venue": venue, "captain": f"Kapitán {name}",
                                         "phone": "+420 777 000 111"})
    status, page, _ = post("/admin/team", context | {"name": "Bez", "venue": "Hostinec U Lva", "captain": "K",
                                                     "phone": "nic"})
    assert status == 400 and "Telefon kapitána se píše číslicemi (nejméně 9)" in page and "zadáno „nic“" in page
    change("/admin/player-add", context | {"name": "Novák", "team": "Lvi"})
    status, page, _ = post("/admin/player-add", context | {"name": "Novák", "team": "Orli"})
    assert status == 400 and "Novák už v sezóně 2026/27 hraje za družstvo „Lvi“" in page and "(A.3.4)" in page
    assert store.league.team(SEASON, "carom", "Orli")["players"] == []
    assert "Rozlosováno 6 utkání" in change("/admin/generate", context).replace("rozlosováno", "Rozlosováno")
    lvi = [f for f in store.fixtures.of(SEASON, "carom") if "Lvi" in (f["home"], f["away"])]
    for fixture in lvi[:2]:
        change("/admin/postpone", {"fixture": fixture["id"], "team": "Lvi"})
    status, page, _ = post("/admin/postpone", {"fixture": lvi[2]["id"], "team": "Lvi"})
    assert status == 400 and "Lvi už v sezóně 2026/27 odložilo utkání: 2" in page and "nejvýše 2 (A.3.3)" in page
    assert f"({czech.match_name(lvi[0]['home'], lvi[0]['away'], lvi[0]['date'])}, " in page      # not its id
    assert all(f["id"] not in page.split("Odmítnuto", 1)[1].split("</p>", 1)[0] for f in lvi)
    status, page, _ = post("/admin/move", {"fixture": lvi[2]["id"], "date": "2026-12-24"})
    assert status == 400 and "nelze přesunout na čt 24. 12. 2026: čt 24. 12. 2026 je státní svátek" in page
    assert f"Odmítnuto: Utkání {czech.match_name(lvi[2]['home'], lvi[2]['away'], lvi[2]['date'])} nelze" in page
    for home, away in (("Orli", "Sokoli"), ("Sokoli", "Orli")):
        fixture = fixture_between(store, home, away)["id"]
        on_the_day(store, fixture)          # a no-show is recorded on or after the match's day (A.3.7)
        page = change("/admin/no-show", {"fixture": fixture, "team": "Orli", "expel": "1"})
    assert "Orli vyřazeno ze soutěže (A.3.7)" in page
    assert store.league.team(SEASON, "carom", "Orli")["expelled"]


def test_post_redirect_get_reloading_the_page_after_a_postponement_repeats_nothing_A_3_3(logged_in, store):
    """F5 after "Odložit" used to post the form again: a second postponement, the team's allowance
    used up. Now the change answers with a redirect, and reloading loads the page again, nothing more."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")
    status, _, headers = logged_in.post("/admin/postpone", {"fixture": fixture["id"], "team": "Lvi"})
    assert status == 303 and headers["location"].startswith(f"/admin/fixture?id={fixture['id']}&done=")
    for _ in range(3):                                                     # the page reloaded
        status, page, _ = logged_in.get(headers["location"])
        assert status == 200 and "Hotovo: utkání Lvi – Orli odloženo na žádost družstva Lvi" in page
    assert len(store.fixtures.postponements(SEASON, "carom", "Lvi")) == 1


def test_what_a_change_says_cannot_be_put_in_a_link_from_elsewhere(logged_in, store):
    """The "done" text rides in the redirect's address sealed with the session's CSRF token: a link
    that makes it up (or one of another session) shows nothing."""
    from urllib.parse import quote

    page = logged_in.change("/admin/season", {"name": "2026/27"})
    assert "Hotovo: sezóna 2026/27 přidána." in page
    made_up = "/admin?done=" + quote("bWFkZSB1cA.0123456789abcdef0123456789abcdef")
    status, page, _ = logged_in.get(made_up)
    assert status == 200 and "Hotovo" not in page


def test_the_fixture_forms_offer_only_its_two_teams_and_a_venue_form_its_opening_days(logged_in, store):
    """The postponement and no-show forms list only the fixture's teams (not the league's); a venue's
    form shows its days ticked, so saving it untouched keeps them (it used to wipe them)."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")
    status, page, _ = logged_in.get(f"/admin/fixture?id={fixture['id']}")
    options = set(re.findall(r'<option value="([^"]*)"', page))
    assert status == 200 and options == {"", "Lvi", "Orli"}
    assert '<option value="">vyberte…</option>' in page                 # a required select's placeholder
    status, page, _ = logged_in.get("/admin/venue?name=" + quote("Hostinec U Lva"))
    ticked = re.findall(r'name="day(\d)" value="1" checked', page)
    assert status == 200 and ticked == ["0", "1", "2", "3"]
    form = {"name": "Hostinec U Lva"} | {f"day{d}": "1" for d in ticked}
    logged_in.change("/admin/venue", form)
    assert next(v for v in store.league.venues() if v["name"] == "Hostinec U Lva")["days"] == "0,1,2,3"
    assert logged_in.get("/admin/venue?name=Nikde")[0] == 404


def test_the_organiser_corrects_a_team_and_its_roster_and_a_removal_needs_confirming(logged_in, store):
    """A team's page shows its captain, phone and days in its form; a player's name is corrected
    on the roster; removing a player is refused until its box is ticked."""
    set_up_league(store)
    where = {"season": SEASON, "competition": "carom", "team": "Lvi"}
    status, page, _ = logged_in.get("/admin/team?" + "&".join(f"{k}={quote(v)}" for k, v in where.items()))
    assert status == 200 and 'name="captain" maxlength="100" required value="Novák"' in page
    assert re.findall(r'name="day(\d)" value="1" checked', page) == ["0", "1", "2"]
    page = logged_in.change("/admin/team-edit", where | {"captain": "Dvořák", "phone": "+420 603 111 222", "day3": "1"})
    assert "Hotovo: družstvo Lvi: kapitán Dvořák, telefon +420 603 111 222, hrací dny: čtvrtek." in page
    team = store.league.team(SEASON, "carom", "Lvi")
    assert (team["captain"], team["phone"], team["days"], team["venue"]) == ("Dvořák", "+420 603 111 222", "3",
                                                                          "Hostinec U Lva")
    logged_in.change("/admin/player-rename", where | {"name": "Černý", "new": "Černý Jan"})
    assert "Černý Jan" in store.league.team(SEASON, "carom", "Lvi")["players"]
    status, page, _ = logged_in.post("/admin/player-remove", where | {"name": "Svoboda"})
    assert status == 400 and "Smazání potvrďte zaškrtnutím políčka" in page
    assert "Svoboda" in store.league.team(SEASON, "carom", "Lvi")["players"]
    logged_in.change("/admin/player-remove", where | {"name": "Svoboda", "confirm": "1"})
    assert store.league.team(SEASON, "carom", "Lvi")["players"] == ["Černý Jan", "Dvořák", "Novák"]


def test_A_3_4_a_name_corrected_on_the_roster_is_the_players_on_the_site_and_the_admin(logged_in, store, sign):
    """Audit report 9: after "opravit jméno" Dvořák -> Dvořáček, his earlier match's zápis names him
    Dvořáček, says what its record carries and flags no name off the roster; the players' page has
    one Dvořáček and no Dvořák; the admin lists no match off the roster, as the zápis says."""
    from league_admin_helpers import before_the_season, device_receiver, lineup_items

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    for body in lineup_items("m-1", fixture_between(store, "Lvi", "Orli"), ["Novák", "Dvořák", "Svoboda", "Černý"],
                             ["Procházka", "Kučera", "Veselý", "Horák"]):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    where = {"season": SEASON, "competition": "carom", "team": "Lvi"}
    page = logged_in.change("/admin/player-rename", where | {"name": "Dvořák", "new": "Dvořáček"})
    assert "Hotovo: hráč Dvořák družstva Lvi přejmenován na Dvořáček; jeho zápisy a statistiky sezóny" in page
    zapis = logged_in.get("/matches/m-1.html")[1]
    assert "Hráč uveden podle soupisky (A.3.4): Dvořáček (v zápisu: Dvořák)." in zapis and "mimo soupisku" not in zapis
    players = logged_in.get("/players.html")[1]
    assert "Dvořáček" in players and "Dvořák" not in players
    assert "Hráči mimo soupisky" not in logged_in.get(f"/admin?season={SEASON}")[1]


def test_a_postponement_recorded_by_mistake_is_deleted_and_the_allowance_is_back_A_3_3(logged_in, store):
    from league_admin_helpers import before_the_season

    before_the_season(store)                # the match's date is still to come: it is restored
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")
    logged_in.change("/admin/postpone", {"fixture": fixture["id"], "team": "Lvi"})
    assert store.fixtures.get(fixture["id"])["status"] == "postponed"
    form = {"fixture": fixture["id"], "team": "Lvi"}
    status, page, _ = logged_in.post("/admin/postponement-delete", form)
    assert status == 400 and "Smazání potvrďte" in page and len(store.fixtures.postponements(SEASON, "carom", "Lvi")) == 1
    page = logged_in.change("/admin/postponement-delete", form | {"confirm": "1"})
    assert "Hotovo: odklad utkání Lvi – Orli na žádost družstva Lvi smazán" in page
    assert store.fixtures.postponements(SEASON, "carom", "Lvi") == []
    again = store.fixtures.get(fixture["id"])
    assert (again["status"], again["date"]) == ("scheduled", fixture["date"])
    status, page, _ = logged_in.post("/admin/postponement-delete", form | {"confirm": "1"})
    assert status == 400 and "Lvi utkání" in page and "neodložilo" in page
    logged_in.change("/admin/postpone", {"fixture": fixture["id"], "team": "Lvi"})
    logged_in.change("/admin/move", {"fixture": fixture["id"], "date": "2027-03-16", "override": "dohoda"})
    page = logged_in.change("/admin/postponement-delete", form | {"confirm": "1"})      # the move stands
    assert "smazán; termín út 16. 3. 2027 17:00 (původní termín se nevrací: utkání má od té doby termín " \
           "út 16. 3. 2027)" in page and store.fixtures.postponements(SEASON, "carom", "Lvi") == []


def test_A_3_7_a_no_show_is_refused_in_czech_before_the_day_confirmed_to_expel_and_withdrawn(logged_in, store):
    """The admin refuses as the CLI does, in Czech: a no-show before the match's day, the no-show
    that expels unless its box is ticked; a mistaken one is deleted, the fixture as it was."""
    from league_admin_helpers import before_the_season

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    first, second = fixture_between(store, "Orli", "Sokoli"), fixture_between(store, "Jiskra", "Orli")
    status, page, _ = logged_in.post("/admin/no-show", {"fixture": first["id"], "team": "Orli"})
    assert status == 400 and f"se hraje {czech.day(first['date'], year=True)}, dnes je teprve út 1. 9. 2026; " \
                             "nedostavení se zapisuje v den utkání nebo po něm (A.3.7)" in page
    on_the_day(store, max(first, second, key=lambda f: f["date"])["id"])       # both due
    logged_in.change("/admin/no-show", {"fixture": first["id"], "team": "Orli"})
    status, page, _ = logged_in.post("/admin/no-show", {"fixture": second["id"], "team": "Orli"})
    assert status == 400 and "Toto je 2. nedostavení družstva Orli: vyřadí je ze soutěže (A.3.7)" in page
    assert not store.league.team(SEASON, "carom", "Orli")["expelled"]
    status, page, _ = logged_in.post("/admin/no-show-delete", {"fixture": first["id"]})
    assert status == 400 and "Smazání potvrďte" in page
    page = logged_in.change("/admin/no-show-delete", {"fixture": first["id"], "confirm": "1"})
    assert "Hotovo: nedostavení k utkání Orli – Sokoli smazáno" in page
    assert (store.fixtures.get(first["id"])["status"], store.fixtures.get(first["id"])["no_show"]) == ("scheduled", None)
    page = logged_in.change("/admin/no-show", {"fixture": second["id"], "team": "Orli"})
    assert "vyřazeno" not in page and not store.league.team(SEASON, "carom", "Orli")["expelled"]


def test_the_audit_log_shows_who_changed_what_and_when_newest_first(logged_in, store):
    """Every change done is in the audit log with the change itself; a refused one is not."""
    logged_in.change("/admin/season", {"name": "2026/27"})
    logged_in.post("/admin/season", {"name": "2026/27"})                          # refused: already there
    logged_in.change("/admin/venue", {"name": "Hostinec U Lva", "day0": "1"})
    assert [(c["who"], c["action"]) for c in store.audit.latest()] == [("web, 127.0.0.1", "venue"),
                                                                       ("web, 127.0.0.1", "season")]
    status, page, _ = logged_in.get("/admin/audit")
    assert status == 200 and page.index("herna Hostinec U Lva uložena") < page.index("sezóna 2026/27 přidána")
    assert page.count("web, 127.0.0.1") == 2 and re.search(r"<time datetime=\"[^\"]+\">\w\w \d+\. \d+\. \d{4} \d\d:\d\d</time>", page)


@pytest.mark.postgresql_once
@pytest.mark.parametrize("path, said", [("/admin/team-edit", "Družstvo „Nikdo“ v soutěži karambol 2026/27 není."),
                                        ("/admin/postponement-delete", "Utkání „nic“ v rozpisu není."),
                                        ("/admin/move", "Utkání „nic“ v rozpisu není.")])
def test_a_change_for_a_team_or_fixture_that_is_not_there_is_refused_with_its_reason(logged_in, path, said):
    """The page a refused change is shown on is not there either: a refusal page, not a failure."""
    status, page, _ = logged_in.post(path, {"season": SEASON, "competition": "carom", "team": "Nikdo",
                                            "fixture": "nic", "captain": "K", "phone": "+420 777 000 111",
                                            "confirm": "1", "date": "2026-10-14"})
    assert status == 400 and said in page and "Zpět do správy ligy" in page


def test_a_change_is_kept_only_with_its_audit_entry(store, monkeypatch):
    """The change and its line in the audit log are one transaction: no change goes unrecorded."""
    from server.site import admin_web

    def broken(*_):
        raise RuntimeError("the audit log cannot be written")

    monkeypatch.setattr(store.audit, "add", broken)
    with pytest.raises(RuntimeError):
        admin_web.settled(admin_web.ACTIONS["season"][0], store, {"name": "2026/27"}, audit=("web, 127.0.0.1", "season"))
    assert store.league.seasons() == []


def test_every_text_is_escaped_on_the_admin_and_schedule_pages(logged_in, store):
    set_up_league(store)
    evil = '<script>alert("x")</script>'
    store.league.add_team(SEASON, "carom", evil, venue="Hostinec U Lva", captain=evil, phone="777000111")
    store.fixtures.generate(SEASON, "carom")
    for path in ("/admin", "/schedule"):
        status, page, _ = logged_in.get(path)
        assert status == 200 and evil not in page and str(escape(evil)) in page


def test_logout_ends_the_session(logged_in):
    status, _, headers = logged_in.post("/admin/logout", {})
    assert status == 303 and headers["location"] == "/admin/login"
    assert logged_in.get("/admin")[0] == 303


def test_A_2_3_the_public_schedule_shows_each_round_and_the_results_of_played_matches(admin, store, items, sign):
    """A.2.3: the drawn schedule with each match's date is published on the league's site (no
    login), round by round; a played match links to its result, a forfeited one says so."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    played = fixture_between(store, "Lvi", "Orli")
    for body in items(played["id"], date=played["date"]):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    no_show(store, fixture_between(store, "Sokoli", "Jiskra")["id"], "Jiskra")
    figures.settle(store)           # as the CLI and the web admin do after a change
    status, page, _ = admin.get("/schedule?season=2026/27&competition=carom")
    assert status == 200 and 'name="viewport"' in page and "1. kolo" in page and "6. kolo" in page
    assert all(czech.fixture_time(f["date"], "17:00") in page for f in store.fixtures.of(SEASON, "carom"))
    record = store.fixtures.get(played["id"])
    assert re.search(f'<a href="/matches/{played["id"]}.html"[^>]*>{record["points_home"]} : {record["points_away"]}</a>',
                     page)
    assert "kontumováno" in page
    forfeited = fixture_between(store, "Sokoli", "Jiskra")["id"]          # A.3.7: its 8 : 0 links to its zápis
    assert re.search(f'<a href="/matches/{forfeited}.html"[^>]*>8 : 0</a>', page)
    status, zapis, _ = admin.get(f"/matches/{forfeited}.html")
    assert status == 200 and "Sokoli" in zapis and "Jiskra" in zapis
    status, data, _ = admin.get("/schedule.json")
    statuses = {f["status"] for f in json.loads(data)["fixtures"]}
    assert status == 200 and {"played", "forfeited"} <= statuses


def test_a_season_added_for_next_year_leaves_the_schedule_on_the_one_being_played(admin, store, items, sign):
    """Issue s40: after ``season add 2027/28`` (its first team entered), the nav's "Rozpis" kept to
    the season the table and the players show, the one with the matches; the new
    season's schedule is a choice away (A.2.3)."""
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    played = fixture_between(store, "Lvi", "Orli")
    for body in items(played["id"], date=played["date"]):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    figures.settle(store)
    store.league.add_season("2027/28")
    store.league.add_team("2027/28", "carom", "Lvi", venue=played["venue"], captain="Novák", phone="777123456")
    for path in ("/schedule", "/table.html", "/players.html"):
        status, page, _ = admin.get(path)
        assert status == 200 and "2026/27" in page.split("</h1>")[0].split("<h1")[1], path
    assert "1. kolo" in admin.get("/schedule")[1]
    assert json.loads(admin.get("/schedule.json")[1])["season"] == SEASON
    status, page, _ = admin.get("/schedule?season=2027/28")
    assert status == 200 and "sezóna 2027/28" in page and "Rozpis utkání zatím není." in page


def test_the_schedule_page_without_a_league_says_so(admin):
    status, page, _ = admin.get("/schedule?season=<x>")
    assert status == 200 and "Rozpis utkání zatím není." in page


def test_the_league_pages_load_only_the_sites_own_files_and_may_not_be_framed(logged_in):
    answers = [logged_in.get("/admin"), logged_in.get("/schedule")]
    logged_in.post("/admin/logout", {})
    answers.append(logged_in.get("/admin/login"))
    for status, _, headers in answers:
        policy = headers["content-security-policy"]
        assert status == 200 and "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_issue_22_the_admin_warns_overrides_and_assigns(logged_in, store, items, sign):
    """A.3.1: a team below 4 players is warned of; A.3.3: a refused date is taken with the
    organiser's reason, which the fixture list shows; a league match off the schedule is listed as
    not counted until the organiser makes it a fixture's result; the names of its partie on
    neither roster are listed for the organiser (A.3.4)."""
    from league_admin_helpers import LVA, before_the_season, device_receiver

    before_the_season(store)
    set_up_league(store)
    store.league.add_team(SEASON, "carom", "Hasiči", venue=LVA, captain="Hasič", phone="+420 777 000 222")
    context = {"season": SEASON, "competition": "carom"}
    short = "Upozornění: Družstvo Hasiči má na soupisce hráčů: 0; družstvo jich má mít nejméně 4 (A.3.1)."
    page = logged_in.change("/admin/generate", context)
    assert page.count(short) == 2              # in what was done, and at the top of the page while it lasts
    fixture = fixture_between(store, "Lvi", "Orli")
    busy = next(f for f in store.fixtures.of(SEASON, "carom") if f["id"] != fixture["id"] and "Lvi" in (f["home"], f["away"]))
    move = {"fixture": fixture["id"], "date": busy["date"]}
    status, page, _ = logged_in.post("/admin/move", move)
    assert status == 400 and f"nelze přesunout na {czech.day(busy['date'], year=True)}" in page
    assert "výjimku s důvodem (A.3.3)" in page and store.fixtures.get(fixture["id"])["date"] == fixture["date"]
    page = logged_in.change("/admin/move", move | {"override": "dohoda kapitánů"})
    assert "výjimka: dohoda kapitánů (" in page and store.fixtures.get(fixture["id"])["date"] == busy["date"]
    assert "výjimka: dohoda kapitánů (" in logged_in.get(f"/admin?season={SEASON}")[1]     # the fixture list too
    for body in items("m-off", date="2026-09-30"):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    page = logged_in.get(f"/admin?season={SEASON}")[1]
    assert "Utkání mimo rozpis (nezapočtena)" in page and "<td>m-off</td>" in page
    assert "Hráči mimo soupisky (A.3.4)" in page and "Lvi hráč 1, Lvi hráč 2" in page
    page = logged_in.change("/admin/assign", context | {"match": "m-off", "fixture": fixture["id"]})
    named = czech.match_name("Lvi", "Orli", busy["date"])
    assert f"Hotovo: záznam m-off je výsledkem utkání {named}." in page
    assert store.fixtures.get(fixture["id"])["match"] == "m-off" and "<td>m-off</td>" not in page
    assert [e["action"] for e in store.audit.latest()][:3] == ["assign", "move", "generate"]


def test_A_6_5_the_organiser_rules_on_an_interrupted_match_on_its_page(logged_in, store, items, sign):
    """An interrupted match (A.6.5) is listed with a link to its ruling; the ruling (an award) is
    refused without a score written HOME:AWAY, then recorded, final, in the audit log; the fixture
    counts the awarded points."""
    import json

    from league_admin_helpers import before_the_season, device_receiver

    import carom_samples
    from delivery.outbox import item_body
    from server.tables import exports

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")
    played, _ = carom_samples.match("m-int", "Lvi", "Orli", date=fixture["date"], fixture=fixture["id"],
                                    points_limit=20, innings_limit=3)
    played = played[:2]
    _, text, summary = carom_samples.closing(json.loads(played[0][1].splitlines()[0])["match"], played)
    summary["interrupted"] = {"partie": 3, "reason": "closing", "captain": "Novák", "at": "2026-10-06T20:10:00+02:00"}
    for body in [item_body(pid, "partie", t, s) for pid, t, s in played] + [item_body("m-int", "match", text, summary)]:
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    page = logged_in.get(f"/admin?season={SEASON}")[1]
    assert f'<a href="/admin/fixture?id={quote(fixture["id"])}">Rozhodnout o přerušeném utkání (A.6.5)</a>' in page
    status, page, _ = logged_in.get(f"/admin/fixture?id={quote(fixture['id'])}")
    assert status == 200 and "Přerušené utkání (A.6.5)" in page and 'action="/admin/rule"' in page
    assert 'action="/admin/move"' not in page                    # a match interrupted is ruled on, not moved
    ruling = {"fixture": fixture["id"], "kind": "award", "reason": "herna zavřena"}
    status, page, _ = logged_in.post("/admin/rule", ruling | {"points": "osm"})
    assert status == 400 and "DOMÁCÍ:HOSTÉ" in page and store.fixtures.get(fixture["id"])["ruling"] is None
    status, page, _ = logged_in.post("/admin/rule", ruling | {"points": "0:0"})       # 4 partie give 8 (A.5.3)
    assert status == 400 and "Přiznat 0:0 nelze: takovým výsledkem utkání soutěže" in page
    assert "dohromady 8 bodů (A.5.3–A.5.5, RULES 2.9), kontumace 8:0 nebo 0:8 (A.3.7)" in page
    page = logged_in.change("/admin/rule", ruling | {"points": "6:2"})
    assert "Hotovo: utkání Lvi – Orli: kontumováno 6 : 2 (A.6.5)." in page
    assert {r["team"]: r["points"] for r in exports.league_table(store, "carom", SEASON)["rows"] if r["matches"]} == \
        {"Lvi": 6, "Orli": 2}
    assert store.audit.latest()[0]["action"] == "rule"
    status, page, _ = logged_in.post("/admin/rule", ruling | {"points": "8:0"})
    assert status == 400 and "konečné" in page and store.fixtures.get(fixture["id"])["ruling"]["points_home"] == 6


def test_A_3_6_the_organiser_awards_an_irregular_match_on_its_page(logged_in, store, sign):
    """A match in which Novák played twice for Lvi (A.3.6) is listed under the irregular records
    and linked to its ruling; its page names the breach and offers the award only."""
    from league_admin_helpers import before_the_season, device_receiver, lineup_items

    from server.tables import exports

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(store, "Lvi", "Orli")
    for body in lineup_items("m-twice", fixture, ["Novák", "Dvořák", "Novák", "Černý"],
                             ["Procházka", "Kučera", "Veselý", "Horák"]):
        assert device_receiver(store).handle(sign("u-lva-1").sign(body), via="test")[0] == 200
    page = logged_in.get(f"/admin?season={SEASON}")[1]
    assert "Nesrovnalosti v zápisech (A.3.6, A.6.1)" in page and "Hráči mimo soupisky (A.3.4)" not in page
    assert ("Novák (Lvi) hrál partie 1, 3; podle losu hraje každý hráč jen jednu (A.3.6) (čeká na rozhodnutí: "
            f'<a href="/admin/fixture?id={quote(fixture["id"])}">rozhodnout</a>)') in page
    assert f'<a href="/admin/fixture?id={quote(fixture["id"])}">Rozhodnout o utkání s nesrovnalostí' in page
    status, page, _ = logged_in.get(f"/admin/fixture?id={quote(fixture['id'])}")
    assert status == 200 and "Utkání s nesrovnalostí v zápisu (A.3.6)</h2>" in page
    assert 'name="kind" value="award"' in page and "dohrát zbytek" not in page
    ruling = {"fixture": fixture["id"], "reason": "Novák hrál dvakrát"}
    status, page, _ = logged_in.post("/admin/rule", ruling | {"kind": "replay", "date": "2026-10-20"})
    assert status == 400 and "porušilo A.3.6 nebo A.6.1" in page and store.fixtures.get(fixture["id"])["ruling"] is None
    page = logged_in.change("/admin/rule", ruling | {"kind": "award", "points": "0:8"})
    assert "Hotovo: utkání Lvi – Orli: přiznán výsledek 0 : 8 (A.3.6)." in page
    assert "jen jednu (A.3.6)</li>" in logged_in.get(f"/admin?season={SEASON}")[1]      # ruled: no longer waiting
    assert {r["team"]: r["points"] for r in exports.league_table(store, "carom", SEASON)["rows"] if r["matches"]} == \
        {"Lvi": 0, "Orli": 8}


def test_A_1_2_the_organiser_sets_the_competitions_rules_on_the_admin_page(logged_in, store):
    set_up_league(store)
    context = {"season": SEASON, "competition": "carom"}
    page = logged_in.get(f"/admin?season={SEASON}")[1]
    assert 'name="rule_innings_limit" value="3"' in page                # as set_up_league set it
    status, page, _ = logged_in.post("/admin/rules", context | {"rule_innings_limit": "0"})
    assert status == 400 and 'name="rule_innings_limit" value="0"' in page          # the form shows what was sent
    assert "Limit náběhů" in page and store.league.rules(SEASON, "carom")["innings_limit"] == 3
    page = logged_in.change("/admin/rules", context | {"rule_innings_limit": "25"})
    assert "Hotovo: pravidla soutěže" in page and 'name="rule_innings_limit" value="25"' in page
    assert store.league.rules(SEASON, "carom")["innings_limit"] == 25 and store.audit.latest()[0]["action"] == "rules"


def test_A_3_4_a_name_corrected_on_a_roster_is_compared_as_an_identity(logged_in, store):
    """Correcting a name may change how the player's own name is written, never make him another
    player of the season, however that one is written (names are identities, issue 22)."""
    set_up_league(store)
    where = {"season": SEASON, "competition": "carom", "team": "Lvi"}
    other = next(p for p in store.league.team(SEASON, "carom", "Orli")["players"])
    status, page, _ = logged_in.post("/admin/player-rename", where | {"name": "Černý", "new": f"  {other.upper()} "})
    assert status == 400 and "(A.3.4)" in page and "Orli" in page
    assert "Černý" in store.league.team(SEASON, "carom", "Lvi")["players"]
    status, page, _ = logged_in.post("/admin/player-rename", where | {"name": "Černý", "new": "novák"})
    assert status == 400 and "(A.3.4)" in page
    status, page, _ = logged_in.post("/admin/player-rename", where | {"name": "Černý", "new": "NOVAK"})  # no accents
    assert status == 400 and "NOVAK už v sezóně 2026/27 hraje za toto družstvo jako „Novák“" in page
    logged_in.change("/admin/player-rename", where | {"name": "černý", "new": "ČERNÝ"})
    assert "ČERNÝ" in store.league.team(SEASON, "carom", "Lvi")["players"]


@pytest.mark.parametrize("fee, said", [(None, False), ("500", True)])
def test_A_1_5_the_expulsion_says_bez_nahrady_startovneho_where_a_fee_was_set(admin, store, fee, said):
    set_up_league(store)
    if fee:
        store.league.set_rules(SEASON, "carom", {"entry_fee": fee})
    store.fixtures.generate(SEASON, "carom")
    for home, away in (("Orli", "Sokoli"), ("Sokoli", "Orli")):
        no_show(store, fixture_between(store, home, away)["id"], "Orli", expel=True)
    for path in (f"/schedule?season={SEASON}&competition=carom", f"/table.html?season={SEASON}"):
        page = admin.get(path)[1]       # the table, which leaves Orli out, says why as the schedule does
        assert "Vyřazeno ze soutěže (A.3.7), výsledky anulovány" in page and "Orli" in page, path
        assert ("bez náhrady startovného" in page) is said


def test_a_team_withdraws_on_its_admin_page_confirmed_the_site_says_so_with_the_reason_and_it_comes_back(logged_in, store):
    """The team's page withdraws it (or expels it by the organiser's decision, A.1.2) once the box
    is ticked; the schedule, the table and the team's page say how it left and why; "Vrátit do
    soutěže" undoes it."""
    from league_admin_helpers import before_the_season

    before_the_season(store)
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    where = {"season": SEASON, "competition": "carom", "team": "Orli"}
    status, page, _ = logged_in.post("/admin/team-withdraw", where | {"how": "withdrew", "reason": "nemají hráče"})
    assert status == 400 and "Odstoupení nebo vyřazení potvrďte zaškrtnutím políčka." in page
    status, page, _ = logged_in.post("/admin/team-withdraw", where | {"reason": "x", "confirm": "1"})
    assert status == 400 and "Vyberte, zda družstvo odstupuje" in page and not store.league.team(SEASON, "carom", "Orli")["expelled"]
    page = logged_in.change("/admin/team-withdraw", where | {"how": "withdrew", "reason": "nemají hráče", "confirm": "1"})
    assert "Hotovo: družstvo Orli odstoupilo ze soutěže; anulováno výsledků: 0, zrušeno utkání: 6." in page
    assert "Stav</dt><dd>odstoupilo ze soutěže; důvod: nemají hráče" in page and "Vrátit do soutěže" in page
    status, page, _ = logged_in.post("/admin/team-withdraw", where | {"how": "decision", "reason": "x", "confirm": "1"})
    assert status == 400 and "Orli už ze soutěže odešlo" in page and "odstoupilo." in page
    for path in (f"/schedule?season={SEASON}&competition=carom", f"/table.html?season={SEASON}",
                 f"/teams/Orli.html?season={SEASON}"):
        page = logged_in.get(path)[1]
        assert "odstoupilo ze soutěže" in page and "nemají hráče" in page, path
    page = logged_in.change("/admin/team-reinstate", where | {"confirm": "1"})
    assert "Hotovo: družstvo Orli vráceno do soutěže, jeho výsledky opět platí; znovu v rozpisu utkání: 6." in page
    assert {f["status"] for f in store.fixtures.of(SEASON, "carom")} == {"scheduled"}
    page = logged_in.change("/admin/team-withdraw", where | {"how": "decision", "reason": "hrubé chování",
                                                             "confirm": "1"})
    assert "Orli vyřazeno ze soutěže rozhodnutím organizátora (A.1.2)" in page
    page = logged_in.get(f"/schedule?season={SEASON}&competition=carom")[1]
    assert "Orli vyřazeno ze soutěže rozhodnutím organizátora (A.1.2), výsledky anulovány; důvod: hrubé chování" in page


def test_a_venues_device_is_removed_on_its_page_confirmed_and_kept_in_the_audit_log(logged_in, store):
    """Audit report 11: a venue's page lists its counters, each with a removal that needs its box
    ticked; once removed it is no longer registered (its posts refused: tests/server/test_admin_cli.py),
    the page lists it no more and the audit log says who removed it."""
    set_up_league(store)
    path = "/admin/venue?name=" + quote("Hostinec U Lva")
    status, page, _ = logged_in.get(path)
    assert status == 200 and 'action="/admin/device-remove"' in page and 'name="device" value="u-lva-1"' in page
    form = {"name": "Hostinec U Lva", "device": "u-lva-1"}
    status, page, _ = logged_in.post("/admin/device-remove", form)
    assert status == 400 and "Smazání potvrďte zaškrtnutím políčka" in page and store.devices.get("u-lva-1")
    assert re.findall(r'name="day(\d)" value="1" checked', page) == ["0", "1", "2", "3"]      # the venue's, as stored
    page = logged_in.change("/admin/device-remove", form | {"confirm": "1"})
    assert "Hotovo: počítadlo u-lva-1 odebráno" in page and 'name="device" value="u-lva-1"' not in page
    assert "Počítadla této herny: žádné" in page and store.devices.get("u-lva-1") is None
    assert store.devices.get("u-koule-1") is not None
    [entry] = store.audit.latest()
    assert (entry["who"], entry["action"]) == ("web, 127.0.0.1", "device-remove") and "u-lva-1" in entry["what"]
    status, page, _ = logged_in.post("/admin/device-remove", form | {"confirm": "1"})      # sent again
    assert status == 400 and "Počítadlo „u-lva-1“ tu registrované není." in page
    assert logged_in.post("/admin/device-remove", form | {"confirm": "1", "csrf": "forged"})[0] == 403
