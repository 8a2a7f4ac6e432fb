"""Figures computed once at ingestion, after the device's answer: an item of a match is stored
marked pending (server/storage/store.py ``put``); ``settle`` then rebuilds each pending match's record
from its few items and stores its list entry, per-team and per-player (server/tables/player_figures.py)
figures (server/tables/sums.py sums them for the tables), for every pending item (or the first matches
to arrive) in one transaction that moves the store's generation, so a page sees a match's figures
all before or all after. A store
from before figures, or with items left pending by a receiver that stopped, gets them computed
when opened (``bring_up_to_date``).
"""
import json

from server.tables import exports, player_figures
from server.tables.games import table_game
from server.tables.sums import season_of


def settle(store, *, matches: int | None = None) -> bool:
    """Compute the figures of every match with an item pending, in one transaction; False when
    none was pending. Any receiver may do it (after its answers, before a page reads figures):
    under the generation's lock, each match is computed from every item committed before.
    ``matches``: at most this many matches, the first to arrive (a step on the event loop takes
    one at a time, so that a device's item waits for one match's figures at most)."""
    if not store.figures.pending():
        return False
    # figures and marks are computed again from the items: their commit need not wait for the
    # disk (a crash may undo the step, marks with it; the next durable commit carries it)
    with store.transaction(durable=False):
        store.lock_generation()
        pending, due = store.figures.pending_matches(), store.figures.due_matches()
        if not pending and not due:
            return False        # another receiver's step took them
        chosen = list(dict.fromkeys([match_id for _, match_id in pending] + due))[:matches]
        _refresh_all(store, chosen)
        store.figures.done([seq for seq, match_id in pending if match_id in chosen],
                           [match_id for match_id in due if match_id in chosen])
        store.changed()         # pages built before are out of date
    return True


def bring_up_to_date(store) -> None:
    """Figures of every stored match: those missing (a store from before figures) and those left
    pending (a receiver stopped between an item's commit and its figures)."""
    settle(store)
    rebuild_if_missing(store)


def refresh(store, match_id: str) -> None:
    """Compute one match's figures again from its stored items, in the caller's transaction (or
    one of its own). Under the figures' lock (``Store.lock_generation``, held to the commit): two
    steps for the same match, in two threads or two receivers on one PostgreSQL, run one after
    the other, the second reading what the first wrote. One lock for every match, not one per
    match: a player's and a team's totals sum several matches, and a step computing several
    matches would deadlock with another taking the same matches' locks in another order."""
    with store.transaction():
        store.lock_generation()
        _refresh(store, match_id)


def _refresh_all(store, match_ids) -> None:
    """``_refresh`` of each match, in the caller's transaction under the figures' lock, each
    player's totals written once for them all (player_figures.TotalsDue)."""
    totals = player_figures.TotalsDue()
    for match_id in match_ids:
        _refresh(store, match_id, totals)
    totals.write(store)


def _refresh(store, match_id: str, totals: player_figures.TotalsDue | None = None) -> None:
    """``totals``: the players' totals left to it (several matches' at once); none: written here."""
    record = exports.match_record(store, match_id)
    if record is None:                  # a no-show's forfeit a device's record took the place of
        store.figures.drop(match_id)
        player_figures.replace(store, match_id, [], totals)
        return
    seq = store.items.first_of_match(match_id) or store.figures.seq_of(match_id)
    season = season_of(record["date"])
    counted = record["standing"] == "counted"
    flags = {key: record[key] for key in ("unrostered", "irregular") if record[key]} or None
    match_row = {"match_id": match_id, "seq": seq, "game": record["game"], "season": season,
                 "date": record["date"], "venue": record["venue"], "home": record["home"], "away": record["away"],
                 "points_home": record["points"]["home"], "points_away": record["points"]["away"],
                 "closed": int(record["closed"]), "fixture": record["fixture"] or match_id,
                 "unreadable": json.dumps(record["unreadable"]) if record["unreadable"] else None,
                 "standing": record["standing"], "flags": json.dumps(flags, ensure_ascii=False) if flags else None}
    teams = []
    if record["home"] and record["away"] and counted:
        per_side = table_game(record["game"]).team_figures(record)
        teams = [{"match_id": match_id, "game": record["game"], "season": season, "team": record[side],
                  "opponent": record[other], **figures, **({"matches": 0} if record["part"] == 2 else {})}
                 for (side, other), figures in zip((("home", "away"), ("away", "home")), per_side) if figures]
    store.figures.replace(match_id, match_row, teams)
    player_figures.replace(store, match_id, player_figures.rows_of(record, seq, season) if counted else [], totals)


def rebuild_if_missing(store) -> None:
    """Compute the figures of every stored match that has none (a store from before figures)."""
    with store.transaction():
        store.lock_generation()         # another receiver opening at once computes them after this one
        missing = store.items.matches_without_figures()
        _refresh_all(store, missing)
        if missing:
            store.changed()     # pages built before (this receiver's or another's) are out of date


