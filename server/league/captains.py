"""The captains' answers a match item carries (A.6.9d signatures, A.6.3 / A.6.5 objections, the
sides left unsigned): checked at ingestion (422 otherwise), read back for the zápis.

An item from before the captains signed has none of the three keys and stays valid: its zápis
simply lists no answers.
"""
from server.league.errors import Refused
from server.league.item_fields import name, number

SIDES = ("home", "away")
KINDS = ("referee", "scoring", "interrupted")      # A.6.3 (referee, scorer), A.6.5
KEYS = ("signatures", "objections", "unsigned")
EMPTY = {"signatures": [], "objections": [], "unsigned": [], "interrupted": False}


def check(summary: dict) -> None:
    """Refused (422) unless each of the three is absent or a list of well-formed answers, each team
    answering at most once."""
    sides = []
    for key in KEYS:
        entries = summary.get(key)
        if entries is None:
            continue
        if not isinstance(entries, list) or len(entries) > len(SIDES):
            raise Refused(422, f"\"{key}\" must be a list of at most {len(SIDES)} answers")
        for entry in entries:
            sides.append(_side(entry if key == "unsigned" else _answer(entry, key), key))
    if len(sides) != len(set(sides)):
        raise Refused(422, "a team's captain answers the zápis once: signature, objection or unsigned")


def _answer(entry, key: str):
    if not isinstance(entry, dict):
        raise Refused(422, f"each of \"{key}\" must be an object")
    name(entry.get("captain"), f"the captain of {key}", optional=False)
    name(entry.get("at"), f"the time of {key}")
    if key == "objections":
        if entry.get("kind") not in KINDS:
            raise Refused(422, f"an objection's \"kind\" must be one of {', '.join(KINDS)}")
        number(entry.get("partie"), "an objection's \"partie\"")
    return entry.get("side")


def _side(side, key: str) -> str:
    if side not in SIDES:
        raise Refused(422, f"each of \"{key}\" names the side \"home\" or \"away\"")
    return side


def read(summary) -> dict:
    """The answers of a stored match item's summary as the zápis shows them, and whether a captain
    said the match was interrupted (A.6.5). Anything unreadable reads as no answers."""
    if not isinstance(summary, dict):
        return dict(EMPTY)
    try:
        check(summary)
    except Refused:
        return dict(EMPTY)
    out: dict = {key: list(summary.get(key) or []) for key in KEYS}
    out["signatures"] = [_fields(s, ("side", "captain", "at")) for s in out["signatures"]]
    out["objections"] = [_fields(o, ("side", "captain", "kind", "partie", "at")) for o in out["objections"]]
    out["interrupted"] = any(o["kind"] == "interrupted" for o in out["objections"])
    return out


def _fields(entry: dict, keys: tuple) -> dict:
    return {key: entry.get(key) for key in keys}
