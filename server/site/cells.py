"""The parts of the site's tables (server/site/templates/_table.html): columns, and cells that show
a value the Czech way while sorting by the machine's (``data-sort``)."""
from server.site import czech

DASH = czech.DASH
RESULT_LETTERS = {"won": ("V", "w", "výhra"), "drawn": ("R", "d", "remíza"), "lost": ("P", "l", "prohra")}


def col(text: str, cls: str = "", abbr: str | None = None, *, row: bool = False) -> dict:
    """A table's column: its heading, its cells' class (num, name, place, stick), a full name for
    an abbreviated heading; ``row``: its cells head their rows."""
    return {"text": text, "cls": cls, "abbr": abbr, "row": row}


def grid(label: str, head: list[dict], rows: list[list], *, sortable: bool = False, table_id: str | None = None) -> dict:
    """A table as server/site/templates/_table.html lays it out; ``label`` names its scroll box."""
    return {"label": label, "head": head, "rows": rows, "sortable": sortable, "id": table_id}


def number(value) -> dict | str:
    """A decimal as the page shows it ("3,500"), sorted by its value."""
    if value is None:
        return DASH
    return {"text": czech.decimal(value), "sort": str(value)}


def signed(value: int) -> dict:
    return {"text": czech.signed(value), "sort": str(value)}


def pair(a: int, b: int) -> dict:
    """"5:3", sorted by the difference."""
    return {"text": f"{a}:{b}", "sort": str(a - b)}


def form(results: list[str]) -> dict:
    """The last results as letters: V (výhra), R (remíza), P (prohra), oldest first."""
    letters = [RESULT_LETTERS[r] for r in results]
    return {"form": [{"text": t, "cls": c, "title": title} for t, c, title in letters],
            "text": "".join(t for t, _, _ in letters), "sort": str(sum({"won": 3, "drawn": 1}.get(r, 0) for r in results))}
