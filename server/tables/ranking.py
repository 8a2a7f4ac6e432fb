"""A ranking of players: best first, equal values sharing a place."""


def ranking(key: str, rows: list[dict], order, value) -> dict:
    """Players by ``order`` (best first; equal keys share a place, then by name)."""
    ordered = sorted(rows, key=lambda r: (order(r), r["player"], r["team"]))
    out, place = [], 0
    for n, row in enumerate(ordered, start=1):
        if n == 1 or order(row) != order(ordered[n - 2]):
            place = n
        out.append({"place": place, "player": row["player"], "team": row["team"], "value": value(row)})
    return {"key": key, "rows": out}
