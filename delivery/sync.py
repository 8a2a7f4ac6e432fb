"""The delivery loop: send outbox items until the receiver acknowledges each one.

A transport (``Transport``) has ``send(body: bytes) -> Answer`` (it signs the body itself) and
``close()``; it raises TransportError when the receiver cannot be reached or does not answer. One
that can send several items in one request is a ``BatchTransport``; the outbox (``Queue``: the
device's Outbox, a gateway's queue) that can hand over several is a ``BatchQueue``. The Syncer sends the
oldest pending item first; after a failure it waits with capped exponential backoff and jitter
(the clock, the random source and the sleep are injected, so tests run in no time)::

    delay(n) = min(backoff_max, backoff_initial * 2 ** (n - 1)) * (0.5 + random() / 2)

An answer of 200 ("stored" or "already have it" for this item id: the transport checks it is the
receiver's own word, transport_http) marks the item delivered. A final refusal
(400, 409, 413, 422) sets the item aside in outbox/held (kept, listed, never deleted) so one bad
item does not block the rest; anything else (401, 5xx, no answer) is retried.
"""
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from clock import Clock, SystemClock
from delivery.logs import Logger
from delivery.outbox import Item
from wire.answer import Answer, TransportError
from wire.signing import Signer

if TYPE_CHECKING:
    from delivery.settings import SyncSettings

log = Logger(__name__)

DEVICE_REFUSED = (401, 403)     # the receiver does not take this device: unknown, a wrong secret, no venue
_UNKNOWN = object()             # what the outbox keeps as the last error, before the Syncer first sets it
BATCH = 16                  # items at most in one request (a backlog after an outage)
BATCH_BYTES = 256 * 1024    # ... and their bodies within this (the receiver takes 1 MiB a request)


class Transport(Protocol):
    """What the Syncer sends through (delivery.transport_http, delivery.transport_serial)."""

    @property
    def signer(self) -> Signer | None:
        """What signs each body; the Syncer corrects its clock from the receiver's answers."""

    def send(self, body: bytes) -> Answer: ...

    def close(self) -> None: ...


@runtime_checkable
class BatchTransport(Transport, Protocol):
    """A transport that can also send several items in one request (HTTP to a receiver's batch endpoint)."""

    @property
    def takes_batches(self) -> bool:
        """Whether ``send_many`` is worth trying (False: it answers None)."""

    def send_many(self, bodies: list[bytes]) -> list[Answer] | None:
        """An Answer for each body, in order; None: send them one at a time."""


class Queue(Protocol):
    """What the Syncer needs of an outbox (delivery.outbox.Outbox, a gateway's server.ingest.forward.ForwardQueue)."""

    def next_pending(self) -> Item | None: ...

    def mark_delivered(self, item_id: str, when: datetime | str | None = None) -> None: ...

    def hold(self, item_id: str, why: str) -> None: ...

    def unsent(self) -> int: ...

    def held_count(self) -> int: ...

    def last_delivery(self) -> str | None: ...


@runtime_checkable
class KeepsError(Queue, Protocol):
    """An outbox that keeps the delivery's last error where `pocitadlo outbox list` reads it (the
    device's Outbox: the service and the command share only its folder)."""

    def keep_error(self, error: str | None) -> None: ...


@runtime_checkable
class BatchQueue(Queue, Protocol):
    """An outbox that hands over its oldest items several at a time (the device's Outbox)."""

    def oldest_pending(self, count: int) -> list[Item]: ...


def jitter() -> float:
    """random.random(), the module imported at the first retry, not at every start of the service."""
    import random

    return random.random()


class Backoff:
    """Capped exponential backoff with jitter."""

    def __init__(self, initial: float, cap: float, rand: Callable[[], float] = jitter):
        self.initial, self.cap, self._rand = initial, cap, rand
        self.failures = 0

    def reset(self) -> None:
        self.failures = 0

    def next_delay(self) -> float:
        self.failures += 1
        base: float = min(self.cap, self.initial * 2 ** min(self.failures - 1, 60))
        return base * (0.5 + self._rand() / 2)


class Syncer:
    """Delivers the outbox through one transport; run it in a thread or call ``step`` from a loop.
    ``batch``: items at most in one request (1: one at a time)."""

    def __init__(self, outbox: Queue, transport: Transport | None, *, backoff_initial: float = 2.0,
                 backoff_max: float = 600.0, clock: Callable[[], float] = time.monotonic,
                 rand: Callable[[], float] = jitter, now: Callable[[], datetime] | None = None,
                 on_delivered: Callable[[], object] | None = None, batch: int = BATCH):
        self.outbox, self.transport = outbox, transport
        self.on_delivered = on_delivered    # called (in the syncer's thread) after each delivery
        self._backoff = Backoff(backoff_initial, backoff_max, rand)
        self._clock = clock
        self._now = now or SystemClock().utc          # the wall time a delivery is stamped with
        self._next_try = 0.0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._last_error: str | None = None
        self._device_refused = False        # the last attempt's answer: 401 or 403
        self._kept: object = _UNKNOWN       # the error the outbox keeps (unknown until the first is set)
        self.batch = batch

    @property
    def signer(self) -> Signer | None:
        """What signs the bodies it sends (None without a transport): the live snapshots share it."""
        return self.transport.signer if self.transport is not None else None

    @classmethod
    def from_settings(cls, settings: "SyncSettings", outbox: Queue | None = None,
                      clock: Clock | None = None) -> "Syncer":
        """The service's syncer for its [sync] settings (transport "none": it only counts the backlog);
        ``clock`` (clock.SystemClock unless given) times the backoff and stamps deliveries and signatures."""
        from delivery.outbox import Outbox

        clock = clock or SystemClock()
        return cls(outbox or Outbox(settings.outbox), transport_for(settings, clock),
                   backoff_initial=settings.backoff_initial, backoff_max=settings.backoff_max,
                   clock=clock.monotonic, now=clock.utc)

    def start(self) -> threading.Thread:
        """Deliver in a daemon thread until ``stop()``."""
        thread = threading.Thread(target=self.run, args=(self._stopping,), name="sync", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    # -- for the ready screen and `pocitadlo outbox` ----------------------
    def status(self) -> dict[str, Any]:
        with self._lock:
            error = self._last_error
        if error is None:
            held = self.outbox.held_count()
            if held:
                error = f"{held} refused by the receiver (see pocitadlo outbox)"
        return {"unsent": self.outbox.unsent(), "last_delivery": self.outbox.last_delivery(),
                "last_error": error, "device_refused": self._device_refused}

    def retry_now(self) -> None:
        """Forget the backoff and try at once (a key on the ready screen, `pocitadlo outbox retry`)."""
        self._backoff.reset()
        self._next_try = 0.0
        self._wake.set()

    wake = retry_now

    # -- delivering --------------------------------------------------------
    def step(self, *, one_shot: bool = False) -> float:
        """Send what is due; return seconds until the next attempt is due (0 = more to send now).
        A backlog goes in one request of up to BATCH items where the transport can (HTTP to a
        receiver with batches): each item still has its own answer.

        ``one_shot``: nobody will call again after a failure (``send_all``), so the log says the
        item stays in the outbox instead of announcing a next try."""
        if self.transport is None:
            return float("inf")
        now = self._clock()
        if now < self._next_try:
            return self._next_try - now
        items = self._due()
        if not items:
            return float("inf")
        try:
            items, answers = self._send(items)
        except TransportError as exc:
            return self._failed(f"{items[0].id}: {exc}", one_shot)
        failed = [(item, answer) for item, answer in zip(items, answers) if not self._settled(item, answer)]
        if not failed:
            return 0.0
        item, answer = failed[0]
        return self._failed(f"{item.id}: {answer.status} {answer.message}", one_shot,
                            refused=answer.status in DEVICE_REFUSED)

    def _due(self) -> list[Item]:
        """The oldest pending items, as many as one request carries (within BATCH_BYTES)."""
        if not (self.batch > 1 and isinstance(self.transport, BatchTransport) and self.transport.takes_batches
                and isinstance(self.outbox, BatchQueue)):
            item = self.outbox.next_pending()         # one at a time: serial, a gateway's queue
            return [item] if item is not None else []
        items = self.outbox.oldest_pending(self.batch)
        size = 0
        for n, item in enumerate(items):
            size += len(item.body)
            if n and size > BATCH_BYTES:
                return items[:n]
        return items

    def _send(self, items: list[Item]) -> tuple[list[Item], list[Answer]]:
        """(the items sent, their answers): several in one request, or the first alone (one
        item, or the transport's None: the receiver takes no batches, or not this one)."""
        transport = self.transport
        if len(items) > 1 and isinstance(transport, BatchTransport):
            bodies = [item.body for item in items]
            answers = transport.send_many(bodies)
            if answers is not None and any(self._clock_fixed(answer) for answer in answers):
                answers = transport.send_many(bodies)      # those stored already: "duplicate"
            if answers is not None:
                return items, answers
        return items[:1], [self._send_once(items[0].body)]

    def _settled(self, item: Item, answer: Answer) -> bool:
        """Mark one item by its answer: delivered, or set aside for good; False: try it again."""
        if answer.delivered:
            self.outbox.mark_delivered(item.id, self._now())
            self._backoff.reset()
            self._set_error(None)
            log.info("sync: delivered %s (%s)", item.id, answer.message)
            if self.on_delivered is not None:
                self.on_delivered()
            return True
        if answer.final:
            self.outbox.hold(item.id, f"{answer.status} {answer.message}")
            self._set_error(f"{item.id}: refused ({answer.status} {answer.message})")
            log.error("sync: receiver refused %s for good: %s %s", item.id, answer.status, answer.message)
            return True
        return False

    def send_all(self) -> float:
        """Send until nothing is due now (`pocitadlo outbox retry`, a bench); return ``step``'s last wait."""
        while (wait := self.step(one_shot=True)) == 0.0:
            pass
        return wait

    def _send_once(self, body: bytes) -> Answer:
        assert self.transport is not None       # step() sends nothing without one
        answer = self.transport.send(body)
        if self._clock_fixed(answer):
            answer = self.transport.send(body)
        return answer

    def _clock_fixed(self, answer: Answer) -> bool:
        """A 401 from a receiver whose clock differs by over a minute: a Pi without network or
        RTC may have booted with a wrong clock; adopt the receiver's (True: send again)."""
        signer = self.signer
        if (answer.status != 401 or answer.server_time is None or signer is None
                or abs(answer.server_time - signer.now()) <= 60):
            return False
        signer.learn_time(answer.server_time)
        log.warning("sync: local clock off by %.0f s; using the receiver's time", signer.offset)
        return True

    def _failed(self, error: str, one_shot: bool = False, *, refused: bool = False) -> float:
        """``refused``: the receiver answered that it does not take this device (DEVICE_REFUSED)."""
        delay = self._backoff.next_delay()
        self._next_try = self._clock() + delay
        self._set_error(error, refused)
        if one_shot:
            log.warning("sync: not delivered: %s; it stays in the outbox", error)
        else:
            log.warning("sync: %s; next try in %.1f s", error, delay)
        return delay

    def _set_error(self, error: str | None, refused: bool = False) -> None:
        with self._lock:
            self._last_error, self._device_refused = error, refused
        if error != self._kept and isinstance(self.outbox, KeepsError):    # written when it changes only
            self.outbox.keep_error(error)
            self._kept = error

    def run(self, stop: threading.Event, *, idle: float = 60.0) -> None:
        """Deliver until ``stop`` is set; ``wake()`` (a new item, a retry) cuts a wait short."""
        while not stop.is_set():
            try:
                wait = self.step()
            except Exception as exc:   # a full disk, a broken item: report, back off, go on
                log.exception("sync: unexpected error")
                wait = self._failed(f"internal error: {exc}")
            if wait > 0:
                self._wake.wait(min(wait, idle))
                self._wake.clear()
        if self.transport is not None:
            self.transport.close()


def transport_for(settings: "SyncSettings", clock: Clock | None = None) -> Transport | None:
    """The transport the [sync] settings ask for, or None for transport = "none"."""
    if settings.transport == "none":
        return None
    assert settings.device_id is not None and settings.secret is not None     # delivery.settings.read: required
    signer = Signer(settings.device_id, settings.secret, clock=(clock or SystemClock()).time)
    if settings.transport == "http":
        from delivery.transport_http import HttpTransport
        assert settings.url is not None
        return HttpTransport(settings.url, signer, timeout=settings.timeout, ca_file=settings.ca_file)
    from delivery.transport_serial import SerialTransport
    assert settings.serial_port is not None
    return SerialTransport(settings.serial_port, signer, baudrate=settings.baudrate,
                           ack_timeout=settings.ack_timeout, tries=settings.frame_tries)
