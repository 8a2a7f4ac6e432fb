"""Per-player figures (statistics, A.1.3): a row per player and counted partie (an 8-ball
individual match), and their sums per competition, season, player and team (server/tables/player_figures.py
keeps the sums in step with the rows)."""
from server.storage.repository import Repository, upsert

PER_PARTIE = ("won", "drawn", "lost", "forfeited", "points", "innings", "best_series", "team_points",
              "sets_won", "sets_lost", "games_won", "games_lost", "fouls")
SUMMED = ("won", "drawn", "lost", "points", "innings", "team_points", "sets_won", "sets_lost",
          "games_won", "games_lost", "fouls")
TOTALS = ("matches", "partie", *SUMMED, "best_series", "best_average_points", "best_average_innings")
ROW = ("match_id", "partie_id", "side", "seq", "game", "season", "date", "number", "player", "team",
       "opponent", "opponent_team", *PER_PARTIE)
KEY = ("game", "season", "player", "team")          # whose totals
_OF_KEY = "game = ? AND season = ? AND player = ? AND team = ?"
_TOTAL_COLUMNS = (*KEY, *TOTALS)
_ADD = upsert("player_figures", ROW, ("match_id", "partie_id", "side"))
_SET_TOTALS = f"INSERT INTO player_totals({', '.join(_TOTAL_COLUMNS)}) VALUES ({', '.join('?' * len(_TOTAL_COLUMNS))})"


class PlayerFigures(Repository):
    # -- rows -------------------------------------------------------------------------------
    def of_match(self, match_id: str) -> list[dict]:
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(ROW)} FROM player_figures WHERE match_id = ?", (match_id,)).fetchall()
        return [dict(zip(ROW, row)) for row in rows]

    def remove(self, rows: list[dict]) -> None:
        """Delete these rows (one statement for them all)."""
        with self._write() as db:
            db.execute_many("DELETE FROM player_figures WHERE match_id = ? AND partie_id = ? AND side = ?",
                            [(row["match_id"], row["partie_id"], row["side"]) for row in rows])

    def add(self, rows: list[dict]) -> None:
        """Write these rows, each replacing the row of its place (one statement for them all)."""
        with self._write() as db:
            db.execute_many(_ADD, [tuple(row[c] for c in ROW) for row in rows])

    def of_key(self, key: tuple) -> list[dict]:
        """A player's rows in one team, competition and season."""
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(ROW)} FROM player_figures WHERE {_OF_KEY}", key).fetchall()
        return [dict(zip(ROW, row)) for row in rows]

    def partie(self, player: str, game: str, season: str) -> list[dict]:
        """A player's rows of a competition's season, in the order they were played."""
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(ROW)} FROM player_figures WHERE player = ? AND game = ? "
                              "AND season = ? ORDER BY seq, number, partie_id", (player, game, season)).fetchall()
        return [dict(zip(ROW, row)) for row in rows]

    # -- totals ------------------------------------------------------------------------------
    def totals(self, key: tuple) -> dict | None:
        with self._read() as db:
            row = db.execute(f"SELECT {', '.join(TOTALS)} FROM player_totals WHERE {_OF_KEY}", key).fetchone()
        return dict(zip(TOTALS, row)) if row else None

    def set_totals(self, totals: list[tuple[tuple, dict | None]]) -> None:
        """Players' totals as given, each (key, its totals; None: the player has none left), the keys
        distinct (one statement for the deletes, one for the inserts)."""
        with self._write() as db:
            db.execute_many(f"DELETE FROM player_totals WHERE {_OF_KEY}", [key for key, _ in totals])
            db.execute_many(_SET_TOTALS, [(*key, *(sums[c] for c in TOTALS)) for key, sums in totals
                                          if sums is not None])

    def of_player(self, player: str) -> list[dict]:
        """A player's totals in every competition, season and team."""
        return self._totals("player = ?", (player,))

    def of_season(self, game: str, season: str | None, team: str | None = None) -> list[dict]:
        """Every player's totals in a competition's season (of one team, if asked)."""
        if team is None:
            return self._totals("game = ? AND season = ?", (game, season or ""))
        return self._totals("game = ? AND season = ? AND team = ?", (game, season or "", team))

    def _totals(self, where: str, args: tuple) -> list[dict]:
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(_TOTAL_COLUMNS)} FROM player_totals WHERE {where} "
                              "ORDER BY season DESC, game, player, team", args).fetchall()
        return [dict(zip(_TOTAL_COLUMNS, r)) for r in rows]
