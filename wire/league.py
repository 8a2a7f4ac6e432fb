"""The league document: what a receiver sends a venue's device (teams, rosters, fixtures).

Both ends read it through ``parse_document``, which checks every field and returns the same
plain data in a canonical form (texts stripped, optional fields filled in), or raises
``LeagueError`` naming the first field that is wrong::

    {"league": {"name": "Královédvorská kulečníková liga", "season": "2026/27", "competition": "carom",
                "rules": {"points_limit": 200, "innings_limit": 15, "partie_per_match": 4}},
     "teams": [{"name": "Sokol Dvůr", "venue": "Hospoda U Lva", "players": ["Novák", "Dvořák"],
                "captain": "Novák"}],
     "fixtures": [{"id": "2026-11-29-sokol-jiskra", "date": "2026-11-29", "start": "17:00",
                   "home": "Sokol Dvůr", "away": "Jiskra Hořice", "venue": "Hospoda U Lva"}]}

Texts are valid, printable Unicode of 1 to 200 characters; team names, players of a team and
fixture ids are unique; a fixture's teams are in ``teams`` and differ; dates are ``YYYY-MM-DD``,
start times ``HH:MM``; a fixture without a venue is played at its home team's. ``rules`` are the
competition's rules of play (issue 22): each a whole number 1 to 10,000, the team points
(``win_points``, ``draw_points``, ``loss_points``: A.5.3-A.5.5, RULES 2.9) 0 to 100; absent (an
older receiver): ``{}``, and the counter plays by its config. Keys this version
does not know are left out (a newer receiver may add some); known keys of the wrong type are errors.
"""
import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from rules.core import JSONObject
from rules.game import MAX_TEAM_POINTS

MAX_TEXT = 200
MAX_TEAMS = 500
MAX_PLAYERS = 100           # on one team's roster
MAX_FIXTURES = 5000
MAX_BYTES = 1 << 20         # the document as JSON, at most
RULES = ("points_limit", "innings_limit", "games_to_win", "sets_to_win", "partie_per_match")
MAX_RULE = 10_000
TEAM_POINT_RULES = ("win_points", "draw_points", "loss_points")    # A.5.3-A.5.5, RULES 2.9
RANGES = {**{key: (1, MAX_RULE) for key in RULES}, **{key: (0, MAX_TEAM_POINTS) for key in TEAM_POINT_RULES}}
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}")     # as the receiver demands of a match id


class LeagueError(ValueError):
    """The document is not a league document; the message names the field."""


def parse_document(doc: object) -> JSONObject:
    """The checked, canonical league document (LeagueError says what is wrong)."""
    top = _object(doc, "the league document")
    head = _object(top.get("league", {}), "\"league\"")
    league = {"name": _optional_text(head.get("name"), "\"league\" \"name\"") or "",
              "season": _optional_text(head.get("season"), "\"league\" \"season\""),
              "competition": _optional_text(head.get("competition"), "\"league\" \"competition\""),
              "rules": _rules(head.get("rules", {}))}
    teams = [_team(t, i) for i, t in enumerate(_list(top.get("teams", []), "\"teams\"", MAX_TEAMS))]
    _unique([t["name"] for t in teams], "team", "teams")
    venues = {t["name"]: t["venue"] for t in teams}
    fixtures = [_fixture(f, i, venues) for i, f in enumerate(_list(top.get("fixtures", []), "\"fixtures\"",
                                                                   MAX_FIXTURES))]
    _unique([f["id"] for f in fixtures], "fixture id", "fixtures")
    return {"league": league, "teams": teams, "fixtures": fixtures}


def _rules(value: object) -> JSONObject:
    """The competition's rules of play: the known keys, each a whole number in its range (RANGES)."""
    rules = _object(value, "\"league\" \"rules\"")
    out: JSONObject = {}
    for key, (least, most) in RANGES.items():
        if key not in rules:
            continue
        number = rules[key]
        if isinstance(number, bool) or not isinstance(number, int) or not least <= number <= most:
            raise LeagueError(f"\"league\" \"rules\" \"{key}\" must be a whole number {least} to {most}, "
                              f"got {_shown(number)}")
        out[key] = number
    return out


def _team(value: object, i: int) -> JSONObject:
    where = f"\"teams\" {i + 1}"
    team = _object(value, where)
    players = [checked_text(p, f"{where} \"players\" {j + 1}")
               for j, p in enumerate(_list(team.get("players", []), f"{where} \"players\"", MAX_PLAYERS))]
    _unique(players, "player", f"{where} \"players\"")
    captain = _optional_text(team.get("captain"), f"{where} \"captain\"")
    if captain is not None and captain not in players:
        raise LeagueError(f"{where} \"captain\": {captain!r} is not on the team's roster")
    return {"name": checked_text(team.get("name"), f"{where} \"name\""),
            "venue": _optional_text(team.get("venue"), f"{where} \"venue\"") or "",
            "players": players, "captain": captain}


def _fixture(value: object, i: int, venues: dict[str, str]) -> JSONObject:
    where = f"\"fixtures\" {i + 1}"
    fixture = _object(value, where)
    home, away = (checked_text(fixture.get(side), f"{where} \"{side}\"") for side in ("home", "away"))
    for side, team in (("home", home), ("away", away)):
        if team not in venues:
            raise LeagueError(f"{where} \"{side}\": no team {team!r} in \"teams\"")
    if home == away:
        raise LeagueError(f"{where} \"away\": a team cannot play itself")
    fixture_id = fixture.get("id")
    if not isinstance(fixture_id, str) or not ID.fullmatch(fixture_id):
        raise LeagueError(f"{where} \"id\" must be 1 to 128 characters of A-Z a-z 0-9 . _ : @ + - "
                          f"(starting with a letter or digit), got {_shown(fixture_id)}")
    start = fixture.get("start")
    return {"id": fixture_id, "date": _iso(fixture.get("date"), f"{where} \"date\"", DATE_FORM),
            "start": None if start is None else _iso(start, f"{where} \"start\"", TIME_FORM),
            "home": home, "away": away,
            "venue": _optional_text(fixture.get("venue"), f"{where} \"venue\"") or venues[home]}


def _object(value: object, what: str) -> JSONObject:
    if not isinstance(value, dict):
        raise LeagueError(f"{what} must be a JSON object, got {_shown(value)}")
    return value


def _list(value: object, what: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise LeagueError(f"{what} must be a list, got {_shown(value)}")
    if len(value) > most:
        raise LeagueError(f"{what} holds {len(value)} entries, at most {most} are allowed")
    return value


def checked_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise LeagueError(f"{what} must be a text, got {_shown(value)}")
    text = value.strip()
    if not 1 <= len(text) <= MAX_TEXT:
        raise LeagueError(f"{what} must be a text of 1 to {MAX_TEXT} characters, got {_shown(value)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:      # a lone surrogate from a crafted \ud800 escape
        raise LeagueError(f"{what} is not valid Unicode, got {_shown(value)}") from None
    if not text.isprintable():
        raise LeagueError(f"{what} must be printable text, got {_shown(value)}")
    return text


def _optional_text(value: object, what: str) -> str | None:
    return None if value is None or value == "" else checked_text(value, what)


# (the pattern, the parser, "must be ..." and "is not ...") of a date and of a start time
Form = tuple[re.Pattern[str], Callable[[str], object], str, str]
DATE_FORM: Form = (re.compile(r"\d{4}-\d{2}-\d{2}"), dt.date.fromisoformat, "a date like 2026-11-29", "a day of the calendar")
TIME_FORM: Form = (re.compile(r"\d{2}:\d{2}"), dt.time.fromisoformat, "a time like 17:00", "a time of day")


def _iso(value: object, what: str, form: Form) -> str:
    """A date or a time in its one ISO spelling (kept as the text)."""
    pattern, parse, shape, meaning = form
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise LeagueError(f"{what} must be {shape}, got {_shown(value)}")
    try:
        parse(value)
    except ValueError:
        raise LeagueError(f"{what} is not {meaning}, got {_shown(value)}") from None
    return value


def _unique(names: list[str], what: str, where: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise LeagueError(f"{where}: {what} {name!r} is listed twice")
        seen.add(name)


def _shown(value: object) -> str:
    return ascii(value)[:60]
