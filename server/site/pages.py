"""Printable HTML pages (Czech labels) for the match record and the league table.

Pages are Jinja2 templates (server/site/templates) with autoescaping on: every stored text reaches
the page escaped. Python builds the rows; the templates only lay them out.
"""
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from server.site import links

_env = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"), autoescape=True,
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
_env.filters["urlencode_all"] = lambda text: quote(str(text), safe="")


def _or_dash(value) -> str:
    return "–" if value is None else str(value)


def render(template: str, **context) -> str:
    return _env.get_template(template).render(**context)


def sectioned(title: str, sections: list[dict], notes=()) -> str:
    """A page of sections: heading, tables (a cell may be a link: {"text", "href"}), lines, notes."""
    for section in sections:
        for key in ("tables", "lines", "notes", "links"):
            section.setdefault(key, [])
        section.setdefault("heading", None)
    return render("sections.html", title=title, sections=sections, notes=list(notes))


def _table(head, rows) -> dict:
    return {"head": head, "rows": rows}


# where a match stands in its league (server/tables/standing.py), when it is not simply counted
STANDINGS = {"annulled": "anulováno: družstvo vyřazeno ze soutěže (A.3.7)",
             "unassigned": "mimo rozpis, nezapočteno do tabulky", "friendly": "přátelské utkání, nezapočteno",
             "pending": "přerušeno, čeká na rozhodnutí řídícího orgánu (A.6.5)"}


def _facts(record: dict, *extra) -> dict:
    points = record["points"]
    state = STANDINGS.get(record.get("standing") or "") or ("přerušeno (A.6.5)" if record.get("interrupted") else None)
    interrupted = [["Stav", state]] if state else []
    team, _ = links.in_match(record)
    return {"tables": [_table(["", ""], [
        ["Místo", _or_dash(record["venue"])], ["Datum", _or_dash(record["date"])],
        ["Domácí", team(record["home"])], ["Hosté", team(record["away"])],
        ["Výsledek", f"{points['home']} : {points['away']}"], *interrupted, *extra,
    ])]}


OBJECTIONS = {"referee": "rozhodnutí rozhodčího (A.6.3)", "scoring": "zápis (A.6.3)",
              "interrupted": "přerušení utkání (A.6.5)"}


def _captains(record: dict, unit: str) -> list[dict]:
    """Podpisy kapitánů (A.6.9d) and their objections (A.6.3, A.6.5): one row per team that answered."""
    names = {side: record[side] or side for side in ("home", "away")}
    rows = [[names[s["side"]], s["captain"], "podepsal", "", _or_dash(s["at"])] for s in record["signatures"]]
    rows += [[names[o["side"]], o["captain"], "námitka: " + OBJECTIONS[o["kind"]],
              "celé utkání" if o["partie"] is None else f"{unit} {o['partie']}", _or_dash(o["at"])]
             for o in record["objections"]]
    rows += [[names[side], "–", "nepodepsáno", "", "–"] for side in record["unsigned"]]
    if not rows:
        return []
    return [{"heading": "Podpisy kapitánů", "tables": [_table(["Družstvo", "Kapitán", "Odpověď", "Týká se", "Čas"],
                                                               rows)]}]


def _notes(record: dict, unit: str) -> list[str]:
    """What the organiser must notice: not closed, missing or unreadable partie, the device's own result differs."""
    points = record["points"]
    notes = []
    if not record["closed"]:
        notes.append("Utkání dosud nebylo uzavřeno.")
    if record.get("interrupted"):
        notes.append("Utkání bylo přerušeno (A.6.5): rozhodne pořadatel soutěže.")
    if record["missing_partie"]:
        notes.append(f"Chybí {unit}: " + ", ".join(record["missing_partie"]))
    if record.get("unreadable"):
        notes.append("Nečitelné záznamy (pořadatel je musí zkontrolovat): " + ", ".join(record["unreadable"]))
    declared = record["declared_points"]
    if declared and (declared["home"], declared["away"]) != (points["home"], points["away"]):
        notes.append(f"Zařízení uvedlo výsledek {declared['home']} : {declared['away']}.")
    return notes


def _title(record: dict) -> str:
    return f"Zápis o utkání: {_or_dash(record['home'])} – {_or_dash(record['away'])}"


def match(record: dict) -> str:
    """Zápis o utkání (RULES 1.6; 8-ball: RULES 2.9)."""
    if record["game"] == "8ball":
        return eightball_match(record)
    sections = [_facts(record, ["Los (seed)", _or_dash(record["seed"])])]
    _, player = links.in_match(record)
    for p in record["partie"]:
        innings = max(len(p["home"]["series"]), len(p["away"]["series"]), 1)
        head = ["Hráč"] + [str(i) for i in range(1, innings + 1)] + ["Body", "Náběhy", "NS", "Průměr", "Body družstva"]
        rows = []
        for side in ("home", "away"):
            s = p[side]
            series = list(s["series"]) + [""] * (innings - len(s["series"]))
            rows.append([player(s["name"])] + series + [s["points"], s["innings"], s["best_series"],
                                                _or_dash(s["average"]), _or_dash(s["team_points"])])
        title = f"Partie {_or_dash(p['number'])}" + (" (skrečována)" if p["forfeit"] else "")
        sections.append({"heading": title, "tables": [_table(head, rows)]})
    avg = record["averages"]
    sections.append({"heading": "Průměry utkání", "tables": [_table(
        ["Družstvo", "Body", "Náběhy", "Průměr"],
        [[record[side] or side, avg[side]["points"], avg[side]["innings"], avg[side]["average"]]
         for side in ("home", "away")])]})
    return sectioned(_title(record), sections + _captains(record, "partie"), _notes(record, "partie"))


def table(data: dict) -> str:
    """Tabulka ligy (RULES 1.8)."""
    head = ["#", "Družstvo", "Utkání", "Partie", "Body", "Skóre", "Rozdíl", "Náběhy", "Generální průměr"]
    rows = [[r["place"], r["team"], r["matches"], r["partie"], r["points"], f"{r['scored']}:{r['conceded']}",
             f"{r['difference']:+d}", r["innings"], r["general_average"]] for r in data["rows"]]
    note = "Pořadí: body, rozdíl skóre, generální průměr (přesný zlomek), vzájemné zápasy."
    return sectioned("Tabulka ligy", [{"tables": [_table(head, rows)], "lines": [note]}], _unreadable(data))


REASONS = {"eight": "8 regulérně", "eight_early": "soupeř: 8 předčasně", "eight_scratch": "soupeř: 8 a faul bílé",
           "eight_foul": "soupeř: faul na 8", "eight_with_opponent_ball": "soupeř: 8 s cizí koulí",
           "eight_wrong_pocket": "soupeř: 8 do jiné kapsy", "reported": "zapsáno", "forfeit": "skrečováno"}


def eightball_match(record: dict) -> str:
    """Zápis o utkání, 8-ball (RULES 2.9): every individual match with its sets and games."""
    names = {side: record[side] or side for side in ("home", "away")}
    sections = [_facts(record)]
    _, player = links.in_match(record)
    for m in record["individual"]:
        winner = m["winner"] and m[m["winner"]]["name"]
        title = (f"Zápas {_or_dash(m['number'])}: {m['home']['name']} – {m['away']['name']}, "
                 f"sety {m['home']['sets']} : {m['away']['sets']}, vítěz {_or_dash(winner)}"
                 + (" (skrečováno)" if m["forfeit"] else ""))
        sets = _table(["Set", "Hry domácí", "Hry hosté", "Vítěz"],
                      [[s["set"], s["games"]["home"], s["games"]["away"], _or_dash(s["winner"] and names[s["winner"]])]
                       for s in m["sets"]])
        games = _table(["Set", "Hra", "Rozráží", "Vítěz", "Jak", "Fauly", "Zbývalo poraženému"],
                       [[g["set"], g["game"], m[g["breaker"]]["name"], m[g["winner"]]["name"],
                         REASONS.get(g["reason"], g["reason"]), f"{g['fouls']['home']} : {g['fouls']['away']}",
                         _or_dash(g["loser_left"])] for g in m["games"]])
        sections.append({"heading": title, "tables": [sets, games],
                         "links": [player(m[side]["name"]) for side in ("home", "away")]})
    totals = record["totals"]
    sections.append({"heading": "Celkem", "tables": [_table(
        ["Družstvo", "Vyhrané zápasy", "Sety", "Hry", "Body"],
        [[names[side], totals[side]["matches"], totals[side]["sets"], totals[side]["games"], record["points"][side]]
         for side in ("home", "away")])]})
    return sectioned(_title(record), sections + _captains(record, "zápas"), _notes(record, "zápasy"))


def eightball_table(data: dict) -> str:
    """Tabulka ligy, 8-ball (RULES 2.9; the order is our Decision, docs/server.md)."""
    head = ["#", "Družstvo", "Utkání", "Zápasy", "Body", "Sety", "Rozdíl setů", "Hry", "Rozdíl her"]
    rows = [[r["place"], r["team"], r["matches"], f"{r['individual_won']}:{r['individual_lost']}", r["points"],
             f"{r['sets_won']}:{r['sets_lost']}", f"{r['sets_difference']:+d}", f"{r['games_won']}:{r['games_lost']}",
             f"{r['games_difference']:+d}"] for r in data["rows"]]
    section = {"tables": [_table(head, rows)], "lines": ["Pořadí: body (vyhrané zápasy), rozdíl setů, rozdíl her."]}
    tied = [r["team"] for r in data["rows"] if r["tied"]]
    if tied:
        section["notes"] = ["Rovnost ve všem (rozhodne pořadatel): " + ", ".join(tied)]
    return sectioned("Tabulka ligy – 8-ball", [section], _unreadable(data))


def _unreadable(data: dict) -> list[str]:
    ids = data.get("unreadable") or []
    return ["Nečitelné záznamy (nezapočteny): " + ", ".join(ids)] if ids else []


def index(matches: list[dict], unreadable=(), *, seasons=(), season: str | None = None,
          asked: bool = False) -> str:
    """The matches of ``season``, with links to the other ``seasons`` (latest first); ``asked``:
    a season asked for, whose tables the links show too (else each table's latest season)."""
    return render("index.html", title=f"Výsledky {season or ''}".strip(), matches=matches, seasons=seasons,
                  season=season, asked=asked, notes=["Nečitelné záznamy: " + ", ".join(unreadable)] if unreadable else [])


def live(data_json: str) -> str:
    """The league's /live page: the tables playing now (``data_json``: server.live.web.sse_data)."""
    return render("live.html", title="Živě: stoly, které se právě hrají", data_json=data_json)
