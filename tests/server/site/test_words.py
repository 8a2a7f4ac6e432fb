"""What the site says when it refuses, in Czech (server/site/words.py, its catalog site.po → site.mo):
the compiled catalog is its source, every refusal the site and the admin can show has its Czech
text (found in the code, as tests/input/test_catalogs.py finds the counter's), and a refusal is
said in Czech with its values: names quoted the Czech way, reasons within reasons, dates."""
import ast
import re
from pathlib import Path

import pytest

from server.league import competition_rules
from server.league.admin_fields import LeagueError, halves, phone
from server.site import words

ROOT = Path(__file__).resolve().parents[3]
PO = words.LOCALE_DIR / "cs" / "LC_MESSAGES" / "site.po"
# where refusals the site shows are written: (folder or file, the calls whose text is one)
SOURCES = [("server/league/admin_fields.py", {"LeagueError"}), ("server/storage/league.py", {"LeagueError"}),
           ("server/storage/fixtures.py", {"LeagueError"}),
           ("server/storage/departures.py", {"LeagueError"}), ("server/storage/results.py", {"LeagueError"}),
           ("server/storage/devices.py", {"LeagueError"}),
           ("server/league/schedule.py", {"ValueError", "Unmet"}),
           ("server/league/competition_rules.py", {"LeagueError", "SettingRefused"}),
           ("server/site", {"LeagueError", "FormRefused", "failed", "failed_bare", "_refused", "_login_answer"})]
# the schedule's reasons within a refusal: the sentences these functions return
REASONS = [("server/league/schedule.py", {"move_refusal", "_clash", "_wish_text", "text"}),
           ("server/league/workdays.py", {"day_off_reason"})]
FIELDS = {"text", "_field", "date", "_half"}       # their argument "the …": the field a refusal names


def po_entries() -> dict:
    pairs = re.findall(r'^msgid (".*")\nmsgstr (".*")$', PO.read_text(encoding="utf-8"), flags=re.M)
    return {ast.literal_eval(i): ast.literal_eval(s) for i, s in pairs if i != '""'}


def _template(node) -> str | None:
    """An f-string's text with "{}" for each value; a plain string as it is."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _name(call: ast.Call) -> str | None:
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def _files(place: str):
    path = ROOT / place
    return [path] if path.is_file() else sorted(path.rglob("*.py"))


def refusals_in_the_code() -> set[str]:
    found = set()
    for place, calls in SOURCES:
        for path in _files(place):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and _name(node) in calls:
                    found |= {t for t in map(_template, node.args) if t and not t.isidentifier()}
                if isinstance(node, ast.Call) and _name(node) in FIELDS:
                    found |= {t for t in map(_template, node.args) if t and t.startswith("the ")}
    for place, functions in REASONS:
        for node in ast.walk(ast.parse((ROOT / place).read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in functions:
                found |= {_template(r.value) for r in ast.walk(node)
                          if isinstance(r, ast.Return) and _template(r.value) is not None}
    return {t for t in found if re.search("[a-z]", t.replace("{}", ""))}       # "{} – {}" has no words


def _shape(text: str) -> str:
    return words.PLACEHOLDER.sub("{}", text)


def test_the_compiled_catalog_is_its_source():
    """After an edit of the .po: msgfmt -o site.mo site.po."""
    entries = po_entries()
    assert len(entries) > 90
    assert {i: words.catalog().gettext(i) for i in entries} == entries


def test_every_refusal_the_site_can_show_has_its_czech_text():
    found = refusals_in_the_code()
    assert {"{} must not be empty", "season {} already exists", "the autumn half", "{} is a public holiday",
            "no such admin action", "round {}, {} – {}"} <= found          # the scan finds them
    catalog = {_shape(msgid) for msgid in po_entries()}
    assert sorted({_shape(t) for t in found} - catalog) == []       # a Said's template names its values


def test_every_czech_text_fills_in_only_values_its_english_one_has():
    assert [i for i, s in po_entries().items()
            if not set(words.PLACEHOLDER.findall(s)) <= set(words.PLACEHOLDER.findall(i))] == []


def _refusal(call, *args) -> str:
    with pytest.raises(LeagueError) as refused:
        call(*args)
    return str(refused.value)


@pytest.mark.parametrize("english, czech", [
    ("season 2026/27 already exists", "Sezóna 2026/27 už je založená."),
    ("the season must not be empty", "Pole „sezóna“ musí být vyplněno."),
    ("no team 'Bez' in carom 2026/27", "Družstvo „Bez“ v soutěži karambol 2026/27 není."),
    ("Novák already plays for team 'Lvi' in 2026/27; a player plays for one team a season (A.3.4)",
     "Novák už v sezóně 2026/27 hraje za družstvo „Lvi“; hráč hraje v sezóně jen za jedno družstvo (A.3.4)."),
    ("fixture KD-1 is played; only a match still to be played can move",
     "Utkání KD-1 je už odehráno; přesunout lze jen utkání, které se ještě nehrálo."),
    ("fixture KD-1 cannot move to 2026-12-24: Thursday 24 December 2026 is a public holiday: matches are played "
     "on working days only (A.2.2) (the organiser may override it with a reason: --override \"…\", A.3.3)",
     "Utkání KD-1 nelze přesunout na čt 24. 12. 2026: čt 24. 12. 2026 je státní svátek: hraje se jen v pracovní "
     "dny (A.2.2). Řídící orgán může povolit výjimku s důvodem (A.3.3): vyplňte „výjimka z pravidel“."),
    ("Novák already plays for team 'Lvi' as 'novák' in 2026/27; a player plays for one team a season (A.3.4)",
     "Novák už v sezóně 2026/27 hraje za družstvo „Lvi“ jako „novák“; hráč hraje v sezóně jen za jedno družstvo "
     "(A.3.4)."),
    ("venue 'na  růžku' is the venue 'Na Růžku' already there (names are compared without regard to case and "
     "spacing); write it as 'Na Růžku'",
     "„na  růžku“ už tu je jako „Na Růžku“ (herna; jména se porovnávají bez ohledu na velikost písmen a mezery); "
     "zapište „Na Růžku“."),
    ("fixture KD-1 was ruled on already (award, 2026-10-07); the organiser's ruling is final (A.6.5)",
     "O utkání KD-1 už bylo rozhodnuto (kontumace, st 7. 10. 2026); rozhodnutí organizátora soutěže je konečné (A.6.5)."),
    ("Hasiči has 1 player on its roster; a team has at least 4 (A.3.1)",
     "Družstvo Hasiči má na soupisce hráčů: 1; družstvo jich má mít nejméně 4 (A.3.1)."),
    ("round 3, Lvi – Orli: Hostinec U Lva is open on Tuesday or Thursday only; given Wednesday 14 October 2026",
     "3. kolo, Lvi – Orli: herna Hostinec U Lva má otevřeno jen úterý nebo čtvrtek; přiděleno st 14. 10. 2026"),
    ("Orli withdrew from the competition on 2026-09-01 (A.1.2)", "Orli odstoupilo ze soutěže út 1. 9. 2026 (A.1.2)."),
    ("Orli was expelled by the organiser's decision on 2026-09-01 (A.1.2); its no-shows are withdrawn once the team "
     "is reinstated (team reinstate, in the admin the team's page)",
     "Orli bylo vyřazeno ze soutěže rozhodnutím organizátora út 1. 9. 2026 (A.1.2). Jeho nedostavení lze smazat, až "
     "bude družstvo vráceno do soutěže (na stránce družstva)."),
    ("not found", "Taková stránka tu není."),
])
def test_a_refusal_is_said_in_czech_with_its_values(english, czech):
    assert words.czech(english) == czech
    assert words.czech(LeagueError(english)) == czech


def test_refusals_of_the_leagues_input_are_said_in_czech():
    assert words.czech(_refusal(phone, "nic")) == ("Telefon kapitána se píše číslicemi (nejméně 9), mezerami a "
                                                    "případně + na začátku; zadáno „nic“.")
    assert words.czech(_refusal(halves, "2026/27", "2026-09-01..2026-11-30")) == (
        "Pole „podzimní část“ musí ležet v období říjen–listopad 2026 (A.2.1); út 1. 9. 2026 mezi ně nepatří.")


@pytest.mark.parametrize("game, changes, english, czech", [
    ("carom", {"innings_limit": "0"}, "innings_limit (A.5.2) must be 1 to 1000, got 0",
     "Pravidlo „Limit náběhů v partii“ (A.5.2) musí být od 1 do 1000; zadáno 0."),
    ("8ball", {"win_points": "dva"}, "win_points (RULES 2.9) must be a whole number 0 to 100, got 'dva'",
     "Pravidlo „Body družstvu za vyhraný zápas“ (RULES 2.9) musí být celé číslo od 0 do 100; zadáno „dva“."),
    ("carom", {"partie_per_match": ""}, "partie_per_match (A.3.6) must be a whole number 1 to 20",
     "Pravidlo „Partií v utkání“ (A.3.6) musí být celé číslo od 1 do 20."),
    ("carom", {"prize_key": "a\nb"}, "prize_key (A.1.5) is one line of at most 500 characters",
     "Pravidlo „Klíč rozdělení cen“ (A.1.5) je jeden řádek o nejvýše 500 znacích."),
    ("carom", {"win_points": "3"}, "win_points (A.5.3) stays 2 this season: its matches stored were played and "
     "signed under it (A.1.2)", "Pravidlo „Body družstvu za vyhranou partii“ (A.5.3) zůstává v této sezóně 2: "
     "podle něj se odehrála a podepsala už uložená utkání (A.1.2)."),
])
def test_A_1_2_a_competitions_rule_is_named_by_its_key_in_english_and_its_label_in_czech(game, changes, english,
                                                                                         czech):
    """The organiser's rules (A.1.2) refused: the command line names the setting by its key, the site
    by the label the admin's form shows it under (one key may have a label per game)."""
    with pytest.raises(LeagueError) as refused:
        competition_rules.changed(game, {}, changes, has_results=True)
    assert str(refused.value) == english
    assert words.czech(refused.value) == czech


def test_a_text_the_catalog_does_not_know_stays_as_it_is():
    assert words.czech("Sokol Dvůr") == "Sokol Dvůr" and words.czech("") == ""
