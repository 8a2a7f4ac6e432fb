"""The league site's HTML pages (Czech): the match record (zápis), the league tables, the home page.

Pages are Jinja2 templates (server/site/templates) with autoescaping on: every stored text reaches
the page escaped. Python builds the rows; the templates only lay them out. Every page has its frame
(server/site/chrome.py: header, navigation, footer); the command line prints a page without one.
Dates are Czech with the weekday, times Prague's, decimals with a comma (server/site/czech.py).
"""
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from server.league.irregular import holding, ruled_under
from server.site import assets, czech, links
from server.site.cells import col, form, grid, number, pair, signed
from server.site.chrome import GAME_NAMES, PRINTABLE, schedule_href
from server.site.games import DEFAULT, SITE_GAMES, site_game
from server.tables.sums import season_of

_env = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"), autoescape=True,
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
_env.filters["urlencode_all"] = lambda text: quote(str(text), safe="")
_env.filters["day"] = lambda date: czech.day(date, year=True)

DASH = czech.DASH


def _or_dash(value) -> str:
    return DASH if value is None else str(value)


def render(template: str, *, frame=PRINTABLE, title: str, description: str | None = None, **context) -> str:
    """A page; ``description``: its <meta name="description"> (default: from its title)."""
    description = description or f"{title}. {frame.league}: rozpis, výsledky, tabulky a statistiky hráčů."
    return _env.get_template(template).render(frame=frame, title=title, description=description,
                                              style=assets.STYLE, **context)


def sectioned(title: str, sections: list[dict], notes=(), *, frame=PRINTABLE, description: str | None = None,
              lead: str | None = None, script: bool = False) -> str:
    """A page of sections: heading, links, facts, fixture cards, tables, lines, notes (a cell may
    be a link: {"text", "href"}); ``script``: the site's script (sortable tables, the search)."""
    for section in sections:
        for key in ("tables", "lines", "notes", "links", "facts", "fixtures"):
            section.setdefault(key, [])
        section.setdefault("heading", None)
        section.setdefault("search", None)
        section.setdefault("id", None)
    return render("sections.html", frame=frame, title=title, description=description, lead=lead,
                  sections=sections, notes=list(notes), script=assets.SCRIPT if script else None)


def match_title(record: dict) -> str:
    return czech.match_name(record["home"], record["away"], record["date"])


# where a match stands in its league (server/tables/standing.py), when it is not simply counted
STANDINGS = {"annulled": "anulováno: družstvo vyřazeno ze soutěže (A.3.7)",
             "unassigned": "mimo rozpis, nezapočteno do tabulky", "friendly": "přátelské utkání, nezapočteno",
             "pending": "přerušeno, čeká na rozhodnutí organizátora soutěže (A.6.5)"}
HELD = "nesrovnalost v zápisu, čeká na rozhodnutí organizátora soutěže"


def _state(record: dict) -> str:
    standing = record.get("standing") or ""
    if standing == "pending" and holding(record.get("irregular") or []):
        return f"{HELD} ({ruled_under(record)})"
    if record.get("awarded"):
        return f"výsledek přiznal organizátor soutěže ({ruled_under(record)})"
    if record.get("forfeit") in ("home", "away") and standing in ("counted", ""):
        return f"kontumováno: družstvo {record[record['forfeit']] or record['forfeit']} nenastoupilo (A.3.7)"
    return (STANDINGS.get(standing) or ("přerušeno (A.6.5)" if record.get("interrupted") else
            "uzavřeno" if record["closed"] else "probíhá nebo neuzavřeno"))


def irregular_text(entry: dict, match: dict) -> str:
    """One breach of server/league/irregular.py as the organiser reads it (``match``: its home
    and away teams)."""
    who = f"{entry['name']} ({match[entry['side']] or entry['side']})"
    if entry["rule"] == "A.3.6":
        numbers = [str(n) if n is not None else "?" for n in entry["partie"]]
        return f"{who} hrál partie {', '.join(numbers)}; podle losu hraje každý hráč jen jednu (A.3.6)"
    if entry.get("played_for"):
        return f"kapitán {who} hrál v tomto utkání za družstvo {match[entry['played_for']]} (A.6.1)"
    return f"kapitán {who} není na soupisce svého družstva a nehrál za ně (A.6.1)"


def _facts(record: dict, league_name: str | None) -> list:
    points = record["points"]
    team, _ = links.in_match(record)
    state = _state(record)
    facts = [["Soutěž", league_name]] if league_name else []
    return facts + [["Datum", czech.day(record["date"], year=True) if record["date"] else DASH],
                    ["Herna", _or_dash(record["venue"])], ["Domácí", team(record["home"])],
                    ["Hosté", team(record["away"])], ["Výsledek", f"{points['home']} : {points['away']}"],
                    ["Stav", state]]


OBJECTIONS = {"referee": "rozhodnutí rozhodčího (A.6.3)", "scoring": "zápis (A.6.3)",
              "interrupted": "přerušení utkání (A.6.5)"}


def _captains(record: dict, unit: str) -> list[dict]:
    """Podpisy kapitánů (A.6.9d) and their objections (A.6.3, A.6.5): one row per team that answered."""
    names = {side: record[side] or side for side in ("home", "away")}
    rows = [[names[s["side"]], s["captain"], "podepsal", DASH, czech.moment(s["at"])] for s in record["signatures"]]
    rows += [[names[o["side"]], o["captain"], "námitka: " + OBJECTIONS[o["kind"]],
              "celé utkání" if o["partie"] is None else f"{unit} {o['partie']}", czech.moment(o["at"])]
             for o in record["objections"]]
    rows += [[names[side], DASH, "nepodepsáno", DASH, DASH] for side in record["unsigned"]]
    if not rows:
        return []
    head = [col("Družstvo", "name", row=True), col("Kapitán", "name"), col("Odpověď"), col("Týká se"), col("Čas")]
    return [{"heading": "Podpisy kapitánů", "tables": [grid("Podpisy kapitánů", head, rows)]}]


def _notes(record: dict, unit: str) -> list[str]:
    """What the organiser must notice: not closed, missing or unreadable partie, the device's own
    result differs, names not on the roster of the team they played for (A.3.4: stored, but
    flagged), what holds an irregular match (A.3.6, A.6.1)."""
    points = record["points"]
    notes = []
    unrostered = record.get("unrostered") or []
    if unrostered:
        who = "Hráč mimo soupisku družstva, za které hrál" if len(unrostered) == 1 else \
            "Hráči mimo soupisku družstva, za které hráli"
        notes.append(f"{who} (A.3.4): {', '.join(unrostered)}.")
    notes += [f"Nesrovnalost: {irregular_text(entry, record)}." for entry in record.get("irregular") or []]
    if not record["closed"]:
        notes.append("Utkání dosud nebylo uzavřeno.")
    if record.get("interrupted"):
        notes.append("Utkání bylo přerušeno (A.6.5): rozhodne organizátor soutěže.")
    if record["missing_partie"]:
        notes.append(f"Chybí {unit}: " + ", ".join(str(n) for n in record["missing_partie"]))
    if record.get("unreadable"):
        notes.append(f"Nečitelné záznamy: {len(record['unreadable'])} (organizátor je musí zkontrolovat).")
    declared = record["declared_points"]
    if record.get("awarded"):
        ruling = record["ruling"]
        played = f" (odehráno {declared['home']} : {declared['away']})" if declared else ""
        notes.append(f"Výsledek {points['home']} : {points['away']} přiznal organizátor soutěže ({ruled_under(record)})"
                     f"{played}; důvod: {ruling['reason']}.")
    elif declared and (declared["home"], declared["away"]) != (points["home"], points["away"]):
        notes.append(f"Zařízení uvedlo výsledek {declared['home']} : {declared['away']}.")
    return notes


def match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání (RULES 1.6; 8-ball: RULES 2.9), as its game writes it."""
    return MATCH_PAGES[record["game"]](record, frame)


def carom_match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání, carom (RULES 1.6): every partie inning by inning."""
    sections: list[dict[str, Any]] = [{"facts": _facts(record, frame.league if frame.navigation else None)
                 + [["Los pořadí", _or_dash(record["seed"])]]}]
    _, player = links.in_match(record)
    for p in record["partie"]:
        innings = max(len(p["home"]["series"]), len(p["away"]["series"]), 1)
        head = [col("Hráč", "name stick", row=True), col("Body", "num"), col("Náběhy", "num"),
                col("Průměr", "num"), col("NS", "num", "nejvyšší série"), col("Body družstva", "num")]
        head += [col(str(i), "num", f"{i}. náběh") for i in range(1, innings + 1)]
        rows = []
        for side in ("home", "away"):
            s = p[side]
            series = list(s["series"]) + [""] * (innings - len(s["series"]))
            rows.append([player(s["name"]), s["points"], s["innings"], number(s["average"]), s["best_series"],
                         _or_dash(s["team_points"])] + series)
        title = (f"Partie {_or_dash(p['number'])}: {p['home']['name'] or DASH} – {p['away']['name'] or DASH}"
                 + (" (skrečována)" if p["forfeit"] else ""))
        sections.append({"heading": title, "tables": [grid(f"Partie {_or_dash(p['number'])}", head, rows)]})
    avg = record["averages"]
    sections.append({"heading": "Průměry utkání", "tables": [grid(
        "Průměry utkání", [col("Družstvo", "name", row=True), col("Body", "num"), col("Náběhy", "num"),
                           col("Průměr", "num")],
        [[record[side] or side, avg[side]["points"], avg[side]["innings"], number(avg[side]["average"])]
         for side in ("home", "away")])]})
    return sectioned(f"Zápis o utkání: {match_title(record)}", sections + _captains(record, "partie"),
                     _notes(record, "partie"), frame=frame,
                     description=f"Zápis o utkání {match_title(record)}: partie náběh po náběhu, body a průměry.")


REASONS = {"eight": "8 regulérně", "eight_early": "soupeř: 8 předčasně", "eight_scratch": "soupeř: 8 a faul bílé",
           "eight_foul": "soupeř: faul na 8", "eight_with_opponent_ball": "soupeř: 8 s cizí koulí",
           "eight_wrong_pocket": "soupeř: 8 do jiné kapsy", "reported": "zapsáno", "forfeit": "skrečováno"}


def eightball_match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání, 8-ball (RULES 2.9): every individual match with its sets and games."""
    names = {side: record[side] or side for side in ("home", "away")}
    sections: list[dict[str, Any]] = [{"facts": _facts(record, frame.league if frame.navigation else None)}]
    _, player = links.in_match(record)
    for m in record["individual"]:
        winner = m["winner"] and m[m["winner"]]["name"]
        number_ = _or_dash(m["number"])
        title = (f"Zápas {number_}: {m['home']['name']} – {m['away']['name']}, "
                 f"sety {m['home']['sets']} : {m['away']['sets']}, vítěz {_or_dash(winner)}"
                 + (" (skrečováno)" if m["forfeit"] else ""))
        sets = grid(f"Zápas {number_}: sety", [col("Set", "num"), col("Hry domácí", "num"), col("Hry hosté", "num"),
                                               col("Vítěz", "name")],
                    [[s["set"], s["games"]["home"], s["games"]["away"],
                      _or_dash(s["winner"] and names[s["winner"]])] for s in m["sets"]])
        games = grid(f"Zápas {number_}: hry", [col("Set", "num"), col("Hra", "num"), col("Rozráží", "name"),
                                              col("Vítěz", "name"), col("Jak"), col("Fauly", "num"),
                                              col("Zbývalo poraženému", "num")],
                     [[g["set"], g["game"], m[g["breaker"]]["name"], m[g["winner"]]["name"],
                       REASONS.get(g["reason"], g["reason"]), f"{g['fouls']['home']} : {g['fouls']['away']}",
                       _or_dash(g["loser_left"])] for g in m["games"]])
        sections.append({"heading": title, "tables": [sets, games],
                         "links": [player(m[side]["name"]) for side in ("home", "away")]})
    totals = record["totals"]
    sections.append({"heading": "Celkem", "tables": [grid(
        "Celkem", [col("Družstvo", "name", row=True), col("Vyhrané zápasy", "num"), col("Sety", "num"),
                   col("Hry", "num"), col("Body", "num")],
        [[names[side], totals[side]["matches"], totals[side]["sets"], totals[side]["games"], record["points"][side]]
         for side in ("home", "away")])]})
    return sectioned(f"Zápis o utkání: {match_title(record)}", sections + _captains(record, "zápas"),
                     _notes(record, "zápasy"), frame=frame,
                     description=f"Zápis o utkání 8-ball {match_title(record)}: zápasy, sety a hry.")


def _team_cell(name: str, game: str, season: str | None, frame) -> dict | str:
    return links.link(name, links.team_href(name, game, season)) if frame.navigation else name


def _table_title(game: str, season: str | None) -> str:
    return f"Tabulka: {GAME_NAMES[game]}, sezóna {season or DASH}"


LEAD_COLUMNS = (col("#", "num place stick"), col("Družstvo", "name stick2", row=True),
                col("Z", "num", "utkání"), col("B", "num", "body"), col("V", "num", "výhry"),
                col("R", "num", "remízy"), col("P", "num", "prohry"), col("Forma", "", "posledních 5 utkání"))


def _lead_cells(r: dict, game: str, season: str | None, frame) -> list:
    return [r["place"], _team_cell(r["team"], game, season, frame), r["matches"], r["points"], r["matches_won"],
            r["matches_drawn"], r["matches_lost"], form(r["form"])]


def table(data: dict, frame=PRINTABLE) -> str:
    """Tabulka ligy (RULES 1.8): every team of the season, the key columns first."""
    season = data["season"]
    head = [*LEAD_COLUMNS, col("Partie", "num"), col("Skóre", "num"), col("Rozdíl", "num"),
            col("Náběhy", "num"), col("GP", "num", "generální průměr")]
    rows = [_lead_cells(r, "carom", season, frame)
            + [r["partie"], pair(r["scored"], r["conceded"]), signed(r["difference"]), r["innings"],
               number(r["general_average"])] for r in data["rows"]]
    lines = ["Pořadí: body, rozdíl skóre, generální průměr (přesný zlomek), vzájemné zápasy (RULES 1.8). "
             "Z utkání, B body, V/R/P výhry, remízy a prohry, GP generální průměr."]
    return _league_table(data, "carom", head, rows, lines, [], frame)


def eightball_table(data: dict, frame=PRINTABLE) -> str:
    """Tabulka ligy, 8-ball (RULES 2.9; the order is our Decision, docs/server.md)."""
    season = data["season"]
    head = [*LEAD_COLUMNS, col("Zápasy", "num"), col("Sety", "num"), col("Rozdíl setů", "num"), col("Hry", "num"),
            col("Rozdíl her", "num")]
    rows = [_lead_cells(r, "8ball", season, frame)
            + [pair(r["individual_won"], r["individual_lost"]), pair(r["sets_won"], r["sets_lost"]),
               signed(r["sets_difference"]), pair(r["games_won"], r["games_lost"]), signed(r["games_difference"])]
            for r in data["rows"]]
    tied = [r["team"] for r in data["rows"] if r["tied"]]
    notes = ["Rovnost ve všem (rozhodne organizátor): " + ", ".join(tied)] if tied else []
    lines = ["Pořadí: body (vyhrané zápasy), rozdíl setů, rozdíl her. Z utkání, B body, V/R/P výhry, remízy a prohry."]
    return _league_table(data, "8ball", head, rows, lines, notes, frame)


def _league_table(data: dict, game: str, head, rows, lines, notes, frame) -> str:
    section: dict[str, Any] = {"tables": [grid(_table_title(game, data["season"]), head, rows, sortable=True)] if rows else [],
               "lines": lines if rows else ["Zatím žádná družstva v této sezóně."], "notes": notes}
    if frame.navigation:
        query = links.query(None, data["season"])
        path = site_game(game).table_path.removesuffix(".html")
        section["links"] = [links.link("Rozpis utkání", schedule_href(game, data["season"])),
                            links.link("CSV", f"{path}.csv{query}"), links.link("JSON", f"{path}.json{query}")]
    return sectioned(_table_title(game, data["season"]), [section], _unreadable(data), frame=frame, script=True,
                     description=f"Tabulka soutěže {frame.league}, {GAME_NAMES[game]}, sezóna {data['season'] or DASH}:"
                                 " body, výhry, remízy, prohry a forma družstev.")


# each game's match record and league table (server/site/games.py holds the rest of what it shows)
MATCH_PAGES = {"carom": carom_match, "8ball": eightball_match}
TABLE_PAGES = {"carom": table, "8ball": eightball_table}
assert set(MATCH_PAGES) == set(TABLE_PAGES) == set(SITE_GAMES), "every game has its match record and table page"


def league_table(data: dict, frame=PRINTABLE) -> str:
    """The league table of ``data``'s game."""
    return TABLE_PAGES[data["game"]](data, frame)


def _unreadable(data: dict) -> list[str]:
    ids = data.get("unreadable") or []
    return [f"Nečitelné záznamy (nezapočteny): {len(ids)}; organizátor je zkontroluje."] if ids else []


def fixture_card(f: dict, *, game: str | None = None, with_links: bool = True) -> dict:
    """A fixture (or a played match) as a card: when, the teams (links to their pages), the result
    (a link to its record), the venue and what became of it."""
    season = f.get("season") or season_of(f.get("date"))
    competition = f.get("competition") or f.get("game") or DEFAULT
    score = (f"{f['points_home']} : {f['points_away']}" if f.get("points_home") is not None else None)
    return {"when": czech.fixture_time(f["date"], f.get("start")), "iso": str(f.get("date") or ""),
            "home": f["home"] or DASH, "away": f["away"] or DASH,
            "home_href": links.team_href(f["home"], competition, season) if with_links and f["home"] else None,
            "away_href": links.team_href(f["away"], competition, season) if with_links and f["away"] else None,
            "score": score, "href": links.match_href(f["match"]) if f.get("match") and score else None,
            "where": f.get("venue") or "", "status": f.get("status_text") or "",
            "game": GAME_NAMES.get(game) if game else None}


def home(*, frame, league_names: list[str], tonight: list[dict], upcoming: list[dict], results: list[dict],
         today_text: str, tables: list[dict], notes=()) -> str:
    """The home page: the leagues, tonight's and the next fixtures, the latest results (newest
    first), links to the tables."""
    return render("home.html", frame=frame, title=" · ".join(league_names) or "Liga", league_names=league_names,
                  tonight=tonight, upcoming=upcoming, results=results, today_text=today_text, tables=tables,
                  notes=list(notes),
                  description=f"{', '.join(league_names)}: dnešní a příští utkání, poslední výsledky a tabulky.")


def live(data_json: str, frame=PRINTABLE) -> str:
    """The league's /live page: the tables playing now (``data_json``: server.live.web.sse_data)."""
    return render("live.html", frame=frame, title="Živě: stoly, které se právě hrají", data_json=data_json,
                  description=f"{frame.league}: partie, které se právě hrají, stůl po stole, živě.")


WAYS_BACK = (("Zpět na úvodní stránku", "/"), ("Tabulka", "/table.html"), ("Rozpis utkání", "/schedule"))


def error(status: int, frame=PRINTABLE, reason: str = "", *, back=WAYS_BACK, title: str | None = None) -> str:
    """A 404 or 500 (or a 400 … with its ``reason``) in the site's style, with ways ``back``."""
    title = title or ERRORS.get(status, ERRORS[500])
    return render("error.html", frame=frame, title=title, status=status, reason=reason, back=back,
                  description=f"{title}. {frame.league}: rozpis, výsledky, tabulky a statistiky hráčů najdete na "
                              "úvodní stránce.")


ERRORS = {400: "Tento dotaz stránka neumí zodpovědět", 404: "Stránka nenalezena",
          405: "Tato stránka se takto otevřít nedá", 500: "Chyba serveru"}
