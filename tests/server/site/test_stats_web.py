"""The statistics pages and exports over real HTTP (A.1.3, A.1.4): players, rankings, player and
team pages, the match page's links, CSV parsed back, the rules page, hostile names as text."""
import csv
import io
import json
from urllib.parse import quote

import pytest
from markupsafe import escape
from stats_helpers import HOSTILE_PLAYER, HOSTILE_TEAM, carom_match, hand_league, hostile_match, hrefs, post

from server.tables import stats


@pytest.fixture
def site(client, receiver, sign):
    hand_league(receiver, sign("u-lva-1"), sign("u-koule-1"))
    return client


def page(client, path: str) -> str:
    status, data = client.get(path)
    assert status == 200, (path, data[:300])
    return data.decode("utf-8")


def csv_rows(client, path: str) -> list[dict]:
    status, headers, data = client.request("GET", path)
    assert status == 200 and headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_a_1_3_players_page_json_and_csv_say_the_same(site, receiver):
    data = json.loads(page(site, "/players.json"))
    assert data == json.loads(json.dumps(stats.players(receiver.store)))
    text = page(site, "/players.html")
    assert "Novák" in text and "3,666" in text and 'href="/players/Nov%C3%A1k.html?game=carom&amp;season=2026%2F27"' in text
    rows = csv_rows(site, "/players.csv")
    assert [r["player"] for r in rows] == [r["player"] for r in data["rows"]]
    svoboda = next(r for r in rows if r["player"] == "Svoboda")
    assert (svoboda["season"], svoboda["points"], svoboda["innings"], svoboda["general_average"]) == \
        ("2026/27", "11", "3", "3.666")
    eightball = csv_rows(site, "/players.csv?game=8ball")
    assert {r["player"]: r["fouls"] for r in eightball} == {"Hrubý": "2", "Král": "0", "Malý": "1"}
    assert csv_rows(site, "/players.csv?season=2025/26")[0]["season"] == "2025/26"


def test_a_negative_difference_in_the_8ball_rankings_is_written_with_a_minus_sign(site):
    """The rankings write a games difference as the tables do: "−1" (U+2212), not "-1"."""
    import re

    rankings = page(site, "/rankings.html?game=8ball")
    assert "Rozdíl her" in rankings and "−" in rankings and not re.search(r">-\d", rankings)


def test_a_1_3_rankings_and_team_figures_exported_as_csv(site):
    rows = csv_rows(site, "/rankings.csv")
    general = [(r["place"], r["player"], r["value"]) for r in rows if r["ranking"] == "general_average"]
    assert general == [("1", "Svoboda", "3.666"), ("2", "Novák", "3.333"), ("3", "Černý", "1.000"), ("3", "Dvořák", "1.000")]
    assert "nejméně 1 partie)" in page(site, "/rankings.html")                     # 1-4 partie, 5 partií
    assert "nejméně 5 partií)" in page(site, "/rankings.html?min_partie=5")
    assert json.loads(page(site, "/rankings.json?min_partie=2"))["rankings"][0]["rows"][-1]["player"] == "Novák"
    table = json.loads(page(site, "/table.json"))["rows"]
    assert [(r["team"], r["points"], r["general_average"]) for r in csv_rows(site, "/table.csv")] == \
        [(r["team"], str(r["points"]), r["general_average"]) for r in table]
    assert [r["team"] for r in csv_rows(site, "/table-8ball.csv")] == ["Tágo", "Koule"]   # 1:1, sets 3:2
    assert {r["tied"] for r in csv_rows(site, "/table-8ball.csv")} <= {"true", "false"}   # as JSON, not True


def test_a_1_3_player_page_team_page_and_match_page_link_each_other(site):
    """index → match → player → team → match: every name a link to its page."""
    index = page(site, "/")
    match = page(site, next(h for h in hrefs(index) if h.startswith("/matches/KD-2")))
    player_link = next(h for h in hrefs(match) if h.startswith("/players/Nov"))
    player = page(site, player_link)
    assert "Hráč: Novák" in player and "3,500" in player and "pá 4. 12. 2026" in player and ">KD-2<" not in player
    team = page(site, next(h for h in hrefs(player) if h.startswith("/teams/Lvi")))
    assert "Družstvo: Lvi" in team and "Novák" in team and "Dvořák" in team
    assert any(h.startswith("/matches/KD-1") for h in hrefs(team))
    assert json.loads(page(site, "/players/Nov%C3%A1k.json?season=2025/26"))["partie"][0]["match"] == "KD-0"
    assert json.loads(page(site, "/teams/T%C3%A1go.json?game=8ball"))["players"][0]["player"] == "Malý"
    assert "Fauly" in page(site, "/players/Hrub%C3%BD.html?game=8ball")


def test_a_1_3_a_league_team_has_its_page_with_venue_captain_roster_and_fixtures_before_it_plays(client, store):
    """A.1.3 / A.3.2: a team the organiser entered has its page from the start of the season (it
    was a 404 until the team's first match arrived, and nothing linked to it before then): its
    venue and captain (not the captain's phone, which is for the organiser), its roster and its
    fixtures; the schedule links every team to its page and the page links the schedule."""
    from league_admin_helpers import SEASON, TEAMS, set_up_league

    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    teams = {h for h in hrefs(page(client, "/schedule")) if h.startswith("/teams/")}
    assert teams == {f"/teams/{quote(name, safe='')}.html?game=carom&season=2026%2F27" for name in TEAMS}
    data = json.loads(page(client, f"/teams/Orli.json?season={quote(SEASON, safe='')}"))
    venue, _, roster = TEAMS["Orli"]
    assert data["table"]["matches"] == 0 and data["players"] == [] and data["matches"] == []
    league = data["league"]
    assert (league["venue"], league["captain"], sorted(league["roster"])) == (venue, roster[0], sorted(roster))
    assert len(league["fixtures"]) == 6 and all("Orli" in (f["home"], f["away"]) for f in league["fixtures"])
    text = page(client, "/teams/Orli.html")                       # no season asked: the league's latest
    assert "Družstvo: Orli" in text and "Hospoda U Koule" in text and "Soupiska" in text and "Kučera" in text
    assert "+420" not in text and "777" not in text
    assert text.count('<li class="card">') == 6 and 'href="/schedule?season=2026%2F27"' in text
    assert client.get("/teams/Nikdo.html")[0] == 404


@pytest.mark.postgresql_once
@pytest.mark.parametrize("path, status", [
    ("/teams/Nikdo.json", 404), ("/players.json?season=2026", 400), ("/rankings.csv?min_partie=-1", 400),
    ("/api/v1/nothing", 404), ("/players/Nov%C3%A1k.txt", 404),
])
def test_bad_statistics_requests_for_data_get_json_with_the_reason(client, path, status):
    code, data = client.get(path)
    assert code == status and json.loads(data)["reason"]


@pytest.mark.postgresql_once
@pytest.mark.parametrize("path, status, said", [
    ("/players/Nikdo.html", 404, "Stránka nenalezena"), ("/teams/Nikdo.html", 404, "Stránka nenalezena"),
    ("/players.html?game=snooker", 400, "Soutěž musí být jedna z: carom, 8ball; zadáno &#39;snooker&#39;."),
    ("/rankings.html?min_partie=99999999", 400, "min_partie musí být celé číslo od 0 do 10000"),
    ("/teams/Lvi.html?season=x", 400, "Sezóna se píše jako 2026/27; zadáno &#39;x&#39;."),
    ("/players/" + "x" * 300 + ".html", 404, "Stránka nenalezena"), ("/no/such/page", 404, "Stránka nenalezena"),
])
def test_a_bad_page_request_gets_a_page_in_the_sites_style_with_the_reason_in_czech(client, path, status, said):
    code, headers, data = client.request("GET", path, headers={"Accept": "text/html,*/*"})
    text = data.decode("utf-8")
    assert code == status and headers["content-type"].startswith("text/html")
    assert said in text and 'href="/">Zpět na úvodní stránku</a>' in text and "<main" in text


def test_a_client_that_asks_for_json_gets_json_also_where_a_browser_gets_a_page(client):
    status, headers, data = client.request("GET", "/no/such/page", headers={"Accept": "application/json"})
    assert status == 404 and json.loads(data)["reason"] == "not found"


def test_a_1_4_the_rules_page_shows_the_leagues_texts_from_markdown_without_file_names(client):
    status, headers, data = client.request("GET", "/rules.html")
    text = data.decode("utf-8")
    assert status == 200 and "default-src 'none'" in headers["content-security-policy"]
    for needle in ("<h4>4. Kritéria řazení týmů v tabulce</h4>", "<strong>3.7.</strong> Pokud se tým bez omluvy",
                   "<h3>5. Prohra</h3>", '<div lang="en">', "<h4>1.8 League table"):
        assert needle in text
    for developer in (".txt", ".md", "seeds/", "RULES.md"):
        assert developer not in text
    assert "<script" not in text


def test_a_hostile_name_is_text_on_every_page_and_its_link_leads_to_it(client, receiver, sign):
    hostile_match(receiver, sign("u-lva-1"))
    listing = page(client, "/players.html")
    assert str(escape(HOSTILE_PLAYER)) in listing and "<script>alert" not in listing
    link = next(h for h in hrefs(listing) if h.startswith("/players/%3C"))
    assert link.startswith("/players/" + quote(HOSTILE_PLAYER, safe=""))
    player = page(client, link)
    assert str(escape(HOSTILE_PLAYER)) in player and "<img" not in player
    team = page(client, next(h for h in hrefs(player) if h.startswith("/teams/%3Cb%3E")))
    assert str(escape(HOSTILE_TEAM)) in team and "<b>Tým" not in team
    assert json.loads(page(client, "/teams/" + quote(HOSTILE_TEAM, safe="") + ".json"))["team"] == HOSTILE_TEAM
    for path in ("/rankings.html", "/matches/KD-H.html", "/table.html"):
        text = page(client, path)
        assert "<script>alert" not in text and "<b>Tým" not in text
    assert {r["player"] for r in csv.DictReader(io.StringIO(client.get("/players.csv")[1].decode("utf-8-sig")))} == \
        {HOSTILE_PLAYER, "Svoboda"}


FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+cmd", "-2+3", "@SUM(A1)"]


def csv_cells(data: bytes) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")) for cell in row]


def test_every_csv_neutralises_a_text_that_a_spreadsheet_would_run(client, receiver, sign):
    """OWASP's CSV injection guidance: a cell whose text begins with = + - @ tab or CR is sent with
    a ' before it (the spreadsheet shows the text, runs nothing); numbers are sent as numbers."""
    partie = [(FORMULAS[0], FORMULAS[2], "2 0 0 0 0"), (FORMULAS[1], FORMULAS[3], "0 2 0 0 0")]
    post(receiver, sign("u-lva-1"), carom_match("KD-F", FORMULAS[0], FORMULAS[2], partie, date="2026-11-27"))
    texts = []
    for path in ("/players.csv", "/rankings.csv", "/table.csv"):
        status, _, data = client.request("GET", path)
        assert status == 200
        cells = csv_cells(data)
        texts += [cell for cell in cells if cell.lstrip("'") in FORMULAS]
        assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")], path
        assert all(c[1:].replace(".", "", 1).isdigit() for c in cells if c.startswith("-")), path
    assert set(texts) == {"'" + name for name in FORMULAS}


def test_a_csv_cell_beginning_with_a_tab_or_cr_is_neutralised_too():
    """The receiver refuses such names (not printable), but a CSV does not rely on it."""
    from server.site.stats_web import csv_answer

    cells = csv_cells(csv_answer(["a", "b", "c"], [["\tTab", "\rCr", -5], ["-1.5", "x=1", 3]], "t").body)
    assert cells == ["a", "b", "c", "'\tTab", "'\rCr", "-5", "-1.5", "x=1", "3"]
