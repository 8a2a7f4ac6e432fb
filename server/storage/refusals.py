"""The refusal log: every refusal counted by status and way in, the latest ones kept."""
from server.storage.repository import Repository

KEEP_REFUSALS = 10_000      # the log keeps the latest ones; every refusal is still counted
_KEYS = ("at", "via", "remote", "device", "item_id", "status", "reason")


class Refusals(Repository):
    def __init__(self, store, keep: int = KEEP_REFUSALS):
        super().__init__(store)
        self.keep = keep

    def log(self, *, via: str, remote: str | None, device: str | None, item_id: str | None,
            status: int, reason: str) -> None:
        """Count the refusal and keep it; the log keeps only the latest ``keep``."""
        with self._write() as db:
            [seq] = db.execute("INSERT INTO refusals(at, via, remote, device, item_id, status, reason) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq",
                               (self.now(), via, remote, device, item_id, status, reason)).fetchone()
            db.execute("INSERT INTO refusal_counts(status, via, n) VALUES (?, ?, 1) "
                       "ON CONFLICT(status, via) DO UPDATE SET n = refusal_counts.n + 1", (status, via))
            db.execute("DELETE FROM refusals WHERE seq <= ?", (seq - self.keep,))

    def latest(self, limit: int = -1) -> list[dict]:
        """The refusals kept, oldest first (``limit``: only the latest so many)."""
        with self._read() as db:
            rows = db.execute(f"SELECT * FROM (SELECT seq, {', '.join(_KEYS)} "
                              "FROM refusals ORDER BY seq DESC" + (" LIMIT ?" if limit >= 0 else "")
                              + ") AS latest ORDER BY seq", (limit,) if limit >= 0 else ()).fetchall()
        return [dict(zip(_KEYS, row[1:])) for row in rows]

    def report(self, latest: int = 100) -> dict:
        """Every refusal counted by status and way in, and the latest ones kept."""
        with self._read() as db:
            counts = db.execute("SELECT status, via, n FROM refusal_counts ORDER BY status, via").fetchall()
        return {"counted": [{"status": s, "via": v, "count": n} for s, v, n in counts],
                "total": sum(n for _, _, n in counts), "latest": self.latest(latest)}
