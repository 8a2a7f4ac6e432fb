"""What the public site says of the league's exceptions (issue 22), over real HTTP: a partie by a
name on neither roster is flagged on its zápis (A.3.4), a date the organiser took against the rules
is shown on the schedule with the organiser's reason (A.3.3). The store's SQL is not involved
beyond what its own tests cover on PostgreSQL: SQLite only."""
import html
import re

import pytest
from league_admin_helpers import (
    SEASON,
    TEAMS,
    before_the_season,
    fixture_between,
    no_show,
    play_as_device,
    set_up_league,
)
from markupsafe import escape

from admin_http_helpers import AdminClient
from conftest import register_devices
from server.ingest.receiver import Receiver
from server.site import czech, pages
from server.storage.store import Store
from server.tables import exports

# the rosters of the sample matches' players (carom_samples.match: "Lvi hráč 1" …)
ROSTERED = {name: (venue, days, tuple(f"{name} hráč {n}" for n in range(1, 5)))
            for name, (venue, days, _) in TEAMS.items()}


@pytest.fixture
def league(tmp_path):
    """A SQLite store with a league (league_admin_helpers) before its season; its schedule is drawn
    by the test, after the rosters it needs."""
    store = before_the_season(register_devices(Store(str(tmp_path / "league.sqlite"))))
    yield store
    store.close()


@pytest.fixture
def site(league, serving):
    with serving(Receiver(league)) as server:
        yield AdminClient(server.port)


def shown(page: str) -> str:
    """The text a reader sees of a page's main part (tags dropped, spaces collapsed)."""
    main = page[page.index("<main"):page.index("</main>")]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


@pytest.mark.parametrize("teams, flag", [
    (TEAMS, "Hráči mimo soupisku družstva, za které hráli (A.3.4): Lvi hráč 1, Lvi hráč 2, Lvi hráč 3, Lvi hráč 4, "
            "Orli hráč 1, Orli hráč 2, Orli hráč 3, Orli hráč 4."),
    (ROSTERED, None),
])
def test_A_3_4_a_partie_by_a_name_on_neither_roster_is_flagged_on_its_zapis(league, site, items, sign, teams, flag):
    """A.3.4: the match is stored and counted, the names on neither team's roster are named on its
    zápis for the organiser; a match of rostered players has no such note."""
    set_up_league(league, teams=teams)
    league.fixtures.generate(SEASON, "carom")
    match_id = play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli"))
    status, page, _ = site.get(f"/matches/{match_id}.html")
    assert status == 200 and "Zápis o utkání" in page
    if flag is None:
        assert "mimo soupisku" not in page
    else:
        assert flag in shown(page)


def test_A_3_4_the_flagged_names_are_escaped_on_the_zapis(league, items, sign):
    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    record = exports.match_record(league, play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli")))
    evil = '<script>alert("x")</script>'
    page = pages.match(dict(record, unrostered=[evil]))
    assert evil not in page and f"Hráč mimo soupisku družstva, za které hrál (A.3.4): {escape(evil)}." in page


def test_A_3_4_the_zapis_says_what_its_record_carries_for_a_name_read_as_the_roster_has_it(league, items, sign):
    """A player named as his roster names him (server/tables/roster_names.py) is listed in a note
    with the name the signed record carries, escaped like every text."""
    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    record = exports.match_record(league, play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli")))
    assert "podle soupisky" not in pages.match(record)
    evil = '<b>Dvořák</b>'
    page = pages.match(dict(record, renamed=[{"side": "home", "name": "Dvořáček", "recorded": evil}]))
    assert evil not in page and f"Hráč uveden podle soupisky (A.3.4): Dvořáček (v zápisu: {escape(evil)})." in page
    two = [{"side": "home", "name": "Dvořáček", "recorded": "Dvořák"}, {"side": "away", "name": "Kučera", "recorded": "Kucera"}]
    assert ("Hráči uvedeni podle soupisky (A.3.4): Dvořáček (v zápisu: Dvořák), Kučera (v zápisu: Kucera)."
            in pages.match(dict(record, renamed=two)))


def test_A_3_6_and_A_6_1_the_zapis_says_what_holds_the_match_escaped(league, items, sign):
    """The zápis of a match held for the organiser (server/league/irregular.py) says so in its facts
    and names each breach in a note, the names escaped like every text."""
    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    record = exports.match_record(league, play_as_device(league, items, sign, fixture_between(league, "Lvi", "Orli")))
    evil = '<script>alert("x")</script>'
    held = dict(record, standing="pending", irregular=[{"rule": "A.3.6", "side": "home", "name": evil, "partie": [1, 3]},
                                                       {"rule": "A.6.1", "side": "away", "name": "Novák",
                                                        "played_for": "home"},
                                                       {"rule": "A.6.1", "side": "home", "name": "Pan Nikdo",
                                                        "played_for": None}])
    page = pages.match(held)
    assert evil not in page
    assert (f"Nesrovnalost: {escape(evil)} (Lvi) hrál partie 1, 3; podle losu hraje každý hráč jen jednu "
            "(A.3.6).") in page
    assert "Nesrovnalost: kapitán Novák (Orli) hrál v tomto utkání za družstvo Lvi (A.6.1)." in page
    assert "Nesrovnalost: kapitán Pan Nikdo (Lvi) není na soupisce svého družstva a nehrál za ně (A.6.1)." in page
    assert "nesrovnalost v zápisu, čeká na rozhodnutí organizátora soutěže (A.3.6, A.6.1)" in page
    assert "Nesrovnalost" not in pages.match(record) and "nesrovnalost" not in pages.match(record)
    # interrupted too (A.6.5): held for what it broke, as its fixture says ("irregular", award only)
    both = dict(held, interrupted=True, irregular=held["irregular"][:1])
    assert "nesrovnalost v zápisu, čeká na rozhodnutí organizátora soutěže (A.3.6)" in pages.match(both)


def test_every_player_link_of_a_zapis_leads_to_a_page_held_matches_link_none(league, site, sign):
    """A player page holds counted partie: the zápis of a counted match links its players, each to
    a page that is there; that of a match held for the organiser (A.3.6) links none of them."""
    from league_admin_helpers import device_receiver, lineup_items

    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    lvi, orli = (list(TEAMS[team][2]) for team in ("Lvi", "Orli"))
    for match_id, (home, away), home_names in (("m-ok", ("Lvi", "Orli"), lvi),
                                               ("m-twice", ("Orli", "Lvi"), orli[:2] * 2)):
        for body in lineup_items(match_id, fixture_between(league, home, away), home_names,
                                 lvi if home == "Orli" else orli):
            assert device_receiver(league).handle(sign("u-lva-1" if home == "Lvi" else "u-koule-1").sign(body),
                                                  via="test")[0] == 200
    counted, held = (site.get(f"/matches/{m}.html")[1] for m in ("m-ok", "m-twice"))
    links = re.findall(r'href="(/players/[^"]+)"', counted)
    assert len(links) == 8 and all(site.get(html.unescape(href))[0] == 200 for href in links)
    assert "nesrovnalost v zápisu" in held and "/players/" not in held


def test_A_3_7_the_organisers_no_show_zapis_says_who_did_not_come_and_no_device_result(league):
    """The organiser's no-show has a zápis of its own (standing.stand_in): it says the team did not
    turn up and the forfeit score, not that "the device declared 0 : 0" (no device did)."""
    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(league, "Lvi", "Orli")
    no_show(league, fixture["id"], "Orli")
    page = shown(pages.match(exports.match_record(league, fixture["id"])))
    assert "Výsledek 8 : 0" in page and "Stav kontumováno ve prospěch Lvi (A.3.7): Orli se nedostavilo" in page
    assert "Zařízení uvedlo" not in page
    assert "Průměry utkání" not in page and "0,000" not in page        # no partie: no row of zeros


def test_A_3_7_an_8ball_forfeit_zapis_has_no_table_and_the_table_says_a_forfeit_adds_points_not_matches(league):
    """The audit's Kulaři: B 5 with Zápasy 1:3 beside "Pořadí: body (vyhrané zápasy)". A forfeit
    scores its points (A.3.7) but plays no individual match (RULES 2.9): the legend says so."""
    from server.tables import figures

    set_up_league(league, "8ball")
    league.fixtures.generate(SEASON, "8ball")
    fixture = fixture_between(league, "Lvi", "Orli", "8ball")
    no_show(league, fixture["id"], "Orli")
    figures.settle(league)
    page = shown(pages.match(exports.match_record(league, fixture["id"])))
    assert "Stav kontumováno ve prospěch Lvi (A.3.7): Orli se nedostavilo" in page and "Celkem" not in page
    data = exports.league_table(league, "8ball", SEASON)
    lvi = next(r for r in data["rows"] if r["team"] == "Lvi")
    assert (lvi["points"], lvi["individual_won"], lvi["individual_lost"]) == (4, 0, 0)
    table = shown(pages.eightball_table(data))
    assert "body (vyhrané zápasy)" not in table
    assert "B body (za vyhrané jednotlivé zápasy, RULES 2.9; za kontumaci body kontumace, A.3.7)" in table
    assert "(kontumace žádné nepřidává)" in table


def test_A_3_3_the_schedule_shows_the_organisers_override_of_a_refused_date(league, site):
    """A.3.3: a move to a day on which a team already plays is refused unless the organiser gives a
    reason; the public schedule then shows that reason and what it overrode, in Czech, at that
    fixture only (escaped)."""
    set_up_league(league)
    league.fixtures.generate(SEASON, "carom")
    fixture = fixture_between(league, "Lvi", "Orli")
    busy = next(f for f in league.fixtures.of(SEASON, "carom") if f["id"] != fixture["id"]
                and "Lvi" in (f["home"], f["away"]) and f["date"][:4] == fixture["date"][:4])     # the same half
    status, before, _ = site.get(f"/schedule?season={SEASON}&competition=carom")
    assert status == 200 and "výjimkou" not in before
    league.fixtures.move(fixture["id"], busy["date"], override="dohoda kapitánů <b>")
    status, page, _ = site.get(f"/schedule?season={SEASON}&competition=carom")
    text = shown(page)
    assert status == 200 and "<b>" not in page and text.count("výjimkou z pravidel") == 1
    said = "termín povolen výjimkou z pravidel (A.3.3): dohoda kapitánů <b> (Lvi už "      # the refusal in Czech
    assert f"{said}{czech.day(busy['date'], year=True)} hraje utkání" in text, text
