"""Per-player totals kept at ingestion (statistics, A.1.3): a partie that arrives adds its rows to
its players' totals; a row that changes or goes sums that player's season again. Either way the
totals are what summing the player's stored rows gives (server/tables/player_figures.py)."""
import random

import pytest
from sql_helpers import sql

from server.storage.players import ROW, SUMMED, TOTALS
from server.tables import player_figures
from server.tables.player_figures import totals_of


def _kept(store) -> dict:
    rows = sql(store, f"SELECT game, season, player, team, {', '.join(TOTALS)} FROM player_totals")
    return {tuple(r[:4]): dict(zip(TOTALS, r[4:])) for r in rows}


def _summed_again(store) -> dict:
    rows = sql(store, f"SELECT game, season, player, team, match_id, best_series, {', '.join(SUMMED)} "
                      "FROM player_figures")
    per_player: dict[tuple, list[dict]] = {}
    for r in rows:
        per_player.setdefault(tuple(r[:4]), []).append(dict(zip(("match_id", "best_series", *SUMMED), r[4:])))
    return {key: totals_of(kept) for key, kept in per_player.items()}


def shuffled(items, matches: range, seed: int) -> list[bytes]:
    """The items of matches of the same two teams (the same players), in a shuffled order."""
    bodies = [b for n in matches for b in items(f"KD-{n}", seed=seed * 10 + n)]
    random.Random(seed).shuffle(bodies)
    return bodies


def assert_kept_as_summed(store, matches: int) -> None:
    kept = _kept(store)
    assert kept and kept == _summed_again(store)
    assert all(t["matches"] == matches for t in kept.values() if t["partie"] >= matches)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_totals_added_as_partie_arrive_equal_the_rows_summed_again(receiver, items, sign, seed):
    """Three matches of the same two teams (the same players), their items in a shuffled order."""
    for body in shuffled(items, range(3), seed):
        assert receiver.handle(sign("u-lva-1").sign(body), via="t")[0] == 200
    assert_kept_as_summed(receiver.store, 3)


def test_a_changed_or_dropped_row_sums_its_player_again(receiver, items, sign):
    for body in items("KD-1", seed=4) + items("KD-2", seed=5):
        assert receiver.handle(sign("u-lva-1").sign(body), via="t")[0] == 200
    store = receiver.store
    rows = [dict(zip(ROW, r)) for r in sql(store, f"SELECT {', '.join(ROW)} FROM player_figures "
                                                  "WHERE match_id = 'KD-1' ORDER BY partie_id, side")]
    changed = [{**rows[0], "points": rows[0]["points"] + 7, "best_series": 99}] + rows[2:]     # rows[1] dropped
    with store.transaction():
        player_figures.replace(store, "KD-1", changed)
    kept = _kept(store)
    assert kept == _summed_again(store)
    assert kept[(rows[0]["game"], rows[0]["season"], rows[0]["player"], rows[0]["team"])]["best_series"] == 99


@pytest.mark.parametrize("seed", [1, 2])
def test_totals_of_several_matches_in_one_step_equal_the_rows_summed_again(receiver, items, sign, seed):
    """A figures step over several matches at once (an import: one step at the end) writes each
    player's totals once; they are what the matches one by one give."""
    for body in items("KD-0", seed=seed * 10):                # totals kept already, then three matches at once
        assert receiver.handle(sign("u-lva-1").sign(body), via="t")[0] == 200
    answers = receiver.receive_many([sign("u-lva-1").sign(body) for body in shuffled(items, range(1, 4), seed)],
                                    via="t")
    assert {code for code, _ in answers} == {200}
    assert receiver.settle()                                    # every match in one step
    assert_kept_as_summed(receiver.store, 4)


def test_rows_gone_and_gained_in_one_step_leave_totals_summed_again(receiver, items, sign):
    for body in items("KD-1", seed=4) + items("KD-2", seed=5):
        assert receiver.handle(sign("u-lva-1").sign(body), via="t")[0] == 200
    store = receiver.store
    rows = {m: [dict(zip(ROW, r)) for r in sql(store, f"SELECT {', '.join(ROW)} FROM player_figures "
                                                      f"WHERE match_id = '{m}' ORDER BY partie_id, side")]
            for m in ("KD-1", "KD-2")}
    before = _kept(store)
    with store.transaction():
        due = player_figures.TotalsDue()
        player_figures.replace(store, "KD-2", [], due)               # every row gone ...
        player_figures.replace(store, "KD-2", rows["KD-2"], due)     # ... and back
        player_figures.replace(store, "KD-1", rows["KD-1"][1:], due)  # one gone for good
        due.write(store)
    kept = _kept(store)
    assert kept == _summed_again(store) and kept != before
