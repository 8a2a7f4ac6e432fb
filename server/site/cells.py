"""The parts of the site's tables (server/site/templates/_table.html): columns, and cells that show
a value the Czech way while sorting by the machine's (``data-sort``)."""
from server.site import czech
from server.site.language import N_, Msg

DASH = czech.DASH
RESULT_LETTERS = {"won": (N_("V"), "w", N_("výhra")), "drawn": (N_("R"), "d", N_("remíza")),
                  "lost": (N_("P"), "l", N_("prohra"))}


def col(text: str, cls: str = "", abbr: str | None = None, *, row: bool = False) -> dict:
    """A table's column: its heading, its cells' class (num, name, place, stick), a full name for
    an abbreviated heading; ``row``: its cells head their rows. The heading and its full name are
    shown in the reader's language (server/site/language.py)."""
    return {"text": Msg(text), "cls": cls, "abbr": None if abbr is None else Msg(abbr), "row": row}


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
