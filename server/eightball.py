"""8-ball results at the receiver: the team match record and the league table (RULES 2.9).

An 8-ball team match is a number of individual matches (each one stored item of kind "partie"
whose header carries ``"match": {"id", "home", "away"}``, ``"partie"`` (its number) and ``"home"``,
the side that played for the home team). Team score = individual matches won (RULES 2.9,
Decision), via ``rules.eightball.team_score``. RULES does not order the 8-ball table; our
Decision (docs/server.md): team points, then sets difference, then games difference.
"""
from rules.eightball import team_score
from server.items import (SIDES, content_of, forfeit_of, header_of, in_playing_order, match_ids, match_info,
                          missing, result_points, side_of, text, whole)

ORDER = ["points", "sets_difference", "games_difference"]


def _individual(row) -> dict:
    """One individual match as the team match record lists it, everything by side."""
    content = content_of(row)
    header, summary = header_of(content["record"]), content["summary"]
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

    sets = {}
    for game in played:
        sets.setdefault(game["set"], {"set": game["set"], "games": {"home": 0, "away": 0}})
        sets[game["set"]]["games"][side_of(game["winner"], home)] += 1
    for entry in sets.values():
        games = entry["games"]
        entry["winner"] = None if games["home"] == games["away"] else max(SIDES, key=games.get)
    return {
        "id": content["id"], "number": header.get("partie"), "device": row["device"],
        "games_to_win": summary.get("games_to_win"), "sets_to_win": summary.get("sets_to_win"),
        "winner": side_of(summary.get("winner"), home), "forfeit": side_of(summary.get("forfeit"), home),
        "home": side(home), "away": side(away),
        "sets": [sets[n] for n in sorted(sets)],
        "games": [{"set": g["set"], "game": g["game"], "breaker": side_of(g["breaker"], home),
                   "winner": side_of(g["winner"], home), "reason": g["reason"],
                   "fouls": {"home": g["fouls"][home], "away": g["fouls"][away]},
                   "loser_left": g["loser_left"]} for g in log],
        "summary": summary,
    }


def match_record(store, match_id: str, *, points_per_match: int = 1) -> dict | None:
    """The 8-ball team match record: every individual match with its sets, games and winners."""
    rows = store.items(match_id=match_id)
    if not rows:
        return None
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
        "home": info.get("home"), "away": info.get("away"), "closed": closed, "forfeit": forfeit,
        "points": result_points({side: score[side] for side in SIDES}, declared, forfeit),
        "points_per_match": points_per_match,
        "declared_points": declared, "missing_partie": missing(listed, played), "unreadable": unreadable,
        "totals": totals, "individual": played,
    }


class _Team:
    def __init__(self, name: str):
        self.name = name
        self.matches: set[str] = set()
        self.points = self.won = self.lost = 0
        self.sets = [0, 0]       # won, lost
        self.games = [0, 0]

    def add(self, match_id: str, points: int, mine: dict, theirs: dict) -> None:
        self.matches.add(match_id)
        self.points += points
        self.won += mine["matches"]
        self.lost += theirs["matches"]
        for tally, key in ((self.sets, "sets"), (self.games, "games")):
            tally[0] += mine[key]
            tally[1] += theirs[key]

    def key(self) -> tuple:
        return (self.points, self.sets[0] - self.sets[1], self.games[0] - self.games[1])


def league_table(store, *, points_per_match: int = 1) -> dict:
    """The 8-ball league table: team points (individual matches won), sets difference, games difference."""
    teams: dict[str, _Team] = {}
    unreadable = []
    for match_id in match_ids(store, game="8ball"):
        record = match_record(store, match_id, points_per_match=points_per_match)
        unreadable += record["unreadable"]
        if not record["home"] or not record["away"]:
            continue
        for side, other in (("home", "away"), ("away", "home")):
            team = teams.setdefault(record[side], _Team(record[side]))
            team.add(match_id, record["points"][side], record["totals"][side], record["totals"][other])
    ordered = sorted(teams.values(), key=lambda t: (tuple(-x for x in t.key()), t.name))
    keys = [t.key() for t in ordered]
    rows = []
    for place, team in enumerate(ordered, start=1):
        tied = keys.count(team.key()) > 1
        rows.append({
            "place": place, "team": team.name, "matches": len(team.matches),
            "individual_won": team.won, "individual_lost": team.lost, "points": team.points,
            "sets_won": team.sets[0], "sets_lost": team.sets[1], "sets_difference": team.sets[0] - team.sets[1],
            "games_won": team.games[0], "games_lost": team.games[1],
            "games_difference": team.games[0] - team.games[1], "tied": tied,
        })
    return {"game": "8ball", "order": ORDER, "points_per_match": points_per_match, "rows": rows,
            "unreadable": unreadable}
