"""What else a league match item carries (docs/record-format.md "The match item"): the captains
chosen after attendance (A.6.1) and the match's interruption (A.6.5: the partie in play or next,
the reason of rules/night.py's list, the home captain or null, the time). Checked at ingestion (422 naming
the field), read back for the zápis and the figures; an item without them stays valid.
"""
from server.league.errors import Refused
from server.league.item_fields import name, number

SIDES = ("home", "away")
REASONS = {"dispute": "rozpory, v utkání nelze pokračovat", "equipment": "porucha vybavení",
           "injury": "zranění nebo nevolnost", "closing": "zavírací doba herny", "other": "jiný důvod"}
# the counter's list (rules/night.py INTERRUPTIONS), each with the zápis's text


def check(summary: dict) -> None:
    """Refused (422) unless ``captains`` and ``interrupted`` are absent or well formed."""
    captains = summary.get("captains")
    if captains is not None:
        if not isinstance(captains, dict) or set(captains) - set(SIDES):
            raise Refused(422, "\"captains\" must be an object of \"home\" and \"away\" captains")
        for side, captain in captains.items():
            name(captain, f"the {side} captain (\"captains\")")
    interrupted = summary.get("interrupted")
    if interrupted is None:
        return
    if not isinstance(interrupted, dict):
        raise Refused(422, "\"interrupted\" must be an object (partie, reason, captain, at)")
    at = number(interrupted.get("partie"), "\"interrupted\" \"partie\" (the partie in play or next)", optional=False)
    if interrupted.get("reason") not in REASONS:
        raise Refused(422, f"\"interrupted\" \"reason\" must be one of {', '.join(REASONS)}")
    if interrupted.get("captain") is not None:
        name(interrupted["captain"], "\"interrupted\" \"captain\" (the home captain who confirmed it)")
    name(interrupted.get("at"), "\"interrupted\" \"at\"")
    partie = summary.get("partie")
    if isinstance(partie, list) and len(partie) != at - 1:
        raise Refused(422, f"\"interrupted\" at partie {at}: {at - 1} partie were closed before; "
                           f"the match lists {len(partie)}")


def read(summary) -> dict:
    """The captains (A.6.1) and the interruption (A.6.5) of a stored match item's summary as the
    zápis shows them; anything unreadable reads as none."""
    if not isinstance(summary, dict):
        return {"captains": None, "interruption": None}
    try:
        check(summary)
    except Refused:
        return {"captains": None, "interruption": None}
    interrupted = summary.get("interrupted")
    interruption = None if interrupted is None else {
        "partie": interrupted["partie"], "closed": interrupted["partie"] - 1, "reason": interrupted["reason"],
        "reason_text": REASONS[interrupted["reason"]], "captain": interrupted.get("captain"),
        "at": interrupted.get("at")}
    return {"captains": summary.get("captains"), "interruption": interruption}
