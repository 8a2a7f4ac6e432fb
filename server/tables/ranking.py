"""A ranking of players: best first, equal values sharing a place."""
from server.league.czech_order import czech_key, surname_key


def ranking(key: str, rows: list[dict], order, value, counts=("partie",)) -> dict:
    """Players by ``order`` (best first; equal keys share a place, then by surname in Czech order),
    each with the ``counts`` behind the value (the partie; a carom player's points and innings)."""
    ordered = sorted(rows, key=lambda r: (order(r), surname_key(r["player"]), czech_key(r["team"])))
    out, place = [], 0
    for n, row in enumerate(ordered, start=1):
        if n == 1 or order(row) != order(ordered[n - 2]):
            place = n
        out.append({"place": place, "player": row["player"], "team": row["team"], "value": value(row),
                    **{count: row[count] for count in counts}})
    return {"key": key, "rows": out}
