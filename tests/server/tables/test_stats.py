"""Per-player figures (A.1.3) computed at ingestion from real records, against figures computed by
hand (RULES 1.5 averages truncated, RULES 1.4 points credited at the limit, RULES 2.9 for 8-ball),
on SQLite and PostgreSQL; rankings; the sums equal the sums over the partie (hypothesis)."""
import datetime as dt
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sql_helpers import sql
from stats_helpers import KOULE, LVA, carom_match, hand_league, post

import carom_samples
from clock import ManualClock, SystemClock
from conftest import SECRETS
from delivery.outbox import item_body
from server.ingest.receiver import Receiver
from server.storage.store import Store
from server.tables import exports, figures, stats, sums


def by_player(rows):
    return {r["player"]: r for r in rows}


@pytest.fixture
def league(receiver, sign):
    hand_league(receiver, sign("u-lva-1"), sign("u-koule-1"))
    return receiver.store


def test_a_1_3_player_figures_per_season_equal_the_hand_computed_ones(league):
    """A.1.3, RULES 1.5: partie, won/drawn/lost, points, innings, general average (exact, printed
    truncated: 11/3 is 3.666), best series, best partie average, team points (A.5.3-A.5.5)."""
    data = stats.players(league)
    assert data["season"] == "2026/27"
    rows = by_player(data["rows"])
    assert sorted(rows) == ["Dvořák", "Novák", "Svoboda", "Černý"]
    novak, svoboda, dvorak = rows["Novák"], rows["Svoboda"], rows["Dvořák"]
    assert (novak["team"], novak["matches"], novak["partie"], novak["won"], novak["drawn"], novak["lost"]) == \
        ("Lvi", 2, 2, 1, 0, 1)
    assert (novak["points"], novak["innings"], novak["best_series"], novak["team_points"]) == (10, 3, 6, 2)
    assert (novak["general_average"], novak["general_average_exact"]) == ("3.333", "10/3")
    assert (novak["best_partie_average"], novak["best_partie_average_exact"]) == ("3.500", "7/2")
    assert (svoboda["points"], svoboda["innings"], svoboda["general_average"]) == (11, 3, "3.666")   # not 3.667
    assert (svoboda["best_series"], svoboda["best_partie_average"], svoboda["won"], svoboda["lost"]) == \
        (10, "10.000", 1, 1)
    assert (dvorak["drawn"], dvorak["team_points"], dvorak["general_average"], rows["Černý"]["team"]) == \
        (1, 1, "1.000", "Orli")


def test_a_1_3_seasons_are_apart_and_a_stroke_past_the_limit_is_credited_at_it(league):
    """A.1.3 per season (July to June); RULES 1.4.6: the 20 that crossed the limit of 10 counts as 10."""
    rows = by_player(stats.players(league, season="2025/26")["rows"])
    assert sorted(rows) == ["Novák", "Svoboda"]
    assert (rows["Novák"]["points"], rows["Novák"]["innings"], rows["Novák"]["best_series"]) == (10, 1, 10)
    assert (rows["Svoboda"]["points"], rows["Svoboda"]["general_average"]) == (0, "0.000")
    assert stats.players(league, season="2026/27")["seasons"] == {"previous": "2025/26", "next": None}


def test_rules_2_9_eightball_player_figures_individual_matches_sets_games_fouls(league):
    """RULES 2.9 (and 2.6 fouls per player): Hrubý beat Malý 2:1 in sets, Malý beat Král 2:0."""
    rows = by_player(stats.players(league, "8ball")["rows"])
    assert {k: rows["Hrubý"][k] for k in ("individual", "won", "lost", "sets_won", "sets_lost", "games_won",
                                          "games_lost", "fouls")} == dict(individual=1, won=1, lost=0, sets_won=2,
                                                                          sets_lost=1, games_won=2, games_lost=1,
                                                                          fouls=2)
    maly = rows["Malý"]
    assert (maly["team"], maly["matches"], maly["individual"], maly["won"], maly["lost"]) == ("Tágo", 1, 2, 1, 1)
    assert (maly["sets_won"], maly["sets_lost"], maly["games_won"], maly["games_lost"], maly["fouls"]) == (3, 2, 3, 2, 1)
    assert rows["Král"]["games_difference"] == -2


def test_a_1_3_rankings_by_general_average_with_the_documented_minimum_of_partie(league):
    """Decision (docs/server.md): ranked by general average with at least half the partie of the
    season's busiest player; equal exact averages share a place (in Czech order of surnames: Černý
    before Dvořák); best series lists everyone."""
    data = stats.rankings(league)
    assert data["min_partie"] == 1
    ranking = {r["key"]: r["rows"] for r in data["rankings"]}
    assert [(r["place"], r["player"], r["value"]) for r in ranking["general_average"]] == [
        (1, "Svoboda", "3.666"), (2, "Novák", "3.333"), (3, "Černý", "1.000"), (3, "Dvořák", "1.000")]
    assert [(r["place"], r["player"]) for r in ranking["best_series"]][:2] == [(1, "Svoboda"), (2, "Novák")]
    assert [r["player"] for r in ranking["best_partie_average"]][:2] == ["Svoboda", "Novák"]
    strict = stats.rankings(league, min_partie=2)
    assert [r["player"] for r in strict["rankings"][0]["rows"]] == ["Svoboda", "Novák"]
    eightball = {r["key"]: r["rows"] for r in stats.rankings(league, "8ball")["rankings"]}
    assert [(r["place"], r["player"]) for r in eightball["individual_won"]] == [(1, "Hrubý"), (2, "Malý"), (3, "Král")]


def test_a_1_3_player_and_team_pages_data(league):
    """A player's page: every season and their partie of one; a team's: table line, players, matches."""
    novak = stats.player(league, "Novák")
    assert (novak["game"], novak["season"]) == ("carom", "2026/27")
    assert [(s["season"], s["points"]) for s in novak["seasons"]] == [("2026/27", 10), ("2025/26", 10)]
    assert [(p["match"], p["opponent"], p["result"], p["points"], p["innings"], p["average"]) for p in novak["partie"]] == [
        ("KD-1", "Svoboda", "lost", 3, 1, "3.000"), ("KD-2", "Svoboda", "won", 7, 2, "3.500")]
    assert [p["match"] for p in stats.player(league, "Novák", season="2025/26")["partie"]] == ["KD-0"]
    assert stats.player(league, "Nikdo") is None
    team = stats.team(league, "Orli")
    assert [p["player"] for p in team["players"]] == ["Černý", "Svoboda"]      # Czech order, as /players.html
    assert [m["match"] for m in team["matches"]] == ["KD-1", "KD-2"] and team["table"]["team"] == "Orli"
    assert stats.team(league, "Tágo", "8ball")["players"][0]["player"] == "Malý"
    assert stats.team(league, "Nikdo") is None


def test_a_1_3_statistics_read_the_stored_sums_never_the_items(league, monkeypatch):
    """Issue 13: a statistics page reads one season's stored sums, never every stored item."""
    def no_replay(**kwargs):
        raise AssertionError("a statistics page read the stored items")

    monkeypatch.setattr(league, "items", no_replay)
    assert len(stats.players(league)["rows"]) == 4 and stats.rankings(league, "8ball")["rankings"]
    assert stats.player(league, "Novák")["partie"] and stats.team(league, "Lvi")["matches"]


def test_issue_13_every_statistics_statement_searches_an_index(tmp_path, sign):
    """SQLite's query plan for every statement ingestion and the statistics pages run on the player
    figures: an index SEARCH (one season, one player, one match), never a SCAN of a whole table."""
    store = Store(str(tmp_path / "league.sqlite"))
    try:
        for device, venue in (("u-lva-1", LVA), ("u-koule-1", KOULE)):
            store.devices.add(device, SECRETS[device], venue=venue)
        receiver, run, seen = Receiver(store), store.database.execute, []
        store.database.execute = lambda statement, args=(): seen.append((statement, tuple(args))) or run(statement, args)
        hand_league(receiver, sign("u-lva-1"), sign("u-koule-1"))
        stats.players(store), stats.rankings(store), stats.player(store, "Novák"), stats.team(store, "Lvi")
        store.database.execute = run
        reads = [(statement, args) for statement, args in dict.fromkeys(seen)
                 if "player_" in statement and not statement.startswith("INSERT")]
        assert len(reads) >= 6
        for statement, args in reads:
            plan = [row[-1] for row in sql(store, "EXPLAIN QUERY PLAN " + statement, args)]
            assert plan and all(step.startswith(("SEARCH", "USE TEMP B-TREE")) for step in plan), (statement, plan)
    finally:
        store.close()


def test_player_figures_follow_a_match_as_its_items_arrive_and_never_double(receiver, sign):
    """Each item of a match recomputes the match's player rows: they replace, never add up."""
    bodies = carom_match("KD-9", "Lvi", "Orli", [("Novák", "Svoboda", "2 1 0 10"), ("Dvořák", "Černý", "0 0 1 1 0 2 0")],
                         date="2026-11-27")
    post(receiver, sign("u-lva-1"), bodies[:1])
    assert by_player(stats.players(receiver.store)["rows"])["Novák"]["partie"] == 1
    post(receiver, sign("u-lva-1"), bodies[1:])
    figures.refresh(receiver.store, "KD-9")
    rows = by_player(stats.players(receiver.store)["rows"])
    assert (rows["Novák"]["partie"], rows["Novák"]["matches"], rows["Dvořák"]["partie"]) == (1, 1, 1)


def test_migration_0003_fills_the_player_figures_of_a_store_that_had_none(store_place, receiver, sign):
    """A store from before revision 0003 with matches gets its players' figures when it is opened."""
    hand_league(receiver, sign("u-lva-1"))
    store = receiver.store
    before = stats.players(store)["rows"]
    sql(store, "DROP TABLE player_totals")
    sql(store, "DROP TABLE player_figures")
    for table in ("player_renames", "live_changes", "live_devices", "live_tables", "audit", "refusal_clients", "name_folds",
                  "competition_rules", "figures_due", "fixture_matches", "rulings"):
        sql(store, f"DROP TABLE {table}")                     # what 0008 to 0015 added
    for table, column in (("match_figures", "standing"), ("match_figures", "flags"), ("fixtures", "override"),
                          ("no_shows", "source"), ("teams", "expelled_how"), ("teams", "expelled_reason")):
        sql(store, f"ALTER TABLE {table} DROP COLUMN {column}")
    sql(store, "DROP TABLE generation")                       # and what 0004 to 0007 added after it
    sql(store, "DROP INDEX match_figures_season")
    sql(store, "DROP TABLE figures_pending")
    sql(store, "DROP INDEX match_figures_fixture")
    sql(store, "ALTER TABLE match_figures DROP COLUMN fixture")
    sql(store, "UPDATE alembic_version SET version_num = '0002'")
    again = Store(store_place)
    try:
        Receiver(again)
        assert stats.players(again)["rows"] == before and len(before) == 4
    finally:
        again.close()


def _sums_from_records(store) -> dict:
    """Per (season, player, team): partie, points, innings, best series, team points, straight from
    the match records (server/tables/exports.py), not from the stored figures."""
    out = {}
    for entry in exports.matches(store):
        record = exports.match_record(store, entry["match"])
        season = sums.season_of(record["date"])
        for p in record["partie"]:
            for side in ("home", "away"):
                s = p[side]
                total = out.setdefault((season, s["name"], record[side]), [0, 0, 0, 0, 0, Fraction(0)])
                total[0] += 1
                total[1] += s["points"]
                total[2] += s["innings"]
                total[3] = max(total[3], s["best_series"])
                total[4] += s["team_points"]
                total[5] = max(total[5], Fraction(s["points"], s["innings"]) if s["innings"] else Fraction(0))
    return out


TEAMS = ("Lvi", "Orli", "Sokol")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(TEAMS), st.sampled_from(TEAMS), st.integers(0, 10_000),
                          st.sampled_from(["2026-03-02", "2026-11-27", "2027-04-01"])), min_size=1, max_size=4))
def test_a_players_sums_equal_the_sums_over_their_partie(sign, matches):
    """Hypothesis: for any matches, each player's stored sums per season and team are the sums (and
    maxima) over the partie their match records list."""
    with tempfile.TemporaryDirectory() as folder:
        # the store's today after every date drawn (a match dated ahead of it is refused), the
        # freshness of the signatures on the wall clock the signer signs by
        store = Store(str(Path(folder) / "league.sqlite"), clock=ManualClock(dt.datetime(2027, 5, 3, 12, 0)))
        try:
            store.devices.add("u-lva-1", b"lva-secret-0123456789abcdef", venue=LVA)
            receiver = Receiver(store, clock=SystemClock().time)
            for n, (home, away, seed, date) in enumerate(matches):
                if home == away:
                    continue
                played, closing = carom_samples.match(f"KD-{n}", home, away, seed=seed, date=date,
                                                points_limit=20, innings_limit=3)
                post(receiver, sign("u-lva-1"), [item_body(pid, "partie", text, summary) for pid, text, summary in played]
                     + [item_body(closing[0], "match", *closing[1:])])
            expected = _sums_from_records(store)
            got = {}
            for season in {key[0] for key in expected}:
                for r in stats.players(store, season=season)["rows"]:
                    got[(season, r["player"], r["team"])] = [
                        r["partie"], r["points"], r["innings"], r["best_series"], r["team_points"],
                        Fraction(r["best_partie_average_exact"])]
            assert got == expected
        finally:
            store.close()
