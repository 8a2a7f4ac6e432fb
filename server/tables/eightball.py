"""8-ball at the receiver (RULES Part 2): the team match record and the league table (RULES 2.9),
and a match's team and player figures, a player's page and the rankings.

An 8-ball team match is a number of individual matches (each one stored item of kind "partie"
whose header carries ``"match": {"id", "home", "away"}``, ``"partie"`` (its number) and ``"home"``,
the side that played for the home team). Team score = individual matches won (RULES 2.9,
Decision), via ``rules.eightball.team_score``. RULES does not order the 8-ball table; our
Decision (docs/server.md): team points, then sets difference, then games difference.
"""
from rules.eightball.match import team_score
from server.league.czech_order import czech_key
from server.tables import results
from server.tables.items import (
    OTHER,
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

GAME = "8ball"
ORDER = ["points", "sets_difference", "games_difference"]


def _set_winner(games: dict, games_to_win) -> str | None:
    """The side that won the set: the one that reached its race of games (8B:8); None for a set a
    forfeit cut short. A summary without its race: the side with more games."""
    if type(games_to_win) is int:
        return next((side for side in SIDES if games[side] >= games_to_win), None)
    return None if games["home"] == games["away"] else max(SIDES, key=lambda side: games[side])


def _individual(row) -> dict:
    """One individual match as the team match record lists it, everything by side."""
    content = content_of(row)
    header, summary = partie_header(row), content["summary"]
    home = header.get("home") or "a"
    if home not in ("a", "b"):
        raise ValueError(f"home side {home!r}")
    away = "b" if home == "a" else "a"
    log = summary.get("games_log", [])
    names = summary.get("names", {})

    played = [g for g in log if g["reason"] != "forfeit"]   # a forfeit wins the match, not a game

    def side(letter):
        return {"player": letter, "name": text(names.get(letter, header.get(letter))),
                "sets": whole(summary.get("sets", {}).get(letter, 0)),
                "games": sum(1 for g in played if g["winner"] == letter)}

    sets: dict[int, dict] = {}
    for game in played:
        sets.setdefault(game["set"], {"set": game["set"], "games": {"home": 0, "away": 0}})
        sets[game["set"]]["games"][side_of(game["winner"], home)] += 1
    for entry in sets.values():
        entry["winner"] = _set_winner(entry["games"], summary.get("games_to_win"))
    return {
        "id": content["id"], "number": header.get("partie"), "device": row["device"],
        "games_to_win": summary.get("games_to_win"), "sets_to_win": summary.get("sets_to_win"),
        "winner": side_of(summary.get("winner"), home), "forfeit": side_of(summary.get("forfeit"), home),
        "home": side(home), "away": side(away),
        "sets": [sets[n] for n in sorted(sets)],
        "games": [{"set": g["set"], "game": g["game"], "breaker": side_of(g["breaker"], home),
                   "winner": side_of(g["winner"], home), "reason": g["reason"],
                   "fouls": {"home": g["fouls"][home], "away": g["fouls"][away]},
                   "loser_left": g["loser_left"]} for g in played],
        # fouls of the whole match, the game a forfeit broke off included
        "fouls": {"home": sum(g["fouls"][home] for g in log), "away": sum(g["fouls"][away] for g in log)},
        "summary": summary,
    }


def match_record(rows: list[dict], match_id: str, rules: dict) -> dict | None:
    """The 8-ball team match record: every individual match with its sets, games and winners; the
    team points by the competition's ``rules`` (points per individual match won, a forfeit's)."""
    if not rows:
        return None
    points_per_match = rules["win_points"]
    info, listed, declared, closed = match_info(rows)
    played, unreadable = in_playing_order(rows, _individual)
    score = team_score([m.pop("summary") for m in played], [m["home"]["player"] for m in played],
                       points_per_match=points_per_match)
    forfeit = forfeit_of(rows)
    totals = {side: {key: sum(m[side][key] for m in played) for key in ("sets", "games")} for side in SIDES}
    for side in SIDES:
        totals[side]["matches"] = sum(1 for m in played if m["winner"] == side)
    return {
        "match": match_id, "game": "8ball", "venue": info.get("venue"), "date": info.get("date"),
        "home": info.get("home"), "away": info.get("away"), "fixture": info.get("fixture"),
        "closed": closed, "forfeit": forfeit,
        "points": result_points({side: score[side] for side in SIDES}, forfeit, rules),
        "points_per_match": points_per_match,
        "declared_points": declared, "missing_partie": missing(listed, played), "unreadable": unreadable,
        **captains_of(rows), **league_fields_of(rows),
        "totals": totals, "individual": played,
    }


def league_table(store, season: str | None = None) -> dict:
    """The 8-ball league table over one season (default: the latest): team points (the competition's
    per individual match won, RULES 2.9 Decision; a forfeit's, A.3.7), sets difference, games
    difference; summed from the figures stored at ingestion; every team of the season from its
    first day (zeros before its first match)."""
    season = results.table_season(store, "8ball", season)
    teams = store.figures.team_sums("8ball", season)
    teams += results.not_yet_played(store, "8ball", season, teams)

    def key(t):
        return (t["points"], t["sets_won"] - t["sets_lost"], t["games_won"] - t["games_lost"])

    ordered = sorted(teams, key=lambda t: (tuple(-x for x in key(t)), czech_key(t["team"])))   # equal: Czech order
    keys = [key(t) for t in ordered]
    rows = []
    for place, t in enumerate(ordered, start=1):
        rows.append({
            "place": place, "team": t["team"], "matches": t["matches"],
            "individual_won": t["won"], "individual_lost": t["lost"], "points": t["points"],
            "sets_won": t["sets_won"], "sets_lost": t["sets_lost"], "sets_difference": t["sets_won"] - t["sets_lost"],
            "games_won": t["games_won"], "games_lost": t["games_lost"],
            "games_difference": t["games_won"] - t["games_lost"],
            "tied": t["matches"] > 0 and keys.count(key(t)) > 1,
        })
    return {"game": "8ball", "season": season, "order": ORDER,
            "rows": results.with_results(rows, results.team_results(store, "8ball", season)),
            "unreadable": store.figures.unreadable("8ball", season)}


def team_figures(record) -> list[dict]:
    """RULES 2.9 per side: individual matches, sets and games won and lost (and a forfeit's points)."""
    totals = record["totals"]
    out = []
    for side, other in (("home", "away"), ("away", "home")):
        figures = zero_figures()
        figures.update(matches=1, points=record["points"][side], won=totals[side]["matches"],
                       lost=totals[other]["matches"], sets_won=totals[side]["sets"], sets_lost=totals[other]["sets"],
                       games_won=totals[side]["games"], games_lost=totals[other]["games"])
        out.append(figures)
    return out


def plays_once(record: dict) -> bool:
    """A team's player may play several individual matches (RULES 2.9)."""
    return False


def lineup(record: dict) -> list[dict]:
    """Every individual match of the team match."""
    return record["individual"]


def played(record: dict) -> list[dict]:
    """The individual matches a player's figures count: every one of the record."""
    return record["individual"]


def player_figures(m: dict, side: str) -> dict:
    mine, theirs = m[side], m[OTHER[side]]
    return {**outcome(m["winner"], side), "forfeited": int(m["forfeit"] == side),
            "sets_won": mine["sets"], "sets_lost": theirs["sets"],
            "games_won": mine["games"], "games_lost": theirs["games"],
            "fouls": m["fouls"][side]}


def player_view(row: dict) -> dict:
    """A player's totals as the pages and exports show them."""
    return {"player": row["player"], "team": row["team"], "matches": row["matches"],
            "individual": row["partie"], "won": row["won"], "lost": row["lost"],
            "sets_won": row["sets_won"], "sets_lost": row["sets_lost"],
            "games_won": row["games_won"], "games_lost": row["games_lost"],
            "games_difference": row["games_won"] - row["games_lost"], "fouls": row["fouls"]}


def partie_view(row: dict) -> dict:
    """An individual match's own figures on its player's page."""
    return {k: row[k] for k in ("sets_won", "sets_lost", "games_won", "games_lost", "fouls")}


def rankings(rows: list[dict], min_partie: int | None) -> dict:
    """Individual matches won, games difference (every player: no minimum)."""
    return {"min_partie": None, "rankings": [
        ranking("individual_won", rows, lambda r: (-r["won"], r["lost"]), lambda r: f"{r['won']}:{r['lost']}"),
        ranking("games_difference", rows, lambda r: (r["games_lost"] - r["games_won"], -r["games_won"]),
                lambda r: f"{r['games_won'] - r['games_lost']:+d}"),
    ]}
