"""A league match record's players under the names their team's season knows them by (A.3.4,
server.league.names ``on_roster``): the organiser's correction of a name (``player-rename``), and
the roster's spelling of a name written otherwise ("Jan Novak" for the roster's "Jan Novák").

The stored records are the league's signed evidence and are never rewritten; the match record
read from them shows, counts and checks the roster's name, and says what the record carries in
``renamed``: ``{"side", "name", "recorded"}`` for each name read otherwise (the zápis notes it).
"""
from server.league import names

SIDES = ("home", "away")


def as_rostered(record: dict, lineup: list[dict], teams: dict[str, dict | None]) -> None:
    """Name every player and captain of ``record`` (``lineup``: its partie) whose side's team is
    known (``teams``: side -> its team of League.teams, or None) as his team's season does."""
    read: dict[tuple, None] = {}

    def named(side: str, name):
        team = teams.get(side)
        if not name or team is None:
            return name
        known = names.on_roster(name, team["players"], team["renamed"])
        if known != name:
            read[(SIDES.index(side), known, name)] = None
        return known

    for p in lineup:
        for side in SIDES:
            p[side] = dict(p[side], name=named(side, p[side]["name"]))
    if record.get("captains"):
        record["captains"] = {side: named(side, captain) for side, captain in record["captains"].items()}
    if record.get("interruption"):
        record["interruption"] = dict(record["interruption"], captain=named("home", record["interruption"]["captain"]))
    for key in ("signatures", "objections"):
        record[key] = [dict(answer, captain=named(answer["side"], answer["captain"])) for answer in record.get(key, [])]
    record["renamed"] = [{"side": SIDES[side], "name": known, "recorded": name} for side, known, name in sorted(read)]
