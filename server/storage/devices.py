"""The devices registered with the receiver (a venue's counters and gateways), and the nonces
their signed messages used (a replayed message is refused)."""
from server.league.admin_fields import LeagueError
from server.storage.repository import Repository

ROLES = ("device", "gateway")


class Devices(Repository):
    def __init__(self, store, live):
        super().__init__(store)
        self._live = live       # the live board: a removed device's tables leave it

    def add(self, device: str, secret: bytes, note: str = "", role: str = "device", venue: str | None = None) -> None:
        """Register a counter ("device") of a venue, or a venue gateway that only relays ("gateway")."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        with self._write() as db:
            db.execute("INSERT INTO devices(id, secret, note, added, role, venue) VALUES (?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT(id) DO UPDATE SET secret=excluded.secret, note=excluded.note, "
                       "role=excluded.role, venue=excluded.venue", (device, secret, note, self.now(), role, venue))

    def remove(self, device: str) -> dict:
        """Unregister a device or gateway (lost, stolen, its venue left the league): from the commit
        on its posts and league fetches are refused as an unknown device's. What it delivered
        stays (the items name their device, not its registration); its nonces stay too, so a
        message of it replayed after it is registered again is still refused. Its tables leave
        the live board. Returns what it was: id, role, venue."""
        with self._write() as db:
            row = db.execute("SELECT role, venue FROM devices WHERE id = ?", (device,)).fetchone()
            if row is None:
                raise LeagueError(f"no device {device!r} is registered")
            db.execute("DELETE FROM devices WHERE id = ?", (device,))
            self._live.forget(device)
        return {"id": device, "role": row[0], "venue": row[1]}

    def get(self, device: str) -> tuple[str, bytes, str | None] | None:
        """A registered device's (role, secret, venue) (None: unknown)."""
        with self._read() as db:
            row = db.execute("SELECT role, secret, venue FROM devices WHERE id = ?", (device,)).fetchone()
        return (row[0], bytes(row[1]), row[2]) if row else None

    def venue_of(self, device: str) -> str | None:
        """The venue a device is registered for (None: registered for none)."""
        registered = self.get(device)
        return registered[2] if registered else None

    def secret_of(self, device: str, role: str = "device") -> bytes | None:
        """The secret of a registered device of this role (None: unknown, or registered as the other)."""
        registered = self.get(device)
        return registered[1] if registered and registered[0] == role else None

    def role_of(self, device: str) -> str | None:
        registered = self.get(device)
        return registered[0] if registered else None

    def all(self) -> list[dict]:
        with self._read() as db:
            rows = db.execute("SELECT id, note, added, role, venue FROM devices ORDER BY id").fetchall()
        return [{"id": r[0], "note": r[1], "added": r[2], "role": r[3], "venue": r[4]} for r in rows]

    def venues(self) -> list[tuple[str, str]]:
        """(device, venue) of every device registered for a venue."""
        with self._read() as db:
            return [tuple(row) for row in db.execute("SELECT id, venue FROM devices WHERE venue IS NOT NULL "
                                                     "ORDER BY id").fetchall()]

    _forgot: int | None = None      # the last ``forget_before`` this store's nonces were forgotten by

    def claim_nonce(self, device: str, nonce: str, ts: int, forget_before: int) -> bool:
        """Record a nonce; False if this device used it before (a replayed message). The nonces
        older than ``forget_before`` (the receiver's whole seconds) are forgotten first, once per
        value of it: a nonce claimed since is of a fresh message, never that old, so a DELETE
        for every item of the same second found nothing (a statement an item saved). A DELETE
        undone with its transaction keeps old nonces a second longer: a stricter check, no laxer."""
        with self._write() as db:
            if forget_before != self._forgot:
                db.execute("DELETE FROM nonces WHERE ts < ?", (forget_before,))
                self._forgot = forget_before
            cur = db.execute("INSERT INTO nonces(device, nonce, ts) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                             (device, nonce, ts))
        return cur.rowcount == 1
