"""The admin's audit log: each change the organiser made (who, when, what), newest first on its page."""
from server.storage.repository import Repository

_KEYS = ("at", "who", "action", "what")
WHAT_MAX = 2000             # characters of a change's description kept


class Audit(Repository):
    def add(self, who: str, action: str, what: str) -> None:
        """Record a change; inside the change's transaction, both are kept or neither."""
        with self._write() as db:
            db.execute("INSERT INTO audit(at, who, action, what) VALUES (?, ?, ?, ?)",
                       (self.now(), who[:200], action[:100], what[:WHAT_MAX]))

    def latest(self, limit: int = 200) -> list[dict]:
        """The latest ``limit`` changes, newest first."""
        with self._read() as db:
            rows = db.execute(f"SELECT {', '.join(_KEYS)} FROM audit ORDER BY seq DESC LIMIT ?", (limit,)).fetchall()
        return [dict(zip(_KEYS, row)) for row in rows]
