"""What the league organiser takes away: match records (RULES 1.6) and the league table (RULES 1.8).

Both are built from the stored items only: partie records grouped by their header's match id,
and the match item (kind "match") that closes a match. Averages are exact fractions; the printed
form has 3 decimals, truncated (RULES 1.5).
"""
from fractions import Fraction

from rules.carom.figures import average, average_text
from server.tables import eightball, sums
from server.tables.items import (
    SIDES,
    captains_of,
    content_of,
    forfeit_of,
    header_of,
    in_playing_order,
    match_info,
    missing,
    result_points,
    side_of,
    text,
    whole,
)


def _average(points: int, innings: int) -> dict:
    exact = average(points, innings)
    return {"points": points, "innings": innings, "average": average_text(exact), "exact": str(exact)}


def _partie_entry(row) -> dict:
    """One partie as the match record lists it, players by side (home/away)."""
    content = content_of(row)
    header, summary = header_of(content["record"]), content["summary"]
    home = header.get("home", "a")
    away = "b" if home == "a" else "a"
    players = summary.get("players", {})

    def side(letter):
        p = players.get(letter, {})
        return {"player": letter, "name": text(p.get("name", header.get(letter))),
                "points": whole(p.get("points", 0)), "innings": whole(p.get("innings", 0)),
                "best_series": whole(p.get("best_series", 0)), "average": text(p.get("average")),
                "series": [whole(x) for x in p.get("series", [])],
                "team_points": whole(p.get("team_points"), optional=True)}

    return {"id": content["id"], "number": header.get("partie"), "game": header.get("game"),
            "device": row["device"], "result": side_of(summary.get("result"), home),
            "forfeit": side_of(summary.get("forfeit"), home), "home": side(home), "away": side(away)}


def match_record(store, match_id: str) -> dict | None:
    """The zápis o utkání (RULES 1.6): venue, date, teams, points, every partie inning by inning.
    An 8-ball match gets its own record (server.tables.eightball, RULES 2.9)."""
    rows = store.items.all(match_id=match_id)
    if not rows:
        return None
    if any(r["game"] == "8ball" for r in rows):
        return eightball.match_record(store, match_id)
    info, listed, declared, closed = match_info(rows)
    partie, unreadable = in_playing_order(rows, _partie_entry)
    forfeit = forfeit_of(rows)
    points = result_points({side: sum(p[side]["team_points"] or 0 for p in partie) for side in SIDES},
                           declared, forfeit)
    return {
        "match": match_id, "game": "carom",
        "venue": info.get("venue"), "date": info.get("date"), "home": info.get("home"), "away": info.get("away"),
        "seed": info.get("seed"), "fixture": info.get("fixture"), "closed": closed, "forfeit": forfeit,
        "points": points,
        "declared_points": declared,
        "missing_partie": missing(listed, partie), "unreadable": unreadable,
        **captains_of(rows),
        "partie": partie,
        "averages": {side: _average(sum(p[side]["points"] for p in partie),
                                    sum(p[side]["innings"] for p in partie)) for side in SIDES},
    }


def matches(store, season: str | None = None) -> list[dict]:
    """The stored matches of a season (default: the latest) in the order they first arrived:
    teams, date, venue, points, closed."""
    return store.figures.matches(season)


class _Team:
    """A team's row of the carom table: the sums of its stored per-match figures (server/tables/figures.py)."""

    def __init__(self, sums_row: dict, against: dict[str, int]):
        self.name, self.matches, self.partie = sums_row["team"], sums_row["matches"], sums_row["partie"]
        self.team_points, self.scored, self.conceded = sums_row["points"], sums_row["scored"], sums_row["conceded"]
        self.innings, self.against = sums_row["innings"], against

    @property
    def general_average(self) -> Fraction:
        return average(self.scored, self.innings)

    def key(self) -> tuple:
        return (self.team_points, self.scored - self.conceded, self.general_average)


def league_table(store, game: str = "carom", season: str | None = None) -> dict:
    """RULES 1.8: (a) team points, (b) score difference, (c) general average (exact), (d) head-to-head,
    over one season (default: the latest). ``game="8ball"``: the 8-ball table (server.tables.eightball)."""
    if game == "8ball":
        return eightball.league_table(store, season=season)
    if game != "carom":
        raise ValueError(f"game must be carom or 8ball, got {game!r}")
    season = sums.season_or_latest(store, game, season)
    against = store.figures.head_to_head(game, season)
    teams = [_Team(row, against.get(row["team"], {})) for row in store.figures.team_sums(game, season)]
    rows = []
    for place, (team, decided_by) in enumerate(_order(teams), start=1):
        rows.append({
            "place": place, "team": team.name, "matches": team.matches, "partie": team.partie,
            "points": team.team_points, "scored": team.scored, "conceded": team.conceded,
            "difference": team.scored - team.conceded, "innings": team.innings,
            "general_average": average_text(team.general_average), "general_average_exact": str(team.general_average),
            "head_to_head": dict(sorted(team.against.items())), "decided_by": decided_by,
        })
    return {"game": game, "season": season, "order": ["points", "difference", "general_average", "head_to_head"],
            "rows": rows, "unreadable": store.figures.unreadable(game, season)}


def _order(teams: list[_Team]) -> list[tuple[_Team, str | None]]:
    """Sort by (a)-(c); teams equal on all three are ordered by the team points they won against
    each other (d). Returns each team with the criterion that separated it from its neighbours."""
    teams.sort(key=lambda t: (tuple(-x for x in t.key()), t.name))
    out: list[tuple[_Team, str | None]] = []
    i = 0
    while i < len(teams):
        j = i
        while j < len(teams) and teams[j].key() == teams[i].key():
            j += 1
        group = teams[i:j]
        if len(group) == 1:
            out.append((group[0], None))
        else:
            names = {t.name for t in group}
            h2h = {t.name: sum(v for k, v in t.against.items() if k in names) for t in group}
            group.sort(key=lambda t: (-h2h[t.name], t.name))
            tied = len(set(h2h.values())) < len(group)
            out.extend((t, "head_to_head" if not tied else "tied") for t in group)
        i = j
    return out
