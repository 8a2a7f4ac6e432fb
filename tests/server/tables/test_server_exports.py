"""The match record (RULES 1.6) and the league table (RULES 1.8) built from stored records."""
import datetime as dt
import json

import pytest

from delivery.outbox import item_body
from rules.record import encode_line, replay_lines
from server.ingest.receiver import Receiver
from server.site import home, pages
from server.storage.store import Store
from server.tables import exports
from wire.signing import Signer

SECRET = b"export-secret-0123456789"


def scripted(item_id, match, number, home, innings_a, innings_b):
    """A carom partie with a points limit out of reach: each inning is its points (as 1s), then a miss."""
    header = {"game": "carom", "id": item_id, "a": f"{item_id}-A", "b": f"{item_id}-B", "points_limit": 200,
              "innings_limit": len(innings_a), "match": match, "partie": number, "home": home}
    lines = [encode_line(header)]
    for pa, pb in zip(innings_a, innings_b):
        for points in (pa, pb):
            lines += [encode_line({"cmd": "score", "value": 1}, checksum=True)] * points
            lines.append(encode_line({"cmd": "miss"}, checksum=True))
    text = "".join(lines)
    summary = json.loads(json.dumps(replay_lines(text.splitlines()).summary(), ensure_ascii=False))
    assert summary["finished"]
    return item_body(item_id, "partie", text, summary)


class League:
    def __init__(self, tmp_path):
        self.store = Store(tmp_path / "league.sqlite")
        self.store.devices.add("d", SECRET, venue="U Lva")
        self.receiver = Receiver(self.store)
        self.signer = Signer("d", SECRET)

    def post(self, body):
        status, answer = self.receiver.handle(self.signer.sign(body), via="test")
        assert status == 200, answer
        return answer

    def match(self, match_id, home, away, partie, *, close=True, venue="U Lva", date="2026-11-27"):
        """partie: list of (innings of the home player, innings of the away player)."""
        info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date, "seed": 42}
        ids = []
        for number, (home_innings, away_innings) in enumerate(partie, start=1):
            pid = f"{match_id}-{number}"
            ids.append(pid)
            if number % 2:   # alternate which of a/b is the home player
                body = scripted(pid, info, number, "a", home_innings, away_innings)
            else:
                body = scripted(pid, info, number, "b", away_innings, home_innings)
            self.post(body)
        if close:
            record = self.match_record(match_id)
            summary = {"game": "carom", "match": info, "partie": ids, "points": record["points"]}
            self.post(item_body(match_id, "match", json.dumps(info) + "\n", summary))

    def match_record(self, match_id):
        return exports.match_record(self.store, match_id)

    def table(self):
        return exports.league_table(self.store)


@pytest.fixture
def league(tmp_path):
    lg = League(tmp_path)
    yield lg
    lg.store.close()


def test_match_record_has_what_the_zapis_needs(league):
    """RULES 1.6: venue, date, teams, team points, per partie names, innings, points, best series."""
    league.match("M1", "Lvi", "Orli", [([3, 4], [1, 1]), ([2, 0], [2, 0]), ([0, 1], [5, 0])])
    record = league.match_record("M1")
    assert (record["venue"], record["date"], record["home"], record["away"]) == ("U Lva", "2026-11-27", "Lvi", "Orli")
    assert record["points"] == {"home": 3, "away": 3} and record["closed"] and record["seed"] == 42
    first, second, third = record["partie"]
    assert first["home"]["series"] == [3, 4] and first["away"]["series"] == [1, 1]
    assert (first["home"]["points"], first["home"]["innings"], first["home"]["best_series"]) == (7, 2, 4)
    assert first["home"]["team_points"] == 2 and first["result"] == "home"
    # partie 2 has the home player as "b": still reported on the home side
    assert second["home"]["name"] == "M1-2-B" and second["home"]["team_points"] == 1 and second["result"] == "draw"
    assert third["away"]["team_points"] == 2 and third["away"]["average"] == "2.500"
    assert record["averages"]["home"] == {"points": 10, "innings": 6, "average": "1.666", "exact": "5/3"}


def test_an_open_match_lists_what_is_missing(league):
    league.match("M2", "Lvi", "Orli", [([1], [0])], close=False)
    record = league.match_record("M2")
    assert not record["closed"] and record["declared_points"] is None
    assert league.match_record("nope") is None


def test_a_match_item_names_partie_not_received(league):
    league.match("M3", "Lvi", "Orli", [([1], [0])], close=False)
    info = {"id": "M3", "home": "Lvi", "away": "Orli"}
    league.post(item_body("M3", "match", "{}\n", {"match": info, "partie": ["M3-1", "M3-2"], "points": {"home": 2, "away": 2}}))
    record = league.match_record("M3")
    assert record["missing_partie"] == ["M3-2"] and record["declared_points"] == {"home": 2, "away": 2}
    html = pages.match(record)
    assert "Chybí partie: M3-2" in html and "Zařízení uvedlo výsledek 2 : 2" in html


def test_table_orders_by_points_then_score_difference(league):
    """RULES 1.8 (a), (b): W and X both have 2 points; W's difference is better."""
    league.match("1", "X", "Y", [([3], [1])])
    league.match("2", "Y", "Z", [([3], [1])])
    league.match("3", "Z", "X", [([3], [1])])
    league.match("4", "W", "Z", [([3], [1])])
    rows = league.table()["rows"]
    assert [r["team"] for r in rows] == ["W", "X", "Y", "Z"]
    assert [(r["points"], r["difference"]) for r in rows] == [(2, 2), (2, 0), (2, 0), (2, -2)]


def test_table_head_to_head_decides_when_all_else_is_equal(league):
    """RULES 1.8 (d): X and Y are equal on points, difference and average; X beat Y."""
    league.match("1", "Y", "X", [([1], [3])])      # X (away) beats Y
    league.match("2", "Y", "Z", [([3], [1])])
    league.match("3", "Z", "X", [([3], [1])])
    league.match("4", "W", "Z", [([3], [1])])
    rows = {r["team"]: r for r in league.table()["rows"]}
    assert rows["X"]["place"] < rows["Y"]["place"]
    assert rows["X"]["decided_by"] == rows["Y"]["decided_by"] == "head_to_head"
    assert rows["X"]["head_to_head"] == {"Y": 2, "Z": 0}


def test_A_4_1_d_head_to_head_places_each_team_it_separates_ties_in_czech_order():
    """RULES 1.8 (d) in a group of three equal on (a)-(c): Dub won its partie against both others,
    which won one each against each other: Dub is placed by head-to-head, the other two are tied
    (listed in Czech order: Čáp before Hora, though "Č" follows "H" in code points)."""
    from server.tables.carom import _order, _Team

    row = {"matches": 2, "partie": 8, "points": 8, "scored": 80, "conceded": 80, "innings": 40}
    teams = [_Team(dict(row, team="Hora"), {"Dub": 2, "Čáp": 3}), _Team(dict(row, team="Dub"), {"Hora": 6, "Čáp": 6}),
             _Team(dict(row, team="Čáp"), {"Dub": 2, "Hora": 3})]
    assert [(t.name, by) for t, by in _order(teams)] == [("Dub", "head_to_head"), ("Čáp", "tied"), ("Hora", "tied")]


def test_teams_equal_on_everything_are_in_czech_order(league):
    """A team yet to play and teams equal on every criterion: Čáp before Dub (code points: after)."""
    league.match("1", "Dub", "Čáp", [([3], [3])])
    assert [r["team"] for r in league.table()["rows"]] == ["Čáp", "Dub"]


def test_table_general_average_is_an_exact_fraction(league):
    """RULES 1.8 (c) with RULES 1.5: A (3 in 1 inning) is above C (3 in 2 innings), same points and difference."""
    league.match("1", "A", "B", [([3], [1])])
    league.match("2", "C", "D", [([0, 3], [0, 1])])
    rows = league.table()["rows"]
    assert [r["team"] for r in rows] == ["A", "C", "B", "D"]
    assert [r["general_average_exact"] for r in rows] == ["3", "3/2", "1", "1/2"]
    assert rows[1]["general_average"] == "1.500"
    page = pages.table(league.table())
    assert "Tabulka: karambol, sezóna 2026/27" in page and "<td class=\"num\" data-sort=\"1.500\">1,500</td>" in page


def test_truncated_not_rounded():
    """RULES 1.5: averages are printed with 3 decimals, truncated."""
    from fractions import Fraction

    from rules.carom.figures import average_text
    assert average_text(Fraction(2, 3)) == "0.666"
    assert average_text(Fraction(200, 7)) == "28.571"


def test_pages_escape_names_from_the_devices(league):
    """Names come from records: a team called <script> is printed, not run."""
    league.match("M-1", "<script>alert(1)</script>", "Orli & spol.", [([1], [0])])
    html = pages.match(league.match_record("M-1"))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Orli &amp; spol." in html
    front = home.build(league.store, dt.date(2026, 11, 28))
    assert 'href="/matches/M-1.html"' in front and "&lt;script&gt;alert(1)&lt;/script&gt;" in front
