"""What a league table shows beside the rules' figures: every team of the season from its first
day (zeros before its first match), each team's matches won, drawn and lost, and its form (the
results of its last five matches, oldest first).

A match is won by the team with more team points (carom: of the 8 its partie give; 8-ball: its
individual matches won); equal points are a draw. The matches counted are the table's: a season's
matches of the competition, none of an expelled team (A.3.7, its results annulled).
"""
from server.storage.figures import SUMMED
from server.tables import sums

FORM = 5          # results in a team's form
RESULTS = ("won", "drawn", "lost")


def table_season(store, game: str, season: str | None) -> str | None:
    """The season a page of the competition shows (its table, players, rankings, a team's page, the
    schedule): the one asked for, else the latest with a match of ``game``, else the league's latest
    season with teams in it (a season not yet begun). A season added for next year shows only once
    it has a match."""
    chosen = sums.season_or_latest(store, game, season)
    if chosen is not None:
        return chosen
    with_teams = [s["name"] for s in store.league.seasons() if store.league.teams(s["name"], game)]
    return with_teams[-1] if with_teams else None


def league_teams(store, game: str, season: str | None) -> list[str]:
    """The teams the organiser entered for the season's competition, without the expelled ones."""
    if season is None:
        return []
    return [t["name"] for t in store.league.teams(season, game) if not t["expelled"]]


def not_yet_played(store, game: str, season: str | None, summed: list[dict]) -> list[dict]:
    """Zero sums (``sums.team_sums``' rows) for the league's teams not among ``summed``: a team is
    in the table from the season's first day."""
    present = {row["team"] for row in summed}
    return [{"team": name, **dict.fromkeys(SUMMED, 0)} for name in league_teams(store, game, season)
            if name not in present]


def team_results(store, game: str, season: str | None) -> dict[str, dict]:
    """Team -> {"won", "drawn", "lost", "form": ["won" | "drawn" | "lost", …]} over the season's
    results of ``game`` by date: the matches the table counts (not one off the schedule, a
    friendly, one waiting for a ruling or an expelled team's), a fixture played in two parts
    (A.6.5) judged once on its whole score."""
    expelled = {t["name"] for t in store.league.teams(season, game) if t["expelled"]} if season else set()
    played = [m for m in store.figures.results_of(game, season) if m["home"] and m["away"]
              and not expelled & {m["home"], m["away"]}]
    out: dict[str, dict] = {}
    for m in sorted(played, key=lambda m: (m["date"] or "", m["fixture"])):   # whichever receiver stored it first
        points = m["points"]
        for side, other in (("home", "away"), ("away", "home")):
            result = ("won" if points[side] > points[other] else "lost" if points[side] < points[other]
                      else "drawn")
            entry = out.setdefault(m[side], {"won": 0, "drawn": 0, "lost": 0, "form": []})
            entry[result] += 1
            entry["form"].append(result)
    for entry in out.values():
        entry["form"] = entry["form"][-FORM:]
    return out


def with_results(rows: list[dict], results: dict[str, dict]) -> list[dict]:
    """The table's rows with each team's matches won, drawn, lost and form."""
    for row in rows:
        entry = results.get(row["team"], {"won": 0, "drawn": 0, "lost": 0, "form": []})
        row.update(matches_won=entry["won"], matches_drawn=entry["drawn"], matches_lost=entry["lost"],
                   form=entry["form"])
    return rows
