"""A match's figures computed after the devices' answers, in batches (server/figures.py ``settle``).

A POST is answered once its item is durable; ``Later.soon()`` (on the event loop, after each
stored item) computes the figures DELAY seconds after the first item not yet figured, in the
thread pool: one transaction for every item stored meanwhile, so a device sending item after
item waits for none of it and a match's figures are computed once per step, not once per item.
A page that reads figures first has what is pending computed (``caught_up``, server/web.py
``_page``), so a reader never waits for DELAY nor misses an item already answered; a receiver
stopped before the step leaves the items marked, and they are computed when a store is next
opened.
"""
import asyncio
import logging

from starlette.concurrency import run_in_threadpool

log = logging.getLogger("pocitadlo.server")

DELAY = 0.2         # seconds from the first item not yet figured to the step that computes them


class Later:
    """The steps after the answers, one at a time: ``soon`` after an item (in the thread pool),
    ``caught_up`` before a page (readers asking at once share one step; on the event loop when
    the SQLite writer is free, as a device's item is stored, else in the thread pool)."""

    def __init__(self, receiver, delay: float = DELAY):
        self.receiver, self.delay = receiver, delay
        self._timer: asyncio.TimerHandle | None = None
        self._step: asyncio.Future | None = None

    def soon(self) -> None:
        """An item was stored: its figures follow within ``delay`` (on the event loop)."""
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.delay, self._start)

    def _start(self) -> None:
        self._timer = None
        if self._step is not None and not self._step.done():
            self.soon()         # after the step under way, for the items it began without
            return
        self._step = asyncio.ensure_future(run_in_threadpool(self._settle))

    async def caught_up(self) -> None:
        """Return once a step has computed every item this receiver answered before the call."""
        wanted = self.receiver.received
        while self.receiver.settled < wanted:
            if self._step is None or self._step.done():
                with self.receiver.store.writing_now() as now:
                    # SQLite, its writer free, no step under way elsewhere: here, as a device's item
                    done = self._settle(wait=False) if now else None
                if done is False:
                    return
                if done:
                    continue
                self._step = asyncio.ensure_future(run_in_threadpool(self._settle))
            if not await asyncio.shield(self._step):
                return          # it failed (logged): the page shows what is computed

    def _settle(self, wait: bool = True) -> bool | None:
        """True once a step ran, False when it failed (logged), None: another step under way."""
        try:
            return None if self.receiver.settle(wait=wait) is None else True
        except Exception:       # the items stay marked: a page or the next start computes them
            log.exception("computing figures after the answers failed")
            return False
