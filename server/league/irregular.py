"""What a league match's own record breaks of the league's rules on who plays and who answers for
a team: the counter's lot and attendance make both impossible at the table, so a match that breaks
them is a mis-set or hand-made record (server/tables/standing.py):

    A.3.6   a player who played more than one partie for his team in the match, in a game whose
            players play once (carom, RULES 1.6 Decision: the lot picks 4 players of each team,
            each plays once)
    A.6.1   a captain (chosen, confirming an interruption, signing or objecting) who is not a member
            of his team in the match: neither on its roster nor among those who played for it

Each is ``{"rule", "side", "name"}``, with ``partie`` (their numbers) for A.3.6 and ``played_for``
(the other side, or None) for A.6.1. What the match's own record shows — a player twice, a captain
who played for the other team — holds the match until the organiser's ruling (``holding``). A
captain found on neither list only because of the roster is flagged, as a name off the roster is
(A.3.4): rosters change during the season, a match's record does not, and its standing must not
follow a later roster edit.
"""
from server.league import names

SIDES = ("home", "away")


def irregularities(record: dict, lineup: list[dict], rosters: dict[str, list[str]], *,
                   plays_once: bool) -> list[dict]:
    """The breaches of A.3.6 and A.6.1 in a match record (``lineup``: every partie of it), given
    each side's roster."""
    return (_played_twice(lineup) if plays_once else []) + _captains_astray(record, lineup, rosters)


def _played_twice(lineup: list[dict]) -> list[dict]:
    found = []
    for side in SIDES:
        partie_of: dict[str, list] = {}
        spelling: dict[str, str] = {}
        for p in lineup:
            name = p[side]["name"]
            if name:
                spelling.setdefault(names.identity(name), name)
                partie_of.setdefault(names.identity(name), []).append(p["number"])
        found += [{"rule": "A.3.6", "side": side, "name": spelling[key], "partie": numbers}
                  for key, numbers in partie_of.items() if len(numbers) > 1]
    return found


def clauses(entries: list[dict]) -> str:
    """The clauses the breaches break, "A.3.6, A.6.1"."""
    return ", ".join(sorted({e["rule"] for e in entries}))


def holding(entries: list[dict]) -> list[dict]:
    """The breaches the match's own record shows, which hold it for the organiser's ruling."""
    return [e for e in entries if e["rule"] == "A.3.6" or e.get("played_for") is not None]


def ruled_under(match: dict) -> str:
    """The clauses the organiser's ruling on a match (a fixture or a match record, by its
    ``irregular``) is made under: those it broke when its record holds it, else A.6.5 (an
    interrupted match)."""
    held = holding(match.get("irregular") or [])
    return clauses(held) if held else "A.6.5"


def _captains_astray(record: dict, lineup: list[dict], rosters: dict[str, list[str]]) -> list[dict]:
    found: list[dict] = []
    for side, other in zip(SIDES, reversed(SIDES)):
        played = {other: [p[other]["name"] for p in lineup if p[other]["name"]],
                  side: [p[side]["name"] for p in lineup if p[side]["name"]]}
        for captain in dict.fromkeys(_captains(record, side)):
            if names.find(captain, played[side]) is not None:
                continue
            elsewhere = names.find(captain, played[other]) is not None
            if elsewhere or names.find(captain, rosters[side]) is None:
                found.append({"rule": "A.6.1", "side": side, "name": captain, "played_for": other if elsewhere else None})
    return found


def _captains(record: dict, side: str) -> list[str]:
    """Everyone who answers for ``side``: its chosen captain, the home captain who confirmed an
    interruption, and who signed or objected for it."""
    chosen = [(record.get("captains") or {}).get(side)]
    if side == "home":
        chosen.append((record.get("interruption") or {}).get("captain"))
    answering = [a["captain"] for a in record.get("signatures", []) + record.get("objections", [])
                 if a["side"] == side]
    return [c for c in chosen + answering if c]
