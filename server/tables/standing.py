"""Where a match stands in its league (issue 22): what the zápis shows and what the figures count.

``judged`` adds to a match record the fixture it is the result of (``fixture``, ``part``,
``assigned_by``), the organiser's ruling (A.6.5), its ``standing`` and what the organiser must look
at (``unrostered``: names not on the roster of the team they played for, A.3.4; ``irregular``: a
player who played twice, A.3.6, or a captain not of his team, A.6.1, server/league/irregular.py;
the first, and a captain who played for the other team, hold the match):

    counted      it counts in the table, the rankings, the players' statistics and the exports
    unassigned   two teams of the competition, off the schedule: it counts nowhere until the
                 organiser assigns it to a fixture (a friendly never moves the table)
    pending      interrupted (A.6.5), or irregular by its own record (A.3.6, A.6.1): it counts
                 nowhere until the organiser rules on it (an irregular match is awarded,
                 server.storage.results)
    annulled     a team of it is expelled (A.3.7): it counts nowhere
    friendly     a team of it is not of the competition ("Jiné utkání"): it never moves the table

A match of a season the league does not hold, or of a competition without teams, counts as
before (a receiver without its league). An award (A.6.5) replaces the match's team points by the
awarded ones. ``stand_in`` is the organiser's no-show (A.3.7) as a match item of its own, so the
forfeit has a zápis and figures like a device's. A league match's players and captains go by
their team's roster's names in all it shows, counts and checks (``renamed``: the names its record
carries otherwise, server/tables/roster_names.py).
"""
import json

from server.league import competition_rules, names
from server.league.irregular import holding, irregularities
from server.tables.roster_names import as_rostered
from server.tables.sums import season_of

STANDINGS = ("counted", "unassigned", "pending", "annulled", "friendly")


def judged(store, record: dict, rules: dict | None, game) -> dict:
    """The record with its league standing (``game``: its server.tables.games entry, for the names)."""
    assignment = store.results.assignment(record["match"])
    fixture = store.fixtures.get(assignment["fixture"]) if assignment else None
    ruling = fixture["ruling"] if fixture else None
    record.update(fixture=fixture["id"] if fixture else None, part=assignment["part"] if assignment else None,
                  assigned_by=assignment["by"] if assignment else None, ruling=ruling, unrostered=[],
                  irregular=[], renamed=[], awarded=False, standing="counted", replay=_replay(fixture))
    if rules is None:
        return record
    teams = store.league.teams(season_of(record.get("date")), record["game"])
    mine = [next((t for t in teams if names.same(t["name"], record.get(side))), None) for side in ("home", "away")]
    home, away = mine
    as_rostered(record, game.lineup(record), {"home": home, "away": away})
    if home is not None and away is not None:       # each side's names against its own team's roster (A.3.4)
        rosters = {"home": home["players"], "away": away["players"]}
        record["unrostered"] = sorted({p[side]["name"] for p in game.played(record) for side in ("home", "away")
                                       if p[side]["name"] and names.find(p[side]["name"], rosters[side]) is None})
        record["irregular"] = irregularities(record, game.lineup(record), rosters, plays_once=game.plays_once(record))
    if any(t is not None and t["expelled"] for t in mine):
        record["standing"] = "annulled"
    elif fixture is not None:
        held = record.get("interrupted") or holding(record["irregular"])
        if held and assignment["part"] == 1 and ruling is None:
            record["standing"] = "pending"
        elif ruling is not None and ruling["kind"] == "award" and assignment["part"] == 1:
            record["points"] = {"home": ruling["points_home"], "away": ruling["points_away"]}
            record["awarded"] = True
    elif all(mine):
        record["standing"] = "unassigned"
    elif teams:
        record["standing"] = "friendly"
    return record


def _replay(fixture: dict | None) -> dict | None:
    """An interrupted match the organiser ruled be finished (A.6.5): the day of the rest, its two
    parts' match ids (the rest's None until played) and the fixture's whole score so far."""
    if fixture is None or (fixture["ruling"] or {}).get("kind") != "replay":
        return None
    return {"date": fixture["ruling"]["date"], "first": fixture["match"], "rest": fixture["continuation"],
            "points": {"home": fixture["points_home"], "away": fixture["points_away"]}}


def _forfeit_score(store, fixture: dict, absent: str) -> dict:
    """The team points of the organiser's no-show (A.3.7): the competition's forfeit score to the
    team that came, as the record computes it (so its zápis declares what it shows)."""
    points = competition_rules.forfeit_points(store.league.rules(fixture["season"], fixture["competition"]))
    return {side: 0 if side == absent else points for side in ("home", "away")}


def stand_in(store, match_id: str) -> list[dict]:
    """The organiser's no-show (A.3.7) of a fixture still without a device's record of it, as the
    rows of a match item under the fixture's id (none for any other id)."""
    assignment = store.results.assignment(match_id)
    if assignment is None or assignment["fixture"] != match_id:
        return []
    fixture = store.fixtures.get(match_id)
    if fixture["no_show"] is None:
        return []
    absent = "home" if fixture["home"] == fixture["no_show"]["team"] else "away"
    summary = {"id": match_id, "game": fixture["competition"], "date": fixture["date"], "venue": fixture["venue"],
               "home": fixture["home"], "away": fixture["away"], "fixture": match_id, "forfeit": absent,
               "points": _forfeit_score(store, fixture, absent), "partie": [], "recorded_by": "organiser"}
    body = json.dumps({"id": match_id, "kind": "match", "record": "", "summary": summary}, ensure_ascii=False)
    return [{"id": match_id, "kind": "match", "game": fixture["competition"], "match_id": match_id,
             "device": "organiser", "via": "organiser", "received": assignment["at"], "body": body.encode("utf-8")}]
