"""Live snapshots to the league's receiver: the latest one, a few per second at most, or none.

``LivePusher.offer(body)`` is called on the service thread after a frame went to the counter; it
only swaps the pending body and sets an event. Its own thread posts the newest pending body
(signed like a record, wire.signing) with a short timeout, then waits ``interval`` seconds, so
bursts of keys coalesce to the last state. A failed post is dropped, never retried nor queued:
the durable outbox is for records only. After a failure nothing is posted for ``pause`` seconds
(a refused device must not spend the rate limit its records share); then the latest state goes.
"""
import threading
from typing import Protocol
from urllib.parse import urljoin

from delivery.logs import Logger
from wire.answer import TransportError

log = Logger("pocitadlo.sync")

INTERVAL = 0.25        # seconds between posts: at most 4 a second
TIMEOUT = 2.0          # seconds for one post (connect + answer)
PAUSE = 30.0           # seconds without a post after a failed one (a refusing receiver is not hammered)


class Poster(Protocol):
    """What posts a snapshot (delivery.transport_http.HttpTransport): the HTTP status and the answer."""

    def post(self, body: bytes) -> tuple[int, bytes]: ...


def live_url(records_url: str) -> str:
    """The live endpoint beside the records one: ``…/api/v1/records`` → ``…/api/v1/live``."""
    return urljoin(records_url, "live")


class LivePusher:
    def __init__(self, transport: Poster, *, interval: float = INTERVAL, pause: float = PAUSE):
        self.transport, self.interval, self.pause = transport, interval, pause
        self.sent = self.failed = 0
        self._lock = threading.Lock()
        self._pending: bytes | None = None
        self._wake, self._stopping = threading.Event(), threading.Event()
        self._failing = False
        self._thread = threading.Thread(target=self._run, name="pocitadlo-live-push", daemon=True)
        self._thread.start()

    def offer(self, body: bytes) -> None:
        """Post ``body`` soon, replacing any not yet posted (the latest wins)."""
        with self._lock:
            self._pending = body
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                body, self._pending = self._pending, None
            if body is None or self._stopping.is_set():
                continue
            self._stopping.wait(self.interval if self._post(body) else self.pause)

    def _post(self, body: bytes) -> bool:
        try:
            status, data = self.transport.post(body)
            ok, why = status == 200, f"{status} {data[:120].decode('utf-8', 'replace')}"
        except TransportError as exc:
            ok, why = False, str(exc)
        except Exception as exc:          # noqa: BLE001 — a live snapshot must never stop anything
            ok, why = False, f"{exc.__class__.__name__}: {exc}"
        if ok:
            self.sent += 1
            if self._failing:
                log.info("live snapshots: the receiver takes them again")
        else:
            self.failed += 1
            if not self._failing:
                log.warning("live snapshots dropped (not queued) until the receiver takes them: %s", why)
        self._failing = not ok
        return ok
