"""8-ball at the receiver: the team match record and the league table (RULES 2.9)."""
import json
import urllib.request

import pytest

import carom_samples
from cli.main import main
from delivery.outbox import item_body
from server.ingest.receiver import Receiver
from server.site import pages
from server.tables import eightball, exports
from sync_helpers import league_store, running_server
from wire.signing import Signer

SECRET = b"eightball-secret-0123456789"
VENUE = "Hospoda U Koule"      # carom_samples.eightball_match's venue: the device is registered for it


class League:
    def __init__(self, store):
        self.store, self.receiver, self.signer = store, Receiver(store), Signer("u-lva-1", SECRET)

    def post(self, item_id, kind, text, summary):
        status, answer = self.receiver.handle(self.signer.sign(item_body(item_id, kind, text, summary)), via="test")
        assert status == 200, answer

    def match(self, match_id, home, away, results, *, close=True, **race):
        """results: per individual match the games in order, "h" won by home, "w" by away."""
        played, closing = carom_samples.eightball_match(match_id, home, away, results, **race)
        for pid, text, summary in played:
            self.post(pid, "partie", text, summary)
        if close:
            self.post(*closing[:1], "match", *closing[1:])
        return played, closing


@pytest.fixture
def league(tmp_path):
    with league_store(tmp_path / "league.sqlite", SECRET, venue=VENUE) as store:
        yield League(store)


def table(league, **kw):
    return eightball.league_table(league.store, **kw)["rows"]


def test_match_record_lists_individual_matches_sets_games_and_winners(league):
    """RULES 2.9: every individual match with its sets and games; team score = individual matches won."""
    league.match("PK-1", "Koule", "Tágo", ["hhhhhh", "wwwhhhwww", "hwhwhhwhh"])
    record = exports.match_record(league.store, "PK-1")
    assert (record["game"], record["home"], record["away"], record["closed"]) == ("8ball", "Koule", "Tágo", True)
    assert record["points"] == {"home": 2, "away": 1} == record["declared_points"]
    first, second, third = record["individual"]
    assert [m["winner"] for m in record["individual"]] == ["home", "away", "home"]
    # the second match has the home player as "b": still reported on the home side
    assert second["home"]["player"] == "b" and second["home"]["name"] == "Koule hráč 2"
    assert (second["home"]["sets"], second["away"]["sets"]) == (1, 2)
    assert [(s["set"], s["games"], s["winner"]) for s in second["sets"]] == [
        (1, {"home": 0, "away": 3}, "away"), (2, {"home": 3, "away": 0}, "home"), (3, {"home": 0, "away": 3}, "away")]
    assert (third["home"]["games"], third["away"]["games"]) == (6, 3)
    assert len(third["games"]) == 9 and third["games"][1]["winner"] == "away"
    assert {g["reason"] for g in first["games"]} == {"reported"}
    assert record["totals"] == {"home": {"sets": 5, "games": 15, "matches": 2},
                                "away": {"sets": 2, "games": 9, "matches": 1}}


def test_a_forfeited_individual_match_counts_for_the_winner(league):
    """RULES 2.9: a forfeit decides the individual match; the record's games log has it, the
    zápis's games are the two played (the forfeit is the match's, not a game)."""
    info = {"id": "PK-2", "home": "Koule", "away": "Tágo"}
    text, summary = carom_samples.eightball("PK-2-m1", "K1", "T1", "ab", match=info, number=1, home="a", forfeit="a")
    league.post("PK-2-m1", "partie", text, summary)
    record = exports.match_record(league.store, "PK-2")
    [m] = record["individual"]
    assert (m["winner"], m["forfeit"]) == ("away", "home") and summary["games_log"][-1]["reason"] == "forfeit"
    assert [g["game"] for g in m["games"]] == [1, 2]
    assert record["points"] == {"home": 0, "away": 1} and not record["closed"]


def test_points_per_match_is_configurable(league):
    """RULES 2.9: team score = individual matches won (Decision), each worth the competition's
    ``win_points`` (issue 22: the organiser sets it; the counter plays it from its header, so the
    match it declares is what the table counts)."""
    league.store.league.add_season("2026/27")
    league.store.league.set_rules("2026/27", "8ball", {"win_points": "2"})
    played, _ = league.match("PK-3", "Koule", "Tágo", ["hhhhhh", "wwwwww", "hhhhhh"], win_points=2)
    assert {summary["win_points"] for _, _, summary in played} == {2}    # the counter's: its header's (replayed)
    record = exports.match_record(league.store, "PK-3")
    assert record["points"] == {"home": 4, "away": 2} == record["declared_points"]
    assert [r["points"] for r in table(league)] == [4, 2]


def test_table_orders_by_points(league):
    """RULES 2.9: team points are individual matches won; more points is higher."""
    league.match("1", "A", "B", ["hhhhhh", "wwwwww", "wwwwww"])
    league.match("2", "C", "A", ["hhhhhh", "hhhhhh", "hhhhhh"])
    rows = table(league)
    assert [(r["team"], r["points"]) for r in rows] == [("C", 3), ("B", 2), ("A", 1)]
    assert (rows[0]["individual_won"], rows[0]["individual_lost"], rows[0]["matches"]) == (3, 0, 1)
    assert rows[2]["matches"] == 2


def test_table_then_sets_difference(league):
    """RULES 2.9 + Decision (docs/server.md): equal points, better sets difference first."""
    league.match("1", "A", "B", ["hhhhhh", "wwwhhhwww"])          # 1:1 matches, A sets 3:2
    league.match("2", "C", "D", ["hhhhhh", "wwwwww"])             # 1:1 matches, sets 2:2
    rows = table(league)
    assert [(r["team"], r["points"], r["sets_difference"]) for r in rows] == [
        ("A", 1, 1), ("C", 1, 0), ("D", 1, 0), ("B", 1, -1)]


def test_table_then_games_difference(league):
    """RULES 2.9 + Decision: equal points and sets difference, better games difference first."""
    league.match("1", "A", "B", ["hhhhhh", "wwwwww"])             # A games 6:6
    league.match("2", "C", "D", ["hhhwhhh", "wwwwww"])            # C games 6:7, sets 2:2
    rows = table(league)
    assert [(r["team"], r["points"], r["sets_difference"], r["games_difference"]) for r in rows] == [
        ("D", 1, 0, 1), ("A", 1, 0, 0), ("B", 1, 0, 0), ("C", 1, 0, -1)]
    assert [r["tied"] for r in rows] == [False, True, True, False]
    assert "Rovnost ve všem (rozhodne organizátor): A, B" in pages.eightball_table(eightball.league_table(league.store))


def test_pages_show_the_8ball_record_and_table(league):
    """RULES 2.9: the printable zápis names each individual match, its sets and who won each game."""
    league.match("PK-4", "Koule", "<Tágo>", ["hhhhhh", "wwwhhhwww"])
    html = pages.match(exports.match_record(league.store, "PK-4"))
    assert "Zápas 2: Koule hráč 2 – &lt;Tágo&gt; hráč 2, sety 1 : 2, vítěz &lt;Tágo&gt; hráč 2" in html
    assert ">Rozráží</th>" in html and "zapsáno" in html
    page = pages.eightball_table(exports.league_table(league.store, "8ball"))
    assert "Tabulka: 8-ball, sezóna 2026/27" in page and "rozdíl setů, rozdíl her" in page
    assert exports.league_table(league.store)["rows"] == []    # the carom table leaves 8-ball out


def test_the_8ball_exports_over_http(league):
    """RULES 2.9: the match record and the 8-ball table as JSON and HTML from the running receiver."""
    league.match("PK-5", "Koule", "Tágo", ["hhhhhh", "wwwwww", "hwhhwhhh"])
    with running_server(league.store) as server:
        def get(path):
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=5) as response:
                return response.read().decode("utf-8")

        record = json.loads(get("/matches/PK-5.json"))
        assert record["points"] == {"home": 2, "away": 1} and len(record["individual"]) == 3
        assert "Zápis o utkání: Koule – Tágo" in get("/matches/PK-5.html")
        rows = json.loads(get("/table-8ball.json"))["rows"]
        assert [(r["team"], r["points"]) for r in rows] == [("Koule", 2), ("Tágo", 1)]
        assert "Tabulka: 8-ball, sezóna 2026/27" in get("/table-8ball.html")
        assert "/table-8ball.html" in get("/")


def test_serve_prints_the_8ball_table(tmp_path, capsys):
    db = tmp_path / "league.sqlite"
    with league_store(db, SECRET, venue=VENUE) as store:
        League(store).match("PK-6", "Koule", "Tágo", ["hhhhhh"])
    assert main(["server", "--db", str(db), "table", "--game", "8ball"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["team"], r["points"]) for r in rows] == [("Koule", 1), ("Tágo", 0)]
    assert main(["server", "--db", str(db), "table", "--game", "8ball", "--html"]) == 0
    assert "Tabulka: 8-ball, sezóna 2026/27" in capsys.readouterr().out


def test_teams_equal_on_everything_are_in_czech_order(league):
    """Čáp and Dub won alike, X and Y lost alike: each pair in Czech order ("Č" after "D" in code points)."""
    league.match("1", "Dub", "X", ["hhhhhh"])
    league.match("2", "Čáp", "Y", ["hhhhhh"])
    assert [(r["team"], r["tied"]) for r in table(league)] == [("Čáp", True), ("Dub", True), ("X", True), ("Y", True)]
