"""The league's live board: the latest snapshot of every table playing now (issue 15, part 2),
the same on every receiver on one database (issue 26).

``POST /api/v1/live`` takes a device's signed snapshot (wire.live), verified like a record
(signature, fresh timestamp, the device's venue). It is no record: the store keeps the latest per
(venue, table) with the time it arrived (server/storage/live.py), and a table leaves the board
``EXPIRY`` seconds after its last snapshot; one device shows at most TABLES_PER_DEVICE tables (its
latest), so the board is bounded by the devices registered. Nothing here writes a record, a match
or a table. ``GET /live`` and ``GET /live/events`` (Server-Sent Events: the whole list on connect,
then one ``table`` or ``gone`` event per change) show it.

Each receiver shows its copy of the stored board, brought up to date from the store (one look at
the board's change number; the tables written since, when it moved) before every ``GET /live`` and
stream's first list, after every snapshot it takes, and every POLL seconds while it has streams:
a snapshot another receiver took reaches its streams within about POLL seconds. The copy lives on
the event loop's thread; the store is read and written in the thread pool. A table's age is the
store's clock's (every receiver's, so NTP-synchronised machines drop it together).
"""
import asyncio
import json
import logging
import time
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool

from server.league.errors import Refused
from wire import live as wire_live
from wire.signing import Signed
from wire.streams import Streams

log = logging.getLogger("pocitadlo.server")

EXPIRY = 180.0           # seconds a table stays on the board after its last snapshot
MAX_VIEWERS = 200        # /live/events streams at once; a new one past it ends the idlest
PER_CLIENT = 20          # streams of one client (address, IPv6 /64); a new one past it ends its idlest
TABLES_PER_DEVICE = 2    # tables one device shows at most (its own; one left a moment ago): the latest
VIEWER_QUEUE = 64        # events a viewer may have waiting; beyond it is sent the whole list again
HEARTBEAT = 15.0         # seconds between keep-alive comments
POLL = 0.5               # seconds between two looks at the stored board while there are streams
LINK_EVERY = 5.0         # seconds between two looks into the store for records to link


class LiveBoard:
    def __init__(self, receiver, *, expiry: float = EXPIRY, max_viewers: int = MAX_VIEWERS,
                 per_client: int = PER_CLIENT, poll: float = POLL, monotonic=time.monotonic):
        self.receiver, self.expiry, self.poll = receiver, expiry, poll
        self._monotonic = monotonic          # the streams' idleness and the links' pace; a table's age: the store's clock
        self.tables: dict[tuple, dict] = {}  # (venue, table) -> entry: this receiver's copy of the stored board
        self._heard: dict[tuple, float] = {}     # (venue, table) -> when its snapshot arrived (the store's clock)
        self._written: dict[tuple, int] = {}     # (venue, table) -> the board's change that wrote it
        self._change = -1                    # the board's change number this copy is of (-1: none yet)
        self._linked_at, self.link_every = None, LINK_EVERY
        self.viewers: set[asyncio.Queue] = set()
        self.streams: Streams[asyncio.Queue] = Streams(max_viewers, per_client)     # who holds them (wire/streams.py)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._poller: asyncio.Task | None = None

    # -- the POST ------------------------------------------------------------
    def verify(self, signed: Signed) -> tuple[dict, str]:
        """The snapshot and the device's venue, or Refused (thread pool: it reads the store)."""
        store = self.receiver.store
        registered = store.devices.get(signed.device) if wire_live.printable(signed.device) else None
        if signed.origin is not None or registered is None or registered[0] != "device":
            raise Refused(401, f"{ascii(signed.device)} is not a registered device")
        _, secret, venue = registered
        if not signed.valid_for(secret):
            raise Refused(401, "bad signature")
        now = int(self.receiver.store.clock.time())
        if abs(now - signed.timestamp) > self.receiver.window:
            raise Refused(401, f"stale timestamp ({signed.timestamp - now:+d} s from the receiver's clock)")
        try:
            snap = wire_live.parse(signed.body)
        except ValueError as exc:
            raise Refused(400, str(exc)) from None
        if venue != snap["venue"]:
            raise Refused(403, f"device {signed.device!r} is registered for {venue!r}, not {snap['venue']!r}")
        snap["record_url"] = self._record_url(snap["record"])
        snap["received"] = store.clock.utc().isoformat(timespec="seconds")
        return snap, venue

    def _record_url(self, record: str | None) -> str | None:
        if record is None or self.receiver.store.items.body(record) is None:
            return None
        return "/api/v1/records/" + quote(record, safe="")

    async def put(self, device: str, timestamp: int, snap: dict) -> bool:
        """Keep ``snap`` in the store and show it; False for one older than the device's latest
        (a replay), whichever receiver took that."""
        kept = await run_in_threadpool(self._keep, device, timestamp, snap)
        await self.refresh()
        return kept

    def _keep(self, device: str, timestamp: int, snap: dict) -> bool:
        now = self.receiver.store.clock.time()
        return self.receiver.store.live.put(device, (timestamp, snap["seq"]), (snap["venue"], snap["table"]),
                                            json.dumps(snap), heard=now,     # ASCII: a lone surrogate, a NUL too
                                            oldest=now - self.expiry, per_device=TABLES_PER_DEVICE)

    async def refresh(self) -> None:
        """Bring this copy up to the stored board, telling the streams what changed. A store that
        cannot be read leaves the copy as it is (logged): the board shows what it showed."""
        try:
            stored = await run_in_threadpool(self.receiver.store.live.since, self._change)
        except Exception as exc:        # noqa: BLE001 — a database gone away; the next look tries again
            log.warning("the live board could not be read from the store: %s", exc)
            return
        if stored is not None:
            self._take(*stored)
        self.expire()

    def _take(self, change: int, rows: list[tuple], keys: set[tuple[str, str]]) -> None:
        """The stored board at ``change``: the tables written since this copy's, and which are there."""
        if change <= self._change:          # a look that began before one already taken
            return
        self._change = change
        for key in [key for key in self.tables if key not in keys]:
            self._drop(key)
        oldest = self.receiver.store.clock.time() - self.expiry
        for venue, table, heard, written, text in rows:
            key = (venue, table)
            if heard >= oldest and self._written.get(key) != written:
                self.tables[key], self._heard[key], self._written[key] = json.loads(text), heard, written
                self._tell("table", self.tables[key])

    # -- the viewers -----------------------------------------------------------
    def entries(self) -> list[dict]:
        self.expire()
        return [self.tables[key] for key in sorted(self.tables)]

    def expire(self) -> None:
        """Drop the tables not heard from for ``expiry`` seconds (as every receiver does; the
        store forgets them at the next snapshot)."""
        old = self.receiver.store.clock.time() - self.expiry
        for key in [key for key, heard in self._heard.items() if heard < old]:
            self._drop(key)

    def _drop(self, key: tuple) -> None:
        del self.tables[key], self._heard[key], self._written[key]
        self._tell("gone", {"venue": key[0], "table": key[1]})

    async def link_records(self) -> None:
        """A finished partie's record may arrive after its last snapshot: link it once stored
        (at most one look every LINK_EVERY seconds, whoever asks)."""
        now = self._monotonic()
        if self._linked_at is not None and now - self._linked_at < self.link_every:
            return
        self._linked_at = now
        for key, snap in list(self.tables.items()):
            if snap["record"] is not None and snap["record_url"] is None:
                url = await run_in_threadpool(self._record_url, snap["record"])
                if url is not None and self.tables.get(key) is snap:
                    self.tables[key] = snap = dict(snap, record_url=url)
                    self._tell("table", snap)

    def _tell(self, name: str, data) -> None:
        event = sse(name, data)
        for queue in self.viewers:
            if queue.qsize() >= VIEWER_QUEUE - 1:     # lagging: the whole list replaces its backlog
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(sse("tables", [entry for _, entry in sorted(self.tables.items())]))
            else:
                queue.put_nowait(event)

    def close(self) -> None:
        """End every stream (the server is shutting down); any thread."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._end_all)

    def _end_all(self) -> None:
        for queue in self.viewers:
            queue.put_nowait(None)
        if self._poller is not None:
            self._poller.cancel()

    def _watch(self) -> None:
        """Look at the stored board every ``poll`` seconds while there are streams (one task for all)."""
        if self._poller is None or self._poller.done():
            self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        while self.viewers:
            await asyncio.sleep(self.poll)
            await self.refresh()
            try:
                await self.link_records()
            except Exception as exc:    # noqa: BLE001 — a database gone away; the next look tries again
                log.warning("the live board could not link records: %s", exc)

    async def stream(self, address: str | None = None):
        """One viewer's events: the list, then changes, keep-alive comments between. Let in past
        the bounds (``streams``), ending the idlest stream of its client or of all."""
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        for ended in self.streams.admit(queue, address, self._monotonic()):
            self.viewers.discard(ended)
            ended.put_nowait(None)
        try:
            await self.refresh()
            if queue in self.streams:       # (not ended meanwhile); at once after the look: no change
                self.viewers.add(queue)     # falls between the list and the events
            self._watch()
            yield b"retry: 2000\n\n" + sse("tables", self.entries())
            while True:                 # (idle from its admission: the first list, sent after a look, is not counted)
                try:
                    event = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except asyncio.TimeoutError:       # (a viewer who left: Starlette cancels this)
                    event = b": keep-alive\n\n"
                if event is None:
                    return
                yield event
                self.streams.sent(queue, self._monotonic())
        finally:
            self.viewers.discard(queue)
            self.streams.leave(queue)


def sse(name: str, data) -> bytes:
    """One Server-Sent Event; the JSON is ASCII with ``<``, ``>`` and ``&`` escaped."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f"event: {name}\ndata: {text}\n\n".encode("ascii")
