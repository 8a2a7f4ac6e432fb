"""The Czech texts of the site's code and templates (the public pages and the organiser's admin)
that the English catalog must have (server/site/language.py): found in the code as ``say``,
``N_``, ``plural`` and ``col`` calls write them, in the templates as Jinja2's i18n extension
extracts them, and the competition rules' labels the admin shows (server/league/competition_rules.py
``Setting``, the league's Czech)."""
import ast
import re
from pathlib import Path

from server.site import pages

ROOT = Path(__file__).resolve().parents[3]
SITE = ROOT / "server" / "site"
RULES = ROOT / "server" / "league" / "competition_rules.py"
CALLS = {"say": (0,), "N_": (0,), "plural": (0, 1), "col": (0, 2), "Setting": (1,)}     # the arguments that are texts


def _texts(call: ast.Call) -> list[str]:
    name = getattr(call.func, "id", None) or getattr(call.func, "attr", None)
    places = CALLS.get(name, ())
    args = [call.args[n] for n in places if n < len(call.args)]
    args += [k.value for k in call.keywords if name == "col" and k.arg == "abbr"]
    found = []
    for node in args:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append(node.value)
        elif isinstance(node, ast.IfExp):           # say("…" if x else "…", …)
            found += [n.value for n in (node.body, node.orelse) if isinstance(n, ast.Constant)]
    return found


def in_the_code() -> set[str]:
    found = set()
    for path in sorted(SITE.glob("*.py")) + [RULES]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found |= set(_texts(node))
    return {t for t in found if re.search(r"[^\W\d_]", t)}         # "#", "1" have no words


def in_the_templates() -> set[str]:
    found = set()
    for path in sorted((SITE / "templates").glob("*.html")):
        for _, _, message in pages._env.extract_translations(path.read_text(encoding="utf-8")):
            found |= {m for m in (message if isinstance(message, tuple) else (message,)) if isinstance(m, str)}
    return found


# Czech by design, not to be translated: the iCalendar feed (an export), the Czech forms of dates
# and weekdays, the switch's "Česky", the rules as the league publishes them.
CZECH_BY_DESIGN = {"calendar.py", "czech.py", "language.py", "rules.html"}
DIACRITICS = re.compile(r"[áčďéěíňóřšťúůýž]", re.I)


def _docstrings(tree) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def unmarked() -> list[tuple[str, str]]:
    """(file, text) of each Czech text the site's code or templates write without marking it for
    translation: an English page would show it in Czech, and no test of the catalog would miss it."""
    found = []
    for path in sorted(SITE.glob("*.py")):
        if path.name in CZECH_BY_DESIGN:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        said = {id(n) for call in ast.walk(tree) if isinstance(call, ast.Call)
                for n in ast.walk(call) if isinstance(n, ast.Constant) and n.value in _texts(call)}
        found += [(path.name, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant)
                  and isinstance(n.value, str) and DIACRITICS.search(n.value) and id(n) not in said | _docstrings(tree)]
    for path in sorted((SITE / "templates").glob("*.html")):
        if path.name in CZECH_BY_DESIGN:
            continue
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", path.read_text(encoding="utf-8"), flags=re.S)
        found += [(path.name, word) for word in re.findall(r"[^\W\d_]+", text) if DIACRITICS.search(word)]
    return found
