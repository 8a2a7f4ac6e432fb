"""Partie records replayed on the machine's other cores, ahead of the store.

Replaying a partie's record to its summary (``verify.replayed``) is most of the receiver's work
for an item, and it is a function of the record alone: it reads nothing stored. ``Prechecks``
runs it in worker processes (one per CPU but the one the receiver writes from) for bodies about
to be received, so that the receiver, holding the store's writer, does only the rest of the
checks (``Receiver.receive_posts(..., checked=...)``): a backlog import replays the next batches
while it stores this one. The receiver still decides everything in its own order, with the same
code (``verify.check(parsed, replay)``); a body not replayed ahead (not a partie, not readable,
or on a machine of one CPU) is checked in place; a record that does not replay is refused with
the reason the replay in place would give. What crosses between the processes is the body on the
way there and the header and summary on the way back (not the record: a third of an item's
check was pickling it back).

Workers are started (``spawn``: no copy of the server's threads or connections) at the first use
and stay until ``close``; when they cannot start or die, the receiver replays in place and the
log says so once.
"""
import logging
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from server.league.errors import Refused
from server.league.verify import Replayed, parse_body, replayed

log = logging.getLogger("pocitadlo.server")

Checked = dict[bytes, "Replayed | Refused | None"]


def replay_ahead(body: bytes) -> Replayed | Refused | None:
    """A partie body's record replayed (or the Refused its replay raised); None for any other
    body (the receiver checks it in place, and refuses it there when it is not readable)."""
    try:
        parsed = parse_body(body)
    except Refused:
        return None
    if parsed.kind != "partie":
        return None
    try:
        return replayed(parsed.record)
    except Refused as exc:
        return exc


def replayed_all(bodies: Sequence[bytes]) -> list[Replayed | Refused | None]:
    return [replay_ahead(body) for body in bodies]


def workers_here() -> int:
    """Worker processes worth starting: a CPU each, but the receiver's own."""
    return max(0, (os.cpu_count() or 1) - 1)


class Prechecks:
    def __init__(self, workers: int | None = None):
        self.workers = workers_here() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def submit(self, bodies: Sequence[bytes]) -> "Future[list[Replayed | Refused | None]] | None":
        """The bodies' replays under way in a worker; None when there is no worker to run them
        (the receiver replays them in place)."""
        if self.workers == 0 or not bodies:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self._pool.submit(replayed_all, list(bodies))
        except (BrokenProcessPool, RuntimeError) as exc:
            self._given_up(exc)
            return None

    def results(self, bodies: Sequence[bytes], future: "Future[list[Replayed | Refused | None]] | None") -> Checked:
        """``submit``'s results by body, once done; empty (each replayed in place) when the worker
        failed."""
        if future is None:
            return {}
        try:
            return dict(zip(bodies, future.result()))
        except (BrokenProcessPool, OSError) as exc:
            self._given_up(exc)
            return {}

    def results_if_done(self, bodies: Sequence[bytes], future: "Future[list[Replayed | Refused | None]] | None") -> Checked:
        """``results`` if the worker is done with them; else empty (the receiver, rather than wait
        for a worker still starting or behind, replays in place)."""
        if future is None or not future.done():
            if future is not None:
                future.cancel()
            return {}
        return self.results(bodies, future)

    def _given_up(self, exc: BaseException) -> None:
        log.warning("replaying records in a worker process failed (%s): the receiver replays them itself", exc)
        self.close()
        self.workers = 0

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> "Prechecks":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
