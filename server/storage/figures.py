"""The figures computed from the items (server/tables/figures.py): a row per match, a row per team
and match, running totals per team and opponent, and the items whose match still waits for them.
The reads the lists and tables make of them, summed by SQL over one competition and season.
"""
import json

from server.storage.repository import Repository, upsert

SUMMED = ("matches", "points", "partie", "scored", "conceded", "innings", "won", "lost",
          "sets_won", "sets_lost", "games_won", "games_lost")     # the per-team figures
MATCH_LIST = ("match_id", "game", "date", "venue", "home", "away", "points_home", "points_away", "closed", "standing")
# only the matches that count have team rows (server/tables/standing.py): not those off the schedule
# unassigned, waiting for a ruling (A.6.5), annulled with an expelled team (A.3.7), or a friendly
_OF_SEASON = "game = ? AND season = ?"
# the seasons with a match, latest first: an index seek each (match_figures_season), not a scan
_SEASONS = ("WITH RECURSIVE found(season) AS (SELECT MAX(season) FROM match_figures UNION ALL "
            "SELECT (SELECT MAX(season) FROM match_figures WHERE season < found.season) FROM found "
            "WHERE found.season IS NOT NULL) SELECT season FROM found WHERE season IS NOT NULL")


def _season_clause(season):
    return ("season = ?", (season,)) if season is not None else ("season IS NULL", ())


def _difference(old, new) -> dict:
    """(game, season or "", team, opponent) -> new figures minus old, for the keys that changed."""
    deltas: dict[tuple, list[int]] = {}
    for rows, sign in ((old, -1), (new, +1)):
        for game, season, team, opponent, *values in rows:
            total = deltas.setdefault((game, season or "", team, opponent), [0] * len(SUMMED))
            for n, value in enumerate(values):
                total[n] += sign * value
    return {key: values for key, values in deltas.items() if any(values)}


def _listed(row) -> dict:
    return {"match": row[0], "game": row[1], "date": row[2], "venue": row[3], "home": row[4], "away": row[5],
            "points": {"home": row[6], "away": row[7]}, "closed": bool(row[8]), "standing": row[9]}


class Figures(Repository):
    # -- what is still to compute ---------------------------------------------------------------
    def pending(self) -> bool:
        """True when a stored item's match, or a match a league change made due, still waits for
        its figures (a read)."""
        with self._read() as db:
            return db.execute("SELECT 1 FROM figures_pending UNION ALL SELECT 1 FROM figures_due "
                              "LIMIT 1").fetchone() is not None

    def pending_matches(self) -> list[tuple[int, str]]:
        """(item seq, match id) of the items whose match's figures are to be computed, in the
        order they arrived; in the caller's transaction, once it holds the generation's lock."""
        with self._write() as db:
            return [tuple(row) for row in db.execute("SELECT seq, match_id FROM figures_pending "
                                                     "ORDER BY seq").fetchall()]

    def due_matches(self) -> list[str]:
        """The matches a league change made due (in the caller's transaction, under the lock)."""
        with self._write() as db:
            return [m for (m,) in db.execute("SELECT match_id FROM figures_due ORDER BY match_id").fetchall()]

    def due(self, match_ids) -> None:
        """These matches' figures are to be computed again (a league change: in its transaction)."""
        with self._write() as db:
            db.execute_many("INSERT INTO figures_due(match_id) VALUES (?) ON CONFLICT DO NOTHING",
                            [(m,) for m in match_ids])

    def due_for(self, db, where: str, args: tuple) -> None:
        """Every match whose figures row fits ``where`` is due (in the caller's transaction ``db``)."""
        db.execute(f"INSERT INTO figures_due(match_id) SELECT match_id FROM match_figures WHERE {where} "
                   "ON CONFLICT DO NOTHING", args)

    def team_due(self, db, team: dict) -> None:
        """Every match of ``team`` (a League team row) in its competition's season is due (in the
        caller's transaction ``db``): annulled or counted again, its players' names read again."""
        self.due_for(db, "game = ? AND season = ? AND (home = ? OR away = ?)",
                     (team["competition"], team["season"], team["name"], team["name"]))

    def done(self, seqs: list[int], due=()) -> None:
        """These items' figures, and these due matches', are computed (in the caller's transaction,
        with the figures)."""
        with self._write() as db:
            db.execute_many("DELETE FROM figures_pending WHERE seq = ?", [(seq,) for seq in seqs])
            db.execute_many("DELETE FROM figures_due WHERE match_id = ?", [(m,) for m in due])

    # -- a match's figures --------------------------------------------------------------------
    def replace(self, match_id: str, match_row: dict, team_rows: list[dict]) -> None:
        """A match's figures, replacing what was computed before from fewer of its items; the running
        totals per team and opponent change by the difference."""
        with self._write() as db:
            self._drop(db, match_id, team_rows)
            db.execute(upsert("match_figures", list(match_row), ("match_id",)), tuple(match_row.values()))
            if team_rows:
                db.execute_many(upsert("team_figures", list(team_rows[0]), ("match_id", "team")),
                                [tuple(r.values()) for r in team_rows])

    def drop(self, match_id: str) -> None:
        """A match's figures gone (a no-show's forfeit whose place a device's record took)."""
        with self._write() as db:
            self._drop(db, match_id)

    def seq_of(self, match_id: str) -> int:
        """The arrival number a match's figures have, or one after every match's (for figures that
        stand in without an item: a no-show's forfeit)."""
        with self._read() as db:
            return db.execute("SELECT COALESCE((SELECT seq FROM match_figures WHERE match_id = ?), "
                              "(SELECT COALESCE(MAX(seq), 0) + 1 FROM match_figures))", (match_id,)).scalar()

    def _drop(self, db, match_id: str, replacing=()) -> None:
        """Delete a match's figures; the running totals change by the difference to ``replacing``
        (the team rows the caller puts in their place)."""
        old = db.execute(f"SELECT game, season, team, opponent, {', '.join(SUMMED)} FROM team_figures "
                         "WHERE match_id = ?", (match_id,)).fetchall()
        new = [(r["game"], r["season"], r["team"], r["opponent"], *(r[c] for c in SUMMED)) for r in replacing]
        deltas = _difference(old, new)
        if deltas:
            db.execute_many(f"INSERT INTO team_totals(game, season, team, opponent, {', '.join(SUMMED)}) "
                            f"VALUES (?, ?, ?, ?, {', '.join('?' * len(SUMMED))}) "
                            "ON CONFLICT(game, season, team, opponent) DO UPDATE SET "
                            f"{', '.join(f'{c} = team_totals.{c} + excluded.{c}' for c in SUMMED)}",
                            [(*key, *values) for key, values in deltas.items()])
        db.execute("DELETE FROM team_figures WHERE match_id = ?", (match_id,))
        db.execute("DELETE FROM match_figures WHERE match_id = ?", (match_id,))

    # -- what the lists and tables read ---------------------------------------------------------
    def latest_season(self, game: str) -> str | None:
        with self._read() as db:
            return db.execute("SELECT MAX(season) FROM match_figures WHERE game = ?", (game,)).scalar()

    def neighbours(self, game: str, season: str) -> dict:
        """The seasons before and after (two index lookups, not a list of every season)."""
        with self._read() as db:
            previous = db.execute("SELECT MAX(season) FROM match_figures WHERE game = ? AND season < ?",
                                  (game, season)).scalar()
            following = db.execute("SELECT MIN(season) FROM match_figures WHERE game = ? AND season > ?",
                                   (game, season)).scalar()
        return {"previous": previous, "next": following}

    def seasons(self) -> list[str]:
        """The seasons with a stored match (of any competition), latest first."""
        with self._read() as db:
            return [season for (season,) in db.execute(_SEASONS).fetchall()]

    def team_sums(self, game: str, season: str | None) -> list[dict]:
        """Per team, the sums of its figures (from the running totals: a row per team and opponent):
        of the matches that count (an expelled team's are annulled, A.3.7)."""
        with self._read() as db:
            rows = db.execute(f"SELECT team, {', '.join(f'SUM({c})' for c in SUMMED)} FROM team_totals "
                              f"WHERE {_OF_SEASON} GROUP BY team HAVING SUM(matches) > 0",
                              (game, season or "")).fetchall()
        return [dict(zip(("team", *SUMMED), row)) for row in rows]

    def head_to_head(self, game: str, season: str | None) -> dict[str, dict[str, int]]:
        """Team points each team won against each opponent (RULES 1.8 d)."""
        against: dict[str, dict[str, int]] = {}
        with self._read() as db:
            rows = db.execute(f"SELECT team, opponent, points FROM team_totals WHERE {_OF_SEASON} "
                              "AND matches > 0", (game, season or "")).fetchall()
        for team, opponent, points in rows:
            against.setdefault(team, {})[opponent] = points
        return against

    def unreadable(self, game: str | None = None, season: str | None = None) -> list[str]:
        """Ids of stored items the figures could not read (listed on the pages for the organiser)."""
        query, args = "SELECT unreadable FROM match_figures WHERE unreadable IS NOT NULL", ()   # a partial index
        if game is not None:
            clause, season_args = _season_clause(season)
            query, args = query + f" AND game = ? AND {clause}", (game, *season_args)
        with self._read() as db:
            rows = db.execute(query + " ORDER BY seq", args).fetchall()
        return [item for (text,) in rows for item in json.loads(text)]

    def flagged(self, game: str, season: str) -> list[dict]:
        """The matches of a competition's season with something for the organiser to look at, by
        arrival: ``unrostered``, names not on the roster of the team they played for (A.3.4), and
        ``irregular``, a player who played twice or a captain not of his team (A.3.6, A.6.1); the
        match's ``standing`` (server/tables/standing.py: pending until the organiser's ruling) and
        ``fixture`` (its fixture's id, or its own id off the schedule)."""
        with self._read() as db:
            rows = db.execute("SELECT match_id, date, home, away, standing, fixture, flags FROM match_figures "
                              "WHERE game = ? AND season = ? AND flags IS NOT NULL ORDER BY seq", (game, season)).fetchall()
        return [{"match": m, "date": d, "home": h, "away": a, "standing": s, "fixture": x, **json.loads(f)}
                for m, d, h, a, s, x, f in rows]

    def matches(self, season: str | None = None) -> list[dict]:
        """The matches of one season in the order they first arrived: teams, date, venue, points,
        closed. Default: the latest season with a match, and the matches without a usable date (so
        that the organiser sees them)."""
        args: tuple[str, ...]
        if season is not None:
            clause, args = "season = ?", (season,)
        else:
            latest = next(iter(self.seasons()), None)
            clause, args = ("season = ? OR season IS NULL", (latest,)) if latest else ("season IS NULL", ())
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(MATCH_LIST)} FROM match_figures WHERE {clause} ORDER BY seq",
                              args).fetchall()
        return [_listed(r) for r in rows]

    def results_of(self, game: str, season: str | None) -> list[dict]:
        """The counted results of a competition's season, a fixture each (an interrupted match and
        its replayed rest are one, A.6.5: their points summed): fixture, date, home, away, points."""
        with self._read() as db:
            rows = db.execute("SELECT fixture, MIN(date), home, away, SUM(points_home), SUM(points_away) "
                              "FROM match_figures WHERE game = ? AND season = ? AND standing = 'counted' "
                              "AND points_home IS NOT NULL AND points_away IS NOT NULL "
                              "GROUP BY fixture, home, away ORDER BY MIN(seq)", (game, season)).fetchall()
        return [{"fixture": r[0], "date": r[1], "home": r[2], "away": r[3], "points": {"home": r[4], "away": r[5]}}
                for r in rows]

    def matches_of(self, game: str, season: str | None) -> list[dict]:
        """The matches of a competition's season, in the order they first arrived."""
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(MATCH_LIST)} FROM match_figures WHERE game = ? AND season = ? "
                              "ORDER BY seq", (game, season)).fetchall()
        return [{key: value for key, value in _listed(r).items() if key != "game"} for r in rows]
