"""Which match is each fixture's result, in the receiver's store (issue 22: only once per fixture,
the organiser assigns or corrects it), and the organiser's rulings on interrupted matches (A.6.5).

An assignment or a ruling marks the matches it concerns due (``figures_due``); the next figures
step computes them again (server/tables/figures.py ``settle``).
"""
from server.league import admin_fields as fields
from server.league import competition_rules, names
from server.league.admin_fields import LeagueError
from server.league.irregular import ruled_under
from server.storage.fixtures import RESULT, RULING_COLUMNS
from server.storage.repository import Repository

RULINGS = ("replay", "award")   # A.6.5


class Results(Repository):
    def __init__(self, store, league, figures, fixtures):
        super().__init__(store)
        self._league, self._figures, self._fixtures = league, figures, fixtures

    # -- which match is a fixture's result (issue 22) ---------------------------------------------
    def assignment(self, match_id: str) -> dict | None:
        """The fixture a match is the result of (``part`` 1) or the replayed rest of (2), by whom."""
        with self._read() as db:
            row = db.execute("SELECT fixture, part, assigned_by, at FROM fixture_matches WHERE match_id = ?",
                             (match_id,)).fetchone()
        return dict(zip(("fixture", "part", "by", "at"), row)) if row else None

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
        fixture = self._fixtures.get(fixture_id)
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
        fixture = self._fixtures.get(fixture_id)
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
            noted = self._fixtures.check_day(fixture, day, override)
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
        return self._fixtures.get(fixture_id)

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

