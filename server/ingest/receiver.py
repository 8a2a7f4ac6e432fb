"""The receiver's one decision, shared by HTTP, the serial listener and a backlog import.

``Receiver.receive(signed, via=..., remote=...)`` returns ``(status, answer)`` (``receive_many``: a
list of them for several items stored with one commit; ``receive_posts``: a list of such lists
for the posts of several devices stored with one commit, server/site/group_commit.py): 200 "stored" or
"duplicate" (already have it), 400 malformed, 401 unknown device / bad signature / stale
timestamp / replayed nonce, 409 same id with other bytes, 422 does not replay to its summary.
A registered gateway's post carries the device's original signature (``signed.origin``): the
gateway's signature must be fresh, the device's must match the body; the item is stored as the
device's, with its original signature, so the gateway cannot forge nor alter a record.
Every refusal is logged (Python logging and the store's refusals table); nothing stored changes.
The answer waits for the item's commit only: its match's figures are computed after it, by
``settle`` (batched, server/tables/figures.py); ``handle`` is the two in a row.
"""
import logging
import threading

from server.ingest import league_checks
from server.ingest.prechecks import Checked, as_checked
from server.league import fixture_claims, names
from server.league.errors import Refused
from server.league.verify import check, parse_body
from server.storage.items import Conflict
from server.tables import figures

log = logging.getLogger("pocitadlo.server")

_UNREAD = object()    # a device's registration not read yet
WINDOW = 300          # seconds a signed message stays fresh (and its nonce remembered)
MAX_BODY = 1 << 20


class Receiver:
    def __init__(self, store, *, clock=None, window: int = WINDOW, on_stored=None):
        """``clock``: seconds since the epoch (default: the store's clock, clock/)."""
        self.store, self._clock, self.window = store, clock or store.clock.time, window
        self.on_stored = on_stored      # called after a new item is stored (a gateway wakes its forwarder)
        self._settling = threading.Lock()
        self.received = self.settled = 0    # items this receiver stored; of them, those a step computed
        figures.bring_up_to_date(store)     # heals what a receiver stopped before its figures left

    def handle(self, signed, *, via: str, remote: str | None = None, fresh_only: bool = True) -> tuple[int, dict]:
        """``receive`` one signed item, then ``settle`` its match's figures (a caller that answers
        nobody in between: a backlog import, the tests)."""
        status, answer = self.receive(signed, via=via, remote=remote, fresh_only=fresh_only)
        if answer["status"] == "stored":
            self.settle()
        return status, answer

    def settle(self, *, wait: bool = True, matches: int | None = None) -> bool | None:
        """Compute the figures of the matches whose items were stored since (server/tables/figures.py):
        after the answers, batched; False when there was nothing to compute. One step at a time
        here: readers asking at once wait for one step, then each finds nothing left (a read),
        instead of each taking the writer in turn ahead of the devices' items. ``wait=False``:
        None at once when another step is under way (a caller holding the writer must not wait
        for a step that waits for the writer). ``matches``: at most this many matches (the
        rest stay pending for the next call; the items count as settled once a call finds
        nothing left)."""
        if not self._settling.acquire(blocking=wait):
            return None
        try:
            received = self.received
            done = figures.settle(self.store, matches=matches)
            if matches is None or not done:
                self.settled = received
            return done
        finally:
            self._settling.release()

    @property
    def unsettled(self) -> bool:
        """Items this receiver answered that no step computed yet (no database read)."""
        return self.settled < self.received

    def receive(self, signed, *, via: str, remote: str | None = None, fresh_only: bool = True) -> tuple[int, dict]:
        """Verify and store one signed item: the answer. ``fresh_only=False`` (a backlog file
        carried on a USB stick) skips the timestamp window and nonce; the signature is still
        required. One transaction: the checks, the item (its match marked for figures, computed
        after the answer by ``settle``) or the refusal, one commit."""
        return self.receive_many([signed], via=via, remote=remote, fresh_only=fresh_only)[0]

    def receive_many(self, signed: list, *, via: str, remote: str | None = None,
                     fresh_only: bool = True, checked: Checked | None = None) -> list[tuple[int, dict]]:
        """Verify and store several signed items (a device's backlog) in one transaction: each
        answered as ``receive`` would answer it alone, in order (a refused one logged, the others
        stored, an id twice "duplicate" the second time), and all durable when this returns: the
        items share one commit's wait for the disk instead of each waiting for its own.
        ``checked``: bodies' content checks done ahead (server/ingest/prechecks.py)."""
        [answers] = self.receive_posts([(signed, via, remote)], fresh_only=fresh_only, checked=checked)
        assert isinstance(answers, list)        # a post alone is not a part: what fails raises
        return answers

    def receive_posts(self, posts: list[tuple[list, str, str | None]], *, fresh_only: bool = True,
                      checked: Checked | None = None) -> list[list[tuple[int, dict]] | Exception]:
        """Several posts (each: its signed items, via, remote), from devices posting at once,
        stored in one transaction and made durable by one commit (group commit,
        server/site/group_commit.py): each post's items answered as ``receive_many`` answers them.
        Of several, each post is a part of its own (a savepoint): one that fails (a bug) is
        undone alone, its place in the list the error, and the others are stored. What fails the
        transaction (the commit: a full disk) raises, and none of them is stored. ``checked``:
        as for ``receive_many``."""
        checked = checked or {}
        with self.store.transaction():
            self.store.lock_items()     # receivers on one PostgreSQL: one group at a time, no deadlock
            if len(posts) == 1:
                results: list[list[tuple[int, dict]] | Exception] = [self._answers(*posts[0], fresh_only, checked)]
            else:
                results = [self._part(*post, fresh_only, checked) for post in posts]
        stored = sum(answer["status"] == "stored" for answers in results if isinstance(answers, list)
                     for _, answer in answers)
        self.received += stored
        if stored and self.on_stored is not None:
            self.on_stored()
        return results

    def _answers(self, signed: list, via: str, remote: str | None, fresh_only: bool,
                 checked: Checked) -> list[tuple[int, dict]]:
        return [self._handle(one, via, remote, fresh_only, checked) for one in signed]

    def _part(self, signed: list, via: str, remote: str | None, fresh_only: bool,
              checked: Checked) -> list[tuple[int, dict]] | Exception:
        """One post of several in a transaction: its answers, or, when it failed (a bug), the
        error, the post undone alone (a savepoint) and logged."""
        with self.store.part() as part:
            answers = self._answers(signed, via, remote, fresh_only, checked)
        if part.failed is None:
            return answers
        log.error("a post from %s via %s failed and was undone", remote or "-", via, exc_info=part.failed)
        return part.failed

    def authenticate(self, signed) -> None:
        """Check a signed request that stores nothing (a league fetch) as strictly as a post:
        a registered device (not a gateway), its signature, the time window, a fresh nonce."""
        with self.store.transaction():
            self._authenticate(signed, True)

    def now(self) -> float:
        return self._clock()

    def _handle(self, signed, via: str, remote: str | None, fresh_only: bool, checked: Checked) -> tuple[int, dict]:
        item_id = None
        try:
            author, registered = self._authenticate(signed, fresh_only)
            parsed = parse_body(signed.body)
            item_id = parsed.id
            if author is not signed:
                via = f"{via}:{signed.device}"      # relayed by this gateway
            status = self._store(parsed, author, registered[2], via, checked.get(signed.body))
        except Refused as exc:
            return self._refuse(exc, signed, via, remote, item_id)
        log.info("%s %s %s from %s via %s", status, parsed.kind, parsed.id, author.device, via)
        reason = "already have it" if status == "duplicate" else "stored"
        return 200, self._answer(200, status, parsed.id, reason)

    def _authenticate(self, signed, fresh_only: bool):
        """Check the signature(s); return the device's own (``signed``, or for a gateway its origin)
        and its registration (role, secret, venue)."""
        registered = self.store.devices.get(signed.device) if _clean(signed.device) else None
        role = registered[0] if registered else None
        if signed.origin is not None and role != "gateway":
            raise Refused(401, f"{signed.device!r} is not a registered gateway: it cannot relay records")
        if signed.origin is None and role == "gateway":
            raise Refused(401, f"{signed.device!r} is a gateway: it relays records signed by a device, "
                               "it cannot sign its own")
        self._check_signature(signed, role or "device", "", registered)
        if fresh_only:
            now = int(self._clock())
            if abs(now - signed.timestamp) > self.window:
                raise Refused(401, f"stale timestamp ({signed.timestamp - now:+d} s from the receiver's clock)")
            if not self.store.devices.claim_nonce(signed.device, signed.nonce, signed.timestamp, now - 2 * self.window):
                raise Refused(401, "replayed message (nonce already used)")
        if signed.origin is None:
            return signed, registered
        # no window for the origin: it was fresh at the gateway
        return signed.origin, self._check_signature(signed.origin, "device", "origin ")

    def _check_signature(self, signed, role: str, what: str, registered=_UNREAD) -> tuple:
        """The signing device's registration (role, secret, venue; ``registered``: as read
        already), once its signature holds for it in this role."""
        if not _clean(signed.device) or not _clean(signed.nonce) or len(signed.nonce) > 64:
            raise Refused(401, f"malformed {what}device id or nonce")
        if registered is _UNREAD:
            registered = self.store.devices.get(signed.device)
        if registered is None or registered[0] != role:
            raise Refused(401, f"unknown {what}device {signed.device!r}")
        if not signed.valid_for(registered[1]):
            raise Refused(401, f"bad {what}signature")
        return registered

    def _store(self, parsed, signed, mine: str | None, via: str, ahead=None) -> str:
        """``mine``: the venue the signing device is registered for. A new item's content is
        checked (``ahead``: what the check gave, done ahead, or None); one of a league match is
        authorised (its venue, its fixture: 403), held to its competition's rules (422), and, once
        stored, its match is its fixture's result and a no-show at the table is the team's no-show."""
        stored = self.store.items.body(parsed.id)
        if stored is not None and stored != signed.body:
            raise Refused(409, f"conflict: a different item with id {parsed.id!r} is already stored")
        venue, claim = None, None
        if stored is None:
            parsed = _checked(parsed, ahead)
            league_checks.not_dated_ahead(parsed, self.store.clock.today())
            venue = self._authorise(parsed, signed.device, mine)
            claim = self._fixture_claim(parsed, signed.device, mine)
            league_checks.hold_to_rules(self.store, parsed, claim)
            if claim is not None and claim[1] is not None and not self.store.results.claim(parsed.match_id, *claim):
                raise Refused(403, f"fixture {claim[0]} got its result from another match meanwhile")
        try:
            status = self.store.items.put(parsed.id, parsed.kind, signed.body, device=signed.device, via=via,
                                          game=parsed.game, match_id=parsed.match_id, origin=signed.fields(),
                                          venue=venue)
        except Conflict as exc:
            raise Refused(409, f"conflict: {exc}") from None
        if status == "stored" and claim is not None and parsed.kind == "match":
            league_checks.no_show_at_table(self.store, parsed, claim[0])
        return status

    def _fixture_claim(self, parsed, device: str, mine: str | None) -> tuple[str, int | None] | None:
        """(the fixture an item of a league match names, the part its match becomes of it: None
        when it is that already), or None when it names no fixture; Refused (403) when the device
        may not write it (server.league.fixture_claims)."""
        if parsed.match_id is None:
            return None
        fixtures = self.store.fixtures
        assignment = self.store.results.assignment(parsed.match_id)
        assigned = assignment["fixture"] if assignment else None
        fixture_id = fixture_claims.named(parsed.match_id, parsed.match or {}, assigned=assigned,
                                          exists=fixtures.exists, on_date=fixtures.on_date)
        if fixture_id is None:
            return None
        part = fixture_claims.decide(fixtures.get(fixture_id), parsed.match_id, parsed.match or {}, device=device,
                                     venue=mine, assigned=assigned)
        return fixture_id, part

    def _authorise(self, parsed, device: str, mine: str | None) -> str | None:
        """A match's items come only from devices of its venue (``mine``: the device's; a gateway
        relays their signatures): the venue the match item or partie is stored under, or Refused
        (403) with the reason."""
        if parsed.match_id is None:
            return None         # a single partie belongs to no match and no table
        if mine is None:
            raise Refused(403, f"device {device!r} is not registered for a venue: it cannot write into a match "
                               "(pocitadlo server add-device --venue)")
        venue = self.store.items.match_venue(parsed.match_id) or parsed.venue or mine
        for claimed, what in ((venue, f"match {parsed.match_id!r} is played at"), (parsed.venue, "the item names")):
            if claimed is not None and not names.same(claimed, mine):
                raise Refused(403, f"device {device!r} is registered for {mine!r}; {what} {claimed!r}")
        return venue

    def _refuse(self, exc: Refused, signed, via, remote, item_id) -> tuple[int, dict]:
        device = signed.device if _clean(signed.device) else ascii(signed.device)
        log.warning("refused %s from %s via %s (%s): %s %s", item_id or "?", device, via,
                    remote or "-", exc.status, exc.reason)
        self.store.refusals.log(via=via, remote=remote, device=device, item_id=item_id,
                               status=exc.status, reason=exc.reason)
        return exc.status, self._answer(exc.status, "refused", item_id, exc.reason)

    def _answer(self, code: int, status: str, item_id, reason: str) -> dict:
        return {"code": code, "status": status, "id": item_id, "reason": reason, "server_time": self._clock()}

    def refuse_unsigned(self, reason: str, *, status: int = 400, via: str, remote: str | None = None) -> tuple[int, dict]:
        """A message that could not even be read as signed (missing headers, bad frame payload)."""
        log.warning("refused a message via %s (%s): %s %s", via, remote or "-", status, reason)
        self.store.refusals.log(via=via, remote=remote, device=None, item_id=None, status=status, reason=reason)
        return status, self._answer(status, "refused", None, reason)


def _checked(parsed, ahead):
    """``check(parsed)``: done ahead (``ahead``: what it gave, or the Refused it raised), or, when
    None, in place."""
    if ahead is None:
        return check(parsed)
    if isinstance(ahead, Refused):
        raise ahead
    return as_checked(parsed, ahead)


def _clean(text: str) -> bool:
    """Printable text that can be stored (no lone surrogates from a crafted JSON escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(text) and len(text) <= 200 and text.isprintable()
