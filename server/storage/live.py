"""The live board as the store keeps it (migration 0013), so that every receiver on the database
shows the same board (server/live/board.py keeps each receiver's copy of it):

    live_tables    per (venue, table): the latest snapshot (JSON), the device that sent it, when
                   it arrived (the store's clock, seconds) and the board's change that wrote it
    live_devices   per device: the order (signed timestamp, seq) of its latest snapshot, so that
                   a replay turns the board back on no receiver
    live_changes   one row: the board's change number, moved on by every snapshot shown; a
                   receiver reads it to know whether its copy is current

No record: a snapshot is the spectators' view of a table for a few minutes. Its write does not
wait for the disk (a crash may lose the latest snapshots, which the devices send again within a
second) and moves the store's generation on no page.
"""
from server.storage.repository import Repository, upsert

_KEEP = upsert("live_tables", ("venue", "table_name", "device", "heard", "n", "snap"), ("venue", "table_name"))


class LiveTables(Repository):
    def put(self, device: str, order: tuple[int, int], key: tuple[str, str], snap: str, *, heard: float,
            oldest: float, per_device: int) -> bool:
        """Keep ``snap`` (JSON) as the latest of table ``key`` = (venue, table), arrived at ``heard``;
        drop every table last heard before ``oldest`` and the device's tables but its latest
        ``per_device``. False (nothing changed) when ``order`` is not after the device's latest.
        The device's row, then the change row, are locked to the commit: snapshots are kept one
        at a time across receivers, each device's in its order."""
        with self._write(durable=False) as db:
            if not db.execute("INSERT INTO live_devices(device, signed, seq) VALUES (?, ?, ?) "
                              "ON CONFLICT(device) DO UPDATE SET signed = excluded.signed, seq = excluded.seq "
                              "WHERE live_devices.signed < excluded.signed "
                              "OR (live_devices.signed = excluded.signed AND live_devices.seq < excluded.seq)",
                              (device, *order)).rowcount:
                return False
            n = db.execute("UPDATE live_changes SET n = n + 1 WHERE id = 1 RETURNING n").scalar()
            db.execute("DELETE FROM live_tables WHERE heard < ?", (oldest,))
            db.execute(_KEEP, (*key, device, heard, n, snap))
            db.execute("DELETE FROM live_tables WHERE device = ? AND n NOT IN "
                       "(SELECT n FROM live_tables WHERE device = ? ORDER BY n DESC LIMIT ?)",
                       (device, device, per_device))
        return True

    def forget(self, device: str) -> int:
        """Take a removed device's tables off the board (how many): the change number moves on, so
        every receiver's copy drops them at its next look. The change row is locked first, as
        ``put`` locks it before the tables (PostgreSQL: no deadlock with a snapshot kept meanwhile).
        Its order stays in ``live_devices``: a replayed snapshot is still older."""
        with self._write() as db:
            db.execute("UPDATE live_changes SET n = n + 1 WHERE id = 1")
            return db.execute("DELETE FROM live_tables WHERE device = ?", (device,)).rowcount

    def since(self, seen: int) -> tuple[int, list[tuple], set[tuple[str, str]]] | None:
        """None while the board's change number is ``seen``; else that number, the tables written
        after ``seen`` (venue, table, heard, n, snap) and every table's (venue, table): a copy of
        change ``seen`` becomes current by them (what is not among the latter is gone)."""
        with self._read() as db:
            n = db.execute("SELECT n FROM live_changes WHERE id = 1").scalar()
            if n == seen:
                return None
            rows = db.execute("SELECT venue, table_name, heard, n, snap FROM live_tables WHERE n > ?",
                              (seen,)).fetchall()
            keys = {(venue, table) for venue, table in db.execute("SELECT venue, table_name FROM live_tables")}
        return n, [tuple(row) for row in rows], keys
