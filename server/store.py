"""The receiver's SQLite store (WAL): devices, accepted items kept verbatim, nonces, refusals.

An accepted item is never changed or deleted: ``put`` inserts a new id, answers "duplicate"
for the same id with the same bytes, and raises Conflict for the same id with other bytes.
"""
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone

SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    id TEXT PRIMARY KEY, secret BLOB NOT NULL, note TEXT NOT NULL DEFAULT '', added TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, game TEXT, match_id TEXT, device TEXT NOT NULL,
    via TEXT NOT NULL, received TEXT NOT NULL, body BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS items_match ON items(match_id);
CREATE TABLE IF NOT EXISTS nonces (
    device TEXT NOT NULL, nonce TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (device, nonce));
CREATE TABLE IF NOT EXISTS refusals (
    at TEXT NOT NULL, via TEXT NOT NULL, remote TEXT, device TEXT, item_id TEXT,
    status INTEGER NOT NULL, reason TEXT NOT NULL);
"""


class Conflict(Exception):
    """Another item with this id is already stored (it stays untouched)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    def __init__(self, path):
        self.path = str(path)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)

    @contextmanager
    def _transaction(self):
        """One write transaction, taken under the lock (BEGIN IMMEDIATE: no lost updates)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def journal_mode(self) -> str:
        with self._lock:
            return self._db.execute("PRAGMA journal_mode").fetchone()[0]

    # -- devices ---------------------------------------------------------
    def add_device(self, device: str, secret: bytes, note: str = "") -> None:
        with self._lock:
            self._db.execute("INSERT INTO devices(id, secret, note, added) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET secret=excluded.secret, note=excluded.note",
                             (device, secret, note, _now()))

    def secret_of(self, device: str) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT secret FROM devices WHERE id = ?", (device,)).fetchone()
        return bytes(row[0]) if row else None

    def devices(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute("SELECT id, note, added FROM devices ORDER BY id").fetchall()
        return [{"id": r[0], "note": r[1], "added": r[2]} for r in rows]

    # -- replay protection ------------------------------------------------
    def claim_nonce(self, device: str, nonce: str, ts: int, forget_before: int) -> bool:
        """Record a nonce; False if this device used it before (a replayed message)."""
        with self._transaction() as db:
            db.execute("DELETE FROM nonces WHERE ts < ?", (forget_before,))
            cur = db.execute("INSERT OR IGNORE INTO nonces(device, nonce, ts) VALUES (?, ?, ?)",
                             (device, nonce, ts))
        return cur.rowcount == 1

    # -- items -----------------------------------------------------------
    def stored_body(self, item_id: str) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
        return bytes(row[0]) if row else None

    def put(self, item_id: str, kind: str, body: bytes, *, device: str, via: str,
            game: str | None = None, match_id: str | None = None) -> str:
        """Store an item; "stored" or "duplicate" (same bytes); Conflict when the bytes differ."""
        with self._transaction() as db:
            row = db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
            if row is None:
                db.execute("INSERT INTO items(id, kind, game, match_id, device, via, received, body) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (item_id, kind, game, match_id, device, via, _now(), body))
        if row is None:
            return "stored"
        if bytes(row[0]) == body:
            return "duplicate"
        raise Conflict(f"a different item with id {item_id!r} is already stored")

    def items(self, *, kind: str | None = None, match_id: str | None = None, game: str | None = None) -> list[dict]:
        query, args = "SELECT id, kind, game, match_id, device, via, received, body FROM items WHERE 1=1", []
        for column, value in (("kind", kind), ("match_id", match_id), ("game", game)):
            if value is not None:
                query += f" AND {column} = ?"
                args.append(value)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY rowid", args).fetchall()
        keys = ("id", "kind", "game", "match_id", "device", "via", "received", "body")
        return [dict(zip(keys, row[:-1] + (bytes(row[-1]),))) for row in rows]

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM items").fetchone()[0]

    # -- the refusal log --------------------------------------------------
    def log_refusal(self, *, via: str, remote: str | None, device: str | None, item_id: str | None,
                    status: int, reason: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO refusals(at, via, remote, device, item_id, status, reason) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", (_now(), via, remote, device, item_id, status, reason))

    def refusals(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute("SELECT at, via, remote, device, item_id, status, reason FROM refusals "
                                    "ORDER BY rowid").fetchall()
        keys = ("at", "via", "remote", "device", "item_id", "status", "reason")
        return [dict(zip(keys, row)) for row in rows]
