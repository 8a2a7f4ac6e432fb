"""A gateway's marks on the items it passes on to the league's receiver: delivered or held."""
from server.storage.repository import Repository


class Forwarding(Repository):
    def waiting(self, *, relayable: bool, limit: int = -1) -> list[dict]:
        """Items neither delivered nor held, in the order they arrived: those with the device's
        signature kept (``relayable``) or those without."""
        have = "IS NOT NULL" if relayable else "IS NULL"
        with self._read() as db:
            rows = db.execute("SELECT i.id, i.kind, i.body FROM items i LEFT JOIN forwarded f ON f.id = i.id "
                              f"WHERE f.id IS NULL AND i.origin {have} ORDER BY i.seq"
                              + (" LIMIT ?" if limit >= 0 else ""), (limit,) if limit >= 0 else ()).fetchall()
        return [{"id": r[0], "kind": r[1], "body": bytes(r[2])} for r in rows]

    def count_waiting(self) -> int:
        """Items not delivered (waiting, held, or not relayable)."""
        with self._read() as db:
            return db.execute("SELECT COUNT(*) FROM items i LEFT JOIN forwarded f ON f.id = i.id "
                              "WHERE f.id IS NULL OR f.state != 'delivered'").fetchone()[0]

    def marked(self, state: str) -> list[dict]:
        """The items marked ``state``, in the order they were marked."""
        with self._read() as db:
            rows = db.execute("SELECT f.id, i.kind, i.body, f.at, f.why FROM forwarded f JOIN items i "
                              "ON i.id = f.id WHERE f.state = ? ORDER BY f.seq", (state,)).fetchall()
        return [{"id": r[0], "kind": r[1], "body": bytes(r[2]), "at": r[3], "why": r[4]} for r in rows]

    def last_delivered(self) -> str | None:
        """When an item was last acknowledged."""
        with self._read() as db:
            return db.execute("SELECT MAX(at) FROM forwarded WHERE state = 'delivered'").scalar()

    def mark(self, item_id: str, state: str | None, at: str, why: str | None = None) -> None:
        """Mark an item "delivered" or "held"; state None puts it back in the queue."""
        with self._write() as db:
            db.execute("DELETE FROM forwarded WHERE id = ?", (item_id,))
            if state is not None:
                db.execute("INSERT INTO forwarded(id, state, at, why) VALUES (?, ?, ?, ?)", (item_id, state, at, why))
