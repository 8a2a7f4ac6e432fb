"""The league file: teams with their players, and the fixtures of the season.

::

    [league]
    name = "Královédvorská kulečníková liga"

    [[teams]]
    name = "Sokol Dvůr"
    venue = "Hospoda U Lva"            # the team's home venue
    players = ["Novák", "Dvořák", "Svoboda", "Černý", "Procházka"]

    [[fixtures]]
    date = 2026-11-29                  # a TOML date
    home = "Sokol Dvůr"
    away = "Jiskra Hořice"
    id = "2026-11-29-sokol-jiskra"     # optional; made from date and teams otherwise
    start = 17:00:00                   # optional: a TOML time

A fixture is played at its ``venue`` if given, else at the home team's venue.

``league_from_document`` makes the same League of the document a receiver sends (wire.league),
which a device fetches and caches (firmware_host.league_keeper, docs/league.md).
"""
import datetime as dt
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from config.load import read_toml
from config.options import Section


@dataclass(frozen=True)
class Team:
    """A team of the league file: its name, its home venue and its players."""
    name: str
    venue: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Fixture:
    """A fixture of the league file: on which date which team plays which."""
    id: str
    date: dt.date
    home: str
    away: str
    venue: str
    start: dt.time | None = None


@dataclass(frozen=True)
class League:
    """The league file (or the receiver's answer): its teams, fixtures and rules of play."""
    name: str
    teams: tuple[Team, ...]
    fixtures: tuple[Fixture, ...]
    rules: Mapping[str, int] = field(default_factory=dict)    # the competition's rules of play (wire.league)

    def rules_header(self, game: str, config_rules: dict) -> dict:
        """A league partie's rules: the competition's (from the receiver) over the config's, which
        are the fallback for a league without them (league.toml, an older receiver)."""
        return {**config_rules, **{key: value for key, value in self.rules.items() if key in config_rules}}

    def team(self, name: str) -> Team:
        for team in self.teams:
            if team.name == name:
                return team
        raise KeyError(name)

    def fixtures_for(self, venue: str, date: dt.date, days: int = 0) -> list[Fixture]:
        """This venue's fixtures (matched without regard to case and spacing) within ``days`` of
        ``date``: that date's first, then the nearest (a postponed match, a night begun before
        midnight), earlier before later at the same distance."""
        key = _fold(venue)
        near = [f for f in self.fixtures if abs((f.date - date).days) <= days and _fold(f.venue) == key]
        return sorted(near, key=lambda f: (abs((f.date - date).days), f.date))


EMPTY = League("", (), ())


def load_league(path) -> League:
    doc = read_toml(path)
    top = Section(doc, "league file", path)
    name = top.section("league", {}).str("name", "")
    teams = tuple(_team(Section(t, f"teams.{i + 1}", path)) for i, t in enumerate(top.list("teams", [])))
    names = [t.name for t in teams]
    for i, team_name in enumerate(names):
        if team_name in names[:i]:
            raise Section({}, f"teams.{i + 1}", path).error("name", f"team \"{team_name}\" is listed twice")
    fixtures = tuple(_fixture(Section(f, f"fixtures.{i + 1}", path), teams)
                     for i, f in enumerate(top.list("fixtures", [])))
    top.finish()
    return League(name, teams, fixtures)


def _team(sec: Section) -> Team:
    name = sec.str("name", nonempty=True)
    venue = sec.str("venue", "")
    players = sec.list("players", item=_player)
    if len(set(players)) != len(players):
        raise sec.error("players", "a player is listed twice")
    sec.finish()
    return Team(name, venue, tuple(players))


def _player(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected a player's name in quotes, got {value!r}")
    return value.strip()


def _fixture(sec: Section, teams: tuple[Team, ...]) -> Fixture:
    date = sec.raw("date")
    if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
        raise sec.error("date", f"expected a TOML date like 2026-11-29, got {date!r}")
    by_name = {t.name: t for t in teams}
    home, away = sec.str("home", nonempty=True), sec.str("away", nonempty=True)
    for option, team in (("home", home), ("away", away)):
        if team not in by_name:
            raise sec.error(option, f"no team \"{team}\" in [[teams]]")
    if home == away:
        raise sec.error("away", "a team cannot play itself")
    venue = sec.str("venue", by_name[home].venue)
    fixture_id = sec.str("id", None, nonempty=True) or f"{date.isoformat()}-{slug(home)}-{slug(away)}"
    start = sec.raw("start")
    if start is not None and not isinstance(start, dt.time):
        raise sec.error("start", f"expected a TOML time like 17:00:00, got {start!r}")
    sec.finish()
    return Fixture(fixture_id, date, home, away, venue, start)


def league_from_document(doc: dict) -> League:
    """The League of a checked league document (wire.league.parse_document's form)."""
    teams = tuple(Team(t["name"], t["venue"], tuple(t["players"])) for t in doc["teams"])
    fixtures = tuple(Fixture(f["id"], dt.date.fromisoformat(f["date"]), f["home"], f["away"], f["venue"],
                             dt.time.fromisoformat(f["start"]) if f["start"] else None)
                     for f in doc["fixtures"])
    return League(doc["league"]["name"], teams, fixtures, dict(doc["league"].get("rules") or {}))


def same_venue(a: str, b: str) -> bool:
    """Venues are the same without regard to case and spacing (as fixtures are matched)."""
    return _fold(a) == _fold(b)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def slug(text: str) -> str:
    """ASCII, lower case, dashes: for ids and file names."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "x"
