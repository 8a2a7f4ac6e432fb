"""Built pages kept until the store's generation moves on (server/store.py ``generation``).

A table or a list is built once per change of the store, not once per reader: ``page(key,
generation, build)`` answers the kept page when it was built at that generation (or a later
one), else builds it; readers asking for the same page while it is being built wait for that
one build. The generation is read from the database, so a page built here also goes out of date
when another receiver on the same PostgreSQL stores an item. Bounded: the least recently asked
pages go first.
"""
import threading
from collections import OrderedDict

KEPT = 256        # pages kept (a page per path and query string)


class PageCache:
    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self._pages: OrderedDict = OrderedDict()      # key -> (generation, page)
        self._building: dict = {}                     # key -> the lock of the build under way
        self._lock = threading.Lock()
        self.built = 0                                # pages built (the rest were kept ones)

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
