"""Tables and lists come from the figures stored at ingestion, summed by SQL per competition and
season (RULES 1.8 table, RULES 2.9 8-ball table) — never from replaying every stored item."""
import json

import pytest
from sql_helpers import sql

import carom_samples
from delivery.outbox import item_body
from server.tables import exports, figures
from server.tables.sums import season_of


@pytest.mark.parametrize("date, season", [("2026-11-27", "2026/27"), ("2027-03-01", "2026/27"),
                                          ("2026-07-01", "2026/27"), ("2026-06-30", "2025/26"),
                                          (None, None), ("2026", None), ("garbage", None)])
def test_the_season_runs_from_july_to_june(date, season):
    assert season_of(date) == season


def post_match(receiver, sign, match_id, home, away, date, seed):
    played, (mid, mtext, msummary) = carom_samples.match(match_id, home, away, seed=seed, date=date,
                                                   points_limit=20, innings_limit=3)
    for pid, text, summary in played:
        assert receiver.handle(sign("u-lva-1").sign(item_body(pid, "partie", text, summary)), via="t")[0] == 200
    assert receiver.handle(sign("u-lva-1").sign(item_body(mid, "match", mtext, msummary)), via="t")[0] == 200


def test_tables_sum_stored_figures_by_season_without_reading_items(receiver, sign, monkeypatch):
    """RULES 1.8: one season's table, and one season's list of matches; the latest by default,
    another on request (a page's time does not grow with the seasons stored)."""
    post_match(receiver, sign, "KD-25-1", "Lvi", "Orli", "2026-03-01", 1)
    post_match(receiver, sign, "KD-26-1", "Sokol", "Jiskra", "2026-11-27", 2)
    post_match(receiver, sign, "KD-26-2", "Jiskra", "Lvi", "2026-12-04", 3)
    store = receiver.store

    def no_replay(**kwargs):
        raise AssertionError("a table read the stored items")

    monkeypatch.setattr(store, "items", no_replay)
    latest = exports.league_table(store)
    assert latest["season"] == "2026/27"
    assert sorted(r["team"] for r in latest["rows"]) == ["Jiskra", "Lvi", "Sokol"]
    jiskra = next(r for r in latest["rows"] if r["team"] == "Jiskra")
    assert jiskra["matches"] == 2 and jiskra["partie"] == 8
    older = exports.league_table(store, season="2025/26")
    assert sorted(r["team"] for r in older["rows"]) == ["Lvi", "Orli"]
    assert [m["match"] for m in exports.matches(store)] == ["KD-26-1", "KD-26-2"]
    assert [m["match"] for m in exports.matches(store, "2025/26")] == ["KD-25-1"]
    assert store.figures.seasons() == ["2026/27", "2025/26"] and exports.matches(store, "2019/20") == []
    assert exports.league_table(store, "8ball")["rows"] == []
    monkeypatch.undo()


def test_the_table_over_http_takes_a_season(client, items):
    for body in items():
        assert client.post(body)[0] == 200
    assert [r["team"] for r in json.loads(client.get("/table.json")[1])["rows"]] != []
    assert json.loads(client.get("/table.json?season=2019/20")[1])["rows"] == []


def test_the_lists_over_http_show_one_season_and_link_the_others(receiver, sign, client):
    """The lists of matches (``/``, ``/matches.json``) show the latest season and link the others;
    ``?season=`` asks for one (and the index's table links follow it); a malformed season is a
    400 with its reason."""
    post_match(receiver, sign, "KD-25-1", "Lvi", "Orli", "2026-03-01", 1)
    post_match(receiver, sign, "KD-26-1", "Sokol", "Jiskra", "2026-11-27", 2)

    def listed(path):
        return [m["match"] for m in json.loads(client.get(path)[1])]

    assert listed("/matches.json") == ["KD-26-1"] and listed("/matches.json?season=2025/26") == ["KD-25-1"]
    page = client.get("/")[1].decode()
    assert "KD-26-1" in page and "KD-25-1" not in page
    assert "<strong>2026/27</strong>" in page and 'href="/?season=2025/26"' in page and 'href="/table.html"' in page
    page = client.get("/?season=2025/26")[1].decode()
    assert "KD-25-1" in page and "KD-26-1" not in page and 'href="/table.html?season=2025/26"' in page
    status, answer = client.get("/matches.json?season=%3Cscript%3E")
    assert status == 400 and "season must look like 2026/27" in json.loads(answer)["reason"]


def test_a_store_from_before_figures_gets_them_when_opened(receiver, sign):
    from server.ingest.receiver import Receiver

    post_match(receiver, sign, "KD-1", "Lvi", "Orli", "2026-11-27", 4)
    store = receiver.store
    for table in ("team_totals", "team_figures", "match_figures"):      # as in a store from before figures
        sql(store, f"DELETE FROM {table}")
    assert exports.league_table(store)["rows"] == []
    Receiver(store)                       # opening the receiver computes what is missing
    rows = exports.league_table(store)["rows"]
    assert sorted((r["team"], r["matches"], r["partie"]) for r in rows) == [("Lvi", 1, 4), ("Orli", 1, 4)]
    figures.rebuild_if_missing(store)     # and a second time changes nothing
    assert exports.league_table(store)["rows"] == rows and len(exports.matches(store)) == 1


def test_a_match_refreshed_again_is_counted_once(receiver, sign):
    """Every item of a match recomputes its figures: the totals replace, never add up, a match."""
    post_match(receiver, sign, "KD-1", "Lvi", "Orli", "2026-11-27", 5)
    before = exports.league_table(receiver.store)["rows"]
    figures.refresh(receiver.store, "KD-1")
    figures.refresh(receiver.store, "KD-1")
    assert exports.league_table(receiver.store)["rows"] == before
    assert [r["matches"] for r in before] == [1, 1]
