"""The receiver's store: one database (SQLite in WAL, or PostgreSQL) and its repositories.

    store.devices     the registered counters and gateways, the nonces they used   (devices.py)
    store.items       the accepted items, kept verbatim                             (items.py)
    store.figures     per-match and per-team figures, the items still to figure     (figures.py)
    store.players     per-player figures and their totals                           (players.py)
    store.refusals    the refusal log                                               (refusals.py)
    store.forwarding  a gateway's delivered and held marks                          (forwarding.py)
    store.league      seasons, competitions, venues, teams, rosters                 (league.py)
    store.fixtures    the schedule, moves, postponements                            (fixtures.py)
    store.departures  no-shows, teams withdrawn, expelled and reinstated            (departures.py)
    store.results     which match is each fixture's result, the rulings             (results.py)
    store.audit       the admin's changes: who, when, what                          (audit.py)
    store.live        the live board: each table's latest snapshot, for a few minutes (live.py)

The store itself holds what they share: the transactions, the clock, and the generation that
moves on with every change to what the pages show.
"""
import itertools
from contextlib import contextmanager

from clock import SystemClock
from server.storage.audit import Audit
from server.storage.database import Database
from server.storage.departures import Departures
from server.storage.devices import Devices
from server.storage.figures import Figures
from server.storage.fixtures import Fixtures
from server.storage.forwarding import Forwarding
from server.storage.items import Items
from server.storage.league import League
from server.storage.live import LiveTables
from server.storage.players import PlayerFigures
from server.storage.refusals import KEEP_REFUSALS, Refusals
from server.storage.results import Results

ITEMS_LOCK = 0x706F63_6974     # pg_advisory_xact_lock's key of the items' lock ("poc" "it")


class Store:
    def __init__(self, path, *, keep_refusals: int = KEEP_REFUSALS, clock=None):
        """``path``: a SQLite file, or a SQLAlchemy URL (``postgresql+psycopg://…``); the schema is
        brought up to date (Alembic) when it is opened."""
        self.path = str(path)
        self.clock = clock or SystemClock()     # the one wall clock (clock/); tests give a ManualClock
        self.database = Database(self.path)
        self._commits = itertools.count(1)
        self.changes = 0        # a new number after each commit of a change made here (``outdated``)
        self.live = LiveTables(self)
        self.devices, self.items, self.forwarding = Devices(self, self.live), Items(self), Forwarding(self)
        self.figures, self.players = Figures(self), PlayerFigures(self)
        self.refusals = Refusals(self, keep_refusals)
        self.league = League(self)
        self.fixtures = Fixtures(self, self.league)
        self.departures = Departures(self, self.league, self.figures, self.fixtures)
        self.results = Results(self, self.league, self.figures, self.fixtures)
        self.audit = Audit(self)

    def now(self) -> str:
        """The time stamp written with devices, items and refusals (UTC, seconds)."""
        return self.clock.utc().isoformat(timespec="seconds")

    def transaction(self, *, durable: bool = True):
        """A caller's transaction (the receiver's, per item): the repositories' calls inside join it.
        ``durable=False``: only data computed again from the items (server/storage/database.py)."""
        return self.database.transaction(durable=durable)

    def part(self):
        """A part of the caller's write transaction that an error undoes alone (a savepoint:
        server/storage/database.py ``part``): one device's post among others committed with it."""
        return self.database.part()

    def reading(self):
        """A caller's read (a page): the repositories' reads inside see one state of the store
        (SQLite: one snapshot; PostgreSQL: each statement sees what was committed before it)."""
        return self.database.transaction(write=False)

    @contextmanager
    def writing_now(self):
        """True when a write can start at once and nothing else can hold it up: SQLite, its write
        lock free of other threads (held until the block ends). False for PostgreSQL, where a
        write may wait for another receiver's row lock."""
        if self.dialect != "sqlite":
            yield False
            return
        with self.database.writer_if_free() as free:
            yield free

    def generation(self) -> int:
        """A number that moves on with every change to what the pages show (migration 0004):
        an item stored, figures computed again; by this process or another on the same database."""
        with self.reading() as db:
            return db.execute("SELECT n FROM generation WHERE id = 1").scalar()

    def changed(self) -> None:
        """Move the generation on (in the caller's transaction, if any): the pages built before
        are out of date."""
        with self.transaction() as db:
            db.execute("UPDATE generation SET n = n + 1 WHERE id = 1")
            self.outdated()

    def outdated(self) -> None:
        """This receiver's kept pages are out of date once the current write commits."""
        self.database.after_commit(self._committed)

    def _committed(self) -> None:
        self.changes = next(self._commits)

    def lock_generation(self) -> None:
        """Hold the generation's row lock to the commit (PostgreSQL; SQLite's write transaction
        already excludes every other writer): figures are computed one step at a time across
        receivers, each from every item committed before it."""
        if self.dialect != "sqlite":
            with self.transaction() as db:
                db.execute("SELECT n FROM generation WHERE id = 1 FOR UPDATE")

    def lock_items(self) -> None:
        """Hold the items' lock to the commit (PostgreSQL; SQLite's write transaction already
        excludes every other writer): receivers store items one transaction at a time. Two
        receivers' groups of posts (group commit) that store the same items in another order
        would otherwise each wait for the other's uncommitted row: a deadlock, one group's post
        answered 500. A transaction-level advisory lock: no table, released by the commit."""
        if self.dialect != "sqlite":
            with self.transaction() as db:
                db.execute("SELECT pg_advisory_xact_lock(?)", (ITEMS_LOCK,))

    @property
    def dialect(self) -> str:
        return self.database.engine.dialect.name

    def journal_mode(self) -> str:
        with self.reading() as db:
            return db.execute("PRAGMA journal_mode").scalar()

    def close(self) -> None:
        self.database.close()
