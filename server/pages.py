"""Printable HTML pages (Czech labels) for the match record and the league table."""
from html import escape
from urllib.parse import quote

STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#000}
table{border-collapse:collapse;margin:.6em 0}
th,td{border:1px solid #444;padding:.2em .5em;text-align:right}
th:first-child,td:first-child,td.name{text-align:left}
h1{font-size:1.4em} h2{font-size:1.1em;margin-top:1.2em}
.note{color:#a00}
@media print{a{color:#000;text-decoration:none}}
"""


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"cs\"><head><meta charset=\"utf-8\"><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n<h1>{escape(title)}</h1>\n{body}\n</body></html>\n")


def _row(cells, tag="td") -> str:
    return "<tr>" + "".join(f"<{tag}>{escape(str(c))}</{tag}>" for c in cells) + "</tr>"


def _table(head, rows) -> str:
    return "<table>" + _row(head, "th") + "".join(_row(r) for r in rows) + "</table>"


def _or_dash(value) -> str:
    return "–" if value is None else str(value)


def _facts(record: dict, *extra) -> str:
    points = record["points"]
    return _table(["", ""], [
        ["Místo", _or_dash(record["venue"])], ["Datum", _or_dash(record["date"])],
        ["Domácí", _or_dash(record["home"])], ["Hosté", _or_dash(record["away"])],
        ["Výsledek", f"{points['home']} : {points['away']}"], *extra,
    ])


def _notes(record: dict, unit: str) -> list[str]:
    """What the organiser must notice: not closed, missing partie, the device's own result differs."""
    points = record["points"]
    notes = []
    if not record["closed"]:
        notes.append("Utkání dosud nebylo uzavřeno.")
    if record["missing_partie"]:
        notes.append(f"Chybí {unit}: " + ", ".join(record["missing_partie"]))
    declared = record["declared_points"]
    if declared and (declared["home"], declared["away"]) != (points["home"], points["away"]):
        notes.append(f"Zařízení uvedlo výsledek {declared['home']} : {declared['away']}.")
    return [f"<p class=\"note\">{escape(n)}</p>" for n in notes]


def match(record: dict) -> str:
    """Zápis o utkání (RULES 1.6; 8-ball: RULES 2.9)."""
    if record["game"] == "8ball":
        return eightball_match(record)
    parts = [_facts(record, ["Los (seed)", _or_dash(record["seed"])])] + _notes(record, "partie")
    for p in record["partie"]:
        innings = max(len(p["home"]["series"]), len(p["away"]["series"]), 1)
        head = ["Hráč"] + [str(i) for i in range(1, innings + 1)] + ["Body", "Náběhy", "NS", "Průměr", "Body družstva"]
        rows = []
        for side in ("home", "away"):
            s = p[side]
            series = list(s["series"]) + [""] * (innings - len(s["series"]))
            rows.append([s["name"]] + series + [s["points"], s["innings"], s["best_series"],
                                                _or_dash(s["average"]), _or_dash(s["team_points"])])
        title = f"Partie {_or_dash(p['number'])}" + (" (skrečována)" if p["forfeit"] else "")
        parts.append(f"<h2>{escape(title)}</h2>" + _table(head, rows))
    avg = record["averages"]
    parts.append("<h2>Průměry utkání</h2>" + _table(
        ["Družstvo", "Body", "Náběhy", "Průměr"],
        [[record[side] or side, avg[side]["points"], avg[side]["innings"], avg[side]["average"]] for side in ("home", "away")]))
    title = f"Zápis o utkání: {_or_dash(record['home'])} – {_or_dash(record['away'])}"
    return _page(title, "\n".join(parts))


def table(data: dict) -> str:
    """Tabulka ligy (RULES 1.8)."""
    head = ["#", "Družstvo", "Utkání", "Partie", "Body", "Skóre", "Rozdíl", "Náběhy", "Generální průměr"]
    rows = [[r["place"], r["team"], r["matches"], r["partie"], r["points"], f"{r['scored']}:{r['conceded']}",
             f"{r['difference']:+d}", r["innings"], r["general_average"]] for r in data["rows"]]
    note = ("<p>Pořadí: body, rozdíl skóre, generální průměr (přesný zlomek), vzájemné zápasy.</p>")
    return _page("Tabulka ligy", _table(head, rows) + note)


REASONS = {"eight": "8 regulérně", "eight_early": "soupeř: 8 předčasně", "eight_scratch": "soupeř: 8 a faul bílé",
           "eight_foul": "soupeř: faul na 8", "eight_with_opponent_ball": "soupeř: 8 s cizí koulí",
           "eight_wrong_pocket": "soupeř: 8 do jiné kapsy", "reported": "zapsáno", "forfeit": "skrečováno"}


def eightball_match(record: dict) -> str:
    """Zápis o utkání, 8-ball (RULES 2.9): every individual match with its sets and games."""
    names = {side: record[side] or side for side in ("home", "away")}
    parts = [_facts(record)] + _notes(record, "zápasy")
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
        parts.append(f"<h2>{escape(title)}</h2>" + sets + games)
    totals = record["totals"]
    parts.append("<h2>Celkem</h2>" + _table(
        ["Družstvo", "Vyhrané zápasy", "Sety", "Hry", "Body"],
        [[names[side], totals[side]["matches"], totals[side]["sets"], totals[side]["games"], record["points"][side]]
         for side in ("home", "away")]))
    return _page(f"Zápis o utkání: {_or_dash(record['home'])} – {_or_dash(record['away'])}", "\n".join(parts))


def eightball_table(data: dict) -> str:
    """Tabulka ligy, 8-ball (RULES 2.9; the order is our Decision, docs/server.md)."""
    head = ["#", "Družstvo", "Utkání", "Zápasy", "Body", "Sety", "Rozdíl setů", "Hry", "Rozdíl her"]
    rows = [[r["place"], r["team"], r["matches"], f"{r['individual_won']}:{r['individual_lost']}", r["points"],
             f"{r['sets_won']}:{r['sets_lost']}", f"{r['sets_difference']:+d}", f"{r['games_won']}:{r['games_lost']}",
             f"{r['games_difference']:+d}"] for r in data["rows"]]
    note = "<p>Pořadí: body (vyhrané zápasy), rozdíl setů, rozdíl her.</p>"
    tied = [r["team"] for r in data["rows"] if r["tied"]]
    if tied:
        note += f"<p class=\"note\">{escape('Rovnost ve všem (rozhodne pořadatel): ' + ', '.join(tied))}</p>"
    return _page("Tabulka ligy – 8-ball", _table(head, rows) + note)


def index(matches: list[dict]) -> str:
    rows = "".join(
        f"<tr><td><a href=\"/matches/{escape(quote(m['match'], safe=''))}.html\">{escape(m['match'])}</a></td>"
        f"<td>{escape(_or_dash(m['date']))}</td><td class=\"name\">{escape(_or_dash(m['home']))}</td>"
        f"<td class=\"name\">{escape(_or_dash(m['away']))}</td>"
        f"<td>{m['points']['home']} : {m['points']['away']}</td></tr>" for m in matches)
    body = ("<p><a href=\"/table.html\">Tabulka ligy</a> · <a href=\"/table.json\">JSON</a> · "
            "<a href=\"/table-8ball.html\">Tabulka 8-ball</a> · <a href=\"/table-8ball.json\">JSON</a></p>"
            "<table><tr><th>Utkání</th><th>Datum</th><th>Domácí</th><th>Hosté</th><th>Výsledek</th></tr>"
            f"{rows}</table>")
    return _page("Výsledky", body)
