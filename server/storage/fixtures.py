"""The league's fixtures in the receiver's store: the generated schedule (server.league.schedule, A.2.2-A.2.5),
moves, postponements (at most 2 per team and season, A.3.3) and no-shows (a forfeit; the second
expels the team, A.3.7 — the Decision is in docs/league.md).

"""
import datetime as dt

from server.league import admin_fields as fields
from server.league import names
from server.league.admin_fields import LeagueError
from server.storage.figures import SUMMED
from server.storage.repository import Repository

FORFEIT_POINTS = 8             # a carom match forfeited: all 4 partie won, 2 team points each (A.3.6, A.5.3)
OPEN = ("scheduled", "postponed")
FIXTURE_COLUMNS = ("f.id", "f.season", "f.competition", "f.round", "f.date", "f.start", "h.name", "a.name", "f.venue",
                   "f.status", "f.planned", "m.points_home", "m.points_away", "m.closed", "m.match_id")
# A fixture's result: the match played for it (a closed one first, then the latest to arrive); a
# device's match names its fixture (server/tables/figures.py), a no-show's forfeit stands under its id
RESULT_OF_FIXTURE = ("SELECT r.match_id FROM match_figures r WHERE r.fixture = f.id "
                     "ORDER BY r.closed DESC, r.seq DESC LIMIT 1")
FIXTURE_KEYS = ("id", "season", "competition", "round", "date", "start", "home", "away", "venue", "status", "planned",
                "points_home", "points_away", "closed", "match")


class Fixtures(Repository):
    def __init__(self, store, league, figures):
        super().__init__(store)
        self._league, self._figures = league, figures

    # -- the schedule ---------------------------------------------------------------------
    def generate(self, season: str, competition: str, *, lot: str | None = None, replace: bool = False,
                          holidays: frozenset[dt.date] = frozenset()) -> dict:
        """Draw the season's double round robin (server.league.schedule: the teams in the order of the
        published ``lot``, A.2.3; default "SEASON COMPETITION") and store it; what could not be
        honoured is returned (A.2.4). ``replace``: drop a schedule not yet begun."""
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
        return {"fixtures": len(plan.matches), "unmet": list(plan.unmet), "lot": lot}

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
                           "'scheduled' OR f.date != f.planned OR EXISTS (SELECT 1 FROM items i WHERE i.match_id = "
                           "f.id)) LIMIT 1", (season, competition)).fetchone()
        if begun:
            raise LeagueError(f"the {competition} {season} schedule has begun (fixture {begun[0]} was played, "
                              "moved, postponed or forfeited); it cannot be drawn again")
        db.execute("DELETE FROM fixtures WHERE season = ? AND competition = ?", (season, competition))

    def of(self, season: str, competition: str, *, first: dt.date | None = None,
                 last: dt.date | None = None) -> list[dict]:
        """The fixtures of a season's competition by date, with their results from the stored match
        items (the fixture id is the match id): status "played" once a closed match record is stored."""
        query, args = self._fixture_query() + " WHERE f.season = ? AND f.competition = ?", [season, competition]
        for clause, day in (("f.date >= ?", first), ("f.date <= ?", last)):
            if day is not None:
                query += f" AND {clause}"
                args.append(day.isoformat())
        with self._read() as db:
            rows = db.execute(query + " ORDER BY f.date, f.start, f.id", args).fetchall()
        return [_fixture(row) for row in rows]

    def get(self, fixture_id: str) -> dict:
        with self._read() as db:
            row = db.execute(self._fixture_query() + " WHERE f.id = ?", (fixture_id,)).fetchone()
        if row is None:
            raise LeagueError(f"no fixture {fixture_id!r} (fixture list shows them)")
        return _fixture(row)

    @staticmethod
    def _fixture_query() -> str:
        return (f"SELECT {', '.join(FIXTURE_COLUMNS)} FROM fixtures f JOIN teams h ON h.id = f.home "
                "JOIN teams a ON a.id = f.away LEFT JOIN match_figures m ON m.match_id = (" + RESULT_OF_FIXTURE + ")")

    def move(self, fixture_id: str, day) -> dict:
        """Move a match to another day, if the schedule allows it (server.league.schedule.move_refusal and
        the season's halves, A.2.1); a postponed match gets its new date this way."""
        day = fields.date(day, "the new date")
        fixture = self._movable(fixture_id)
        self._check_day(fixture, day)
        with self._changing() as db:
            db.execute("UPDATE fixtures SET date = ?, status = 'scheduled' WHERE id = ?", (day.isoformat(), fixture_id))
        return self.get(fixture_id)

    def _movable(self, fixture_id: str) -> dict:
        fixture = self.get(fixture_id)
        if fixture["status"] not in OPEN:
            raise LeagueError(f"fixture {fixture_id} is {fixture['status']}; only a match still to be played can move")
        return fixture

    def _check_day(self, fixture: dict, day: dt.date) -> None:
        """Refused with the reason server.league.schedule.move_refusal gives (not a working day, outside
        the match's half-season, a team or the venue already plays that day, the venue is closed)."""
        from server.league import schedule

        season = self._league.season(fixture["season"])
        others = [_planned(schedule, f) for f in self.of(fixture["season"], fixture["competition"])
                  if f["id"] == fixture["id"] or f["status"] in OPEN]
        opening = self._opening()
        refusal = schedule.move_refusal(others, _planned(schedule, fixture), day, opening=opening,
                                        halves=(schedule.Half(*season["autumn"]), schedule.Half(*season["spring"])))
        if refusal:
            raise LeagueError(f"fixture {fixture['id']} cannot move to {day}: {refusal}")

    # -- postponements (A.3.3) -----------------------------------------------------------------
    def postpone(self, fixture_id: str, team: str, *, to=None, reason: str = "") -> dict:
        """A team's request to postpone a match (A.3.3): the third in a season is refused with the
        two before it. ``to``: the new date (checked as a move); none: "postponed" until moved."""
        reason = fields.text(reason, "the reason", limit=fields.REASON_MAX, empty=True)
        fixture = self._movable(fixture_id)
        asking = self._side(fixture, team)
        day = fields.date(to, "the new date") if to not in (None, "") else None
        if day is not None:
            self._check_day(fixture, day)
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
            db.execute("UPDATE fixtures SET status = ?, date = ? WHERE id = ?",
                       ("scheduled" if day else "postponed", (day.isoformat() if day else fixture["date"]), fixture_id))
        count = len(earlier) + 1
        return {"fixture": self.get(fixture_id), "postponements": count, "left": most - count}

    def postponements(self, season: str, competition: str, team: str) -> list[dict]:
        with self._read() as db:
            row = self._league.team_row(db, season, competition, team)
            rows = db.execute("SELECT fixture, at, was, reason FROM postponements WHERE team = ? ORDER BY seq",
                              (row["id"],)).fetchall()
        return [dict(zip(("fixture", "at", "was", "reason"), r)) for r in rows]

    def _side(self, fixture: dict, team: str) -> dict:
        team = fields.name(team, "the team")
        if not (names.same(team, fixture["home"]) or names.same(team, fixture["away"])):
            raise LeagueError(f"{team!r} does not play fixture {fixture['id']} "
                              f"({fixture['home']} – {fixture['away']})")
        with self._read() as db:
            return self._league.team_row(db, fixture["season"], fixture["competition"], team)

    # -- no-shows (A.3.7) ------------------------------------------------------------------
    def no_show(self, fixture_id: str, team: str) -> dict:
        """A team did not turn up without excuse (A.3.7): the match is forfeited to the opponent (a
        carom match counts 8 : 0 in the table until the device's own record of it arrives); the
        team's second no-show expels it: its results are annulled and its open fixtures cancelled."""
        fixture = self.get(fixture_id)
        absent = self._side(fixture, team)
        if absent["expelled"]:
            raise LeagueError(f"{team} was expelled on {absent['expelled'][:10]} (A.3.7)")
        if fixture["status"] in ("forfeited", "cancelled") or fixture["closed"]:
            raise LeagueError(f"fixture {fixture_id} is {fixture['status']}; a no-show is recorded for a match "
                              "not yet played")
        opponent = fixture["away"] if names.same(team, fixture["home"]) else fixture["home"]
        with self._changing() as db:
            db.execute("INSERT INTO no_shows(fixture, team, at) VALUES (?, ?, ?)",
                       (fixture_id, absent["id"], self.now()))
            db.execute("UPDATE fixtures SET status = 'forfeited' WHERE id = ?", (fixture_id,))
            [(count,)] = db.execute("SELECT COUNT(*) FROM no_shows WHERE team = ?", (absent["id"],)).fetchall()
            if fixture["competition"] == "carom" and not self._figures.has_result(fixture_id):
                self._forfeit_figures(fixture, winner=opponent)
            expelling = self._league.rules(fixture["season"], fixture["competition"])["expelling_no_shows"]
            cancelled = self._expel(db, absent["id"]) if count >= expelling else None
        return {"fixture": fixture_id, "forfeited_to": opponent, "no_shows": count,
                "expelled": cancelled is not None, "cancelled": cancelled or []}

    def _expel(self, db, team_id: int) -> list[str]:
        """Expel the team; its fixtures not yet played are cancelled (their ids returned)."""
        db.execute("UPDATE teams SET expelled = ? WHERE id = ?", (self.now(), team_id))
        cancelled = [f for (f,) in db.execute(
            "SELECT f.id FROM fixtures f WHERE (f.home = ? OR f.away = ?) AND f.status IN ('scheduled', 'postponed') "
            "AND NOT EXISTS (SELECT 1 FROM match_figures m WHERE m.fixture = f.id AND m.closed = 1) "
            "ORDER BY f.date, f.id", (team_id, team_id)).fetchall()]
        db.execute_many("UPDATE fixtures SET status = 'cancelled' WHERE id = ?", [(f,) for f in cancelled])
        return cancelled

    def _forfeit_figures(self, fixture: dict, winner: str) -> None:
        """The forfeit's figures, as a device's forfeited match gives them (server/tables/figures.py)."""
        seq = self._figures.next_seq()
        points = {side: FORFEIT_POINTS if fixture[side] == winner else 0 for side in ("home", "away")}
        match_row = {"match_id": fixture["id"], "seq": seq, "game": "carom", "season": fixture["season"],
                     "date": fixture["date"], "venue": fixture["venue"], "home": fixture["home"],
                     "away": fixture["away"],
                     "points_home": points["home"], "points_away": points["away"], "closed": 1, "unreadable": None,
                     "fixture": fixture["id"]}
        teams = [{"match_id": fixture["id"], "game": "carom", "season": fixture["season"], "team": fixture[side],
                  "opponent": fixture[other], **dict.fromkeys(SUMMED, 0), "matches": 1, "points": points[side]}
                 for side, other in (("home", "away"), ("away", "home"))]
        self._figures.replace(fixture["id"], match_row, teams)


def _fixture(row) -> dict:
    fixture = dict(zip(FIXTURE_KEYS, row))
    fixture["closed"] = bool(fixture["closed"])
    if fixture["status"] == "scheduled" and fixture["closed"]:
        fixture["status"] = "played"
    return fixture


def _planned(schedule, fixture: dict):
    return schedule.Planned(fixture["round"], dt.date.fromisoformat(fixture["date"]),
                            dt.time.fromisoformat(fixture["start"]), fixture["home"], fixture["away"], fixture["venue"])


def _fixture_id(match, taken: set[str]) -> str:
    """"2026-10-05-sokol-dvur-jiskra-horice": the match id the device records the match under."""
    base = f"{match.date.isoformat()}-{fields.slug(match.home)}-{fields.slug(match.away)}"
    fixture_id, n = base, 1
    while fixture_id in taken:
        n += 1
        fixture_id = f"{base}-{n}"
    taken.add(fixture_id)
    return fixture_id
