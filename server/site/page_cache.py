"""Built pages kept until the store's generation moves on (server/storage/store.py ``generation``).

A table or a list is built once per change of the store, not once per reader: ``page(key,
generation, build)`` answers the kept page when it was built at that generation (or a later
one), else builds it; readers asking for the same page while it is being built wait for that
one build. The generation is read from the database, so a page built here also goes out of date
when another receiver on the same PostgreSQL stores an item. Bounded: the least recently asked
pages go first.

``kept_now(key, changes)`` answers without asking the database (on the event loop, no thread):
the page kept for the generation ``confirm``-ed less than FRESH seconds ago, if no change made
through this process's store was committed since (``Store.changes``). So this receiver's own
items show at once, another receiver's within FRESH seconds.
"""
import threading
import time
from collections import OrderedDict

KEPT = 256        # pages kept (a page per path and query string)
FRESH = 0.2       # seconds a generation read from the database is trusted for another receiver's items


class PageCache:
    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._pages: OrderedDict = OrderedDict()      # key -> (generation, page)
        self._building: dict = {}                     # key -> the lock of the build under way
        self._lock = threading.Lock()
        self.built = 0                                # pages built (the rest were kept ones)
        self._confirmed: tuple[int, int | None, float] = (-1, None, float("-inf"))   # (generation, changes, when)

    def confirm(self, generation: int, changes: int, when: float) -> None:
        """The database's generation read at ``when`` (time.monotonic), this process's store
        having made ``changes`` (read before the generation)."""
        with self._lock:
            if when >= self._confirmed[2]:
                self._confirmed = (generation, changes, when)

    def kept_now(self, key, changes: int, now: float | None = None):
        """The page kept for the confirmed generation, while that is fresh; else None."""
        now = time.monotonic() if now is None else now
        with self._lock:
            generation, confirmed_changes, when = self._confirmed
            if confirmed_changes != changes or now - when > FRESH:
                return None
            entry = self._pages.get(key)
            if entry is None or entry[0] < generation:
                return None
            self._pages.move_to_end(key)
            return entry[1]

    def page(self, key, generation: int, build):
        kept = self._kept(key, generation)
        if kept is not None:
            return kept
        with self._lock:
            building = self._building.setdefault(key, threading.Lock())
        with building:
            kept = self._kept(key, generation)
            if kept is not None:
                return kept
            page = build()
            with self._lock:
                self.built += 1
                if self._pages.get(key, (-1,))[0] < generation:
                    self._pages[key] = (generation, page)
                    self._pages.move_to_end(key)
                while len(self._pages) > self.kept:
                    self._pages.popitem(last=False)
                self._building.pop(key, None)
            return page

    def _kept(self, key, generation: int):
        with self._lock:
            entry = self._pages.get(key)
            if entry is None or entry[0] < generation:
                return None
            self._pages.move_to_end(key)
            return entry[1]
