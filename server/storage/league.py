"""The league's own data: seasons and their halves (A.2.1), competitions, venues with their opening
days and the devices registered there, teams with their venue and captain (A.3.2), rosters (one
team per player and season, A.3.4) and how a team left its competition. Fixtures and postponements:
server/storage/fixtures.py; no-shows and withdrawals: server/storage/departures.py.
"""
import datetime as dt
import json

from server.league import admin_fields as fields
from server.league import competition_rules, names
from server.league.admin_fields import LeagueError
from server.league.czech_order import czech_key
from server.storage.repository import Repository

TEAM_COLUMNS = ("id", "season", "competition", "name", "venue", "captain", "phone", "days", "expelled",
                "expelled_how", "expelled_reason")
DEPARTURES = {"no-shows": "expelled (A.3.7, its no-shows)", "withdrew": "withdrew",
              "decision": "expelled by the organiser's decision (A.1.2)"}     # teams.expelled_how


class League(Repository):
    # -- seasons and competitions --------------------------------------------------
    def add_season(self, name: str, autumn=None, spring=None) -> dict:
        """A season with its autumn and spring halves (A.2.1); refused if it exists."""
        name = fields.season_name(name)
        halves = fields.halves(name, autumn, spring)
        with self._changing() as db:
            if db.execute("SELECT 1 FROM seasons WHERE name = ?", (name,)).fetchone():
                raise LeagueError(f"season {name} already exists")
            _insert_season(db, name, halves)
        return self.season(name)

    def carry_over(self, name: str, source: str, competition: str, autumn=None, spring=None) -> dict:
        """Next season from this one: the season ``name`` (added with its halves unless it exists)
        gets from ``source``'s competition its teams not expelled (venue, captain, phone, days),
        their rosters and the competition's rules (the target's own settings, if any, kept); no
        fixtures, results, no-shows or postponements. Refused: an unknown ``source``, one without
        teams of the competition, and a target whose competition has teams already. Returned: the
        ``season`` and the counts of ``teams``, ``players`` and ``rules`` copied, the ``left_out``
        expelled teams' names."""
        name, competition = fields.season_name(name), fields.competition(competition)
        halves = fields.halves(name, autumn, spring) if autumn or spring else None
        source = self.season(fields.season_name(source))["name"]
        if source == name:
            raise LeagueError(f"season {name} cannot be carried over from itself")
        with self._changing() as db:
            teams = [dict(zip(TEAM_COLUMNS, row)) for row in db.execute(
                f"SELECT {', '.join(TEAM_COLUMNS)} FROM teams WHERE season = ? AND competition = ? ORDER BY id",
                (source, competition)).fetchall()]
            if not teams:
                raise LeagueError(f"season {source} has no {competition} teams to carry over (--competition "
                                  "names the competition)")
            self._new_or_empty(db, name, competition, halves)
            kept = [t for t in teams if not t["expelled"]]
            db.execute_many("INSERT INTO teams(season, competition, name, venue, captain, phone, days) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", [(name, competition, t["name"], t["venue"], t["captain"],
                                                              t["phone"], t["days"]) for t in kept])
            players = _carried_players(db, source, name, competition, kept)
            rules = _carried_rules(db, source, name, competition)
        return {"season": self.season(name), "source": source, "teams": len(kept), "players": players, "rules": rules,
                "left_out": [t["name"] for t in teams if t["expelled"]]}

    @staticmethod
    def _new_or_empty(db, name: str, competition: str, halves) -> None:
        """The season ``name`` added (``halves``: its own, else the whole months); or, already there,
        refused with its halves given or with teams of the competition."""
        if db.execute("SELECT 1 FROM seasons WHERE name = ?", (name,)).fetchone() is None:
            _insert_season(db, name, halves or fields.halves(name, None, None))
            return
        if halves:
            raise LeagueError(f"season {name} already exists; its halves stay as they are")
        [(count,)] = db.execute("SELECT COUNT(*) FROM teams WHERE season = ? AND competition = ?",
                                (name, competition)).fetchall()
        if count:
            raise LeagueError(f"{competition} {name} has {count} team(s) already; a season is carried over into "
                              "a competition without teams")

    def seasons(self) -> list[dict]:
        with self._read() as db:
            rows = db.execute("SELECT name, autumn_first, autumn_last, spring_first, spring_last FROM seasons "
                              "ORDER BY name").fetchall()
        return [_season(row) for row in rows]

    def season(self, name: str) -> dict:
        """The season, or LeagueError naming the seasons there are."""
        for season in self.seasons():
            if season["name"] == name:
                return season
        known = ", ".join(s["name"] for s in self.seasons()) or "none yet (season add)"
        raise LeagueError(f"no season {name!r}; the seasons: {known}")

    def competitions(self) -> dict[str, str]:
        """Competition id (carom, 8ball) -> the league's name."""
        with self._read() as db:
            return dict(db.execute("SELECT id, name FROM competitions ORDER BY id").fetchall())

    # -- a competition's rules (server.league.competition_rules) -------------------------------
    def rules(self, season: str, competition: str) -> dict:
        """The rules of a season's competition: the organiser's settings over the defaults."""
        competition = fields.competition(competition)
        with self._read() as db:
            stored = db.execute("SELECT rules FROM competition_rules WHERE season = ? AND competition = ?",
                                (season, competition)).scalar()
        return competition_rules.merged(competition, json.loads(stored) if stored else {})

    def competition_rules(self, season: str | None, competition: str | None) -> dict | None:
        """The rules of the competition a match of that season and game belongs to; None when the
        league has no such season (a receiver without its league: nothing to hold the match to)."""
        if season is None or competition not in fields.COMPETITIONS:
            return None
        with self._read() as db:
            if db.execute("SELECT 1 FROM seasons WHERE name = ?", (season,)).fetchone() is None:
                return None
        return self.rules(season, competition)

    def set_rules(self, season: str, competition: str, changes: dict) -> dict:
        """Change settings of a season's competition (key -> value, as text or number); LeagueError
        naming an unknown rule, a value out of range, or a rule that decides what a result counts
        once the season has one (A.1.2). The competition's figures are computed again (server.tables)."""
        season = self.season(fields.season_name(season))["name"]
        competition = fields.competition(competition)
        with self._changing() as db:
            stored = db.execute("SELECT rules FROM competition_rules WHERE season = ? AND competition = ?",
                                (season, competition)).scalar()
            kept = competition_rules.changed(competition, json.loads(stored) if stored else {}, changes,
                                             has_results=_has_results(db, season, competition))
            db.execute("DELETE FROM competition_rules WHERE season = ? AND competition = ?", (season, competition))
            if kept:
                db.execute("INSERT INTO competition_rules(season, competition, rules) VALUES (?, ?, ?)",
                           (season, competition, json.dumps(kept, ensure_ascii=False, sort_keys=True)))
            self._store.figures.due_for(db, "game = ? AND season = ?", (competition, season))
        return self.rules(season, competition)

    # -- venues and their devices ------------------------------------------------------
    def add_venue(self, name: str, days="") -> dict:
        """A venue and the weekdays it is open for matches (empty: any working day); an existing
        venue gets the new opening days."""
        name, opening = fields.name(name, "the venue"), fields.days_text(days)
        with self._changing() as db:
            existing = names.find(name, [n for (n,) in db.execute("SELECT name FROM venues").fetchall()])
            if existing not in (None, name):
                raise fields.near_duplicate("venue", name, existing)
            db.execute("INSERT INTO venues(name, days) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
                       "days = excluded.days", (name, opening))
        return {"name": name, "days": opening}

    def venues(self) -> list[dict]:
        """Every venue (in Czech alphabetical order) with its opening days and the devices registered
        for it (add-device --venue)."""
        with self._read() as db:
            rows = sorted(db.execute("SELECT name, days FROM venues").fetchall(), key=lambda row: czech_key(row[0]))
            devices = db.execute("SELECT id, venue FROM devices WHERE venue IS NOT NULL ORDER BY id").fetchall()
        return [{"name": name, "days": days, "devices": [d for d, v in devices if names.same(v, name)]}
                for name, days in rows]

    def venue_named(self, name: str) -> str | None:
        """The league's venue of that name however it is spelled (server.league.names), or None."""
        with self._read() as db:
            return names.find(name, [n for (n,) in db.execute("SELECT name FROM venues").fetchall()])

    def _venue(self, db, name: str) -> str:
        found = names.find(name, [n for (n,) in db.execute("SELECT name FROM venues").fetchall()])
        if found is None:
            raise LeagueError(f"no venue {name!r}; add it first (venue add)")
        return found

    # -- teams and rosters -------------------------------------------------------------
    def add_team(self, season: str, competition: str, name: str, *, venue: str, captain: str, phone: str,
                 days="") -> dict:
        """A team of a season's competition, at its home venue, with its captain and the captain's
        phone (A.3.2) and the weekdays it asks to play on (A.2.4; empty: any)."""
        competition, name = fields.competition(competition), fields.name(name, "the team")
        captain, phone, days = fields.name(captain, "the captain"), fields.phone(phone), fields.days_text(days)
        season = self.season(fields.season_name(season))["name"]
        with self._changing() as db:
            venue = self._venue(db, fields.text(venue, "the venue"))
            existing = self.team_row(db, season, competition, name, missing=None)
            if existing is not None and existing["name"] == name:
                raise LeagueError(f"team {name!r} already plays {competition} in {season}")
            if existing is not None:
                raise fields.near_duplicate("team", name, existing["name"])
            db.execute("INSERT INTO teams(season, competition, name, venue, captain, phone, days) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (season, competition, name, venue, captain, phone, days))
        return self.team(season, competition, name)

    def teams(self, season: str, competition: str) -> list[dict]:
        """The teams of a season's competition with their rosters, both in Czech alphabetical order
        (server.league.czech_order: the same on SQLite and PostgreSQL, Černý before Dvořák), and
        the names their records carry that the organiser corrected (``renamed``: old -> new)."""
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(TEAM_COLUMNS)} FROM teams WHERE season = ? AND competition = ?",
                              (season, competition)).fetchall()
            players = db.execute("SELECT team, name FROM players WHERE season = ? AND competition = ?",
                                 (season, competition)).fetchall()
            renames = db.execute("SELECT r.team, r.old, r.new FROM player_renames r JOIN teams t ON t.id = r.team "
                                 "WHERE t.season = ? AND t.competition = ? ORDER BY r.old",
                                 (season, competition)).fetchall()
        teams = sorted((dict(zip(TEAM_COLUMNS, row), players=[], renamed={}) for row in rows),
                       key=lambda t: czech_key(t["name"]))
        by_id = {t["id"]: t for t in teams}
        for team, player in sorted(players, key=lambda row: czech_key(row[1])):
            by_id[team]["players"].append(player)
        for team, old, new in renames:
            by_id[team]["renamed"][old] = new
        return teams

    def team(self, season: str, competition: str, name: str) -> dict:
        """The team of that name however it is spelled (server.league.names)."""
        teams = self.teams(season, competition)
        found = names.find(name, [t["name"] for t in teams])
        if found is None:
            raise LeagueError(f"no team {name!r} in {competition} {season}")
        return next(t for t in teams if t["name"] == found)

    def team_named(self, season: str | None, competition: str, name: str) -> str | None:
        """The competition's team of that name however it is spelled, or None."""
        if season is None:
            return None
        with self._read() as db:
            row = self.team_row(db, season, competition, name, missing=None)
        return row["name"] if row else None

    def short_rosters(self, season: str, competition: str) -> list[str]:
        """A.3.1: a warning for each team (not expelled) with fewer players on its roster than the
        competition's minimum (a team has at least 4 members in carom)."""
        minimum = self.rules(season, competition)["min_players"]
        return [f"{t['name']} has {len(t['players'])} player{'s' if len(t['players']) != 1 else ''} on its roster; "
                f"a team has at least {minimum} (A.3.1)"
                for t in self.teams(season, competition) if not t["expelled"] and len(t["players"]) < minimum]

    @staticmethod
    def team_row(db, season, competition, name, *, missing="error"):
        """The team's row, its name compared as an identity (server.league.names)."""
        rows = db.execute(f"SELECT {', '.join(TEAM_COLUMNS)} FROM teams WHERE season = ? AND competition = ?",
                          (season, competition)).fetchall()
        wanted = names.identity(name)
        row = next((r for r in rows if names.identity(r[TEAM_COLUMNS.index("name")]) == wanted), None)
        if row is None and missing == "error":
            raise LeagueError(f"no team {name!r} in {competition} {season}")
        return dict(zip(TEAM_COLUMNS, row)) if row else None

    def add_player(self, season: str, competition: str, team: str, player: str) -> None:
        """Put a player on a team's roster; a player already on another team of the same season's
        competition, or who has played for another team of it this season (taken off its roster
        since), is refused with that team's name (A.3.4)."""
        player = fields.name(player, "the player")
        with self._changing() as db:
            row = self.team_row(db, season, competition, team)
            other = self._on_roster(db, season, competition, player)
            if other is not None:
                raise _already_plays(player, other, row["id"], season)
            self._not_played_elsewhere(db, season, competition, player, row["name"])
            _not_corrected_away(db, row, player, None)
            db.execute("INSERT INTO players(season, competition, name, team) VALUES (?, ?, ?, ?)",
                       (season, competition, player, row["id"]))
            self._store.figures.team_due(db, row)      # the names its records flag or go by

    @staticmethod
    def _on_roster(db, season: str, competition: str, player: str):
        """(its stored spelling, team id, team name) of the roster entry that is ``player`` (a name
        compared without case or accents, server.league.names) in the season's competition, or None."""
        rostered = db.execute("SELECT p.name, t.id, t.name FROM players p JOIN teams t ON t.id = p.team "
                              "WHERE p.season = ? AND p.competition = ?", (season, competition)).fetchall()
        spelled = names.find(player, [name for name, _, _ in rostered], by=names.unaccented)
        return next(tuple(r) for r in rostered if r[0] == spelled) if spelled is not None else None

    @staticmethod
    def _not_played_elsewhere(db, season: str, competition: str, player: str, team: str) -> None:
        """Refuse ``player`` for ``team`` if the name has played for another team of the season's
        competition (A.3.4 over the season's history, taken off its roster since or not)."""
        played = next(((name, t) for name, t in db.execute(
            "SELECT DISTINCT player, team FROM player_totals WHERE game = ? AND season = ? AND partie > 0",
            (competition, season)).fetchall() if names.unaccented(name) == names.unaccented(player)
            and not names.same(t, team)), None)
        if played is not None:
            raise LeagueError(f"{played[0]} has played for team {played[1]!r} in {season}; a player plays for "
                              "one team a season, over the whole season (A.3.4)")

    def remove_player(self, season: str, competition: str, team: str, player: str) -> None:
        with self._changing() as db:
            row = self.team_row(db, season, competition, team)
            spelled = names.find(player, [n for (n,) in db.execute(
                "SELECT name FROM players WHERE team = ?", (row["id"],)).fetchall()])
            gone = spelled is not None and db.execute(
                "DELETE FROM players WHERE season = ? AND competition = ? AND name = ? AND team = ?",
                (season, competition, spelled, row["id"])).rowcount
            self._store.figures.team_due(db, row)      # the names its records flag or go by
        if not gone:
            raise LeagueError(f"{player!r} is not on the roster of {team!r} in {season}")

    # -- corrections the organiser makes (the web admin's edit forms) --------------------------
    def edit_team(self, season: str, competition: str, name: str, *, captain: str, phone: str, days="") -> dict:
        """Correct a team's captain, the captain's phone (A.3.2) and its asked-for weekdays (A.2.4)."""
        captain, phone, days = fields.name(captain, "the captain"), fields.phone(phone), fields.days_text(days)
        with self._changing() as db:
            row = self.team_row(db, season, competition, name)
            db.execute("UPDATE teams SET captain = ?, phone = ?, days = ? WHERE id = ?", (captain, phone, days, row["id"]))
        return self.team(season, competition, name)

    def rename_player(self, season: str, competition: str, team: str, player: str, new: str) -> None:
        """Correct the spelling of a player's name on a team's roster, for the whole season. The
        team's match records keep the name they were made with (the league's signed evidence);
        the name read from them is the new one wherever it is shown, counted or checked, in a
        record arriving later too (``player_renames``, server/tables/standing.py), and the team's
        matches are computed again. Names are identities (server.league.names): the new name may
        be the player's own spelled otherwise, never another player's of the season (A.3.4), on a
        roster, having played for another team, or a name this team's records carry for another
        of its players."""
        new = fields.name(new, "the player")
        with self._changing() as db:
            row = self.team_row(db, season, competition, team)
            spelled = names.find(player, [n for (n,) in db.execute(
                "SELECT name FROM players WHERE team = ?", (row["id"],)).fetchall()])
            if spelled is None:
                raise LeagueError(f"{player!r} is not on the roster of {team!r} in {season}")
            other = self._on_roster(db, season, competition, new)
            if other is not None and other[:2] != (spelled, row["id"]):
                raise _already_plays(new, other, row["id"], season)
            self._not_played_elsewhere(db, season, competition, new, row["name"])
            _not_corrected_away(db, row, new, spelled)
            db.execute("UPDATE players SET name = ? WHERE season = ? AND competition = ? AND name = ? AND team = ?",
                       (new, season, competition, spelled, row["id"]))
            _correct(db, row["id"], spelled, new)
            self._store.figures.team_due(db, row)      # the names its records flag or go by

    def folded_names(self) -> list[dict]:
        """The near-duplicate names migration 0008 folded into one (server.league.names)."""
        with self._read() as db:
            rows = db.execute("SELECT kind, scope, kept, folded FROM name_folds ORDER BY seq").fetchall()
        return [dict(zip(("kind", "scope", "kept", "folded"), row)) for row in rows]

    def places(self) -> list[tuple[str, str, str, str | None]]:
        """(season, competition, venue, date) of every team (its home venue, no date) and fixture."""
        with self._read() as db:
            return [tuple(row) for row in db.execute("SELECT season, competition, venue, NULL FROM teams UNION ALL "
                                                     "SELECT season, competition, venue, date FROM fixtures").fetchall()]


def _already_plays(player: str, other: tuple, team_id: int, season: str) -> LeagueError:
    """A.3.4's refusal of ``player``, who is ``other`` (server.storage.league.League._on_roster)."""
    spelled, on, team = other
    where = "this team" if on == team_id else f"team {team!r}"
    if spelled != player:
        return LeagueError(f"{player} already plays for {where} as {spelled!r} in {season}; a player plays for one "
                           "team a season (A.3.4)")
    return LeagueError(f"{player} already plays for {where} in {season}; a player plays for one team a season (A.3.4)")


def departed(team: dict) -> LeagueError:
    """The refusal of a change for a team that has left its competition: how (``expelled_how``,
    DEPARTURES; a team expelled before migration 0015 for its no-shows) and when."""
    day, how = team["expelled"][:10], team["expelled_how"] or "no-shows"
    if how == "withdrew":
        return LeagueError(f"{team['name']} withdrew from the competition on {day} (A.1.2)")
    if how == "decision":
        return LeagueError(f"{team['name']} was expelled by the organiser's decision on {day} (A.1.2)")
    return LeagueError(f"{team['name']} was expelled on {day} (A.3.7)")


def _correct(db, team_id: int, old: str, new: str) -> None:
    """The team's records' ``old`` name (and the names corrected to it before) is ``new``'s."""
    db.execute("UPDATE player_renames SET new = ? WHERE team = ? AND new = ?", (new, team_id, old))
    db.execute("DELETE FROM player_renames WHERE team = ? AND old = ?", (team_id, old))
    db.execute("INSERT INTO player_renames(team, old, new) VALUES (?, ?, ?)", (team_id, old, new))
    db.execute("DELETE FROM player_renames WHERE team = ? AND old = new", (team_id,))


def _not_corrected_away(db, team: dict, player: str, spelled: str | None) -> None:
    """Refuse ``player`` on the team's roster (``spelled``: the roster's name it replaces) when the
    team's records carry it as a name corrected to another of its players: those records count for him."""
    for old, new in db.execute("SELECT old, new FROM player_renames WHERE team = ?", (team["id"],)).fetchall():
        if names.unaccented(old) == names.unaccented(player) and new != spelled:
            raise LeagueError(f"{player} is the name {old!r} corrected to {new!r} on team {team['name']!r} in "
                              f"{team['season']}: its records count for that player (A.3.4)")


def _insert_season(db, name: str, halves) -> None:
    (a_first, a_last), (s_first, s_last) = halves
    db.execute("INSERT INTO seasons(name, autumn_first, autumn_last, spring_first, spring_last) "
               "VALUES (?, ?, ?, ?, ?)", (name, *(d.isoformat() for d in (a_first, a_last, s_first, s_last))))


def _carried_players(db, source: str, target: str, competition: str, teams: list[dict]) -> int:
    """The rosters of ``teams`` (of ``source``) put on their namesakes of ``target``; how many players."""
    new_ids = dict(db.execute("SELECT name, id FROM teams WHERE season = ? AND competition = ?",
                              (target, competition)).fetchall())
    old_ids = {t["id"]: new_ids[t["name"]] for t in teams}
    rows = [(target, competition, player, old_ids[team]) for player, team in db.execute(
        "SELECT name, team FROM players WHERE season = ? AND competition = ?", (source, competition)).fetchall()
        if team in old_ids]
    db.execute_many("INSERT INTO players(season, competition, name, team) VALUES (?, ?, ?, ?)", rows)
    return len(rows)


def _carried_rules(db, source: str, target: str, competition: str) -> int:
    """The competition's settings of ``source`` under the target's own (set before); how many were copied."""
    stored = {season: json.loads(text) for season, text in db.execute(
        "SELECT season, rules FROM competition_rules WHERE season IN (?, ?) AND competition = ?",
        (source, target, competition)).fetchall()}
    copied = {k: v for k, v in stored.get(source, {}).items() if k not in stored.get(target, {})}
    if copied:
        db.execute("DELETE FROM competition_rules WHERE season = ? AND competition = ?", (target, competition))
        db.execute("INSERT INTO competition_rules(season, competition, rules) VALUES (?, ?, ?)",
                   (target, competition, json.dumps(stored.get(target, {}) | copied, ensure_ascii=False,
                                                    sort_keys=True)))
    return len(copied)


def _season(row) -> dict:
    name, *dates = row
    a_first, a_last, s_first, s_last = (dt.date.fromisoformat(d) for d in dates)
    return {"name": name, "autumn": (a_first, a_last), "spring": (s_first, s_last)}


def _has_results(db, season: str, competition: str) -> bool:
    """The competition's season has a stored match (its figures; a device's match already tied to a
    fixture, before they are computed) or a forfeit."""
    return db.execute("SELECT 1 FROM match_figures WHERE game = ? AND season = ? UNION ALL "
                      "SELECT 1 FROM fixtures f WHERE f.season = ? AND f.competition = ? AND (f.status = 'forfeited' "
                      "OR EXISTS (SELECT 1 FROM fixture_matches r WHERE r.fixture = f.id)) LIMIT 1",
                      (competition, season, season, competition)).fetchone() is not None
