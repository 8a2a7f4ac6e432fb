"""A match's figures computed after the devices' answers, in batches (server/tables/figures.py ``settle``).

A POST is answered once its item is durable; the figures of every item stored meanwhile follow
in one step: DELAY seconds after the first item not yet figured, or sooner, READER_DELAY after a
page asks for figures still pending. The page waits for that step, so it never misses an item
already answered, and readers asking while a device sends item after item share one step per
READER_DELAY instead of computing the figures (and building the page again) after every item.

On SQLite the step runs on the event loop, one match at a time, and the loop takes a device's
POST between two matches: a device waits for one match's figures at most. (In a thread the step
would contend with the loop for the interpreter's lock, which a thread keeps for up to 5 ms at a
time.) Where the writer is busy elsewhere, and on PostgreSQL, the step runs in the thread pool.
A receiver stopped before the step leaves the items marked; they are computed when a store is
next opened.
"""
import asyncio
import logging

from starlette.concurrency import run_in_threadpool

log = logging.getLogger("pocitadlo.server")

DELAY = 0.2             # seconds from the first item not yet figured to the step that computes them
READER_DELAY = 0.02     # seconds a page waits at most for a step to begin, when figures are pending


class Later:
    """The steps after the answers, one at a time: ``soon`` after an item, ``caught_up`` before
    a page."""

    def __init__(self, receiver, delay: float = DELAY, reader_delay: float = READER_DELAY):
        self.receiver, self.delay, self.reader_delay = receiver, delay, reader_delay
        self._timer: asyncio.TimerHandle | None = None
        self._due: asyncio.Future | None = None     # the end of the step the timer begins
        self._step: asyncio.Task | None = None      # the step begun last

    def soon(self, delay: float | None = None) -> asyncio.Future:
        """A step begins within ``delay`` seconds (default: DELAY; on the event loop): the future
        of its end, True once it computed what was pending, False when it failed (logged)."""
        loop = asyncio.get_running_loop()
        delay = self.delay if delay is None else delay
        if self._due is None:
            self._due = loop.create_future()
        if self._timer is None or self._timer.when() > loop.time() + delay:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_later(delay, self._begin)
        return self._due

    def _begin(self) -> None:
        due, self._timer, self._due = self._due, None, None
        assert due is not None          # the timer is set only with its future
        self._step = asyncio.ensure_future(self._run(due, self._step))

    async def _run(self, due: asyncio.Future, before: asyncio.Task | None) -> None:
        if before is not None:
            await asyncio.wait([before])        # one step at a time
        due.set_result(await self._settle())

    async def caught_up(self) -> None:
        """Return once a step has computed every item this receiver answered before the call."""
        wanted = self.receiver.received
        while self.receiver.settled < wanted:
            if self._step is not None and not self._step.done():
                await asyncio.wait([self._step])    # it may take these items; if not, the next one
            elif not await asyncio.shield(self.soon(self.reader_delay)):
                return          # it failed (logged): the page shows what is computed

    async def _settle(self) -> bool:
        """Compute what is pending; False when it failed (logged; the items stay marked, and a
        page or the next start computes them)."""
        try:
            if self.receiver.store.dialect == "sqlite":
                while True:
                    with self.receiver.store.writing_now() as now:
                        more = self.receiver.settle(wait=False, matches=1) if now else None
                    if more is None:
                        break       # the writer, or a step, is another thread's: the rest there
                    if not more:
                        return True
                    await asyncio.sleep(0)      # a device's POST waiting on the loop goes first
            await run_in_threadpool(self.receiver.settle)
            return True
        except Exception:
            log.exception("computing figures after the answers failed")
            return False
