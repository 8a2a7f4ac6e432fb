"""Per-player figures computed once at ingestion (statistics pages, A.1.3).

When a match's figures are refreshed (server/tables/figures.py), each player of each of its partie (an
8-ball individual match) gets a row in ``player_figures``; the sums per competition, season,
player and team (``player_totals``) of every player whose rows changed are computed again from
that player's rows of that season only, so the cost of an item does not grow with the stored
seasons. A player is a name as the records give it, in the team they played for.
"""

from rules.carom.figures import average
from server.storage.players import KEY, PER_PARTIE, ROW, SUMMED
from server.tables.carom import best_average
from server.tables.games import table_game
from server.tables.items import OTHER


def rows_of(record: dict, seq: int, season: str | None) -> list[dict]:
    """One row per player and counted partie (carom: finished) or individual match (8-ball)."""
    if not (record["home"] and record["away"]):
        return []
    game = table_game(record["game"])
    played = game.played(record)
    rows = []
    for p in played:
        for side in OTHER:
            if p[side]["name"] is None:
                continue
            figures = dict.fromkeys(PER_PARTIE, 0)
            figures.update(game.player_figures(p, side))
            rows.append({"match_id": record["match"], "partie_id": str(p["id"]), "side": side, "seq": seq,
                         "game": record["game"], "season": season or "", "date": record["date"],
                         "number": p["number"] if type(p["number"]) is int else None,
                         "player": p[side]["name"], "team": record[side], "opponent": p[OTHER[side]]["name"],
                         "opponent_team": record[OTHER[side]], **figures})
    return rows


def key_of(row: dict) -> tuple:
    return tuple(row[c] for c in KEY)


def replace(store, match_id: str, rows: list[dict], due: "TotalsDue | None" = None) -> None:
    """A match's player rows, replacing its earlier ones (in the caller's transaction). Only the
    rows that differ are written. A player who only gained rows (a partie of the match arrived)
    has the new rows added to their totals; a player who lost or changed a row has their totals
    summed again from their rows of that season. ``due``: the totals are left to it, to be
    written once for several matches (a figures step); none: written now."""
    players = store.players
    old = {(r["partie_id"], r["side"]): r for r in players.of_match(match_id)}
    new = {(r["partie_id"], r["side"]): {c: r[c] for c in ROW} for r in rows}
    gone = [r for place, r in old.items() if new.get(place) != r]
    added = [r for place, r in new.items() if old.get(place) != r]
    if gone:
        players.remove(gone)
    if added:
        players.add(added)
    totals = due or TotalsDue()
    totals.changed(gone, added, had={key_of(r) for r in old.values()})
    if due is None:
        totals.write(store)


class TotalsDue:
    """Players' totals to bring up to date once for the rows of several matches (one figures
    step: a player of ten matches read and written once, not ten times): what summing each
    match's change in turn would give. A player who lost or changed a row is summed again from
    their rows; one who only gained rows has them added, their matches counted once each."""

    def __init__(self):
        self.summed_again: set[tuple] = set()
        self.gains: dict[tuple, list[dict]] = {}
        self.new_matches: dict[tuple, int] = {}     # matches the player is in that they were not before

    def changed(self, gone: list[dict], added: list[dict], had: set[tuple]) -> None:
        """One match's rows gone and added; ``had``: the players it had rows of before."""
        self.summed_again.update(key_of(r) for r in gone)
        for r in added:
            self.gains.setdefault(key_of(r), []).append(r)
        for key in {key_of(r) for r in added} - had:
            self.new_matches[key] = self.new_matches.get(key, 0) + 1

    def write(self, store) -> None:
        players = store.players
        totals: list[tuple[tuple, dict | None]] = []     # written together: each key once
        for key in sorted(self.summed_again):
            rows_left = players.of_key(key)
            totals.append((key, totals_of(rows_left) if rows_left else None))
        for key, gained in sorted(self.gains.items()):
            if key not in self.summed_again:
                totals.append((key, _added(players.totals(key), totals_of(gained), self.new_matches.get(key, 0))))
        if totals:
            players.set_totals(totals)


def _added(totals: dict | None, gained: dict, new_matches: int) -> dict:
    """A player's totals with new rows (their ``totals_of``) added, of ``new_matches`` matches
    they were not in before."""
    if totals is None:
        return gained
    merged = {c: totals[c] + gained[c] for c in SUMMED}
    merged.update(matches=totals["matches"] + new_matches, partie=totals["partie"] + gained["partie"],
                  best_series=max(totals["best_series"], gained["best_series"]))
    best = max((totals, gained), key=lambda t: (best_average(t), -t["best_average_innings"]))
    merged.update(best_average_points=best["best_average_points"], best_average_innings=best["best_average_innings"])
    return merged


def totals_of(rows: list[dict]) -> dict:
    """A player's sums over their rows: matches, partie, the summed figures, the best series and
    the best partie average (its points and innings; the exact fraction decides, RULES 1.5)."""
    totals = {c: sum(r[c] for r in rows) for c in SUMMED}
    best = max(rows, key=lambda r: (average(r["points"], r["innings"]), -r["innings"]))
    totals.update(matches=len({r["match_id"] for r in rows}), partie=len(rows),
                  best_series=max(r["best_series"] for r in rows),
                  best_average_points=best["points"], best_average_innings=best["innings"])
    return totals



