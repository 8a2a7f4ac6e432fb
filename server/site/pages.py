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
from server.site import assets, czech, language, links
from server.site.cells import col, form, grid, number, pair, signed
from server.site.chrome import GAME_NAMES, PRINTABLE, schedule_href
from server.site.games import DEFAULT, SITE_GAMES, site_game
from server.site.language import N_, say
from server.tables.sums import season_of

_env = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"), autoescape=True,
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"],
                   finalize=language.shown)
_env.install_gettext_callables(language.gettext, language.ngettext, newstyle=True)     # type: ignore[attr-defined]
_env.globals.update(language=language.current, language_switch=language.switch)
_env.filters["urlencode_all"] = lambda text: quote(str(text), safe="")
_env.filters["day"] = lambda date: czech.day(date, year=True)

DASH = czech.DASH


def _or_dash(value) -> str:
    return DASH if value is None else str(value)


def render(template: str, *, frame=PRINTABLE, title: str, description: str | None = None, **context) -> str:
    """A page; ``description``: its <meta name="description"> (default: from its title)."""
    description = description or say("{title}. {league}: rozpis, výsledky, tabulky a statistiky hráčů.", title=title,
                                     league=frame.league)
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
STANDINGS = {"annulled": N_("anulováno: družstvo vyřazeno ze soutěže (A.3.7)"),
             "unassigned": N_("mimo rozpis, nezapočteno do tabulky"), "friendly": N_("přátelské utkání, nezapočteno"),
             "pending": N_("přerušeno, čeká na rozhodnutí organizátora soutěže (A.6.5)")}
HELD = N_("nesrovnalost v zápisu, čeká na rozhodnutí organizátora soutěže")


def _state(record: dict) -> str:
    standing = record.get("standing") or ""
    if standing == "pending" and holding(record.get("irregular") or []):
        return say("{held} ({clauses})", held=HELD, clauses=ruled_under(record))
    if record.get("awarded"):
        return say("výsledek přiznal organizátor soutěže ({clauses})", clauses=ruled_under(record))
    if record.get("forfeit") in ("home", "away") and standing in ("counted", ""):
        winner = "away" if record["forfeit"] == "home" else "home"
        return say("kontumováno ve prospěch {winner} (A.3.7): {team} se nedostavilo",
                   winner=record[winner] or winner, team=record[record["forfeit"]] or record["forfeit"])
    if STANDINGS.get(standing):
        return say(STANDINGS[standing])
    if record.get("interrupted"):
        return say("přerušeno (A.6.5), dohráno") if (record.get("replay") or {}).get("rest") else say("přerušeno (A.6.5)")
    return say("uzavřeno") if record["closed"] else say("probíhá nebo neuzavřeno")


def irregular_text(entry: dict, match: dict) -> str:
    """One breach of server/league/irregular.py as the organiser reads it (``match``: its home
    and away teams)."""
    who = f"{entry['name']} ({match[entry['side']] or entry['side']})"
    if entry["rule"] == "A.3.6":
        numbers = [str(n) if n is not None else "?" for n in entry["partie"]]
        return say("{who} hrál partie {numbers}; podle losu hraje každý hráč jen jednu (A.3.6)", who=who,
                   numbers=", ".join(numbers))
    if entry.get("played_for"):
        return say("kapitán {who} hrál v tomto utkání za družstvo {team} (A.6.1)", who=who,
                   team=match[entry["played_for"]])
    return say("kapitán {who} není na soupisce svého družstva a nehrál za ně (A.6.1)", who=who)


def _facts(record: dict, league_name: str | None) -> list:
    points = record["points"]
    team, _ = links.in_match(record)
    state = _state(record)
    facts = [[say("Soutěž"), league_name]] if league_name else []
    return facts + [[say("Datum"), czech.day(record["date"], year=True) if record["date"] else DASH],
                    [say("Herna"), _or_dash(record["venue"])], [say("Domácí"), team(record["home"])],
                    [say("Hosté"), team(record["away"])], [say("Výsledek"), f"{points['home']} : {points['away']}"],
                    [say("Stav"), state]]


OBJECTIONS = {"referee": N_("rozhodnutí rozhodčího (A.6.3)"), "scoring": N_("zápis (A.6.3)"),
              "interrupted": N_("přerušení utkání (A.6.5)")}


def _captains(record: dict, unit: str) -> list[dict]:
    """Podpisy kapitánů (A.6.9d) and their objections (A.6.3, A.6.5): one row per team that answered."""
    names = {side: record[side] or side for side in ("home", "away")}
    rows = [[names[s["side"]], s["captain"], say("podepsal"), DASH, czech.moment(s["at"])] for s in record["signatures"]]
    rows += [[names[o["side"]], o["captain"], say("námitka: {what}", what=OBJECTIONS[o["kind"]]),
              say("celé utkání") if o["partie"] is None else f"{say(unit)} {o['partie']}", czech.moment(o["at"])]
             for o in record["objections"]]
    rows += [[names[side], DASH, say("nepodepsáno"), DASH, DASH] for side in record["unsigned"]]
    if not rows:
        return []
    head = [col("Družstvo", "name", row=True), col("Kapitán", "name"), col("Odpověď"), col("Týká se"), col("Čas")]
    return [{"heading": say("Podpisy kapitánů"), "tables": [grid(say("Podpisy kapitánů"), head, rows)]}]


def _notes(record: dict, unit: str) -> list[str]:
    """What the organiser must notice: not closed, missing or unreadable partie, the device's own
    result differs, names not on the roster of the team they played for (A.3.4: stored, but
    flagged), names the zápis gives as the roster does, what holds an irregular match (A.3.6, A.6.1)."""
    points = record["points"]
    notes = []
    unrostered = record.get("unrostered") or []
    if unrostered:
        who = N_("Hráč mimo soupisku družstva, za které hrál") if len(unrostered) == 1 else \
            N_("Hráči mimo soupisku družstva, za které hráli")
        notes.append(say("{who} (A.3.4): {names}.", who=who, names=", ".join(unrostered)))
    notes += _renamed_note(record.get("renamed") or [])
    notes += [say("Nesrovnalost: {what}.", what=irregular_text(entry, record)) for entry in record.get("irregular") or []]
    if not record["closed"]:
        notes.append(say("Utkání dosud nebylo uzavřeno."))
    notes += _replay_notes(record)
    if record["missing_partie"]:
        notes.append(say("Chybí {unit}: {numbers}", unit=unit, numbers=", ".join(str(n) for n in record["missing_partie"])))
    if record.get("unreadable"):
        notes.append(say("Nečitelné záznamy: {count} (organizátor je musí zkontrolovat).", count=len(record["unreadable"])))
    declared = record["declared_points"]
    if record.get("awarded"):
        ruling = record["ruling"]
        played = say(" (odehráno {home} : {away})", home=declared["home"], away=declared["away"]) if declared else ""
        notes.append(say("Výsledek {home} : {away} přiznal organizátor soutěže ({clauses}){played}; důvod: {reason}.",
                         home=points["home"], away=points["away"], clauses=ruled_under(record), played=played,
                         reason=ruling["reason"]))
    elif declared and (declared["home"], declared["away"]) != (points["home"], points["away"]):
        notes.append(say("Zařízení uvedlo výsledek {home} : {away}.", home=declared["home"], away=declared["away"]))
    return notes


def _renamed_note(renamed: list[dict]) -> list[str]:
    """The players the zápis names by their roster (a name the organiser corrected, or written
    otherwise), each with the name the record carries: the record itself stays as signed."""
    if not renamed:
        return []
    who = N_("Hráč uveden podle soupisky") if len(renamed) == 1 else N_("Hráči uvedeni podle soupisky")
    listed = ", ".join(say("{name} (v zápisu: {recorded})", name=r["name"], recorded=r["recorded"]) for r in renamed)
    return [say("{who} (A.3.4): {names}.", who=who, names=listed)]


def _replay_notes(record: dict) -> list[str]:
    """An interrupted match (A.6.5): the organiser's ruling to come, or the rest ordered, and once
    played the whole match's result; the rest's zápis says what it finishes."""
    replay = record.get("replay")
    notes = []
    if record.get("interrupted") and record.get("ruling") is None:
        notes.append(say("Utkání bylo přerušeno (A.6.5): rozhodne organizátor soutěže."))
    elif replay is not None and record.get("part") == 1:
        notes.append(say("Utkání bylo přerušeno (A.6.5); organizátor soutěže nařídil dohrát zbývající partie "
                         "{day}; důvod: {reason}.", day=czech.day(replay["date"], year=True),
                         reason=record["ruling"]["reason"]))
    elif replay is not None:
        notes.append(say("Dohrávka přerušeného utkání (A.6.5)."))
    if replay is not None and replay["rest"] is not None:
        notes.append(say("Výsledek utkání i s dohrávkou: {home} : {away}.", home=replay["points"]["home"],
                         away=replay["points"]["away"]))
    return notes


def _replay_section(record: dict) -> list[dict]:
    """A link from each part of a replayed interrupted match (A.6.5) to the other's zápis."""
    replay = record.get("replay")
    if replay is None or replay["rest"] is None:
        return []
    other = links.link(say("Zápis dohrávky"), links.match_href(replay["rest"])) if record.get("part") == 1 \
        else links.link(say("Zápis začátku utkání"), links.match_href(replay["first"]))
    return [{"heading": say("Dohrávka (A.6.5)"), "links": [other]}]


def match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání (RULES 1.6; 8-ball: RULES 2.9), as its game writes it."""
    return MATCH_PAGES[record["game"]](record, frame)


def _unplayed(record: dict, played: list) -> bool:
    """A forfeit (A.3.7) with nothing ``played``: its zápis has no table of zeros."""
    return record.get("forfeit") in ("home", "away") and not played


def carom_match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání, carom (RULES 1.6): every partie inning by inning."""
    sections: list[dict[str, Any]] = [{"facts": _facts(record, frame.league if frame.navigation else None)
                 + [[say("Los pořadí"), _or_dash(record["seed"])]]}]
    _, player = links.in_match(record)
    for p in record["partie"]:
        innings = max(len(p["home"]["series"]), len(p["away"]["series"]), 1)
        head = [col("Hráč", "name stick", row=True), col("Body", "num"), col("Náběhy", "num"),
                col("Průměr", "num"), col("NS", "num", "nejvyšší série"), col("Body družstva", "num")]
        head += [col(str(i), "num", say("{number}. náběh", number=i)) for i in range(1, innings + 1)]
        rows = []
        for side in ("home", "away"):
            s = p[side]
            series = list(s["series"]) + [""] * (innings - len(s["series"]))
            rows.append([player(s["name"]), s["points"], s["innings"], number(s["average"]), s["best_series"],
                         _or_dash(s["team_points"])] + series)
        title = (say("Partie {number}: {home} – {away}", number=_or_dash(p["number"]),
                     home=p["home"]["name"] or DASH, away=p["away"]["name"] or DASH)
                 + (say(" (skrečována)") if p["forfeit"] else ""))
        sections.append({"heading": title, "tables": [grid(say("Partie {number}", number=_or_dash(p["number"])),
                                                           head, rows)]})
    avg = record["averages"]
    if not _unplayed(record, record["partie"]):
        sections.append({"heading": say("Průměry utkání"), "tables": [grid(
            say("Průměry utkání"), [col("Družstvo", "name", row=True), col("Body", "num"), col("Náběhy", "num"),
                               col("Průměr", "num")],
            [[record[side] or side, avg[side]["points"], avg[side]["innings"], number(avg[side]["average"])]
             for side in ("home", "away")])]})
    return sectioned(say("Zápis o utkání: {match}", match=match_title(record)),
                     sections + _captains(record, N_("partie")) + _replay_section(record), _notes(record, N_("partie")),
                     frame=frame,
                     description=say("Zápis o utkání {match}: partie náběh po náběhu, body a průměry.",
                                     match=match_title(record)))


REASONS = {"eight": N_("8 regulérně"), "eight_early": N_("soupeř: 8 předčasně"),
           "eight_scratch": N_("soupeř: 8 a faul bílé"), "eight_foul": N_("soupeř: faul na 8"),
           "eight_with_opponent_ball": N_("soupeř: 8 s cizí koulí"), "eight_wrong_pocket": N_("soupeř: 8 do jiné kapsy"),
           "reported": N_("zapsáno"), "forfeit": N_("skrečováno")}


def eightball_match(record: dict, frame=PRINTABLE) -> str:
    """Zápis o utkání, 8-ball (RULES 2.9): every individual match with its sets and games."""
    names = {side: record[side] or side for side in ("home", "away")}
    sections: list[dict[str, Any]] = [{"facts": _facts(record, frame.league if frame.navigation else None)}]
    _, player = links.in_match(record)
    for m in record["individual"]:
        winner = m["winner"] and m[m["winner"]]["name"]
        number_ = _or_dash(m["number"])
        title = (say("Zápas {number}: {home} – {away}, sety {home_sets} : {away_sets}, vítěz {winner}", number=number_,
                     home=m["home"]["name"], away=m["away"]["name"], home_sets=m["home"]["sets"],
                     away_sets=m["away"]["sets"], winner=_or_dash(winner))
                 + (say(" (skrečováno)") if m["forfeit"] else ""))
        sets = grid(say("Zápas {number}: sety", number=number_), [col("Set", "num"), col("Hry domácí", "num"), col("Hry hosté", "num"),
                                               col("Vítěz", "name")],
                    [[s["set"], s["games"]["home"], s["games"]["away"],
                      _or_dash(s["winner"] and names[s["winner"]])] for s in m["sets"]])
        games = grid(say("Zápas {number}: hry", number=number_), [col("Set", "num"), col("Hra", "num"), col("Rozráží", "name"),
                                              col("Vítěz", "name"), col("Jak"), col("Fauly", "num"),
                                              col("Zbývalo poraženému", "num")],
                     [[g["set"], g["game"], m[g["breaker"]]["name"], m[g["winner"]]["name"],
                       REASONS.get(g["reason"], g["reason"]), f"{g['fouls']['home']} : {g['fouls']['away']}",
                       _or_dash(g["loser_left"])] for g in m["games"]])
        sections.append({"heading": title, "tables": [sets, games],
                         "links": [player(m[side]["name"]) for side in ("home", "away")]})
    totals = record["totals"]
    if not _unplayed(record, record["individual"]):
        sections.append({"heading": say("Celkem"), "tables": [grid(
            say("Celkem"), [col("Družstvo", "name", row=True), col("Vyhrané zápasy", "num"), col("Sety", "num"),
                       col("Hry", "num"), col("Body", "num")],
            [[names[side], totals[side]["matches"], totals[side]["sets"], totals[side]["games"],
              record["points"][side]] for side in ("home", "away")])]})
    return sectioned(say("Zápis o utkání: {match}", match=match_title(record)),
                     sections + _captains(record, N_("zápas")) + _replay_section(record), _notes(record, N_("zápasy")),
                     frame=frame,
                     description=say("Zápis o utkání 8-ball {match}: zápasy, sety a hry.", match=match_title(record)))


def _team_cell(name: str, game: str, season: str | None, frame) -> dict | str:
    return links.link(name, links.team_href(name, game, season)) if frame.navigation else name


def _table_title(game: str, season: str | None) -> str:
    return say("Tabulka: {game}, sezóna {season}", game=GAME_NAMES[game], season=season or DASH)


LEAD_COLUMNS = (col("#", "num place stick"), col("Družstvo", "name stick2", row=True),
                col("Z", "num", "utkání"), col("B", "num", "body"), col("V", "num", "výhry"),
                col("R", "num", "remízy"), col("P", "num", "prohry"), col("Forma", "", "posledních 5 utkání"))


def _lead_cells(r: dict, game: str, season: str | None, frame) -> list:
    return [r["place"], _team_cell(r["team"], game, season, frame), r["matches"], r["points"], r["matches_won"],
            r["matches_drawn"], r["matches_lost"], form(r["form"])]


def table(data: dict, frame=PRINTABLE, notes=()) -> str:
    """Tabulka ligy (RULES 1.8): every team of the season, the key columns first."""
    season = data["season"]
    head = [*LEAD_COLUMNS, col("Partie", "num"), col("Skóre", "num"), col("Rozdíl", "num"),
            col("Náběhy", "num"), col("GP", "num", "generální průměr")]
    rows = [_lead_cells(r, "carom", season, frame)
            + [r["partie"], pair(r["scored"], r["conceded"]), signed(r["difference"]), r["innings"],
               number(r["general_average"])] for r in data["rows"]]
    lines = [say("Pořadí: body, rozdíl skóre, generální průměr (přesný zlomek), vzájemné zápasy (RULES 1.8). "
                 "Z utkání, B body, V/R/P výhry, remízy a prohry, GP generální průměr.")]
    return _league_table(data, "carom", head, rows, lines, [], frame, notes)


def eightball_table(data: dict, frame=PRINTABLE, notes=()) -> str:
    """Tabulka ligy, 8-ball (RULES 2.9; the order is our Decision, docs/server.md)."""
    season = data["season"]
    head = [*LEAD_COLUMNS, col("Zápasy", "num"), col("Sety", "num"), col("Rozdíl setů", "num"), col("Hry", "num"),
            col("Rozdíl her", "num")]
    rows = [_lead_cells(r, "8ball", season, frame)
            + [pair(r["individual_won"], r["individual_lost"]), pair(r["sets_won"], r["sets_lost"]),
               signed(r["sets_difference"]), pair(r["games_won"], r["games_lost"]), signed(r["games_difference"])]
            for r in data["rows"]]
    tied = [r["team"] for r in data["rows"] if r["tied"]]
    tie = [say("Rovnost ve všem (rozhodne organizátor): {teams}", teams=", ".join(tied))] if tied else []
    lines = [say("Pořadí: body, rozdíl setů, rozdíl her. Z utkání, B body (za vyhrané jednotlivé zápasy, RULES 2.9; za "
                 "kontumaci body kontumace, A.3.7), V/R/P výhry, remízy a prohry. Zápasy: vyhrané a prohrané "
                 "jednotlivé zápasy, jak se hrály (kontumace žádné nepřidává).")]
    return _league_table(data, "8ball", head, rows, lines, tie, frame, notes)


def _league_table(data: dict, game: str, head, rows, lines, section_notes, frame, notes=()) -> str:
    """``section_notes`` under the table (a tie); ``notes`` of the page (the expelled teams)."""
    section: dict[str, Any] = {"tables": [grid(_table_title(game, data["season"]), head, rows, sortable=True)] if rows else [],
               "lines": lines if rows else [say("Zatím žádná družstva v této sezóně.")], "notes": section_notes}
    if frame.navigation:
        query = links.query(None, data["season"])
        path = site_game(game).table_path.removesuffix(".html")
        section["links"] = [links.link(say("Rozpis utkání"), schedule_href(game, data["season"])),
                            links.link("CSV", f"{path}.csv{query}"), links.link("JSON", f"{path}.json{query}")]
    return sectioned(_table_title(game, data["season"]), [section], [*notes, *_unreadable(data)], frame=frame, script=True,
                     description=say("Tabulka soutěže {league}, {game}, sezóna {season}: body, výhry, remízy, prohry "
                                     "a forma družstev.", league=frame.league, game=GAME_NAMES[game],
                                     season=data["season"] or DASH))


# each game's match record and league table (server/site/games.py holds the rest of what it shows)
MATCH_PAGES = {"carom": carom_match, "8ball": eightball_match}
TABLE_PAGES = {"carom": table, "8ball": eightball_table}
assert set(MATCH_PAGES) == set(TABLE_PAGES) == set(SITE_GAMES), "every game has its match record and table page"


def league_table(data: dict, frame=PRINTABLE, notes=()) -> str:
    """The league table of ``data``'s game (``notes``: the page's, the teams expelled)."""
    return TABLE_PAGES[data["game"]](data, frame, notes)


def _unreadable(data: dict) -> list[str]:
    ids = data.get("unreadable") or []
    return [say("Nečitelné záznamy (nezapočteny): {count}; organizátor je zkontroluje.", count=len(ids))] if ids else []


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
    return render("home.html", frame=frame, title=" · ".join(league_names) or say("Liga"), league_names=league_names,
                  tonight=tonight, upcoming=upcoming, results=results, today_text=today_text, tables=tables,
                  notes=list(notes),
                  description=say("{leagues}: dnešní a příští utkání, poslední výsledky a tabulky.",
                                  leagues=", ".join(league_names)))


def live(data_json: str, frame=PRINTABLE) -> str:
    """The league's /live page: the tables playing now (``data_json``: server.live.web.sse_data)."""
    return render("live.html", frame=frame, title=say("Živě: stoly, které se právě hrají"), data_json=data_json,
                  words=live_words(), description=say("{league}: partie, které se právě hrají, stůl po stole, živě.",
                                                      league=frame.league))


# what server/site/templates/live.js writes, in the reader's language (the page hands it over)
LIVE_WORDS = {"forfeited": N_("skrečoval"), "winner": N_("vítěz"), "at_table": N_("u stolu, série"),
              "innings": N_("náběhy"), "left": N_("do konce"), "end": N_("konec"), "draw": N_("remíza"),
              "forfeit": N_("(skrečováno)"), "inning": N_("náběh"), "equalising": N_("dohrávka"),
              "last_two": N_("poslední 2 náběhy"), "sets": N_("sety"), "set": N_("set"),
              "match": N_("výsledek utkání"), "lotdraw": N_("los"), "ready": N_("připraveno"),
              "partie": N_("partie"), "record": N_("zápis partie"), "live": N_("Živě"),
              "broken": N_("Spojení přerušeno, připojuji znovu…")}


def live_words() -> dict:
    """The texts of the live page's script, its weekdays (Sunday first, as Date.getUTCDay counts)
    and months (English writes the month's name; Czech its number)."""
    said = {key: language.gettext(text) for key, text in LIVE_WORDS.items()}
    english = language.english()
    days = czech.EN_WEEKDAYS if english else czech.WEEKDAYS
    return {**said, "days": [days[-1], *days[:-1]], "months": list(czech.EN_MONTHS) if english else None}


WAYS_BACK = ((N_("Zpět na úvodní stránku"), "/"), (N_("Tabulka"), "/table.html"), (N_("Rozpis utkání"), "/schedule"))


def error(status: int, frame=PRINTABLE, reason: str = "", *, back=WAYS_BACK, title: str | None = None) -> str:
    """A 404 or 500 (or a 400 … with its ``reason``) in the site's style, with ways ``back``."""
    title = title or say(ERRORS.get(status, ERRORS[500]))
    return render("error.html", frame=frame, title=title, status=status, reason=reason, back=back,
                  description=say("{title}. {league}: rozpis, výsledky, tabulky a statistiky hráčů najdete na "
                                  "úvodní stránce.", title=title, league=frame.league))


ERRORS = {400: N_("Tento dotaz stránka neumí zodpovědět"), 404: N_("Stránka nenalezena"),
          405: N_("Tato stránka se takto otevřít nedá"), 500: N_("Chyba serveru")}
