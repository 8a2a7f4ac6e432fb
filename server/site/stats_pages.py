"""The statistics pages (A.1.3) and the rules page (A.1.4), Czech labels: Python builds the rows
(names as links to their pages), server/site/templates lays them out with autoescaping."""
from pathlib import Path
from typing import Any

from server.league.names import unaccented
from server.site import czech, markdown, pages
from server.site.cells import DASH, col, grid
from server.site.chrome import GAME_NAMES, schedule_href, table_href
from server.site.games import EXPLAINED, in_address, site_game, value
from server.site.language import N_, plural, say
from server.site.links import link, match_href, player_href, team_href
from server.site.links import query as _query
from server.site.schedule_web import departure_word, status_text

RANKINGS = {"general_average": N_("Generální průměr"), "best_series": N_("Nejvyšší série"),
            "best_partie_average": N_("Nejlepší průměr v partii"), "team_points": N_("Body pro družstvo"),
            "individual_won": N_("Vyhrané zápasy (výhry:prohry)"), "games_difference": N_("Rozdíl her")}
RESULTS = {"won": N_("výhra"), "drawn": N_("remíza"), "lost": N_("prohra"), None: DASH}
RULES_TEXTS = Path(__file__).resolve().parent / "rules_text"
RULES = (("karambol", N_("Karambol"), N_("Královédvorská kulečníková liga (karambol)"), "karambol.md"),
         ("8-ball", N_("8-ball"), N_("Podkrušnohorská billiard liga (8-ball)"), "8ball.md"))


def columns(game: str):
    return site_game(game).columns


def _player_cells(row: dict, game: str, season: str | None) -> list:
    shown = site_game(game)
    cells = [value(row, key, shown) for key, _ in shown.columns]
    cells[0] = link(row["player"], player_href(row["player"], game, season))
    cells[1] = link(row["team"], team_href(row["team"], game, season))
    return cells


def _heading(what: str, data: dict) -> str:
    return say("{what}: {game}, sezóna {season}", what=what, game=GAME_NAMES[data["game"]],
               season=data["season"] or DASH)


def _exports(path: str, data: dict) -> list:
    query = _query(data["game"], data["season"])
    return [link("CSV", f"{path}.csv{query}"), link("JSON", f"{path}.json{query}")]


def players(data: dict, frame, wanted: str = "") -> str:
    """Every player of the season by surname (Czech order), with a search: on the server
    (``wanted``, ?q=) and, with the script, as one types."""
    game, season = data["game"], data["season"]
    found = [r for r in data["rows"] if not wanted or unaccented(wanted) in unaccented(f"{r['player']} {r['team']}")]
    rows = [_player_cells(r, game, season) for r in found]
    section: dict[str, Any] = {"links": _exports("/players", data),
               "search": {"action": "/players.html", "label": say("Hledat hráče nebo družstvo"), "value": wanted,
                          "table": "players-table", "count": len(rows),
                          "hidden": [(k, v) for k, v in (("game", in_address(game)), ("season", season)) if v]},
               "tables": [grid(_heading(N_("Hráči"), data), [c for _, c in columns(game)], rows, sortable=True,
                               table_id="players-table")],
               "lines": [" ".join(say(sentence) for sentence in site_game(game).players_note)]}
    if not data["rows"]:
        section["lines"].append(say("Žádný hráč v této sezóně."))
    elif not rows:
        section["lines"].append(say("Nikdo neodpovídá hledání „{wanted}“.", wanted=wanted))
    return pages.sectioned(_heading(N_("Hráči"), data), [section], frame=frame, script=True,
                           lead=say("Seřazeno podle příjmení; sloupce lze řadit kliknutím na záhlaví."),
                           description=say("Hráči soutěže {league}, {game}, sezóna {season}: partie, body, náběhy, "
                                           "průměry a série; hledání „{wanted}“." if wanted else
                                           "Hráči soutěže {league}, {game}, sezóna {season}: partie, body, náběhy, "
                                           "průměry a série.", league=frame.league, game=GAME_NAMES[game],
                                           season=season or DASH, wanted=wanted))


def rankings(data: dict, frame) -> str:
    game, season = data["game"], data["season"]
    sections: list[dict] = [{"links": _exports("/rankings", data)}]
    for ranking in data["rankings"]:
        title = say(RANKINGS[ranking["key"]])
        if ranking["key"] == "general_average":
            title += plural(" (nejméně {n} partie)", " (nejméně {n} partií)", data["min_partie"])
        shown = site_game(game)
        head = [col("#", "num place stick"), col("Hráč", "name stick2", row=True), col("Družstvo", "name"),
                col("Hodnota", "num"), *(c for _, c in shown.ranking_counts)]
        rows = [[r["place"], link(r["player"], player_href(r["player"], game, season)),
                 link(r["team"], team_href(r["team"], game, season)),
                 value({"value": r["value"]}, "value", shown, as_key=ranking["key"]),
                 *(r[key] for key, _ in shown.ranking_counts)] for r in ranking["rows"]]
        sections.append({"heading": title, "tables": [grid(title, head, rows, sortable=True)]})
    if site_game(game).ranking_note:
        sections[-1]["lines"] = [site_game(game).ranking_note]
    return pages.sectioned(_heading(N_("Žebříčky"), data), sections, frame=frame, script=True,
                           description=say("Žebříčky hráčů soutěže {league}, {game}, sezóna {season}: průměry, série "
                                           "a body pro družstvo.", league=frame.league, game=GAME_NAMES[game],
                                           season=season or DASH))


def _partie_cells(p: dict, game: str, season: str) -> list:
    cells = [link(czech.day(p["date"], year=True) if p["date"] else say("utkání"), match_href(p["match"])),
             p["number"] if p["number"] is not None else DASH,
             link(p["opponent"], player_href(p["opponent"], game, season)) if p["opponent"] else DASH,
             link(p["opponent_team"], team_href(p["opponent_team"], game, season)),
             say(RESULTS[p["result"]]) + (say(" (skrečováno)") if p["forfeited"] else "")]
    return cells + site_game(game).partie_cells(p)


def _player_facts(row: dict | None, game: str, season: str | None) -> list:
    if row is None:
        return []
    facts = [[say("Družstvo"), link(row["team"], team_href(row["team"], game, season))],
             [say("Utkání"), row["matches"]]]
    return facts + site_game(game).player_facts(row)


def player(data: dict, frame) -> str:
    name, game, season = data["player"], data["game"], data["season"]
    current = next((r for r in data["seasons"] if r["game"] == game and r["season"] == season), None)
    sections: list[dict[str, Any]] = [{"facts": _player_facts(current, game, season)}]
    what = site_game(game).unit
    partie_head = [col("Utkání", "name stick", row=True), col("Č.", "num", "pořadí partie v utkání"),
                   col("Soupeř", "name"), col("Družstvo soupeře", "name"), col("Výsledek"),
                   *site_game(game).partie_head]
    sections.append({"heading": say("{what}: {game}, sezóna {season}", what=what, game=GAME_NAMES[game],
                                    season=season or DASH),
                     "tables": [grid(say("{what} v sezóně {season}", what=what, season=season or DASH), partie_head,
                                     [_partie_cells(p, game, season) for p in data["partie"]])]})
    for g, title in GAME_NAMES.items():
        rows = [[link(r["season"] or DASH, player_href(name, g, r["season"]))] + _player_cells(r, g, r["season"])[1:]
                for r in data["seasons"] if r["game"] == g]
        if rows:
            head = [col("Sezóna", "stick", row=True)] + [c for _, c in columns(g)[1:]]
            sections.append({"heading": say("Všechny sezóny: {game}", game=title),
                             "tables": [grid(say("Sezóny, {game}", game=title), head, rows)]})
    sections[-1]["lines"] = [EXPLAINED]
    return pages.sectioned(say("Hráč: {name}", name=name), sections, frame=frame,
                           lead=say("{game}, sezóna {season}", game=GAME_NAMES[game], season=season or DASH),
                           description=say("{name}: partie, body, náběhy, průměr a nejvyšší série v soutěži {league}, "
                                           "sezóna {season}.", name=name, league=frame.league, season=season or DASH))


def _team_facts(data: dict) -> list:
    line, league, game = data["table"], data.get("league"), data["game"]
    facts = []
    if league:
        facts += [[say("Herna"), league["venue"]], [say("Vedoucí družstva"), league["captain"]]]
        if league["expelled"]:
            facts.append([say("Ze soutěže"), f"{departure_word(league['expelled_how'])}, "
                                              f"{czech.day(league['expelled'][:10], year=True)}"])
        if league["expelled_reason"]:
            facts.append([say("Důvod"), league["expelled_reason"]])
    facts += [[say("Místo v tabulce"), line["place"] if line and line["matches"] else DASH],
              [say("Utkání"), line["matches"] if line else 0], [say("Body"), line["points"] if line else 0]]
    if line:
        facts.append([say("Výhry, remízy, prohry"), f"{line['matches_won']}, {line['matches_drawn']}, {line['matches_lost']}"])
    if line:
        facts += site_game(game).team_facts(line)
    return facts


def team_calendar_href(name: str, game: str, season: str | None) -> str:
    return team_href(name, game, season).replace(".html", ".ics", 1)


def team(data: dict, frame) -> str:
    name, game, season = data["team"], data["game"], data["season"]
    league = data.get("league")
    played = {r["player"] for r in data["players"]}
    sections: list[dict[str, Any]] = [{"facts": _team_facts(data),
                 "links": [link(say("Kalendář utkání (iCalendar)"), team_calendar_href(name, game, season)),
                           link(say("Tabulka"), table_href(game, season)),
                           link(say("Rozpis"), schedule_href(game, season))]}]
    if league:
        cards = [pages.fixture_card(dict(f, season=season, competition=game, status_text=status_text(f)))
                 for f in league["fixtures"]]
        sections.append({"heading": say("Rozpis a výsledky"), "fixtures": cards})
    else:
        cards = [pages.fixture_card({"date": m["date"], "home": m["home"], "away": m["away"], "venue": m.get("venue"),
                                     "points_home": m["points"]["home"], "points_away": m["points"]["away"],
                                     "match": m["match"], "season": season, "competition": game,
                                     "status_text": "" if m["closed"] else say("neuzavřeno")})
                 for m in data["matches"]]
        sections.append({"heading": say("Utkání"), "fixtures": cards,
                         "lines": [] if cards else [say("Zatím žádné utkání.")]})
    sections.append({"heading": say("Hráči"), "tables": [grid(
        say("Hráči družstva {name}", name=name), [c for _, c in columns(game)],
        [_player_cells(r, game, season) for r in data["players"]], sortable=True)] if data["players"] else [],
        "lines": [] if data["players"] else [say("Zatím nikdo neodehrál partii.")]})
    if league:
        sections.append({"heading": say("Soupiska"), "links": [
            link(p, player_href(p, game, season)) if p in played else p for p in league["roster"]]})
    return pages.sectioned(say("Družstvo: {name}", name=name), sections, frame=frame, script=bool(data["players"]),
                           lead=say("{game}, sezóna {season}", game=GAME_NAMES[game], season=season or DASH),
                           description=say("Družstvo {name} ({league}, sezóna {season}): rozpis, výsledky, hráči a "
                                           "kalendář utkání.", name=name, league=frame.league, season=season or DASH))


def rules(frame) -> str:
    """The rules in force (A.1.4): the leagues' own texts, and how the counter and the receiver
    apply them where the texts leave a question open (RULES.md, in English)."""
    texts = [{"id": key, "label": label, "heading": heading,
              "html": markdown.to_html((RULES_TEXTS / name).read_text(encoding="utf-8"), shift=1)}
             for key, label, heading, name in RULES]
    decisions = markdown.to_html((RULES_TEXTS / "RULES.md").read_text(encoding="utf-8"), shift=1,
                                 after_first_rule=True)
    return pages.render("rules.html", frame=frame, title=say("Pravidla"), texts=texts, decisions=decisions,
                        description=say("Pravidla soutěží {league}: organizace, karambol a 8-ball, a jak je uplatňuje "
                                        "počítadlo.", league=frame.league))
