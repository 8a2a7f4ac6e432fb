"""Built pages kept until the store's generation moves on (server/storage/store.py ``generation``).

A page is built once per change of the store, not once per reader: ``await page(key, generation,
build)`` answers the kept page when it was built at that generation (or a later one), else has
``build()`` (a coroutine function) make it; readers asking for the same page while it is being
built await that one build, without holding a thread. The build is a task of its own, so a
reader who leaves does not end it for the others. The generation is read from the database, so
a page built here also goes out of date when another receiver on the same PostgreSQL stores an
item. Bounded: the least recently asked pages go first; only answers 200 are kept (an unknown
player's 404 costs one look-up, and pushes no page out).

``kept_now(key, changes)`` answers without asking the database (on the event loop, no thread):
the page kept for the generation ``confirm``-ed less than FRESH seconds ago, if no change made
through this process's store was committed since (``Store.changes``). So this receiver's own
items show at once, another receiver's within FRESH seconds.

All of it runs on the event loop's thread.
"""
import asyncio
import time
from collections import OrderedDict

KEPT = 256        # pages kept (a page per path and query string)
FRESH = 0.2       # seconds a generation read from the database is trusted for another receiver's items


class PageCache:
    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._pages: OrderedDict = OrderedDict()      # key -> (generation, page)
        self._flights: dict = {}                      # key -> (generation, the task building it)
        self.built = 0                                # pages built (the rest were kept ones)
        self._confirmed: tuple[int, int | None, float] = (-1, None, float("-inf"))   # (generation, changes, when)

    def confirm(self, generation: int, changes: int, when: float) -> None:
        """The database's generation read at ``when`` (time.monotonic), this process's store
        having made ``changes`` (read before the generation)."""
        if when >= self._confirmed[2]:
            self._confirmed = (generation, changes, when)

    def kept_now(self, key, changes: int, now: float | None = None):
        """The page kept for the confirmed generation, while that is fresh; else None."""
        generation = self.fresh(changes, now)
        return None if generation is None else self.kept_at(key, generation)

    def fresh(self, changes: int, now: float | None = None) -> int | None:
        """The generation confirmed less than FRESH seconds ago with no change made here since; else None."""
        now = time.monotonic() if now is None else now
        generation, confirmed_changes, when = self._confirmed
        if confirmed_changes != changes or now - when > FRESH:
            return None
        return generation

    def generation(self, store) -> int:
        """The store's generation: as confirmed by another reader a moment ago (``fresh``), or
        read from the database now and confirmed (on SQLite, on the event loop: a read never waits)."""
        changes, now = store.changes, time.monotonic()
        confirmed = self.fresh(changes, now)
        if confirmed is not None:
            return confirmed
        read = store.generation()
        self.confirm(read, changes, now)
        return read

    def has(self, key) -> bool:
        """A page is kept for ``key`` (of some generation)."""
        return key in self._pages

    def kept_at(self, key, generation: int):
        """The page kept for ``key`` at ``generation`` or a later one; else None."""
        entry = self._pages.get(key)
        if entry is None or entry[0] < generation:
            return None
        self._pages.move_to_end(key)
        return entry[1]

    async def page(self, key, generation: int, build):
        kept = self.kept_at(key, generation)
        if kept is not None:
            return kept
        flight = self._flights.get(key)
        if flight is None or flight[0] < generation:
            task = asyncio.ensure_future(self._build(key, generation, build))
            task.add_done_callback(_retrieved)
            flight = self._flights[key] = (generation, task)
        return await asyncio.shield(flight[1])

    async def _build(self, key, generation: int, build):
        try:
            page = await build()
        finally:
            if self._flights.get(key, (None, None))[1] is asyncio.current_task():
                del self._flights[key]
        self.built += 1
        if page[0] == 200 and self._pages.get(key, (-1,))[0] < generation:
            self._pages[key] = (generation, page)
            self._pages.move_to_end(key)
            while len(self._pages) > self.kept:
                self._pages.popitem(last=False)
        return page


def _retrieved(task: asyncio.Future) -> None:
    """A build whose readers all left: its failure is theirs, not the event loop's to report."""
    if not task.cancelled():
        task.exception()
