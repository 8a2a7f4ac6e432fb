"""Figures computed once at ingestion: after an item of a match is stored, that match's record is
rebuilt from its few items and its list entry, per-team and per-player (server/player_figures.py)
figures are stored (server/sums.py sums them for the tables). A store from before figures gets them all computed once, when opened.
"""
import json

from server import exports, player_figures
from server.store import SUMMED
from server.sums import season_of


def refresh(store, match_id: str) -> None:
    record = exports.match_record(store, match_id)
    if record is None:
        return
    [(seq,)] = store.query("SELECT MIN(seq) FROM items WHERE match_id = ?", (match_id,))
    season = season_of(record["date"])
    match_row = {"match_id": match_id, "seq": seq, "game": record["game"], "season": season,
                 "date": record["date"], "venue": record["venue"], "home": record["home"], "away": record["away"],
                 "points_home": record["points"]["home"], "points_away": record["points"]["away"],
                 "closed": int(record["closed"]), "fixture": record.get("fixture") or match_id,
                 "unreadable": json.dumps(record["unreadable"]) if record["unreadable"] else None}
    teams = []
    if record["home"] and record["away"]:
        per_side = _eightball(record) if record["game"] == "8ball" else _carom(record)
        teams = [{"match_id": match_id, "game": record["game"], "season": season, "team": record[side],
                  "opponent": record[other], **figures}
                 for (side, other), figures in zip((("home", "away"), ("away", "home")), per_side) if figures]
    store.replace_figures(match_id, match_row, teams)
    if match_row["fixture"] != match_id:
        store.drop_stand_in(match_row["fixture"])
    player_figures.replace(store, match_id, player_figures.rows_of(record, seq, season))


def rebuild_if_missing(store) -> None:
    """Compute the figures of every stored match that has none (a store from before figures)."""
    missing = store.query("SELECT DISTINCT i.match_id FROM items i LEFT JOIN match_figures f "
                          "ON f.match_id = i.match_id WHERE i.match_id IS NOT NULL AND f.match_id IS NULL")
    for (match_id,) in missing:
        refresh(store, match_id)
    if missing:
        store.changed()         # pages built before (this receiver's or another's) are out of date


def _zero() -> dict:
    return dict.fromkeys(SUMMED, 0)


def _carom(record) -> list[dict | None]:
    """RULES 1.8 per side: team points, partie, carom points scored and conceded, innings; a forfeited
    match (A.3.7) gives its declared team points. A side with nothing counted is not in the table."""
    out = []
    for side, other in (("home", "away"), ("away", "home")):
        figures, counted = _zero(), False
        if record["forfeit"]:
            figures["points"] += record["points"][side]
            counted = True
        for p in record["partie"]:
            if p["result"] is None:
                continue
            counted = True
            figures["partie"] += 1
            figures["points"] += p[side]["team_points"] or 0
            figures["scored"] += p[side]["points"]
            figures["conceded"] += p[other]["points"]
            figures["innings"] += p[side]["innings"]
        figures["matches"] = 1
        out.append(figures if counted else None)
    return out


def _eightball(record) -> list[dict]:
    """RULES 2.9 per side: individual matches, sets and games won and lost (and a forfeit's points)."""
    totals = record["totals"]
    out = []
    for side, other in (("home", "away"), ("away", "home")):
        figures = _zero()
        # points: only what a forfeited match declares; the table adds points_per_match per match won
        declared = record["points"][side] if record["forfeit"] and record["declared_points"] else 0
        figures.update(matches=1, points=declared, won=totals[side]["matches"],
                       lost=totals[other]["matches"], sets_won=totals[side]["sets"], sets_lost=totals[other]["sets"],
                       games_won=totals[side]["games"], games_lost=totals[other]["games"])
        out.append(figures)
    return out

