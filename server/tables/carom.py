"""Carom at the receiver (RULES Part 1): the match record (zápis, RULES 1.6), the league table
(RULES 1.8), and a match's team and player figures, a player's page and the rankings.

Averages are exact fractions; the printed form has 3 decimals, truncated (RULES 1.5).
"""
from fractions import Fraction

from rules.carom.figures import average, average_text, points_average_text
from server.league.czech_order import czech_key
from server.tables import results
from server.tables.items import (
    SIDES,
    captains_of,
    content_of,
    forfeit_of,
    in_playing_order,
    league_fields_of,
    match_info,
    missing,
    outcome,
    partie_header,
    result_points,
    side_of,
    text,
    whole,
    zero_figures,
)
from server.tables.ranking import ranking

GAME = "carom"


def _average(points: int, innings: int) -> dict:
    exact = average(points, innings)
    return {"points": points, "innings": innings, "average": average_text(exact), "exact": str(exact)}


def _partie_entry(row, rules: dict) -> dict:
    """One partie as the match record lists it, players by side (home/away); its team points are
    the competition's for its result (A.5.3-A.5.5)."""
    content = content_of(row)
    header, summary = partie_header(row), content["summary"]
    home = header.get("home", "a")
    away = "b" if home == "a" else "a"
    players = summary.get("players", {})

    result = side_of(summary.get("result"), home)

    def side(letter, mine):
        p = players.get(letter, {})
        return {"player": letter, "name": text(p.get("name", header.get(letter))),
                "points": whole(p.get("points", 0)), "innings": whole(p.get("innings", 0)),
                "best_series": whole(p.get("best_series", 0)), "average": text(p.get("average")),
                "series": [whole(x) for x in p.get("series", [])],
                "team_points": _team_points(result, mine, rules)}

    return {"id": content["id"], "number": header.get("partie"), "game": header.get("game"),
            "device": row["device"], "result": result,
            "forfeit": side_of(summary.get("forfeit"), home), "home": side(home, "home"), "away": side(away, "away")}


def _team_points(result, side: str, rules: dict) -> int | None:
    """A partie's team points for ``side``: the competition's for a win, a draw, a loss; None while
    it goes on."""
    if result is None:
        return None
    if result == "draw":
        return rules["draw_points"]
    return rules["win_points"] if result == side else rules["loss_points"]


def match_record(rows: list[dict], match_id: str, rules: dict) -> dict | None:
    """The zápis o utkání (RULES 1.6): venue, date, teams, points, every partie inning by inning;
    the team points by the competition's ``rules`` (A.5.3-A.5.5, a forfeit's A.3.7)."""
    if not rows:
        return None
    info, listed, declared, closed = match_info(rows)
    partie, unreadable = in_playing_order(rows, lambda row: _partie_entry(row, rules))
    forfeit = forfeit_of(rows)
    points = result_points({side: sum(p[side]["team_points"] or 0 for p in partie) for side in SIDES},
                           forfeit, rules)
    return {
        "match": match_id, "game": "carom",
        "venue": info.get("venue"), "date": info.get("date"), "home": info.get("home"), "away": info.get("away"),
        "seed": info.get("seed"), "fixture": info.get("fixture"), "closed": closed, "forfeit": forfeit,
        "points": points,
        "declared_points": declared,
        "missing_partie": missing(listed, partie), "unreadable": unreadable,
        **captains_of(rows), **league_fields_of(rows),
        "partie": partie,
        "averages": {side: _average(sum(p[side]["points"] for p in partie),
                                    sum(p[side]["innings"] for p in partie)) for side in SIDES},
    }


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


def league_table(store, season: str | None = None) -> dict:
    """RULES 1.8: (a) team points, (b) score difference, (c) general average (exact), (d) head-to-head,
    over one season (default: the latest)."""
    game = GAME
    season = results.table_season(store, game, season)
    against = store.figures.head_to_head(game, season)
    summed = store.figures.team_sums(game, season)
    summed += results.not_yet_played(store, game, season, summed)
    teams = [_Team(row, against.get(row["team"], {})) for row in summed]
    rows = []
    for place, (team, decided_by) in enumerate(_order(teams), start=1):
        rows.append({
            "place": place, "team": team.name, "matches": team.matches, "partie": team.partie,
            "points": team.team_points, "scored": team.scored, "conceded": team.conceded,
            "difference": team.scored - team.conceded, "innings": team.innings,
            "general_average": average_text(team.general_average), "general_average_exact": str(team.general_average),
            "head_to_head": dict(sorted(team.against.items())), "decided_by": decided_by if team.matches else None,
        })
    return {"game": game, "season": season, "order": ["points", "difference", "general_average", "head_to_head"],
            "rows": results.with_results(rows, results.team_results(store, game, season)),
            "unreadable": store.figures.unreadable(game, season)}


def _order(teams: list[_Team]) -> list[tuple[_Team, str | None]]:
    """Sort by (a)-(c); teams equal on all three are ordered by the team points they won against
    each other (d), teams equal on that too in Czech alphabetical order. Returns each team with
    the criterion that placed it: None (a)-(c), "head_to_head", or "tied" for a team whose
    head-to-head points another team of its group shares (the organiser decides)."""
    teams.sort(key=lambda t: (tuple(-x for x in t.key()), czech_key(t.name)))
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
            group.sort(key=lambda t: (-h2h[t.name], czech_key(t.name)))
            shared = list(h2h.values())
            out.extend((t, "tied" if shared.count(h2h[t.name]) > 1 else "head_to_head") for t in group)
        i = j
    return out


def team_figures(record) -> list[dict | None]:
    """RULES 1.8 per side: team points (the record's: the partie's, a forfeit's (A.3.7) or an
    award's (A.6.5)), partie, carom points scored and conceded, innings. A side with nothing
    counted is not in the table."""
    out = []
    for side, other in (("home", "away"), ("away", "home")):
        figures, counted = zero_figures(), bool(record["forfeit"] or record.get("awarded"))
        figures["points"] = record["points"][side]
        for p in record["partie"]:
            if p["result"] is None:
                continue
            counted = True
            figures["partie"] += 1
            figures["scored"] += p[side]["points"]
            figures["conceded"] += p[other]["points"]
            figures["innings"] += p[side]["innings"]
        figures["matches"] = 1
        out.append(figures if counted else None)
    return out


def plays_once(record: dict) -> bool:
    """RULES 1.6 Decision: the lot picks 4 players of each team, each plays once."""
    return True


def lineup(record: dict) -> list[dict]:
    """Every partie of the match, finished or not."""
    return record["partie"]


def played(record: dict) -> list[dict]:
    """The partie a player's figures count: those finished."""
    return [p for p in record["partie"] if p["result"] is not None]


def player_figures(p: dict, side: str) -> dict:
    mine = p[side]
    return {**outcome(p["result"], side), "forfeited": int(p["forfeit"] == side), "points": mine["points"],
            "innings": mine["innings"], "best_series": mine["best_series"], "team_points": mine["team_points"] or 0}


def best_average(totals: dict) -> Fraction:
    """A player's best partie average (the exact fraction of its points and innings)."""
    return average(totals["best_average_points"], totals["best_average_innings"])


def player_view(row: dict) -> dict:
    """A player's totals as the pages and exports show them."""
    general, best = average(row["points"], row["innings"]), best_average(row)
    return {"player": row["player"], "team": row["team"], "matches": row["matches"], "partie": row["partie"],
            "won": row["won"], "drawn": row["drawn"], "lost": row["lost"], "team_points": row["team_points"],
            "points": row["points"], "innings": row["innings"],
            "general_average": average_text(general), "general_average_exact": str(general),
            "best_series": row["best_series"],
            "best_partie_average": average_text(best), "best_partie_average_exact": str(best)}


def partie_view(row: dict) -> dict:
    """A partie's own figures on its player's page."""
    return {"points": row["points"], "innings": row["innings"], "best_series": row["best_series"],
            "average": points_average_text(row["points"], row["innings"]), "team_points": row["team_points"]}


def default_min_partie(rows: list[dict]) -> int:
    """Half (rounded up) of the most partie a player of the season played, at least 1."""
    return max(1, -(-max((r["partie"] for r in rows), default=0) // 2))


def rankings(rows: list[dict], min_partie: int | None) -> dict:
    """General average (with a minimum of partie), best series, best partie average, team points."""
    minimum = default_min_partie(rows) if min_partie is None else min_partie
    general = [r for r in rows if r["partie"] >= minimum]
    counts = ("partie", "points", "innings")         # shown beside each value
    return {"min_partie": minimum, "rankings": [
        ranking("general_average", general, lambda r: -average(r["points"], r["innings"]),
                lambda r: points_average_text(r["points"], r["innings"]), counts),
        ranking("best_series", rows, lambda r: -r["best_series"], lambda r: r["best_series"], counts),
        ranking("best_partie_average", rows, lambda r: -best_average(r), lambda r: average_text(best_average(r)),
                counts),
        ranking("team_points", rows, lambda r: -r["team_points"], lambda r: r["team_points"], counts),
    ]}
