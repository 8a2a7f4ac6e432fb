"""The refusal log: every refusal counted by status and way in, the latest ones kept, and per client
(an address; an IPv6 address by its /64) and status the count with the first refusal and the
latest: a flood overwrites the list of the latest, never the evidence of who came before it.

``on_logged(remote, via)``, when set (the receiver's HTTP limiter, server/site/access.py), is told
of every refusal logged: what is counted towards a client's limit is what is logged.
A refusal alone (not in an item's transaction) is committed without waiting for the disk: a
flood of them must not cost a disk write each, and a crash may lose the last few, never an item.
"""
from server.storage.repository import Repository
from wire.streams import client_of

KEEP_REFUSALS = 10_000      # the log keeps the latest ones; every refusal is still counted
KEEP_CLIENTS = 10_000       # clients with a summary; the refusals of any more are summed as OTHERS
OTHERS = "(others)"
SHOWN_CLIENTS = 100         # clients in a report, the most refused first
_KEYS = ("at", "via", "remote", "device", "item_id", "status", "reason")
_CLIENT_KEYS = ("client", "status", "count", "first_at", "first_reason", "last_at", "last_reason")


class Refusals(Repository):
    def __init__(self, store, keep: int = KEEP_REFUSALS):
        super().__init__(store)
        self.keep = keep
        self.on_logged = None

    def log(self, *, via: str, remote: str | None, device: str | None, item_id: str | None,
            status: int, reason: str) -> None:
        """Count the refusal, keep it (the log keeps only the latest ``keep``) and add it to its
        client's summary."""
        now = self.now()
        with self._write(durable=False) as db:
            [seq] = db.execute("INSERT INTO refusals(at, via, remote, device, item_id, status, reason) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq",
                               (now, via, remote, device, item_id, status, reason)).fetchone()
            db.execute("INSERT INTO refusal_counts(status, via, n) VALUES (?, ?, 1) "
                       "ON CONFLICT(status, via) DO UPDATE SET n = refusal_counts.n + 1", (status, via))
            db.execute("DELETE FROM refusals WHERE seq <= ?", (seq - self.keep,))
            self._summed(db, client_of(remote), status, now, reason)
        if self.on_logged is not None:
            self.on_logged(remote, via)

    @staticmethod
    def _summed(db, client: str, status: int, now: str, reason: str) -> None:
        if db.execute("UPDATE refusal_clients SET n = n + 1, last_at = ?, last_reason = ? WHERE client = ? "
                      "AND status = ?", (now, reason, client, status)).rowcount:
            return
        if db.execute("SELECT COUNT(*) FROM refusal_clients").scalar() >= KEEP_CLIENTS:
            client = OTHERS
        db.execute("INSERT INTO refusal_clients(client, status, n, first_at, first_reason, last_at, last_reason) "
                   "VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT(client, status) DO UPDATE SET n = refusal_clients.n + 1, "
                   "last_at = excluded.last_at, last_reason = excluded.last_reason",
                   (client, status, now, reason, now, reason))

    def latest(self, limit: int = -1) -> list[dict]:
        """The refusals kept, oldest first (``limit``: only the latest so many)."""
        with self._read() as db:
            rows = db.execute(f"SELECT * FROM (SELECT seq, {', '.join(_KEYS)} "
                              "FROM refusals ORDER BY seq DESC" + (" LIMIT ?" if limit >= 0 else "")
                              + ") AS latest ORDER BY seq", (limit,) if limit >= 0 else ()).fetchall()
        return [dict(zip(_KEYS, row[1:])) for row in rows]

    def report(self, latest: int = 100) -> dict:
        """Every refusal counted by status and way in, the clients most refused (each with its
        first refusal and its latest), and the latest refusals kept."""
        with self._read() as db:
            counts = db.execute("SELECT status, via, n FROM refusal_counts ORDER BY status, via").fetchall()
            clients = db.execute(f"SELECT client, status, n, first_at, first_reason, last_at, last_reason "
                                 f"FROM refusal_clients ORDER BY n DESC, first_at LIMIT {SHOWN_CLIENTS}").fetchall()
        return {"counted": [{"status": s, "via": v, "count": n} for s, v, n in counts],
                "total": sum(n for _, _, n in counts),
                "clients": [dict(zip(_CLIENT_KEYS, row)) for row in clients], "latest": self.latest(latest)}
