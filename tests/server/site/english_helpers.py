"""The Czech texts of the public site's code and templates that the English catalog must have
(server/site/language.py): found in the code as ``say``, ``N_``, ``plural`` and ``col`` calls
write them, and in the templates as Jinja2's i18n extension extracts them. The organiser's pages
(admin) stay Czech and are not looked at."""
import ast
import re
from pathlib import Path

from server.site import pages

ROOT = Path(__file__).resolve().parents[3]
SITE = ROOT / "server" / "site"
ADMIN = ("admin_web.py", "admin_session.py")
CALLS = {"say": (0,), "N_": (0,), "plural": (0, 1), "col": (0, 2)}     # the arguments that are texts


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
    for path in sorted(SITE.glob("*.py")):
        if path.name in ADMIN:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found |= set(_texts(node))
    return {t for t in found if re.search(r"[^\W\d_]", t)}         # "#", "1" have no words


def in_the_templates() -> set[str]:
    found = set()
    for path in sorted((SITE / "templates").glob("*.html")):
        if "admin" in path.name:
            continue
        for _, _, message in pages._env.extract_translations(path.read_text(encoding="utf-8")):
            found |= {m for m in (message if isinstance(message, tuple) else (message,)) if isinstance(m, str)}
    return found
