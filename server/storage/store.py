"""The receiver's SQLite store (WAL): devices, accepted items kept verbatim, nonces, refusals.

An accepted item is never changed or deleted: ``put`` inserts a new id, answers "duplicate"
for the same id with the same bytes, and raises Conflict for the same id with other bytes.
"""
import itertools
import json
from contextlib import contextmanager

from clock import SystemClock
from server.storage.database import Database
from server.storage.fixtures_store import Fixtures
from server.storage.league_store import League

ROLES = ("device", "gateway")
SUMMED = ("matches", "points", "partie", "scored", "conceded", "innings", "won", "lost",
          "sets_won", "sets_lost", "games_won", "games_lost")     # the per-team figures (server/tables/figures.py)
KEEP_REFUSALS = 10_000      # the refusal log keeps the latest ones; every refusal is still counted
_compact_json = json.JSONEncoder(separators=(",", ":")).encode     # json.dumps' text, one encoder kept


def _difference(old, new) -> dict:
    """(game, season or "", team, opponent) -> new figures minus old, for the keys that changed."""
    deltas: dict[tuple, list[int]] = {}
    for rows, sign in ((old, -1), (new, +1)):
        for game, season, team, opponent, *values in rows:
            total = deltas.setdefault((game, season or "", team, opponent), [0] * len(SUMMED))
            for n, value in enumerate(values):
                total[n] += sign * value
    return {key: values for key, values in deltas.items() if any(values)}


class Conflict(Exception):
    """Another item with this id is already stored (it stays untouched)."""




class Store(League, Fixtures):
    """The receiver's store; the league's own data (seasons, teams, fixtures …) through League and Fixtures."""
    summed = SUMMED

    def __init__(self, path, *, keep_refusals: int = KEEP_REFUSALS, clock=None):
        """``path``: a SQLite file, or a SQLAlchemy URL (``postgresql+psycopg://…``); the schema is
        brought up to date (Alembic) when it is opened."""
        self.path, self.keep_refusals = str(path), keep_refusals
        self.clock = clock or SystemClock()     # the one wall clock (clock/); tests give a ManualClock
        self._db = Database(self.path)
        self._commits = itertools.count(1)
        self.changes = 0        # a new number after each commit of a change made here (``changed``)

    def now(self) -> str:
        """The time stamp written with devices, items and refusals (UTC, seconds)."""
        return self.clock.utc().isoformat(timespec="seconds")

    def _transaction(self):
        """One transaction (SQLite: BEGIN IMMEDIATE, no lost updates); inside one already (the
        receiver's, per item), the statements join it."""
        return self._db.transaction()

    @contextmanager
    def _changing(self):
        """A transaction that changes what the pages show (the league's own data): the store's
        generation moves on with it, so kept pages are built again."""
        with self._transaction() as db:
            self.changed()
            yield db

    def transaction(self, *, durable: bool = True):
        """A caller's transaction (the receiver's, per item): the store's calls inside join it.
        ``durable=False``: only data computed again from the items (server/storage/database.py)."""
        return self._db.transaction(durable=durable)

    @contextmanager
    def writing_now(self):
        """True when a write can start at once and nothing else can hold it up: SQLite, its write
        lock free of other threads (held until the block ends). False for PostgreSQL, where a
        write may wait for another receiver's row lock."""
        if self.dialect != "sqlite":
            yield False
            return
        with self._db.writer_if_free() as free:
            yield free

    def _read(self):
        return self._db.transaction(write=False)

    def reading(self):
        """A caller's read (a page): the store's reads inside see one state of the store (SQLite:
        one snapshot; PostgreSQL: each statement sees what was committed before it)."""
        return self._read()

    def read(self, sql: str, args=()) -> list[tuple]:
        """Rows of a portable read-only SQL statement (``?`` placeholders), on a read connection."""
        with self._read() as db:
            return [tuple(row) for row in db.execute(sql, args).fetchall()]

    def generation(self) -> int:
        """A number that moves on with every change to what the pages show (migration 0004):
        an item stored, figures computed again; by this process or another on the same database."""
        with self._read() as db:
            return db.execute("SELECT n FROM generation WHERE id = 1").fetchone()[0]

    def changed(self) -> None:
        """Move the generation on (in the caller's transaction, if any): the pages built before
        are out of date."""
        with self._transaction() as db:
            db.execute("UPDATE generation SET n = n + 1 WHERE id = 1")
            self._db.after_commit(self._committed)

    def _committed(self) -> None:
        self.changes = next(self._commits)

    def close(self) -> None:
        self._db.close()

    @property
    def dialect(self) -> str:
        return self._db.engine.dialect.name

    def journal_mode(self) -> str:
        with self._read() as db:
            return db.execute("PRAGMA journal_mode").fetchone()[0]

    # -- devices ---------------------------------------------------------
    def add_device(self, device: str, secret: bytes, note: str = "", role: str = "device",
                   venue: str | None = None) -> None:
        """Register a counter ("device") of a venue, or a venue gateway that only relays ("gateway")."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        with self._transaction() as db:
            db.execute("INSERT INTO devices(id, secret, note, added, role, venue) VALUES (?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET secret=excluded.secret, note=excluded.note, "
                             "role=excluded.role, venue=excluded.venue", (device, secret, note, self.now(), role, venue))

    def venue_of(self, device: str) -> str | None:
        """The venue a device is registered for (None: registered for none)."""
        with self._read() as db:
            row = db.execute("SELECT venue FROM devices WHERE id = ?", (device,)).fetchone()
        return row[0] if row else None

    def match_venue(self, match_id: str) -> str | None:
        """The venue of a match, as its first stored item set it (None: no item of it yet)."""
        with self._read() as db:
            row = db.execute("SELECT venue FROM items WHERE match_id = ? AND venue IS NOT NULL LIMIT 1",
                                   (match_id,)).fetchone()
        return row[0] if row else None

    def secret_of(self, device: str, role: str = "device") -> bytes | None:
        """The secret of a registered device of this role (None: unknown, or registered as the other)."""
        with self._read() as db:
            row = db.execute("SELECT secret FROM devices WHERE id = ? AND role = ?", (device, role)).fetchone()
        return bytes(row[0]) if row else None

    def device(self, device: str) -> tuple[str, bytes, str | None] | None:
        """A registered device's (role, secret, venue) (None: unknown)."""
        with self._read() as db:
            row = db.execute("SELECT role, secret, venue FROM devices WHERE id = ?", (device,)).fetchone()
        return (row[0], bytes(row[1]), row[2]) if row else None

    def role_of(self, device: str) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT role FROM devices WHERE id = ?", (device,)).fetchone()
        return row[0] if row else None

    def devices(self) -> list[dict]:
        with self._read() as db:
            rows = db.execute("SELECT id, note, added, role, venue FROM devices ORDER BY id").fetchall()
        return [{"id": r[0], "note": r[1], "added": r[2], "role": r[3], "venue": r[4]} for r in rows]

    # -- replay protection ------------------------------------------------
    def claim_nonce(self, device: str, nonce: str, ts: int, forget_before: int) -> bool:
        """Record a nonce; False if this device used it before (a replayed message)."""
        with self._transaction() as db:
            db.execute("DELETE FROM nonces WHERE ts < ?", (forget_before,))
            cur = db.execute("INSERT INTO nonces(device, nonce, ts) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                             (device, nonce, ts))
        return cur.rowcount == 1

    # -- items -----------------------------------------------------------
    def stored_body(self, item_id: str) -> bytes | None:
        with self._read() as db:
            row = db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
        return bytes(row[0]) if row else None

    def put(self, item_id: str, kind: str, body: bytes, *, device: str, via: str,
            game: str | None = None, match_id: str | None = None, origin: dict | None = None,
            venue: str | None = None) -> str:
        """Store an item; "stored" or "duplicate" (same bytes); Conflict when the bytes differ.
        ``origin``: the device's own signature fields, kept so a gateway can pass the item on.
        An item of a match is marked for its match's figures, computed after the answer (``settle``
        in server/tables/figures.py): the item's commit is all the device waits for."""
        origin_text = _compact_json(origin) if origin is not None else None
        with self._transaction() as db:
            # another receiver storing the same id at once (PostgreSQL): this waits for its commit
            row = db.execute("INSERT INTO items(id, kind, game, match_id, device, via, received, body, origin, "
                             "venue) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING RETURNING seq",
                             (item_id, kind, game, match_id, device, via, self.now(), body, origin_text,
                              venue)).fetchone()
            if row is not None:
                if match_id is not None:
                    db.execute("INSERT INTO figures_pending(seq, match_id) VALUES (?, ?)", (row[0], match_id))
                self._db.after_commit(self._committed)      # this receiver's kept pages are out of date
            else:
                row = db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
                if bytes(row[0]) == body:
                    return "duplicate"
                raise Conflict(f"a different item with id {item_id!r} is already stored")
        return "stored"

    # -- figures still to compute (server/tables/figures.py ``settle``) ---------------------------------
    def figures_pending(self) -> bool:
        """True when a stored item's match still waits for its figures (a read)."""
        with self._read() as db:
            return db.execute("SELECT 1 FROM figures_pending LIMIT 1").fetchone() is not None

    def pending_matches(self) -> list[tuple[int, str]]:
        """(item seq, match id) of the items whose match's figures are to be computed, in the
        order they arrived; in the caller's transaction, once it holds the generation's lock."""
        with self._transaction() as db:
            return [tuple(row) for row in db.execute("SELECT seq, match_id FROM figures_pending "
                                                     "ORDER BY seq").fetchall()]

    def figured(self, seqs: list[int]) -> None:
        """These items' figures are computed (in the caller's transaction, with the figures)."""
        with self._transaction() as db:
            db.execute_many("DELETE FROM figures_pending WHERE seq = ?", [(seq,) for seq in seqs])

    def lock_generation(self) -> None:
        """Hold the generation's row lock to the commit (PostgreSQL; SQLite's write transaction
        already excludes every other writer): figures are computed one step at a time across
        receivers, each from every item committed before it."""
        if self.dialect != "sqlite":
            with self._transaction() as db:
                db.execute("SELECT n FROM generation WHERE id = 1 FOR UPDATE")

    def items(self, *, kind: str | None = None, match_id: str | None = None, game: str | None = None) -> list[dict]:
        query, args = "SELECT id, kind, game, match_id, device, via, received, body FROM items WHERE 1=1", []
        for column, value in (("kind", kind), ("match_id", match_id), ("game", game)):
            if value is not None:
                query += f" AND {column} = ?"
                args.append(value)
        with self._read() as db:
            rows = db.execute(query + " ORDER BY seq", args).fetchall()
        keys = ("id", "kind", "game", "match_id", "device", "via", "received", "body")
        return [dict(zip(keys, row[:-1] + (bytes(row[-1]),))) for row in rows]

    def listed(self, *, after: int = 0, limit: int) -> list[dict]:
        """At most ``limit`` stored items after arrival number ``after``, in arrival order, without
        their bodies: what the admin's list of items pages through."""
        with self._read() as db:
            rows = db.execute("SELECT seq, id, kind, game, match_id, device, via, received FROM items WHERE seq > ? "
                              "ORDER BY seq LIMIT ?", (after, limit)).fetchall()
        return [dict(zip(("seq", "id", "kind", "game", "match_id", "device", "via", "received"), row)) for row in rows]

    def origin_of(self, item_id: str) -> dict | None:
        """The device's signature fields kept with an item (None for items stored without them)."""
        with self._read() as db:
            row = db.execute("SELECT origin FROM items WHERE id = ?", (item_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    # -- passing items on (a gateway) ---------------------------------------
    def unforwarded(self, *, relayable: bool, limit: int = -1) -> list[dict]:
        """Items the forwarder has neither delivered nor held, in the order they arrived:
        those with the device's signature kept (``relayable``) or those without."""
        have = "IS NOT NULL" if relayable else "IS NULL"
        with self._read() as db:
            rows = db.execute("SELECT i.id, i.kind, i.body FROM items i LEFT JOIN forwarded f ON f.id = i.id "
                                    f"WHERE f.id IS NULL AND i.origin {have} ORDER BY i.seq"
                                    + (" LIMIT ?" if limit >= 0 else ""), (limit,) if limit >= 0 else ()).fetchall()
        return [{"id": r[0], "kind": r[1], "body": bytes(r[2])} for r in rows]

    def count_unforwarded(self) -> int:
        """Items the forwarder has not delivered (waiting, held, or not relayable)."""
        with self._read() as db:
            return db.execute("SELECT COUNT(*) FROM items i LEFT JOIN forwarded f ON f.id = i.id "
                                    "WHERE f.id IS NULL OR f.state != 'delivered'").fetchone()[0]

    def forwarded(self, state: str) -> list[dict]:
        with self._read() as db:
            rows = db.execute("SELECT f.id, i.kind, i.body, f.at, f.why FROM forwarded f JOIN items i "
                                    "ON i.id = f.id WHERE f.state = ? ORDER BY f.seq", (state,)).fetchall()
        return [{"id": r[0], "kind": r[1], "body": bytes(r[2]), "at": r[3], "why": r[4]} for r in rows]

    def last_forwarded(self) -> str | None:
        """When the forwarder last had an item acknowledged."""
        with self._read() as db:
            row = db.execute("SELECT MAX(at) FROM forwarded WHERE state = 'delivered'").fetchone()
        return row[0]

    def set_forwarded(self, item_id: str, state: str | None, at: str, why: str | None = None) -> None:
        """Mark an item "delivered" or "held" by the forwarder; state None puts it back in the queue."""
        with self._transaction() as db:
            db.execute("DELETE FROM forwarded WHERE id = ?", (item_id,))
            if state is not None:
                db.execute("INSERT INTO forwarded(id, state, at, why) VALUES (?, ?, ?, ?)", (item_id, state, at, why))

    # -- figures (server/tables/figures.py computes them after the answers, per match) ----------------
    def query(self, sql: str, args=()) -> list[tuple]:
        """Rows of a portable SQL statement with ``?`` placeholders (none for a statement without)."""
        with self._transaction() as db:
            result = db.execute(sql, args)
            return [tuple(row) for row in result.fetchall()] if result.returns_rows else []

    def replace_figures(self, match_id: str, match_row: dict, team_rows: list[dict]) -> None:
        """A match's figures, replacing what was computed before from fewer of its items; the running
        totals per team and opponent change by the difference."""
        with self._transaction() as db:
            self._drop_figures(db, match_id, team_rows)
            db.execute(f"INSERT INTO match_figures({', '.join(match_row)}) "
                       f"VALUES ({', '.join('?' * len(match_row))})", tuple(match_row.values()))
            if team_rows:
                columns = list(team_rows[0])
                db.execute_many(f"INSERT INTO team_figures({', '.join(columns)}) "
                                f"VALUES ({', '.join('?' * len(columns))})", [tuple(r.values()) for r in team_rows])

    def drop_stand_in(self, fixture_id: str) -> None:
        """Drop the figures standing in for a fixture's result with no item of its own (a no-show's
        8 : 0, A.3.7): the device's record of the match, which names the fixture, replaces them."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM items WHERE match_id = ? LIMIT 1", (fixture_id,)).fetchone():
                return
            self._drop_figures(db, fixture_id)

    @classmethod
    def _drop_figures(cls, db, match_id: str, replacing=()) -> None:
        """Delete a match's figures; the running totals change by the difference to ``replacing``
        (the team rows the caller puts in their place)."""
        old = db.execute(f"SELECT game, season, team, opponent, {', '.join(SUMMED)} FROM team_figures "
                         "WHERE match_id = ?", (match_id,)).fetchall()
        new = [(r["game"], r["season"], r["team"], r["opponent"], *(r[c] for c in SUMMED)) for r in replacing]
        cls._add_totals(db, _difference(old, new))
        db.execute("DELETE FROM team_figures WHERE match_id = ?", (match_id,))
        db.execute("DELETE FROM match_figures WHERE match_id = ?", (match_id,))

    @staticmethod
    def _add_totals(db, deltas: dict) -> None:
        """Add per-match differences to the running totals per (game, season, team, opponent)."""
        if deltas:
            db.execute_many(f"INSERT INTO team_totals(game, season, team, opponent, {', '.join(SUMMED)}) "
                            f"VALUES (?, ?, ?, ?, {', '.join('?' * len(SUMMED))}) "
                            "ON CONFLICT(game, season, team, opponent) DO UPDATE SET "
                            f"{', '.join(f'{c} = team_totals.{c} + excluded.{c}' for c in SUMMED)}",
                            [(*key, *values) for key, values in deltas.items()])

    def count(self) -> int:
        with self._read() as db:
            return db.execute("SELECT COUNT(*) FROM items").fetchone()[0]

    # -- the refusal log --------------------------------------------------
    def log_refusal(self, *, via: str, remote: str | None, device: str | None, item_id: str | None,
                    status: int, reason: str) -> None:
        """Count the refusal and keep it; the log keeps only the latest ``self.keep_refusals``."""
        with self._transaction() as db:
            [seq] = db.execute("INSERT INTO refusals(at, via, remote, device, item_id, status, reason) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq",
                               (self.now(), via, remote, device, item_id, status, reason)).fetchone()
            db.execute("INSERT INTO refusal_counts(status, via, n) VALUES (?, ?, 1) "
                       "ON CONFLICT(status, via) DO UPDATE SET n = refusal_counts.n + 1", (status, via))
            db.execute("DELETE FROM refusals WHERE seq <= ?", (seq - self.keep_refusals,))

    def refusals(self, limit: int = -1) -> list[dict]:
        """The refusals kept, oldest first (``limit``: only the latest so many)."""
        with self._read() as db:
            rows = db.execute("SELECT * FROM (SELECT seq, at, via, remote, device, item_id, status, reason "
                              "FROM refusals ORDER BY seq DESC" + (" LIMIT ?" if limit >= 0 else "")
                              + ") AS latest ORDER BY seq", (limit,) if limit >= 0 else ()).fetchall()
        keys = ("at", "via", "remote", "device", "item_id", "status", "reason")
        return [dict(zip(keys, row[1:])) for row in rows]

    def refusal_report(self, latest: int = 100) -> dict:
        """Every refusal counted by status and way in, and the latest ones kept."""
        with self._read() as db:
            counts = db.execute("SELECT status, via, n FROM refusal_counts ORDER BY status, via").fetchall()
        return {"counted": [{"status": s, "via": v, "count": n} for s, v, n in counts],
                "total": sum(n for _, _, n in counts), "latest": self.refusals(latest)}
