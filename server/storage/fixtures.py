"""The league's fixtures in the receiver's store: the generated schedule (server.league.schedule, A.2.2-A.2.5),
fixtures added by hand, reading them with what was played for each (its result, ruling and
no-show), and moves and postponements (A.3.3, the organiser may override the date's checks with a
reason). No-shows and a team leaving the competition: server/storage/departures.py; which match
is a fixture's result and the rulings: server/storage/results.py.
"""
import datetime as dt
import json

from server.league import admin_fields as fields
from server.league import names
from server.league.admin_fields import LeagueError
from server.league.irregular import holding
from server.storage.league import departed
from server.storage.repository import Repository

OPEN = ("scheduled", "postponed")
FIXTURE_COLUMNS = ("f.id", "f.season", "f.competition", "f.round", "f.date", "f.start", "h.name", "a.name", "f.venue",
                   "f.status", "f.planned", "f.override")
FIXTURE_KEYS = ("id", "season", "competition", "round", "date", "start", "home", "away", "venue", "status", "planned",
                "override")
RESULT_COLUMNS = ("r.fixture", "r.part", "r.match_id", "r.assigned_by", "m.points_home", "m.points_away", "m.closed",
                  "m.standing", "m.flags")
RULING_COLUMNS = ("fixture", "kind", "points_home", "points_away", "date", "reason", "at")
RESULT, CONTINUATION = 1, 2     # fixture_matches.part: the fixture's match, the rest replayed after a ruling


class Fixtures(Repository):
    def __init__(self, store, league):
        super().__init__(store)
        self._league = league

    # -- the schedule ---------------------------------------------------------------------
    def generate(self, season: str, competition: str, *, lot: str | None = None, replace: bool = False,
                          holidays: frozenset[dt.date] = frozenset()) -> dict:
        """Draw the season's double round robin (server.league.schedule: the teams in the order of the
        published ``lot``, A.2.3; default "SEASON COMPETITION") and store it; what could not be
        honoured is returned (A.2.4), and the teams whose rosters are short of the competition's
        minimum (A.3.1: a warning; the schedule is drawn all the same). ``replace``: drop a schedule
        not yet begun."""
        season_row, competition = self._league.season(fields.season_name(season)), fields.competition(competition)
        season = season_row["name"]
        teams = [t for t in self._league.teams(season, competition) if not t["expelled"]]
        if len(teams) < 2:
            raise LeagueError(f"{competition} {season} has {len(teams)} team(s); a schedule needs at least 2")
        lot = fields.text(lot or f"{season} {competition}", "the lot")
        plan = self._plan(season_row, competition, teams, lot, holidays)
        ids = {t["name"]: t["id"] for t in teams}
        with self._changing() as db:
            self._clear_schedule(db, season, competition, replace)
            taken = {fixture_id for (fixture_id,) in db.execute("SELECT id FROM fixtures").fetchall()}
            db.execute_many("INSERT INTO fixtures(id, season, competition, round, date, start, home, away, venue, "
                            "status, planned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?)",
                            [(_fixture_id(m, taken), season, competition, m.round, m.date.isoformat(),
                              m.start.isoformat(timespec="minutes"), ids[m.home], ids[m.away], m.venue,
                              m.date.isoformat()) for m in plan.matches])
        return {"fixtures": len(plan.matches), "unmet": list(plan.unmet), "lot": lot,
                "short": self._league.short_rosters(season, competition)}

    def _plan(self, season_row: dict, competition: str, teams: list[dict], lot: str, holidays):
        """server.league.schedule's plan for these teams, drawn by the lot, in the season's halves."""
        from server.league import schedule

        entrants = schedule.draw([schedule.Entrant(t["name"], t["venue"], fields.days(t["days"])) for t in teams], lot)
        try:
            return schedule.generate(entrants, schedule.Half(*season_row["autumn"]),
                                     schedule.Half(*season_row["spring"]), opening=self._opening(), holidays=holidays)
        except ValueError as exc:
            raise LeagueError(f"no schedule for {competition} {season_row['name']}: {exc}") from None

    def _opening(self) -> dict[str, frozenset[int]]:
        """Venue -> the weekdays it is open (only venues that said)."""
        return {v["name"]: fields.days(v["days"]) for v in self._league.venues() if v["days"]}

    def _clear_schedule(self, db, season, competition, replace: bool) -> None:
        [(count,)] = db.execute("SELECT COUNT(*) FROM fixtures WHERE season = ? AND competition = ?",
                                (season, competition)).fetchall()
        if not count:
            return
        if not replace:
            raise LeagueError(f"{competition} {season} already has a schedule of {count} fixtures "
                              "(--replace draws it again while none is played, postponed or forfeited)")
        begun = db.execute("SELECT f.id FROM fixtures f WHERE f.season = ? AND f.competition = ? AND (f.status != "
                           "'scheduled' OR f.date != f.planned OR EXISTS (SELECT 1 FROM fixture_matches r WHERE r.fixture "
                           "= f.id)) LIMIT 1", (season, competition)).fetchone()
        if begun:
            raise LeagueError(f"the {competition} {season} schedule has begun (fixture {begun[0]} was played, "
                              "moved, postponed or forfeited); it cannot be drawn again")
        db.execute("DELETE FROM fixtures WHERE season = ? AND competition = ?", (season, competition))

    def add(self, season: str, competition: str, home: str, away: str, day, *, start="17:00",
            override: str | None = None) -> dict:
        """One fixture added by hand (a team admitted late, a match the draw left out): two teams of
        the season's competition, neither expelled, at the home team's venue; its day checked as a
        move's (``check_day``: a working day in a half, neither team nor the venue busy, the venue
        open, not past; ``override`` as there), its id as the schedule's, a duplicate refused. Its
        round is that of the fixture nearest its day (the public schedule lists it there)."""
        season, competition = self._league.season(fields.season_name(season))["name"], fields.competition(competition)
        day, begins = fields.date(day, "the date"), fields.start(start)
        with self._read() as db:
            sides = [self._league.team_row(db, season, competition, fields.name(t, "the team")) for t in (home, away)]
        if sides[0]["id"] == sides[1]["id"]:
            raise LeagueError(f"a fixture is between two teams; {sides[0]['name']} cannot play itself")
        for team in sides:
            if team["expelled"]:
                raise departed(team)
        scheduled = self.of(season, competition)
        fixture = {"id": fixture_id(day, sides[0]["name"], sides[1]["name"]), "season": season,
                   "competition": competition, "round": _round_near(scheduled, day), "date": day.isoformat(),
                   "start": begins.isoformat(timespec="minutes"), "home": sides[0]["name"],
                   "away": sides[1]["name"], "venue": sides[0]["venue"]}
        if self.exists(fixture["id"]):
            raise LeagueError(f"fixture {fixture['id']} exists already (fixture list shows it)")
        noted = self.check_day(fixture, day, override, new=True)
        with self._changing() as db:
            db.execute("INSERT INTO fixtures(id, season, competition, round, date, start, home, away, venue, status, "
                       "planned, override) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?, ?)",
                       (fixture["id"], season, competition, fixture["round"], fixture["date"], fixture["start"],
                        sides[0]["id"], sides[1]["id"], fixture["venue"], fixture["date"], noted))
        return self.get(fixture["id"])

    # -- reading the schedule -----------------------------------------------------------------
    def of(self, season: str, competition: str, *, first: dt.date | None = None,
           last: dt.date | None = None) -> list[dict]:
        """The fixtures of a season's competition by date, each with its result (``_with_results``)."""
        where, args = "f.season = ? AND f.competition = ?", [season, competition]
        for clause, day in (("f.date >= ?", first), ("f.date <= ?", last)):
            if day is not None:
                where += f" AND {clause}"
                args.append(day.isoformat())
        return self._load(where + " ORDER BY f.date, f.start, f.id", args)

    def overdue(self, season: str | None = None, competition: str | None = None) -> list[dict]:
        """The fixtures whose day has passed (the store's today) that are still scheduled with no
        result: neither played, postponed, forfeited nor cancelled. The organiser chases the
        result, records the no-show (A.3.7) or moves the match (A.3.3). By date; all seasons'
        unless one season's competition is named."""
        where, args = "f.status = 'scheduled' AND f.date < ?", [self._store.clock.today().isoformat()]
        if season is not None:
            where += " AND f.season = ? AND f.competition = ?"
            args += [season, competition]
        return [f for f in self._load(where + " ORDER BY f.date, f.start, f.id", args)
                if f["status"] == "scheduled" and f["match"] is None]

    def get(self, fixture_id: str) -> dict:
        found = self._load("f.id = ?", [fixture_id])
        if not found:
            raise LeagueError(f"no fixture {fixture_id!r} (fixture list shows them)")
        return found[0]

    def on_date(self, day: str) -> list[dict]:
        """Every fixture (of any competition) on that date: the fixture a match names by its teams and date."""
        return self._load("f.date = ?", [day])

    def _load(self, where: str, args: list) -> list[dict]:
        query = (f"SELECT {', '.join(FIXTURE_COLUMNS)} FROM fixtures f JOIN teams h ON h.id = f.home "
                 f"JOIN teams a ON a.id = f.away WHERE {where}")
        with self._read() as db:
            fixtures = [dict(zip(FIXTURE_KEYS, row)) for row in db.execute(query, args).fetchall()]
            if not fixtures:
                return []
            ids = [f["id"] for f in fixtures]
            marks = ", ".join("?" * len(ids))
            results = db.execute(f"SELECT {', '.join(RESULT_COLUMNS)} FROM fixture_matches r LEFT JOIN match_figures m "
                                 f"ON m.match_id = r.match_id WHERE r.fixture IN ({marks}) ORDER BY r.part", ids).fetchall()
            rulings = db.execute(f"SELECT {', '.join(RULING_COLUMNS)} FROM rulings WHERE fixture IN ({marks})",
                                 ids).fetchall()
            absent = db.execute(f"SELECT n.fixture, t.name, n.source FROM no_shows n JOIN teams t ON t.id = n.team "
                                f"WHERE n.fixture IN ({marks})", ids).fetchall()
        return [_with_results(f, results, rulings, absent) for f in fixtures]

    # -- moving a match (A.3.3) ------------------------------------------------------------------
    def move(self, fixture_id: str, day, *, override: str | None = None) -> dict:
        """Move a match to another day, if the schedule allows it (server.league.schedule.move_refusal:
        a working day, in the match's half, neither team nor the venue busy, the venue open, not in
        the past); ``override``: the organiser's reason to move it all the same (A.3.3: a late
        postponement can always get a date), which the schedule shows. A postponed match gets its
        new date this way."""
        day = fields.date(day, "the new date")
        fixture = self._movable(fixture_id)
        noted = self.check_day(fixture, day, override)
        with self._changing() as db:
            db.execute("UPDATE fixtures SET date = ?, status = 'scheduled', override = ? WHERE id = ?",
                       (day.isoformat(), noted, fixture_id))
        return self.get(fixture_id)

    def _movable(self, fixture_id: str) -> dict:
        fixture = self.get(fixture_id)
        if fixture["status"] not in OPEN:
            raise LeagueError(f"fixture {fixture_id} is {fixture['status']}; only a match still to be played can move")
        return fixture

    def check_day(self, fixture: dict, day: dt.date, override: str | None, *, new: bool = False,
                   postponing: bool = False) -> str | None:
        """Refused with the reason server.league.schedule.move_refusal gives, unless the organiser
        overrides it with a reason: then the reason and what it overrode (kept with the fixture).
        ``new``: a fixture being added, not moved; ``postponing``: as ``refusal``."""
        refusal = self.refusal(fixture, day, postponing=postponing)
        if override is not None and override.strip():
            reason = fields.text(override, "the reason of the override", limit=fields.REASON_MAX)
            return f"{reason} ({refusal})" if refusal else None
        if refusal and new:
            raise LeagueError(f"fixture {fixture['id']} cannot be added on {day}: {refusal} (the organiser may "
                              "override it with a reason: --override \"…\", A.3.3)")
        if refusal:
            raise LeagueError(f"fixture {fixture['id']} cannot move to {day}: {refusal} (the organiser may "
                              "override it with a reason: --override \"…\", A.3.3)")
        return None

    def refusal(self, fixture: dict, day: dt.date, *, postponing: bool = False) -> str | None:
        """Why the fixture may not move to ``day`` (server.league.schedule.move_refusal), or None. A
        match postponed (waiting for its date) or being postponed may take a day of a later half of
        the season as well as of its own (A.3.3; docs/league.md "Decisions")."""
        from server.league import schedule

        season, moving = self._league.season(fixture["season"]), _planned(schedule, fixture)
        others = [_planned(schedule, f) for f in self.of(fixture["season"], fixture["competition"])
                  if f["id"] != fixture["id"] and f["status"] in OPEN]
        return schedule.move_refusal([*others, moving], moving, day, opening=self._opening(),
                                     halves=(schedule.Half(*season["autumn"]), schedule.Half(*season["spring"])),
                                     today=self._store.clock.today(),
                                     postponed=postponing or fixture.get("status") == "postponed")

    # -- postponements (A.3.3) -----------------------------------------------------------------
    def postpone(self, fixture_id: str, team: str, *, to=None, reason: str = "", override: str | None = None) -> dict:
        """A team's request to postpone a match (A.3.3): one over the competition's limit is refused
        with those before it. ``to``: the new date (checked as a move, ``override`` as there); none:
        "postponed" until moved."""
        reason = fields.text(reason, "the reason", limit=fields.REASON_MAX, empty=True)
        fixture = self._movable(fixture_id)
        asking = self.side(fixture, team)
        day = fields.date(to, "the new date") if to not in (None, "") else None
        noted = self.check_day(fixture, day, override, postponing=True) if day is not None else fixture["override"]
        most = self._league.rules(fixture["season"], fixture["competition"])["postponements"]
        with self._changing() as db:
            earlier = [f for (f,) in db.execute("SELECT fixture FROM postponements WHERE team = ? ORDER BY seq",
                                                (asking["id"],)).fetchall()]
            if len(earlier) >= most:
                raise LeagueError(f"{asking['name']} has already postponed {len(earlier)} matches in "
                                  f"{fixture['season']} ({', '.join(earlier) or 'none'}); a team may postpone at most "
                                  f"{most} (A.3.3)")
            db.execute("INSERT INTO postponements(fixture, team, at, was, reason) VALUES (?, ?, ?, ?, ?)",
                       (fixture_id, asking["id"], self.now(), fixture["date"], reason))
            db.execute("UPDATE fixtures SET status = ?, date = ?, override = ? WHERE id = ?",
                       ("scheduled" if day else "postponed", (day.isoformat() if day else fixture["date"]), noted,
                        fixture_id))
        count = len(earlier) + 1
        return {"fixture": self.get(fixture_id), "postponements": count, "left": most - count}

    def postponements(self, season: str, competition: str, team: str) -> list[dict]:
        with self._read() as db:
            row = self._league.team_row(db, season, competition, team)
            rows = db.execute("SELECT fixture, at, was, reason FROM postponements WHERE team = ? ORDER BY seq",
                              (row["id"],)).fetchall()
        return [dict(zip(("fixture", "at", "was", "reason"), r)) for r in rows]

    def withdraw_postponement(self, fixture_id: str, team: str) -> dict:
        """Undo a postponement recorded by mistake: it no longer counts against the team's allowance
        (A.3.3). A match still waiting for a date (nothing moved it since) is back on the date it had
        before when that date is still one it may move to (not past, still free): the date needs no
        override, so the note of one goes; a match given a date since (by the postponement or a
        move) keeps it. Returned: the ``fixture`` and ``kept``, None or why its old date was not
        restored (server.league.schedule.move_refusal's reason, or that it has a date)."""
        fixture = self.get(fixture_id)
        asking = self.side(fixture, team)
        with self._changing() as db:
            row = db.execute("SELECT seq, was FROM postponements WHERE fixture = ? AND team = ? ORDER BY seq DESC",
                             (fixture_id, asking["id"])).fetchone()
            if row is None:
                raise LeagueError(f"{team} has no postponement of fixture {fixture_id}")
            db.execute("DELETE FROM postponements WHERE seq = ?", (row[0],))
            kept = self._restoring(fixture, dt.date.fromisoformat(row[1]))
            if fixture["status"] == "postponed" and kept is None:
                db.execute("UPDATE fixtures SET status = 'scheduled', date = ?, override = NULL WHERE id = ?",
                           (row[1], fixture_id))
        return {"fixture": self.get(fixture_id), "kept": kept}

    def _restoring(self, fixture: dict, was: dt.date) -> str | None:
        """None when a postponed fixture goes back to ``was``; else why not."""
        if fixture["status"] == "scheduled" and fixture["date"] != was.isoformat():
            return f"it was given {fixture['date']} since"
        return self.refusal(fixture, was) if fixture["status"] == "postponed" else None

    def side(self, fixture: dict, team: str) -> dict:
        team = fields.name(team, "the team")
        if not (names.same(team, fixture["home"]) or names.same(team, fixture["away"])):
            raise LeagueError(f"{team!r} does not play fixture {fixture['id']} "
                              f"({fixture['home']} – {fixture['away']})")
        with self._read() as db:
            return self._league.team_row(db, fixture["season"], fixture["competition"], team)


    def exists(self, fixture_id: str) -> bool:
        with self._read() as db:
            return db.execute("SELECT 1 FROM fixtures WHERE id = ?", (fixture_id,)).fetchone() is not None

def _with_results(fixture: dict, results, rulings, absent) -> dict:
    """A fixture with what was played for it: ``match`` (its result's match id), ``points_home`` /
    ``points_away`` (the result's, with a replayed rest added), ``closed``, ``standing`` of its
    match, the ``ruling`` (A.6.5), the ``no_show`` (A.3.7: the absent team and who recorded it) and
    what holds its match (``irregular``: A.3.6, A.6.1, server/league/irregular.py) and the ``status`` as
    the schedule says it: "played" once closed, "interrupted" (A.6.5) or "irregular" while a ruling
    is awaited."""
    mine = [r for r in results if r[0] == fixture["id"]]
    parts = {part: dict(zip(("match", "by", "points_home", "points_away", "closed", "standing", "flags"), rest))
             for _, part, *rest in mine}
    first, rest = parts.get(RESULT), parts.get(CONTINUATION)
    ruling = next((dict(zip(RULING_COLUMNS, r)) for r in rulings if r[0] == fixture["id"]), None)
    no_show = next(({"team": team, "by": source} for f, team, source in absent if f == fixture["id"]), None)
    counted = [p for p in (first, rest) if p is not None and p["points_home"] is not None]
    closed = bool(first and first["closed"]) and (ruling is None or ruling["kind"] != "replay" or
                                                  bool(rest and rest["closed"]))
    fixture.update(match=first["match"] if first else None, assigned_by=first["by"] if first else None,
                   continuation=rest["match"] if rest else None,
                   points_home=sum(p["points_home"] for p in counted) if counted else None,
                   points_away=sum(p["points_away"] for p in counted) if counted else None,
                   closed=closed, standing=first["standing"] if first else None, ruling=ruling, no_show=no_show,
                   forfeited_to=None if no_show is None else
                   (fixture["away"] if no_show["team"] == fixture["home"] else fixture["home"]),
                   irregular=holding(json.loads(first["flags"] or "{}").get("irregular", [])) if first else [])
    if fixture["status"] in OPEN and first is not None:
        if first["standing"] == "pending":
            fixture["status"] = "irregular" if fixture["irregular"] else "interrupted"
        elif closed:
            fixture["status"] = "played"
    return fixture



def _planned(schedule, fixture: dict):
    return schedule.Planned(fixture["round"], dt.date.fromisoformat(fixture["date"]),
                            dt.time.fromisoformat(fixture["start"]), fixture["home"], fixture["away"], fixture["venue"])


def fixture_id(day: dt.date, home: str, away: str) -> str:
    """"2026-10-05-sokol-dvur-jiskra-horice": the match id the device records the match under."""
    return f"{day.isoformat()}-{fields.slug(home)}-{fields.slug(away)}"


def _fixture_id(match, taken: set[str]) -> str:
    """``fixture_id`` of a drawn match, numbered on when two of the draw would share it."""
    base = fixture_id(match.date, match.home, match.away)
    unique, n = base, 1
    while unique in taken:
        n += 1
        unique = f"{base}-{n}"
    taken.add(unique)
    return unique


def _round_near(fixtures: list[dict], day: dt.date) -> int:
    """The round of the fixture nearest ``day`` (the first round when there is none)."""
    nearest = min(fixtures, key=lambda f: abs((dt.date.fromisoformat(f["date"]) - day).days), default=None)
    return nearest["round"] if nearest else 1
