"""Items' content checked on the machine's other cores, ahead of the store.

Checking an item's content (``verify.check(parse_body(body))``: its shape, a partie's record
replayed to its summary, the names in it) is most of the receiver's work for an item, and it is a
function of the body alone: it reads nothing stored. ``Prechecks`` runs it in worker processes
(one per CPU but the one the receiver writes from) for bodies about to be received, so that the
receiver, holding the store's writer, only looks the result up (``Receiver.receive_posts(...,
checked=...)``): a backlog import checks the next batches while it stores this one. The receiver
still decides everything in its own order, and a result is what the check in place gives,
refusal included; a body not checked ahead (or on a machine of one CPU) is checked in place.
What comes back is the checked item without its record and summary, which the receiver has
(pickling them back cost a third of the check).

Workers are started (``spawn``: no copy of the server's threads or connections) at the first use
and stay until ``close``; when they cannot start or die, the receiver checks in place and the log
says so once.
"""
import dataclasses
import logging
import os
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Future
from typing import TYPE_CHECKING

from server.league.errors import Refused
from server.league.verify import Parsed, check, parse_body

if TYPE_CHECKING:      # imported when a pool starts: it brings multiprocessing, ~20 ms, to every receiver
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger("pocitadlo.server")

Checked = dict[bytes, "Parsed | Refused | None"]


def check_ahead(body: bytes) -> Parsed | Refused | None:
    """What the receiver's check makes of a body, without the record and summary it has (or the
    Refused the check raised); None for a body that is not even an item (the receiver refuses it
    itself, with its reason)."""
    try:
        parsed = parse_body(body)
    except Refused:
        return None
    try:
        return dataclasses.replace(check(parsed), record="", summary={})
    except Refused as exc:
        return exc


def checked_all(bodies: Sequence[bytes]) -> list[Parsed | Refused | None]:
    return [check_ahead(body) for body in bodies]


def as_checked(parsed: Parsed, ahead: Parsed) -> Parsed:
    """The receiver's ``check(parsed)`` from what ``check_ahead`` gave for the same body."""
    return dataclasses.replace(ahead, record=parsed.record, summary=parsed.summary)


def workers_here() -> int:
    """Worker processes worth starting: a CPU each, but the receiver's own."""
    return max(0, (os.cpu_count() or 1) - 1)


class Prechecks:
    def __init__(self, workers: int | None = None):
        self.workers = workers_here() if workers is None else workers
        self._pool: "ProcessPoolExecutor | None" = None

    def submit(self, bodies: Sequence[bytes]) -> "Future[list[Parsed | Refused | None]] | None":
        """The bodies' checks under way in a worker; None when there is no worker to run them
        (the receiver checks them in place)."""
        if self.workers == 0 or not bodies:
            return None
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self._pool.submit(checked_all, list(bodies))
        except (BrokenExecutor, RuntimeError) as exc:
            self._given_up(exc)
            return None

    def results(self, bodies: Sequence[bytes], future: "Future[list[Parsed | Refused | None]] | None") -> Checked:
        """``submit``'s results by body, once done; empty (each checked in place) when the worker
        failed."""
        if future is None:
            return {}
        try:
            return dict(zip(bodies, future.result()))
        except (BrokenExecutor, OSError) as exc:     # BrokenProcessPool: a worker died
            self._given_up(exc)
            return {}
        except CancelledError:      # given up meanwhile: its pool shut down
            return {}

    def results_if_done(self, bodies: Sequence[bytes], future: "Future[list[Parsed | Refused | None]] | None") -> Checked:
        """``results`` if the worker is done with them; else empty (the receiver, rather than wait
        for a worker still starting or behind, checks in place)."""
        if future is None or not future.done():
            if future is not None:
                future.cancel()
            return {}
        return self.results(bodies, future)

    def _given_up(self, exc: BaseException) -> None:
        log.warning("checking items in a worker process failed (%s): the receiver checks them itself", exc)
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
