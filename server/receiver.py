"""The receiver's one decision, shared by HTTP, the serial listener and a backlog import.

``Receiver.handle(signed, via=..., remote=...)`` returns ``(status, answer)``: 200 "stored" or
"duplicate" (already have it), 400 malformed, 401 unknown device / bad signature / stale
timestamp / replayed nonce, 409 same id with other bytes, 422 does not replay to its summary.
A registered gateway's post carries the device's original signature (``signed.origin``): the
gateway's signature must be fresh, the device's must match the body; the item is stored as the
device's, with its original signature, so the gateway cannot forge nor alter a record.
Every refusal is logged (Python logging and the store's refusals table); nothing stored changes.
"""
import logging

from server.store import Conflict
from server import figures
from server.errors import Refused
from server.verify import check, parse_body

log = logging.getLogger("pocitadlo.server")

WINDOW = 300          # seconds a signed message stays fresh (and its nonce remembered)
MAX_BODY = 1 << 20


class Receiver:
    def __init__(self, store, *, clock=None, window: int = WINDOW, on_stored=None):
        """``clock``: seconds since the epoch (default: the store's clock, clock/)."""
        self.store, self._clock, self.window = store, clock or store.clock.time, window
        self.on_stored = on_stored      # called after a new item is stored (a gateway wakes its forwarder)
        figures.rebuild_if_missing(store)

    def handle(self, signed, *, via: str, remote: str | None = None, fresh_only: bool = True) -> tuple[int, dict]:
        """Verify and store one signed item. ``fresh_only=False`` (a backlog file carried on a USB
        stick) skips the timestamp window and nonce; the signature is still required.
        One transaction: the checks, the item, its match's figures or the refusal, one commit."""
        with self.store.transaction():
            status, answer = self._handle(signed, via, remote, fresh_only)
        if answer["status"] == "stored" and self.on_stored is not None:
            self.on_stored()
        return status, answer

    def authenticate(self, signed) -> None:
        """Check a signed request that stores nothing (a league fetch) as strictly as a post:
        a registered device (not a gateway), its signature, the time window, a fresh nonce."""
        with self.store.transaction():
            self._authenticate(signed, True)

    def now(self) -> float:
        return self._clock()

    def _handle(self, signed, via: str, remote: str | None, fresh_only: bool) -> tuple[int, dict]:
        item_id = None
        try:
            author = self._authenticate(signed, fresh_only)
            parsed = parse_body(signed.body)
            item_id = parsed.id
            if author is not signed:
                via = f"{via}:{signed.device}"      # relayed by this gateway
            status = self._store(parsed, author, via)
        except Refused as exc:
            return self._refuse(exc, signed, via, remote, item_id)
        log.info("%s %s %s from %s via %s", status, parsed.kind, parsed.id, author.device, via)
        reason = "already have it" if status == "duplicate" else "stored"
        return 200, self._answer(200, status, parsed.id, reason)

    def _authenticate(self, signed, fresh_only: bool):
        """Check the signature(s); return the device's own: ``signed``, or for a gateway its origin."""
        role = self.store.role_of(signed.device) if _clean(signed.device) else None
        if signed.origin is not None and role != "gateway":
            raise Refused(401, f"{signed.device!r} is not a registered gateway: it cannot relay records")
        if signed.origin is None and role == "gateway":
            raise Refused(401, f"{signed.device!r} is a gateway: it relays records signed by a device, "
                               "it cannot sign its own")
        self._check_signature(signed, role or "device", "")
        if fresh_only:
            now = int(self._clock())
            if abs(now - signed.timestamp) > self.window:
                raise Refused(401, f"stale timestamp ({signed.timestamp - now:+d} s from the receiver's clock)")
            if not self.store.claim_nonce(signed.device, signed.nonce, signed.timestamp, now - 2 * self.window):
                raise Refused(401, "replayed message (nonce already used)")
        if signed.origin is None:
            return signed
        self._check_signature(signed.origin, "device", "origin ")    # no window: it was fresh at the gateway
        return signed.origin

    def _check_signature(self, signed, role: str, what: str) -> None:
        if not _clean(signed.device) or not _clean(signed.nonce) or len(signed.nonce) > 64:
            raise Refused(401, f"malformed {what}device id or nonce")
        secret = self.store.secret_of(signed.device, role)
        if secret is None:
            raise Refused(401, f"unknown {what}device {signed.device!r}")
        if not signed.valid_for(secret):
            raise Refused(401, f"bad {what}signature")

    def _store(self, parsed, signed, via: str) -> str:
        stored = self.store.stored_body(parsed.id)
        if stored is not None and stored != signed.body:
            raise Refused(409, f"conflict: a different item with id {parsed.id!r} is already stored")
        venue = None
        if stored is None:
            parsed = check(parsed)
            venue = self._authorise(parsed, signed.device)
        match_id = parsed.match_id
        refresh = (lambda: figures.refresh(self.store, match_id)) if match_id is not None else None
        try:     # the match's figures are computed once, here, in the transaction that stores the item
            return self.store.put(parsed.id, parsed.kind, signed.body, device=signed.device, via=via,
                                  game=parsed.game, match_id=match_id, origin=signed.fields(), venue=venue,
                                  then=refresh)
        except Conflict as exc:
            raise Refused(409, f"conflict: {exc}") from None

    def _authorise(self, parsed, device: str) -> str | None:
        """A match's items come only from devices of its venue (a gateway relays their signatures):
        the venue the match item or partie is stored under, or Refused (403) with the reason."""
        if parsed.match_id is None:
            return None         # a single partie belongs to no match and no table
        mine = self.store.venue_of(device)
        if mine is None:
            raise Refused(403, f"device {device!r} is not registered for a venue: it cannot write into a match "
                               "(pocitadlo server add-device --venue)")
        venue = self.store.match_venue(parsed.match_id) or parsed.venue or mine
        for claimed, what in ((venue, f"match {parsed.match_id!r} is played at"), (parsed.venue, "the item names")):
            if claimed is not None and claimed != mine:
                raise Refused(403, f"device {device!r} is registered for {mine!r}; {what} {claimed!r}")
        return venue

    def _refuse(self, exc: Refused, signed, via, remote, item_id) -> tuple[int, dict]:
        device = signed.device if _clean(signed.device) else ascii(signed.device)
        log.warning("refused %s from %s via %s (%s): %s %s", item_id or "?", device, via,
                    remote or "-", exc.status, exc.reason)
        self.store.log_refusal(via=via, remote=remote, device=device, item_id=item_id,
                               status=exc.status, reason=exc.reason)
        return exc.status, self._answer(exc.status, "refused", item_id, exc.reason)

    def _answer(self, code: int, status: str, item_id, reason: str) -> dict:
        return {"code": code, "status": status, "id": item_id, "reason": reason, "server_time": self._clock()}

    def refuse_unsigned(self, reason: str, *, status: int = 400, via: str, remote: str | None = None) -> tuple[int, dict]:
        """A message that could not even be read as signed (missing headers, bad frame payload)."""
        log.warning("refused a message via %s (%s): %s %s", via, remote or "-", status, reason)
        self.store.log_refusal(via=via, remote=remote, device=None, item_id=None, status=status, reason=reason)
        return status, self._answer(status, "refused", None, reason)


def _clean(text: str) -> bool:
    """Printable text that can be stored (no lone surrogates from a crafted JSON escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(text) and len(text) <= 200 and text.isprintable()
