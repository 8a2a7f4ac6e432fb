"""The accepted items, kept verbatim: never changed or deleted once stored.

``put`` inserts a new id, answers "duplicate" for the same id with the same bytes, and raises
Conflict for the same id with other bytes.
"""
import json

from rules.record import compact_encoder
from server.storage.repository import Repository

_compact_json = compact_encoder(ensure_ascii=True)     # json.dumps(obj, separators=(",", ":")), kept
_COLUMNS = ("id", "kind", "game", "match_id", "device", "via", "received", "body")


class Conflict(Exception):
    """Another item with this id is already stored (it stays untouched)."""


class Items(Repository):
    def put(self, item_id: str, kind: str, body: bytes, *, device: str, via: str,
            game: str | None = None, match_id: str | None = None, origin: dict | None = None,
            venue: str | None = None) -> str:
        """Store an item; "stored" or "duplicate" (same bytes); Conflict when the bytes differ.
        ``origin``: the device's own signature fields, kept so a gateway can pass the item on.
        An item of a match is marked for its match's figures, computed after the answer (``settle``
        in server/tables/figures.py): the item's commit is all the device waits for."""
        origin_text = _compact_json(origin) if origin is not None else None
        with self._write() as db:
            # another receiver storing the same id at once (PostgreSQL): this waits for its commit
            row = db.execute("INSERT INTO items(id, kind, game, match_id, device, via, received, body, origin, "
                             "venue) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING RETURNING seq",
                             (item_id, kind, game, match_id, device, via, self.now(), body, origin_text,
                              venue)).fetchone()
            if row is not None:
                if match_id is not None:
                    db.execute("INSERT INTO figures_pending(seq, match_id) VALUES (?, ?)", (row[0], match_id))
                self._store.outdated()      # this receiver's kept pages are out of date
            else:
                row = db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
                if bytes(row[0]) == body:
                    return "duplicate"
                raise Conflict(f"a different item with id {item_id!r} is already stored")
        return "stored"

    def body(self, item_id: str) -> bytes | None:
        """The bytes the device sent (None: no such item)."""
        with self._read() as db:
            row = db.execute("SELECT body FROM items WHERE id = ?", (item_id,)).fetchone()
        return bytes(row[0]) if row else None

    def all(self, *, kind: str | None = None, match_id: str | None = None, game: str | None = None) -> list[dict]:
        """The stored items (with their bodies) in arrival order, of one kind, match or game if asked."""
        query, args = f"SELECT {', '.join(_COLUMNS)} FROM items WHERE 1=1", []
        for column, value in (("kind", kind), ("match_id", match_id), ("game", game)):
            if value is not None:
                query += f" AND {column} = ?"
                args.append(value)
        with self._read() as db:
            rows = db.execute(query + " ORDER BY seq", args).fetchall()
        return [dict(zip(_COLUMNS, row[:-1] + (bytes(row[-1]),))) for row in rows]

    def listed(self, *, after: int = 0, limit: int) -> list[dict]:
        """At most ``limit`` stored items after arrival number ``after``, in arrival order, without
        their bodies: what the admin's list of items pages through."""
        with self._read() as db:
            rows = db.execute("SELECT seq, id, kind, game, match_id, device, via, received FROM items WHERE seq > ? "
                              "ORDER BY seq LIMIT ?", (after, limit)).fetchall()
        return [dict(zip(("seq", *_COLUMNS[:-1]), row)) for row in rows]

    def origin(self, item_id: str) -> dict | None:
        """The device's signature fields kept with an item (None for items stored without them)."""
        with self._read() as db:
            row = db.execute("SELECT origin FROM items WHERE id = ?", (item_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def count(self) -> int:
        with self._read() as db:
            return db.execute("SELECT COUNT(*) FROM items").fetchone()[0]

    def last_received(self) -> str | None:
        """When the latest item arrived (UTC, ISO 8601): the site's "last change"; None before the first."""
        with self._read() as db:
            return db.execute("SELECT received FROM items ORDER BY seq DESC LIMIT 1").scalar()

    def match_venue(self, match_id: str) -> str | None:
        """The venue of a match, as its first stored item set it (None: no item of it yet)."""
        with self._read() as db:
            row = db.execute("SELECT venue FROM items WHERE match_id = ? AND venue IS NOT NULL LIMIT 1",
                             (match_id,)).fetchone()
        return row[0] if row else None

    def first_of_match(self, match_id: str) -> int | None:
        """The arrival number of a match's first item (None: none stored)."""
        with self._read() as db:
            return db.execute("SELECT MIN(seq) FROM items WHERE match_id = ?", (match_id,)).scalar()

    def has_match(self, match_id: str) -> bool:
        with self._read() as db:
            return db.execute("SELECT 1 FROM items WHERE match_id = ? LIMIT 1", (match_id,)).fetchone() is not None

    def matches_without_figures(self) -> list[str]:
        """Matches with stored items but no figures (a store from before figures)."""
        with self._read() as db:
            return [m for (m,) in db.execute("SELECT DISTINCT i.match_id FROM items i LEFT JOIN match_figures f "
                                             "ON f.match_id = i.match_id WHERE i.match_id IS NOT NULL "
                                             "AND f.match_id IS NULL").fetchall()]
