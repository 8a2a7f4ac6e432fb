"""The live page, the overlay and their one script and style sheet.

The pages are static shells; ``static/live.js`` draws the state into them with ``textContent``
only (never markup), first from the state embedded in the page, then from each event. Names can
hold anything: the embedded JSON has ``<``, ``>`` and ``&`` escaped, the few words the server
writes into the markup go through ``html.escape``.
"""
import html
import json
from functools import lru_cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
ASSETS = {"/live.js": ("live.js", "text/javascript; charset=utf-8"),
          "/live.css": ("live.css", "text/css; charset=utf-8"),
          "/favicon.svg": ("favicon.svg", "image/svg+xml")}
PAGES = {"/": "page", "/overlay": "overlay"}
HTML = "text/html; charset=utf-8"


def page(path: str, state: dict) -> tuple[bytes, str] | None:
    """(body, content type) of ``path``; None when there is no such page."""
    if path in ASSETS:
        name, content_type = ASSETS[path]
        return _static(name), content_type
    if path in PAGES:
        return render(PAGES[path], state).encode(), HTML
    return None


@lru_cache(maxsize=None)
def _static(name: str) -> bytes:
    return (STATIC / name).read_bytes()


@lru_cache(maxsize=None)
def texts() -> dict:
    """The page's words by language (texts.toml)."""
    import tomllib

    return tomllib.loads((Path(__file__).resolve().parent / "texts.toml").read_text(encoding="utf-8"))


def render(kind: str, state: dict) -> str:
    language = state.get("language") if state.get("language") in texts() else "cs"
    words = texts()[language]
    title = f"{words['table']} {state.get('table', '')} · {state.get('venue', '')}"
    data = {"state": state, "words": words}
    # the overlay declares no dark scheme: a browser source must not paint a dark canvas under it
    return _static("shell.html").decode().format(
        lang=language, kind=kind, scheme="dark" if kind == "page" else "normal",
        title=html.escape(title), data=script_json(data))


def script_json(value) -> str:
    """JSON safe inside <script type="application/json">: no "</script>", no "<!--", no entities."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
