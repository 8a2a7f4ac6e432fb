"""The statistics pages (A.1.3) and the rules page (A.1.4), Czech labels: Python builds the rows
(names as links to their pages), server/site/templates lays them out with autoescaping."""
from pathlib import Path

from server.site import pages
from server.site.links import link, match_href, player_href, team_href
from server.site.links import query as _query
from server.site.schedule_web import STATUSES

GAME_NAMES = {"carom": "karambol", "8ball": "8-ball"}
CAROM_COLUMNS = (("player", "Hráč"), ("team", "Družstvo"), ("matches", "Utkání"), ("partie", "Partie"),
                 ("won", "V"), ("drawn", "R"), ("lost", "P"), ("points", "Body"), ("innings", "Náběhy"),
                 ("general_average", "Generální průměr"), ("best_series", "Nejvyšší série"),
                 ("best_partie_average", "Nejlepší průměr partie"), ("team_points", "Body pro družstvo"))
EIGHTBALL_COLUMNS = (("player", "Hráč"), ("team", "Družstvo"), ("matches", "Utkání"), ("individual", "Zápasy"),
                     ("won", "Výhry"), ("lost", "Prohry"), ("sets_won", "Sety vyhrané"), ("sets_lost", "Sety prohrané"),
                     ("games_won", "Hry vyhrané"), ("games_lost", "Hry prohrané"),
                     ("games_difference", "Rozdíl her"), ("fouls", "Fauly"))
RANKINGS = {"general_average": "Generální průměr", "best_series": "Nejvyšší série",
            "best_partie_average": "Nejlepší průměr v partii", "team_points": "Body pro družstvo",
            "individual_won": "Vyhrané zápasy (výhry:prohry)", "games_difference": "Rozdíl her"}
RESULTS = {"won": "výhra", "drawn": "remíza", "lost": "prohra", None: "–"}
RULES_TEXTS = Path(__file__).resolve().parent / "rules_text"
RULES = (("karambol.txt", "karambol", "Královédvorská kulečníková liga (karambol): organizace a pravidla, znění pořadatele"),
         ("8ball.txt", "8-ball", "Podkrušnohorská billiard liga (8-ball): pravidla, znění pořadatele"),
         ("RULES.md", "RULES.md", "Jak je počítadlo a server uplatňují (RULES.md, rozhodnutí v nejasných místech)"))


def columns(game: str):
    return EIGHTBALL_COLUMNS if game == "8ball" else CAROM_COLUMNS


def _player_cells(row: dict, game: str, season: str | None) -> list:
    cells = [row[key] for key, _ in columns(game)]
    cells[0] = link(row["player"], player_href(row["player"], game, season))
    cells[1] = link(row["team"], team_href(row["team"], game, season))
    return cells


def _switches(path: str, game: str, season: str | None, seasons: dict) -> list:
    """Links to the other competition and the neighbouring seasons of the same page."""
    items = [link(GAME_NAMES[g], path + _query(g, None)) for g in GAME_NAMES if g != game]
    if seasons["previous"]:
        items.append(link(f"← {seasons['previous']}", path + _query(game, seasons["previous"])))
    if seasons["next"]:
        items.append(link(f"{seasons['next']} →", path + _query(game, seasons["next"])))
    return items


def _heading(what: str, data: dict) -> str:
    return f"{what} – {GAME_NAMES[data['game']]}, sezóna {data['season'] or '–'}"


def _exports(path: str, data: dict) -> list:
    query = _query(data["game"], data["season"])
    return [link("CSV", f"{path}.csv{query}"), link("JSON", f"{path}.json{query}")]


def players(data: dict) -> str:
    game, season = data["game"], data["season"]
    rows = [_player_cells(r, game, season) for r in data["rows"]]
    section = {"links": _switches("/players.html", game, season, data["seasons"]) + _exports("/players", data),
               "tables": [{"head": [h for _, h in columns(game)], "rows": rows}],
               "lines": ["Generální průměr: všechny body ÷ všechny náběhy, 3 desetinná místa useknutá (RULES 1.5)."
                         if game == "carom" else "Zápasy: jednotlivé zápasy 8-ball (RULES 2.9)."]}
    if not rows:
        section["lines"].append("Žádný hráč v této sezóně.")
    return pages.sectioned(_heading("Hráči", data), [section])


def rankings(data: dict) -> str:
    game, season = data["game"], data["season"]
    sections: list[dict] = [{"links": _switches("/rankings.html", game, season, data["seasons"]) + _exports("/rankings", data)}]
    for ranking in data["rankings"]:
        title = RANKINGS[ranking["key"]]
        if ranking["key"] == "general_average":
            title += f" (nejméně {data['min_partie']} partií)"
        rows = [[r["place"], link(r["player"], player_href(r["player"], game, season)),
                 link(r["team"], team_href(r["team"], game, season)), r["value"]] for r in ranking["rows"]]
        sections.append({"heading": title, "tables": [{"head": ["#", "Hráč", "Družstvo", "Hodnota"], "rows": rows}]})
    if game == "carom":
        sections[-1]["lines"] = ["Pořadí podle přesného zlomku; hráči se stejnou hodnotou sdílejí místo. "
                                 "Generální průměr: hráči s alespoň polovinou partií nejčastějšího hráče sezóny."]
    return pages.sectioned(_heading("Žebříčky", data), sections)


def _partie_cells(p: dict, game: str, season: str) -> list:
    cells = [link(p["date"] or p["match"], match_href(p["match"])), p["number"] if p["number"] is not None else "–",
             link(p["team"], team_href(p["team"], game, season)),
             link(p["opponent"], player_href(p["opponent"], game, season)) if p["opponent"] else "–",
             link(p["opponent_team"], team_href(p["opponent_team"], game, season)),
             RESULTS[p["result"]] + (" (skrečováno)" if p["forfeited"] else "")]
    if game == "8ball":
        return cells + [f"{p['sets_won']}:{p['sets_lost']}", f"{p['games_won']}:{p['games_lost']}", p["fouls"]]
    return cells + [p["points"], p["innings"], p["average"], p["best_series"], p["team_points"]]


def player(data: dict) -> str:
    name, game, season = data["player"], data["game"], data["season"]
    sections = []
    for g, title in GAME_NAMES.items():
        rows = [[link(r["season"] or "–", player_href(name, g, r["season"]))] + _player_cells(r, g, r["season"])[1:]
                for r in data["seasons"] if r["game"] == g]
        if rows:
            sections.append({"heading": f"Sezóny – {title}",
                             "tables": [{"head": ["Sezóna"] + [h for _, h in columns(g)[1:]], "rows": rows}]})
    partie_head = ["Utkání", "Č.", "Za družstvo", "Soupeř", "Družstvo soupeře", "Výsledek"] + (
        ["Sety", "Hry", "Fauly"] if game == "8ball" else ["Body", "Náběhy", "Průměr", "NS", "Body pro družstvo"])
    what = "Zápasy" if game == "8ball" else "Partie"
    sections.append({"heading": f"{what} – {GAME_NAMES[game]}, sezóna {season or '–'}",
                     "tables": [{"head": partie_head, "rows": [_partie_cells(p, game, season) for p in data["partie"]]}]})
    return pages.sectioned(f"Hráč: {name}", sections)


def team(data: dict) -> str:
    name, game, season = data["team"], data["game"], data["season"]
    line = data["table"]
    facts = [["Místo v tabulce", line["place"] if line else "–"], ["Utkání", line["matches"] if line else 0],
             ["Body", line["points"] if line else 0]]
    if line and game == "carom":
        facts += [["Skóre", f"{line['scored']}:{line['conceded']}"], ["Generální průměr", line["general_average"]]]
    elif line:
        facts += [["Zápasy", f"{line['individual_won']}:{line['individual_lost']}"],
                  ["Sety", f"{line['sets_won']}:{line['sets_lost']}"], ["Hry", f"{line['games_won']}:{line['games_lost']}"]]
    league = data.get("league")
    if league:
        facts = [["Herna", league["venue"]], ["Vedoucí družstva", league["captain"]],
                 *([["Vyřazeno ze soutěže", league["expelled"][:10]]] if league["expelled"] else []), *facts]
    table_href = "/table-8ball.html" if game == "8ball" else "/table.html"
    switches = _switches(team_href(name), game, season, data["seasons"])
    sections = [{"links": switches + [link("Tabulka", table_href + _query(None, season)),
                                      link("Rozpis", "/schedule" + _schedule_query(game, season))],
                 "tables": [{"head": ["", ""], "rows": facts}]},
                *_league_sections(league, {r["player"] for r in data["players"]}, game, season),
                {"heading": "Hráči (podle odehraných partií)", "tables": [{
                    "head": [h for _, h in columns(game)],
                    "rows": [_player_cells(r, game, season) for r in data["players"]]}]},
                {"heading": "Utkání", "tables": [{"head": ["Utkání", "Datum", "Domácí", "Hosté", "Výsledek"], "rows": [
                    [link(m["match"], match_href(m["match"])), m["date"] or "–",
                     link(m["home"], team_href(m["home"], game, season)) if m["home"] else "–",
                     link(m["away"], team_href(m["away"], game, season)) if m["away"] else "–",
                     f"{m['points']['home']} : {m['points']['away']}" + ("" if m["closed"] else " (neuzavřeno)")]
                    for m in data["matches"]]}]}]
    return pages.sectioned(f"Družstvo: {name} ({GAME_NAMES[game]}, {season or '–'})", sections)


def _schedule_query(game: str, season: str | None) -> str:
    return _query(None, season) + (("&" if season else "?") + "competition=8ball" if game == "8ball" else "")


def _league_sections(league: dict | None, played: set, game: str, season: str | None) -> list[dict]:
    """A league team's roster (a player who has ``played`` links to their page) and its fixtures
    of the season (a result links to its match)."""
    if not league:
        return []
    fixtures = [[f"{f['date']} {f['start']}", link(f["home"], team_href(f["home"], game, season)),
                 link(f["away"], team_href(f["away"], game, season)), f["venue"],
                 link(f"{f['points_home']} : {f['points_away']}", match_href(f["match"])) if f["match"]
                 else STATUSES.get(f["status"], f["status"])]
                for f in league["fixtures"]]
    return [{"heading": "Soupiska", "tables": [{"head": ["Hráč"], "rows": [
                [link(p, player_href(p, game, season)) if p in played else p] for p in league["roster"]]}]},
            {"heading": "Rozpis utkání", "tables": [{"head": ["Datum", "Domácí", "Hosté", "Herna", "Výsledek"],
                                                    "rows": fixtures}]}]


def rules() -> str:
    """The rules in force (A.1.4): the league's own texts as shipped, and RULES.md; shown as text."""
    texts = [{"label": label, "heading": heading, "text": (RULES_TEXTS / name).read_text(encoding="utf-8")}
             for name, label, heading in RULES]
    return pages.render("rules.html", title="Pravidla", texts=texts)
