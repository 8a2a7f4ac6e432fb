"""The league's fixtures in the receiver's store: the generated schedule (server.league.schedule, A.2.2-A.2.5),
moves and postponements (A.3.3, the organiser may override the date's checks with a reason),
no-shows (a forfeit; the competition's second expels the team, A.3.7 — the Decision is in
docs/league.md), a team's withdrawal or expulsion by decision (A.1.2, as A.3.7's) and its
reinstatement, the match that is each fixture's result (issue 22: only once per fixture, the
organiser assigns or corrects it) and the organiser's rulings on interrupted matches (A.6.5).

A change that alters what counts (a no-show, an expulsion, an assignment, a ruling) marks the
matches it concerns due (``figures_due``); the next figures step computes them again
(server/tables/figures.py ``settle``: after a device's item, before an admin page, after every
league command of the CLI and the web admin).
"""
import datetime as dt
import json

from server.league import admin_fields as fields
from server.league import competition_rules, names
from server.league.admin_fields import LeagueError
from server.league.irregular import holding, ruled_under
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
RULINGS = ("replay", "award")   # A.6.5
DEPARTURES = {"no-shows": "expelled (A.3.7, its no-shows)", "withdrew": "withdrew",
              "decision": "expelled by the organiser's decision (A.1.2)"}     # teams.expelled_how


class Fixtures(Repository):
    def __init__(self, store, league, figures):
        super().__init__(store)
        self._league, self._figures = league, figures

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
        move's (``_check_day``: a working day in a half, neither team nor the venue busy, the venue
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
                raise LeagueError(f"{team['name']} was expelled on {team['expelled'][:10]} (A.3.7)")
        scheduled = self.of(season, competition)
        fixture = {"id": fixture_id(day, sides[0]["name"], sides[1]["name"]), "season": season,
                   "competition": competition, "round": _round_near(scheduled, day), "date": day.isoformat(),
                   "start": begins.isoformat(timespec="minutes"), "home": sides[0]["name"],
                   "away": sides[1]["name"], "venue": sides[0]["venue"]}
        if self.exists(fixture["id"]):
            raise LeagueError(f"fixture {fixture['id']} exists already (fixture list shows it)")
        noted = self._check_day(fixture, day, override, new=True)
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
        noted = self._check_day(fixture, day, override)
        with self._changing() as db:
            db.execute("UPDATE fixtures SET date = ?, status = 'scheduled', override = ? WHERE id = ?",
                       (day.isoformat(), noted, fixture_id))
        return self.get(fixture_id)

    def _movable(self, fixture_id: str) -> dict:
        fixture = self.get(fixture_id)
        if fixture["status"] not in OPEN:
            raise LeagueError(f"fixture {fixture_id} is {fixture['status']}; only a match still to be played can move")
        return fixture

    def _check_day(self, fixture: dict, day: dt.date, override: str | None, *, new: bool = False,
                   postponing: bool = False) -> str | None:
        """Refused with the reason server.league.schedule.move_refusal gives, unless the organiser
        overrides it with a reason: then the reason and what it overrode (kept with the fixture).
        ``new``: a fixture being added, not moved; ``postponing``: as ``_refusal``."""
        refusal = self._refusal(fixture, day, postponing=postponing)
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

    def _refusal(self, fixture: dict, day: dt.date, *, postponing: bool = False) -> str | None:
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
        asking = self._side(fixture, team)
        day = fields.date(to, "the new date") if to not in (None, "") else None
        noted = self._check_day(fixture, day, override, postponing=True) if day is not None else fixture["override"]
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
        asking = self._side(fixture, team)
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
        return self._refusal(fixture, was) if fixture["status"] == "postponed" else None

    def _side(self, fixture: dict, team: str) -> dict:
        team = fields.name(team, "the team")
        if not (names.same(team, fixture["home"]) or names.same(team, fixture["away"])):
            raise LeagueError(f"{team!r} does not play fixture {fixture['id']} "
                              f"({fixture['home']} – {fixture['away']})")
        with self._read() as db:
            return self._league.team_row(db, fixture["season"], fixture["competition"], team)

    # -- no-shows (A.3.7) ------------------------------------------------------------------
    def no_show(self, fixture_id: str, team: str, *, expel: bool = False) -> dict:
        """The organiser's record that a team did not turn up without excuse (A.3.7), on or after
        the match's day: the match is forfeited to the opponent (it counts the competition's
        forfeit score in the table until the device's own record of it arrives); the team's
        no-show that reaches the competition's limit expels it: its results are annulled and its
        open fixtures cancelled. Nothing undoes that, so that no-show needs ``expel``."""
        fixture = self.get(fixture_id)
        absent = self._side(fixture, team)
        if absent["expelled"]:
            raise LeagueError(f"{absent['name']} was expelled on {absent['expelled'][:10]} (A.3.7)")
        if fixture["status"] in ("forfeited", "cancelled") or fixture["match"] is not None:
            raise LeagueError(f"fixture {fixture_id} is {fixture['status']}; a no-show is recorded for a match "
                              "not yet played")
        self._due(fixture)
        with self._changing() as db:
            if not expel:
                self._unconfirmed_expulsion(db, fixture, absent)
            done = self._no_show(db, fixture, absent, "organiser")
            # the forfeit stands under the fixture's own id until a device's record of it takes its place
            db.execute("INSERT INTO fixture_matches(match_id, fixture, part, assigned_by, at) VALUES (?, ?, ?, ?, ?)",
                       (fixture_id, fixture_id, RESULT, "organiser", self.now()))
            self._figures.due([fixture_id])
        return done

    def _due(self, fixture: dict) -> None:
        """A team fails to turn up (A.3.7 "nedostaví se k utkání") only on or after the match's day:
        refused for a match postponed without a date and one still to come (the store's today)."""
        if fixture["status"] == "postponed":
            raise LeagueError(f"fixture {fixture['id']} is postponed without a date; a no-show is recorded on or "
                              "after the match's day (A.3.7), once schedule move has given it one")
        today = self._store.clock.today()
        if dt.date.fromisoformat(fixture["date"]) > today:
            raise LeagueError(f"fixture {fixture['id']} is on {fixture['date']}, after today ({today.isoformat()}); "
                              "a no-show is recorded on or after the match's day (A.3.7)")

    def _unconfirmed_expulsion(self, db, fixture: dict, absent: dict) -> None:
        """Refused when this no-show would expel the team (A.3.7): it says what the expulsion annuls
        and cancels, and asks for it explicitly."""
        count = _no_shows(db, absent) + 1
        if not self._expelling(fixture, count):
            return
        results = _results(db, absent, besides=fixture["id"])
        others = [f for f in _open_fixtures(db, absent) if f != fixture["id"]]
        raise LeagueError(f"this is {absent['name']}'s no-show {count}: it expels the team (A.3.7), annuls its "
                          f"{results} result(s) and cancels its other {len(others)} fixture(s) until the team is "
                          "reinstated; the expulsion is confirmed explicitly (--expel, in the admin its box)")

    def _expelling(self, fixture: dict, no_shows: int) -> bool:
        """A team's ``no_shows``-th no-show expels it (the competition's limit, A.3.7)."""
        return no_shows >= self._league.rules(fixture["season"], fixture["competition"])["expelling_no_shows"]

    def withdraw_no_show(self, fixture_id: str) -> dict:
        """Undo the organiser's no-show recorded by mistake (A.3.7): the fixture is scheduled again
        on its date. Not one of a team expelled (reinstate the team first: the no-shows that expelled
        it stay recorded), nor a no-show the counter recorded at the table (its match record is the
        fixture's)."""
        fixture = self.get(fixture_id)
        if fixture["no_show"] is None:
            raise LeagueError(f"fixture {fixture_id} has no no-show to withdraw (A.3.7)")
        absent = fixture["no_show"]["team"]
        expelled = self._side(fixture, absent)["expelled"]
        if expelled:
            raise LeagueError(f"{absent} was expelled on {expelled[:10]} (A.3.7); its no-shows are withdrawn once "
                              "the team is reinstated (team reinstate, in the admin the team's page)")
        if fixture["match"] != fixture_id:
            raise LeagueError(f"the no-show of fixture {fixture_id} is the counter's match record {fixture['match']}; "
                              "only the organiser's own no-show is withdrawn")
        with self._changing() as db:
            db.execute("DELETE FROM no_shows WHERE fixture = ?", (fixture_id,))
            db.execute("DELETE FROM fixture_matches WHERE match_id = ?", (fixture_id,))
            db.execute("UPDATE fixtures SET status = 'scheduled' WHERE id = ?", (fixture_id,))
            self._figures.due([fixture_id])
        return self.get(fixture_id)

    def no_show_at_table(self, fixture_id: str, side: str, match_id: str) -> dict | None:
        """A device's match item saying ``side``'s team did not turn up ("Tým nepřišel", A.3.7):
        recorded exactly as the organiser's no-show (in the caller's transaction); None when the
        organiser had recorded it already."""
        fixture = self.get(fixture_id)
        if fixture["no_show"] is not None:
            return None
        with self._changing() as db:
            absent = self._league.team_row(db, fixture["season"], fixture["competition"], fixture[side])
            return self._no_show(db, fixture, absent, match_id)

    def _no_show(self, db, fixture: dict, absent: dict, source: str) -> dict:
        opponent = fixture["away"] if absent["name"] == fixture["home"] else fixture["home"]
        db.execute("INSERT INTO no_shows(fixture, team, at, source) VALUES (?, ?, ?, ?)",
                   (fixture["id"], absent["id"], self.now(), source))
        db.execute("UPDATE fixtures SET status = 'forfeited' WHERE id = ?", (fixture["id"],))
        count = _no_shows(db, absent)
        cancelled = self._expel(db, absent, "no-shows") if self._expelling(fixture, count) else None
        return {"fixture": fixture["id"], "absent": absent["name"], "forfeited_to": opponent, "no_shows": count,
                "expelled": cancelled is not None, "cancelled": cancelled or []}

    def _expel(self, db, team: dict, how: str, reason: str | None = None) -> list[str]:
        """Expel the team (``how``: DEPARTURES): its fixtures not yet played are cancelled (their ids
        returned) and every match of it in the competition's season is due to be computed again
        (annulled, A.3.7)."""
        db.execute("UPDATE teams SET expelled = ?, expelled_how = ?, expelled_reason = ? WHERE id = ?",
                   (self.now(), how, reason, team["id"]))
        cancelled = _open_fixtures(db, team)
        db.execute_many("UPDATE fixtures SET status = 'cancelled' WHERE id = ?", [(f,) for f in cancelled])
        self._team_matches_due(db, team)
        return cancelled

    def _team_matches_due(self, db, team: dict) -> None:
        """Every match of the team in its competition's season is computed again (annulled or counted)."""
        self._figures.due_for(db, "game = ? AND season = ? AND (home = ? OR away = ?)",
                              (team["competition"], team["season"], team["name"], team["name"]))

    # -- a team leaving the competition, and coming back (A.3.7, A.1.2) ---------------------------
    def withdraw_team(self, season: str, competition: str, team: str, *, reason: str, expel: bool = False) -> dict:
        """The team withdraws from the season's competition, or (``expel``) the organiser expels it by
        decision (A.1.2): either is an expulsion as A.3.7's (``_expel``: its results annulled, its
        fixtures not yet played cancelled, out of the table and of the devices' league), kept with
        the organiser's ``reason``. ``reinstate_team`` undoes it."""
        competition = fields.competition(competition)
        reason = fields.text(reason, "the reason", limit=fields.REASON_MAX)
        with self._changing() as db:
            row = self._league.team_row(db, season, competition, team)
            if row["expelled"]:
                raise LeagueError(f"{row['name']} left the competition on {row['expelled'][:10]}: "
                                  f"{DEPARTURES[row['expelled_how'] or 'no-shows']}")
            annulled = _results(db, row)
            how = "decision" if expel else "withdrew"
            cancelled = self._expel(db, row, how, reason)
        return {"team": row["name"], "how": how, "annulled": annulled, "cancelled": cancelled}

    def reinstate_team(self, season: str, competition: str, team: str) -> dict:
        """Undo a team's withdrawal or expulsion (its no-shows' too: they stay recorded, so its next
        no-show expels it again, A.3.7): its results count again and the fixtures its expulsion
        cancelled (not those against a team still out) are back: ``scheduled`` on their date when
        it is today or later and still free (``_refusal``), else ``postponed``, waiting for the
        organiser's new date (``postponed``: their ids with why)."""
        competition = fields.competition(competition)
        with self._changing() as db:
            row = self._league.team_row(db, season, competition, team)
            if not row["expelled"]:
                raise LeagueError(f"{row['name']} plays in {competition} {row['season']}: it has not withdrawn nor "
                                  "been expelled")
            db.execute("UPDATE teams SET expelled = NULL, expelled_how = NULL, expelled_reason = NULL WHERE id = ?",
                       (row["id"],))
            back = {}
            for fixture_id in _cancelled_fixtures(db, row):     # by date: each sees those back before it
                back[fixture_id] = self._back_on_its_date(self.get(fixture_id))
                db.execute("UPDATE fixtures SET status = ? WHERE id = ?",
                           ("postponed" if back[fixture_id] else "scheduled", fixture_id))
            self._team_matches_due(db, row)
            no_shows = _no_shows(db, row)
        return {"team": row["name"], "scheduled": [f for f, why in back.items() if why is None],
                "postponed": [(f, why) for f, why in back.items() if why], "no_shows": no_shows}

    def _back_on_its_date(self, fixture: dict) -> str | None:
        """None when a fixture cancelled by an expulsion can be played on its date again; else why
        not (passed, or taken since: server.league.schedule.move_refusal's reason)."""
        today = self._store.clock.today().isoformat()
        if fixture["date"] < today:
            return f"its date {fixture['date']} has passed"
        return None if fixture["override"] else self._refusal(fixture, dt.date.fromisoformat(fixture["date"]))

    # -- which match is a fixture's result (issue 22) ---------------------------------------------
    def assignment(self, match_id: str) -> dict | None:
        """The fixture a match is the result of (``part`` 1) or the replayed rest of (2), by whom."""
        with self._read() as db:
            row = db.execute("SELECT fixture, part, assigned_by, at FROM fixture_matches WHERE match_id = ?",
                             (match_id,)).fetchone()
        return dict(zip(("fixture", "part", "by", "at"), row)) if row else None

    def exists(self, fixture_id: str) -> bool:
        with self._read() as db:
            return db.execute("SELECT 1 FROM fixtures WHERE id = ?", (fixture_id,)).fetchone() is not None

    def claim(self, match_id: str, fixture_id: str, part: int) -> bool:
        """A device's match becomes a fixture's result (or its replayed rest), in the caller's
        transaction (the item's): the receiver decided it may (server.league.fixture_claims). A
        no-show's forfeit standing under the fixture's id gives way to the device's record of it.
        False when another match took that place meanwhile (another receiver, PostgreSQL)."""
        with self._changing() as db:
            stand_in = db.execute("SELECT match_id FROM fixture_matches WHERE fixture = ? AND part = ? AND "
                                  "match_id = fixture", (fixture_id, part)).fetchone()
            if stand_in is not None:
                db.execute("DELETE FROM fixture_matches WHERE match_id = ?", (fixture_id,))
                self._figures.due([fixture_id])
            db.execute("INSERT INTO fixture_matches(match_id, fixture, part, assigned_by, at) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT DO NOTHING", (match_id, fixture_id, part, "device", self.now()))
            row = db.execute("SELECT fixture FROM fixture_matches WHERE match_id = ?", (match_id,)).fetchone()
        return row is not None and row[0] == fixture_id

    def assign(self, match_id: str, fixture_id: str) -> dict:
        """The organiser makes a stored match the fixture's result (a friendly played for it, or a
        correction: the match standing before is unassigned). Its teams must be the fixture's; not
        a fixture ruled on (final, A.6.5) or forfeited (A.3.7)."""
        fixture = self.get(fixture_id)
        _settled(fixture)
        with self._changing() as db:
            row = db.execute("SELECT home, away, game, season FROM match_figures WHERE match_id = ?",
                             (match_id,)).fetchone()
            if row is None:
                raise LeagueError(f"no match {match_id!r} (the admin lists the unassigned ones)")
            home, away, game, season = row
            if (game, season) != (fixture["competition"], fixture["season"]) or not (
                    names.same(home, fixture["home"]) and names.same(away, fixture["away"])):
                raise LeagueError(f"match {match_id} is {home} – {away} ({game} {season}); fixture {fixture_id} is "
                                  f"{fixture['home']} – {fixture['away']} ({fixture['competition']} {fixture['season']})")
            if fixture["status"] == "cancelled":
                raise LeagueError(f"fixture {fixture_id} is cancelled (a team expelled, A.3.7)")
            before = [m for (m,) in db.execute("SELECT match_id FROM fixture_matches WHERE fixture = ? OR match_id = ?",
                                               (fixture_id, match_id)).fetchall()]
            db.execute("DELETE FROM fixture_matches WHERE fixture = ? OR match_id = ?", (fixture_id, match_id))
            db.execute("INSERT INTO fixture_matches(match_id, fixture, part, assigned_by, at) VALUES (?, ?, ?, ?, ?)",
                       (match_id, fixture_id, RESULT, "organiser", self.now()))
            if fixture["status"] == "postponed":
                db.execute("UPDATE fixtures SET status = 'scheduled' WHERE id = ?", (fixture_id,))
            self._figures.due({*before, match_id})
        return {"match": match_id, "fixture": fixture_id, "replaced": [m for m in before if m != match_id]}

    def unassigned(self, season: str, competition: str) -> list[dict]:
        """The matches of a competition's season between two of its teams that are not on the
        schedule (no fixture's result): they count nowhere until the organiser assigns them."""
        with self._read() as db:
            rows = db.execute("SELECT match_id, date, venue, home, away, points_home, points_away, closed "
                              "FROM match_figures WHERE game = ? AND season = ? AND standing = 'unassigned' "
                              "ORDER BY seq", (competition, season)).fetchall()
        return [dict(zip(("match", "date", "venue", "home", "away", "points_home", "points_away", "closed"), r))
                for r in rows]

    # -- rulings on interrupted matches (A.6.5) -----------------------------------------------------
    def rule(self, fixture_id: str, kind: str, *, to=None, points: str | None = None, reason: str = "",
             override: str | None = None) -> dict:
        """The organiser's ruling on a fixture whose match was interrupted (A.6.5): ``replay`` the
        rest on the date ``to`` (checked as a move; ``override`` as there), or ``award`` the match
        with the team ``points`` "HOME:AWAY"; a match held for breaking A.3.6 or A.6.1 is awarded
        only. Until then the match counts nowhere (pending)."""
        fixture = self.get(fixture_id)
        reason = fields.text(reason, "the reason", limit=fields.REASON_MAX)
        if kind not in RULINGS:
            raise LeagueError(f"a ruling is {' or '.join(RULINGS)}, got {kind!r}")
        if fixture["ruling"] is not None:
            raise LeagueError(f"fixture {fixture_id} was ruled on already ({fixture['ruling']['kind']}, "
                              f"{fixture['ruling']['at'][:10]}); the organiser's ruling is final ({ruled_under(fixture)})")
        if fixture["standing"] != "pending":
            raise LeagueError(f"fixture {fixture_id} has no interrupted match waiting for a ruling (A.6.5)")
        if fixture["irregular"] and kind != "award":
            raise LeagueError(f"the match of fixture {fixture_id} broke A.3.6 or A.6.1: the organiser awards it a "
                              "result, as played or a forfeit (a replay is for the rest of an interrupted match, A.6.5)")
        day, noted = None, fixture["override"]
        scores: tuple[int | None, int | None] = (None, None)
        if kind == "replay":
            day = fields.date(to, "the date of the replay")
            noted = self._check_day(fixture, day, override)
        else:
            scores = _score(points)
            self._within_a_match(fixture, scores)
        with self._changing() as db:
            db.execute(f"INSERT INTO rulings({', '.join(RULING_COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (fixture_id, kind, *scores, day.isoformat() if day else None, reason, self.now()))
            if day is not None:
                db.execute("UPDATE fixtures SET date = ?, status = 'scheduled', override = ? WHERE id = ?",
                           (day.isoformat(), noted, fixture_id))
            self._figures.due([fixture["match"]])
        return self.get(fixture_id)

    def _within_a_match(self, fixture: dict, scores: tuple[int, int]) -> None:
        """An award is a score a match of the competition can end with, played or forfeited (a
        typo's 5:2 or 80:0 is refused: the ruling is final, A.6.5)."""
        rules = self._league.rules(fixture["season"], fixture["competition"])
        played, forfeit = competition_rules.played_scores(rules), competition_rules.forfeit_points(rules)
        if scores in played or scores in ((forfeit, 0), (0, forfeit)):
            return
        totals = ", ".join(str(total) for total in sorted({home + away for home, away in played}))
        raise LeagueError(f"an award of {scores[0]}:{scores[1]} is no score a match of {fixture['competition']} "
                          f"{fixture['season']} ends with: played, the team points add up to {totals} (A.5.3-A.5.5, "
                          f"RULES 2.9); a forfeit is {forfeit}:0 or 0:{forfeit} (A.3.7)")

    def ruling(self, fixture_id: str) -> dict | None:
        with self._read() as db:
            row = db.execute(f"SELECT {', '.join(RULING_COLUMNS)} FROM rulings WHERE fixture = ?",
                             (fixture_id,)).fetchone()
        return dict(zip(RULING_COLUMNS, row)) if row else None


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


def _no_shows(db, team: dict) -> int:
    [(count,)] = db.execute("SELECT COUNT(*) FROM no_shows WHERE team = ?", (team["id"],)).fetchall()
    return count


def _results(db, team: dict, besides: str | None = None) -> int:
    """How many of the team's fixtures (but ``besides``) have a result: those an expulsion annuls."""
    [(count,)] = db.execute(
        "SELECT COUNT(*) FROM fixtures f WHERE (f.home = ? OR f.away = ?) AND f.id != ? "
        "AND EXISTS (SELECT 1 FROM fixture_matches r WHERE r.fixture = f.id)",
        (team["id"], team["id"], besides or "")).fetchall()
    return count


def _cancelled_fixtures(db, team: dict) -> list[str]:
    """The team's cancelled fixtures against a team still in the competition (its reinstatement's), by date."""
    return [f for (f,) in db.execute(
        "SELECT f.id FROM fixtures f JOIN teams h ON h.id = f.home JOIN teams a ON a.id = f.away "
        "WHERE (f.home = ? OR f.away = ?) AND f.status = 'cancelled' AND h.expelled IS NULL AND a.expelled IS NULL "
        "ORDER BY f.date, f.id", (team["id"], team["id"])).fetchall()]


def _open_fixtures(db, team: dict) -> list[str]:
    """The team's fixtures still to be played, with no result (those an expulsion cancels), by date."""
    return [f for (f,) in db.execute(
        "SELECT f.id FROM fixtures f WHERE (f.home = ? OR f.away = ?) AND f.status IN ('scheduled', 'postponed') "
        "AND NOT EXISTS (SELECT 1 FROM fixture_matches r WHERE r.fixture = f.id) "
        "ORDER BY f.date, f.id", (team["id"], team["id"])).fetchall()]


def _settled(fixture: dict) -> None:
    """Refused: a match assigned to a fixture with a ruling would take the ruling's place (and a
    replay's rest with it), one assigned to a forfeited fixture would leave it forfeited."""
    if fixture["ruling"] is not None:
        raise LeagueError(f"fixture {fixture['id']} was ruled on ({fixture['ruling']['kind']}, "
                          f"{fixture['ruling']['at'][:10]}); the organiser's ruling is final ({ruled_under(fixture)}) "
                          "and no match takes its place: the match stays off the schedule")
    if fixture["no_show"] is not None:
        raise LeagueError(f"fixture {fixture['id']} is forfeited ({fixture['no_show']['team']} did not turn up, "
                          "A.3.7); if it was played after all, withdraw the no-show first (withdraw-no-show, in the "
                          "admin the fixture's no-show deletion), then assign the match")


def _score(points) -> tuple[int, int]:
    """"8:0" (the team points an awarded match gives home and away)."""
    if not points:
        raise LeagueError("the awarded score is missing: it is written HOME:AWAY, e.g. 8:0")
    home, sep, away = str(points).replace(" ", "").partition(":")
    if not sep or not home.isdigit() or not away.isdigit() or max(len(home), len(away)) > 4:
        raise LeagueError(f"the awarded score is written HOME:AWAY, e.g. 8:0, got {str(points)[:20]!r}")
    return int(home), int(away)


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
