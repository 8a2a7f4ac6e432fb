"""Reading stored items back: what the games' match records and figures share.

Every reader here survives an item it cannot read (stored before ingestion checked every field,
or a bug): such an item is listed by id as unreadable and the rest of the page stays intact.
"""
import json

from server.league import captains, match_fields
from server.league.competition_rules import forfeit_points
from server.league.errors import Refused
from server.league.verify import match_summary
from server.storage.figures import SUMMED

SIDES = ("home", "away")
OTHER = {"home": "away", "away": "home"}
UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, IndexError, StopIteration)


def side_of(letter, home: str):
    """A player letter ("a"/"b") as the side ("home"/"away") it played for, ``home`` being the home
    player's letter; anything else (None, "draw") stays as it is."""
    if letter not in ("a", "b"):
        return letter
    return "home" if letter == home else "away"


class Stored(dict):
    """A stored item's row whose body (and a partie's header) is parsed once, however many of the
    readers of a match read it (a match record reads each row's body up to five times). The parsed
    objects live as long as the rows (one ``match_record``); they are not keys of the row."""
    __slots__ = ("content", "header")
    content: dict
    header: dict


def stored(rows) -> list[dict]:
    """A match's rows as rows whose readers share one parse of each body (``content_of``)."""
    return [Stored(row) for row in rows]


def content_of(row) -> dict:
    content = getattr(row, "content", None)
    if content is None:
        content = json.loads(row["body"])
        if not isinstance(content, dict):
            raise ValueError("not a JSON object")
        if isinstance(row, Stored):
            row.content = content
    return content


def header_of(record_text: str) -> dict:
    header = json.loads(next(line for line in record_text.splitlines() if line.strip()))
    if not isinstance(header, dict):
        raise ValueError("the record's header is not a JSON object")
    return header


def partie_header(row) -> dict:
    """``header_of`` a stored partie's record (parsed once for a ``Stored`` row)."""
    header = getattr(row, "header", None)
    if header is None:
        header = header_of(content_of(row)["record"])
        if isinstance(row, Stored):
            row.header = header
    return header


def _closing(rows) -> dict | None:
    for row in rows:
        if row["kind"] == "match":
            try:
                return content_of(row)
            except UNREADABLE:
                return None
    return None


def match_info(rows) -> tuple[dict, list[str], dict | None, bool]:
    """(venue/date/teams/seed, partie ids the match item names, team points it declares, closed?)
    of one match's stored rows: the closing match item first, then the first partie's header."""
    closing = _closing(rows)
    try:
        info, listed, declared = match_summary(closing["summary"]) if closing else ({}, [], None)
    except (Refused, *UNREADABLE):
        info, listed, declared = {}, [], None
    for row in rows:
        if row["kind"] != "partie":
            continue
        try:
            header = partie_header(row)
        except UNREADABLE:
            continue
        match = header.get("match")
        for key, value in (match.items() if isinstance(match, dict) else ()):
            info.setdefault(key, value)
        for key in ("venue", "date"):
            if header.get(key) is not None:
                info.setdefault(key, header[key])
        break
    info = {key: value for key, value in info.items() if isinstance(value, (str, int))}
    return info, listed, declared, closing is not None


def forfeit_of(rows) -> str | None:
    """The team ("home"/"away") that did not turn up, as the match item says (RULES 1.6, A.3.7)."""
    closing = _closing(rows) or {}
    summary = closing.get("summary")
    forfeit = summary.get("forfeit") if isinstance(summary, dict) else None
    return forfeit if forfeit in SIDES else None


def captains_of(rows) -> dict:
    """The captains' answers the match item carries (A.6.9d, A.6.3, A.6.5; server.league.captains)."""
    closing = _closing(rows) or {}
    return captains.read(closing.get("summary"))


def league_fields_of(rows) -> dict:
    """The captains chosen (A.6.1) and the interruption (A.6.5) the match item carries, and whether
    the match was interrupted (the item's interruption, or a captain's objection saying so)."""
    closing = _closing(rows) or {}
    fields = match_fields.read(closing.get("summary"))
    objected = captains.read(closing.get("summary"))["interrupted"]
    return {**fields, "interrupted": objected or fields["interruption"] is not None}


def in_playing_order(rows, entry) -> tuple[list[dict], list[str]]:
    """(``entry(row)`` of each readable stored partie of a match by partie number (unnumbered last)
    then id, the ids of the partie that could not be read)."""
    entries, unreadable = [], []
    for row in rows:
        if row["kind"] != "partie":
            continue
        try:
            entries.append(entry(row))
        except UNREADABLE:
            unreadable.append(row["id"])
    number = [e["number"] if isinstance(e["number"], int) and not isinstance(e["number"], bool) else None
              for e in entries]
    order = sorted(range(len(entries)), key=lambda i: (number[i] is None, number[i] or 0, str(entries[i]["id"])))
    return [entries[i] for i in order], unreadable


def missing(listed: list[str], entries: list[dict]) -> list[str]:
    """The partie ids the match item names that were not received."""
    received = {e["id"] for e in entries}
    return [pid for pid in listed if pid not in received]


def result_points(played: dict, forfeit: str | None, rules: dict) -> dict:
    """The match points: summed over the partie received, or for a match a team did not turn up
    to (A.3.7) the competition's forfeit score for the team that did (``rules``)."""
    if not forfeit:
        return played
    return {side: 0 if side == forfeit else forfeit_points(rules) for side in SIDES}


def whole(value, *, optional: bool = False):
    """An integer figure of a stored item (a bool or text is unreadable, not a number)."""
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not a whole number: {value!r}")
    return value


def text(value, *, optional: bool = True):
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"not a text: {value!r}")
    return value


def outcome(winner, side: str) -> dict:
    """won/drawn/lost of one side, from the winning side ("home"/"away", "draw", None unfinished)."""
    return {"won": int(winner == side), "drawn": int(winner == "draw"),
            "lost": int(winner in OTHER and winner != side)}


def zero_figures() -> dict:
    """A team's figures of a match before anything is counted."""
    return dict.fromkeys(SUMMED, 0)
