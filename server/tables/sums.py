"""What the lists and tables share: a match's season, and the season a page shows when none is asked.

A season runs from July to June: a match on 2026-11-27 is in season "2026/27". Without a season
asked for, the latest season of that competition is shown, so a page never reads older seasons.
The sums themselves are read from the store's figures (server/storage/figures.py).
"""


def season_of(date) -> str | None:
    """"2026/27" for any date from 2026-07-01 to 2027-06-30 (None: no usable date)."""
    try:
        year, month = int(str(date)[:4]), int(str(date)[5:7])
    except ValueError:
        return None
    if not 1 <= month <= 12 or str(date)[4:5] != "-":
        return None
    start = year if month >= 7 else year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def all_seasons(store) -> list[str]:
    """Every season the league knows (set up by the organiser or with a stored match), latest first."""
    return sorted({s["name"] for s in store.league.seasons()} | set(store.figures.seasons()), reverse=True)


def season_or_latest(store, game: str, season: str | None) -> str | None:
    return season if season is not None else store.figures.latest_season(game)
