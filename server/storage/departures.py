"""No-shows and teams leaving the competition, in the receiver's store: the organiser's or the
counter's record that a team did not turn up (a forfeit; the competition's second expels the team,
A.3.7 — the Decision is in docs/league.md), a team's withdrawal or expulsion by decision (A.1.2, as
A.3.7's) and its reinstatement.

A change that alters what counts (a no-show, an expulsion, a reinstatement) marks the matches it
concerns due (``figures_due``); the next figures step computes them again
(server/tables/figures.py ``settle``: after a device's item, before an admin page, after every
league command of the CLI and the web admin).
"""
import datetime as dt

from server.league import admin_fields as fields
from server.league.admin_fields import LeagueError
from server.storage.fixtures import RESULT
from server.storage.league import DEPARTURES, departed
from server.storage.repository import Repository


class Departures(Repository):
    def __init__(self, store, league, figures, fixtures):
        super().__init__(store)
        self._league, self._figures, self._fixtures = league, figures, fixtures

    # -- no-shows (A.3.7) ------------------------------------------------------------------
    def no_show(self, fixture_id: str, team: str, *, expel: bool = False) -> dict:
        """The organiser's record that a team did not turn up without excuse (A.3.7), on or after
        the match's day: the match is forfeited to the opponent (it counts the competition's
        forfeit score in the table until the device's own record of it arrives); the team's
        no-show that reaches the competition's limit expels it: its results are annulled and its
        open fixtures cancelled. Nothing undoes that, so that no-show needs ``expel``."""
        fixture = self._fixtures.get(fixture_id)
        absent = self._fixtures.side(fixture, team)
        if absent["expelled"]:
            raise departed(absent)
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
        fixture = self._fixtures.get(fixture_id)
        if fixture["no_show"] is None:
            raise LeagueError(f"fixture {fixture_id} has no no-show to withdraw (A.3.7)")
        absent = self._fixtures.side(fixture, fixture["no_show"]["team"])
        if absent["expelled"]:
            raise LeagueError(f"{departed(absent)}; its no-shows are withdrawn once the team is reinstated (team "
                              "reinstate, in the admin the team's page)")
        if fixture["match"] != fixture_id:
            raise LeagueError(f"the no-show of fixture {fixture_id} is the counter's match record {fixture['match']}; "
                              "only the organiser's own no-show is withdrawn")
        with self._changing() as db:
            db.execute("DELETE FROM no_shows WHERE fixture = ?", (fixture_id,))
            db.execute("DELETE FROM fixture_matches WHERE match_id = ?", (fixture_id,))
            db.execute("UPDATE fixtures SET status = 'scheduled' WHERE id = ?", (fixture_id,))
            self._figures.due([fixture_id])
        return self._fixtures.get(fixture_id)

    def no_show_at_table(self, fixture_id: str, side: str, match_id: str) -> dict | None:
        """A device's match item saying ``side``'s team did not turn up ("Tým nepřišel", A.3.7):
        recorded exactly as the organiser's no-show (in the caller's transaction); None when the
        organiser had recorded it already."""
        fixture = self._fixtures.get(fixture_id)
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
        self._figures.team_due(db, team)
        return cancelled

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
        it is today or later and still free (``Fixtures.refusal``), else ``postponed``, waiting for the
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
                back[fixture_id] = self._back_on_its_date(self._fixtures.get(fixture_id))
                db.execute("UPDATE fixtures SET status = ? WHERE id = ?",
                           ("postponed" if back[fixture_id] else "scheduled", fixture_id))
            self._figures.team_due(db, row)
            no_shows = _no_shows(db, row)
        return {"team": row["name"], "scheduled": [f for f, why in back.items() if why is None],
                "postponed": [(f, why) for f, why in back.items() if why], "no_shows": no_shows}

    def _back_on_its_date(self, fixture: dict) -> str | None:
        """None when a fixture cancelled by an expulsion can be played on its date again; else why
        not (passed, or taken since: server.league.schedule.move_refusal's reason)."""
        today = self._store.clock.today().isoformat()
        if fixture["date"] < today:
            return f"its date {fixture['date']} has passed"
        return None if fixture["override"] else self._fixtures.refusal(fixture, dt.date.fromisoformat(fixture["date"]))


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


