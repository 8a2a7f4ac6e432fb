"""The public site's pages as players read them, over real HTTP, on a league in the middle of its
autumn (tests/site_helpers.py: Wednesday 11 November 2026, three carom matches tonight): the home
page's fixtures and results, the table of every team with its form, the players in Czech order
and their search, a player's page, a team's calendar feed; dates in Czech, no technical ids."""
import datetime as dt
import html
import re
import urllib.error
import urllib.request

import pytest

from server.site import czech
from server.site.links import player_href, team_href
from site_helpers import CAROM, EIGHTBALL, PRAGUE, SEASON, TODAY, serve_demo

# the 8-ball players' surnames in Czech order: Č after C, CH after H, Ř after R, Š after S, Ž after Z
CZECH_ORDER = ("Bartoš", "Bláha", "Čermák", "Dušek", "Chalupa", "Kolář", "Kříž", "Matějka", "Říha", "Šťastný", "Tichý",
               "Urban", "Vlček", "Vondra", "Zeman", "Žižka")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with serve_demo(tmp_path_factory.mktemp("site")) as served:
        yield served


def fetch(site, path: str) -> str:
    with urllib.request.urlopen(site.url + path, timeout=30) as answer:
        return answer.read().decode("utf-8")


def main(page: str) -> str:
    return page[page.index("<main"):page.index("</main>")]


def shown(fragment: str) -> str:
    """The text a reader sees (tags dropped, spaces collapsed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def sections(page: str) -> dict[str, str]:
    """The home page's <h2> sections: heading → its markup."""
    parts = re.split(r"<h2>(.*?)</h2>", main(page))
    return {shown(parts[n]): parts[n + 1] for n in range(1, len(parts), 2)}


def cards(fragment: str) -> list[str]:
    return [shown(card) for card in re.findall(r'<li class="card">(.*?)</li>', fragment, flags=re.S)]


def fixtures(site, competition: str | None = None) -> list[dict]:
    games = (competition,) if competition else ("carom", "8ball")
    return [f for game in games for f in site.store.fixtures.of(SEASON, game)]


def test_home_shows_tonights_matches_the_next_ones_and_the_latest_results_newest_first(site):
    page = fetch(site, "/")
    parts = sections(page)
    tonight = [f for f in fixtures(site) if f["date"] == TODAY.isoformat()]
    assert len(tonight) == 3 and "Dnes, st 11. 11. 2026" in parts
    assert sorted(cards(parts["Dnes, st 11. 11. 2026"])) == sorted(
        f"karambol st 11. 11. 2026 17:00 {f['home']} – {f['away']} {f['venue']}" for f in tonight)
    upcoming = cards(parts["Příští utkání"])
    later = sorted((f for f in fixtures(site) if f["date"] > TODAY.isoformat() and f["status"] == "scheduled"),
                   key=lambda f: (f["date"], f["start"]))
    assert len(upcoming) == 6 and upcoming[0].startswith(f"8-ball {czech.fixture_time(later[0]['date'], '17:00')}")
    results = re.findall(r'<time datetime="([\d-]+)"', parts["Poslední výsledky"])
    assert len(results) == 10 and results == sorted(results, reverse=True) and results[0] < TODAY.isoformat()
    played = next(f for f in fixtures(site) if f["date"] == results[0] and f["status"] == "played")
    assert f"{played['home']} – {played['away']} {played['points_home']} : {played['points_away']}" in \
        shown(parts["Poslední výsledky"])
    assert {"karambol", "8-ball"} <= set(re.findall(r'<span class="tag">(.*?)</span>', parts["Poslední výsledky"]))
    assert 'href="/table.html?season=2026%2F27"' in page or 'href="/table.html"' in page


def test_no_page_shows_a_technical_id(site):
    """A match is "Sokol Dvůr – Jiskra Hořice, st 11. 11. 2026", never its fixture or record id;
    the ids stay in the links' addresses."""
    ids = {f["id"] for f in fixtures(site)} | {f["match"] for f in fixtures(site) if f.get("match")}
    for name, path in site.public_pages():
        text = shown(main(fetch(site, path))) if name != "not-found" else ""
        assert [i for i in ids if i in text] == [], name
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), f"{name} shows an ISO date"


def test_the_table_lists_every_team_with_won_drawn_lost_and_its_form(site):
    page = main(fetch(site, "/table.html"))
    assert "<h1>Tabulka: karambol, sezóna 2026/27</h1>" in page
    rows = re.findall(r"<tr>(.*?)</tr>", page.split("<tbody>", 1)[1], flags=re.S)
    assert len(rows) == len(CAROM)
    for row in rows:
        team = shown(re.search(r"<a [^>]*>(.*?)</a>", row)[1])
        assert f'href="{html.escape(team_href(team, "carom", SEASON))}"' in row
        cells = [shown(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
        played = sorted((f for f in fixtures(site, "carom") if team in (f["home"], f["away"])
                         and f["points_home"] is not None), key=lambda f: f["date"])
        mine = [(f["points_home"], f["points_away"]) if f["home"] == team else (f["points_away"], f["points_home"])
                for f in played]
        results = ["V" if a > b else "R" if a == b else "P" for a, b in mine]
        assert int(cells[1]) == len(played), team                       # # (td), team (th), Z, B, V, R, P, Forma
        assert [int(c) for c in cells[3:6]] == [results.count("V"), results.count("R"), results.count("P")], team
        assert sorted(cells[6].split()) == sorted(results[-5:]) and results, team


def test_before_its_first_match_every_team_is_in_the_table_with_zeros(tmp_path):
    """A.1.3: the table of a season just drawn lists every team, nothing played."""
    from clock import ManualClock
    from server.site import pages
    from server.storage.store import Store
    from server.tables import exports
    from site_helpers import NOW, set_up

    store = Store(str(tmp_path / "league.sqlite"), clock=ManualClock(NOW, zone=PRAGUE))
    try:
        set_up(store)
        data = exports.league_table(store, "8ball", SEASON)
        assert sorted(r["team"] for r in data["rows"]) == sorted(EIGHTBALL)
        assert {(r["matches"], r["points"]) for r in data["rows"]} == {(0, 0)}
        assert all(team in pages.league_table(data) for team in map(html.escape, EIGHTBALL))
    finally:
        store.close()


def test_players_are_in_czech_order_of_surnames_and_the_search_needs_no_script(site):
    page = main(fetch(site, "/players.html?game=8ball"))
    surnames = [shown(n).split()[-1] for n in re.findall(r'<a href="/players/[^"]*">(.*?)</a>', page)]
    assert [s for s in CZECH_ORDER if s in surnames] == surnames and {"Chalupa", "Čermák", "Žižka"} <= set(surnames)
    found = main(fetch(site, "/players.html?q=novak"))             # without the accent, no script
    assert [shown(n) for n in re.findall(r'<a href="/players/[^"]*">(.*?)</a>', found)] == ["Jan Novák"]


def test_a_players_page_has_partie_points_innings_average_best_series_and_matches(site):
    page = shown(main(fetch(site, player_href("Jan Novák", "carom", SEASON))))
    for said in ("Hráč: Jan Novák", "Partie 1", "Body 60", "Náběhy 7", "Generální průměr 8,571", "Nejvyšší série 33",
                 "st 14. 10. 2026"):
        assert said in page


def test_a_teams_calendar_feed_has_its_fixtures_in_prague_time(site):
    """/teams/<team>.ics: every fixture of the team an event at 17:00 Prague time at its venue, its
    id the fixture's (a moved match moves); a postponed one tentative, a played one with its result."""
    from icalendar import Calendar

    team = "Sokol Dvůr"
    link = team_href(team, "carom", SEASON).replace(".html", ".ics")
    assert html.escape(link) in fetch(site, team_href(team, "carom", SEASON))
    with urllib.request.urlopen(site.url + link, timeout=30) as answer:
        assert answer.headers["Content-Type"].startswith("text/calendar")
        calendar = Calendar.from_ical(answer.read())
    events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
    mine = [f for f in fixtures(site, "carom") if team in (f["home"], f["away"])]
    assert set(events) == {f"{f['id']}@pocitadlo" for f in mine} and len(mine) == 10
    for f in mine:
        event = events[f"{f['id']}@pocitadlo"]
        start = event.decoded("dtstart")
        assert start == dt.datetime.combine(dt.date.fromisoformat(f["date"]), dt.time(17), PRAGUE)
        assert start.tzinfo.key == "Europe/Prague" and str(event["location"]) == f["venue"]
        assert str(event["summary"]) == f"{f['home']} – {f['away']}"
        if f["status"] == "played":
            assert f"Výsledek {f['points_home']} : {f['points_away']}." in str(event["description"])
        assert str(event["status"]) == {"postponed": "TENTATIVE", "cancelled": "CANCELLED"}.get(f["status"], "CONFIRMED")
    with pytest.raises(urllib.error.HTTPError) as refused:
        fetch(site, "/teams/Nikdo.ics")
    assert refused.value.code == 404 and refused.value.headers["Content-Type"].startswith("application/json")


def test_every_page_says_when_the_league_last_changed_in_prague_time(site):
    """The footer: the last match item's arrival, in Czech and Prague's time, the same on every page."""
    said = set()
    for name, path in site.public_pages():
        if name in ("not-found", "live"):
            continue
        footer = fetch(site, path).split('<footer class="site">', 1)[1]
        found = re.search(r'Poslední změna: <time datetime="([^"]+)">(\w\w \d+\. \d+\. \d{4} \d\d:\d\d)</time>', footer)
        assert found, name
        said.add(found.groups())
    [(iso, text)] = said
    moment = dt.datetime.fromisoformat(iso)
    assert moment.utcoffset() == dt.timedelta(hours=1) and moment.date() < TODAY and text == czech.moment(moment)
    with pytest.raises(urllib.error.HTTPError) as missing:      # built without reading the store:
        fetch(site, "/nikde.html")                              # it knows no change, and says none
    footer = missing.value.read().decode().split('<footer class="site">', 1)[1]
    assert missing.value.code == 404 and "Zatím žádné odehrané utkání" not in footer and "Poslední změna" not in footer


def test_rankings_show_partie_points_and_innings_beside_the_value(site):
    page = main(fetch(site, "/rankings.html"))
    heads = [shown(h).split() for h in re.findall(r"<thead>(.*?)</thead>", page, flags=re.S)]
    assert len(heads) >= 3 and all(h[-3:] == ["Partie", "Body", "Náběhy"] for h in heads)
