"""SQL connections for the store, through SQLAlchemy: SQLite (a file, WAL) or PostgreSQL (a URL).

``Database(place)``: a path is a SQLite file (WAL, ``synchronous=FULL``, writes taken with
``BEGIN IMMEDIATE``); ``postgresql+psycopg://…`` is a PostgreSQL database. ``transaction()`` runs
a block in one transaction (a block inside another joins it) and yields this object, whose
``execute(sql, args)`` takes the store's portable SQL with ``?`` placeholders.

Writes go through one connection, one transaction at a time (a lock). Reads outside a write
(``transaction(write=False)``: the pages) take a pooled connection of their own, so a page
being built never holds up an item being stored (SQLite's WAL readers do not block its writer).
Statements run on the driver's own cursor: SQLAlchemy's engine gives the URL, the pool, the
dialect and the migrations; per statement it would cost more than the statement itself.
"""
import threading
from contextlib import contextmanager, nullcontext
from functools import lru_cache

import sqlalchemy as sa

from server.storage import migrate

READERS = 8              # pooled read connections (more readers wait for one)


class Rows:
    """What a statement gives back: rows to fetch, the rows it changed."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor):
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def returns_rows(self) -> bool:
        return self._cursor.description is not None

    def fetchone(self):
        return self._cursor.fetchone()

    def fetchall(self) -> list:
        return self._cursor.fetchall()

    def scalar(self):
        row = self._cursor.fetchone()
        return row[0] if row is not None else None

    def __iter__(self):
        return iter(self._cursor.fetchall())


class Part:
    """What a ``Database.part`` came to: ``failed`` is the error that undid it, or None."""
    failed: Exception | None = None


class Database:
    def __init__(self, place: str):
        self.url = place if "://" in place else f"sqlite:///{place}"
        self.sqlite = self.url.startswith("sqlite")
        options = {"connect_args": {"check_same_thread": False, "timeout": 30}} if self.sqlite else {}
        self.engine = sa.create_engine(self.url, pool_size=READERS, max_overflow=0, pool_timeout=60, **options)
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_connected)
            sa.event.listen(self.engine, "begin", _begin_immediate)
        self._placeholder = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._lock = threading.RLock()       # one write at a time through the one write connection
        self._here = threading.local()       # .connection: the one this thread's transaction uses
        self._joined = nullcontext(self)     # a block joining the transaction (reusable: it holds no state)
        self._conn = self.engine.connect()
        try:
            with self._conn.begin():
                migrate.upgrade(self._conn)
        except BaseException:
            self.close()
            raise
        writer = self._conn.connection.dbapi_connection
        assert writer is not None            # a connection just made, not yet closed
        self._writer = writer

    def transaction(self, *, write: bool = True, durable: bool = True):
        """One transaction; inside another on this thread, the block joins it. ``write=False``: a
        read on a pooled connection of its own (SQLite: a deferred BEGIN, which takes no lock).
        ``durable=False``: a write of data that can be computed again, whose commit does not wait
        for the disk (SQLite: synchronous=NORMAL for it; PostgreSQL: synchronous_commit off). A
        crash may undo it, never part of it, and never a durable commit made after it."""
        if getattr(self._here, "connection", None) is not None:
            return self._joined         # the store's every read while an item is stored
        return self._write(durable) if write else self._read()

    @contextmanager
    def _write(self, durable: bool):
        """BEGIN (SQLite: IMMEDIATE, the write lock at once) ... COMMIT, or ROLLBACK on an error;
        then the callbacks ``after_commit`` was given. One generator for it all: every item the
        receiver stores is one such transaction."""
        here = self._here
        with self._lock:
            self._begin(durable)
            here.connection, here.committed = self._writer, []
            try:
                try:
                    yield self
                    self._writer.commit()
                except BaseException:
                    self._writer.rollback()     # the block failed, or the COMMIT (which may leave it open)
                    raise
                done = here.committed
            finally:
                here.connection = here.committed = None
                if self.sqlite and not durable:
                    self._writer.execute("PRAGMA synchronous=FULL")
        for callback in done:
            callback()

    @contextmanager
    def _read(self):
        with self._reading() as connection, self._using(connection):
            yield self

    @contextmanager
    def writer_if_free(self):
        """True, holding the write lock, when no other thread has it (a transaction inside takes
        it again); False at once, without waiting, when another thread is writing."""
        free = self._lock.acquire(blocking=False)
        try:
            yield free
        finally:
            if free:
                self._lock.release()

    def _begin(self, durable: bool) -> None:
        if self.sqlite:
            if not durable:
                self._writer.execute("PRAGMA synchronous=NORMAL")
            self._writer.execute("BEGIN IMMEDIATE")      # PostgreSQL's driver begins by itself
        elif not durable:
            self._writer.execute("SET LOCAL synchronous_commit TO OFF")

    @contextmanager
    def part(self):
        """A part of this thread's write transaction that an error undoes alone (a SAVEPOINT): the
        block's ``Part.failed`` is then what it raised, its ``after_commit`` callbacks are
        dropped, and the transaction goes on. An undo that itself fails (SQLite may have rolled
        the whole transaction back) raises: the transaction is then beyond saving."""
        here, done = self._here, Part()
        callbacks = len(here.committed)
        self.execute("SAVEPOINT part")
        try:
            yield done
        except Exception as exc:     # noqa: BLE001 — kept in ``failed``, for the caller to answer
            self.execute("ROLLBACK TO SAVEPOINT part")
            self.execute("RELEASE SAVEPOINT part")
            del here.committed[callbacks:]
            done.failed = exc
        else:
            self.execute("RELEASE SAVEPOINT part")

    def after_commit(self, callback) -> None:
        """Call ``callback()`` once the write transaction this thread is in has committed (never,
        if it rolls back)."""
        self._here.committed.append(callback)

    @contextmanager
    def _using(self, connection):
        self._here.connection = connection
        try:
            yield
        finally:
            self._here.connection = None

    @contextmanager
    def _reading(self):
        connection = self.engine.raw_connection()
        try:
            if self.sqlite:
                connection.driver_connection.execute("BEGIN")       # one snapshot for the whole read
            yield connection.driver_connection
        finally:
            try:
                connection.rollback()        # a read changes nothing; this ends its snapshot
            finally:
                connection.close()           # back to the pool

    def execute(self, sql: str, args=()) -> Rows:
        cursor = self._here.connection.cursor()
        cursor.execute(sql if self._placeholder == "?" else _driver_sql(sql, self._placeholder), tuple(args))
        return Rows(cursor)

    def execute_many(self, sql: str, rows) -> None:
        self._here.connection.cursor().executemany(_driver_sql(sql, self._placeholder), [tuple(row) for row in rows])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self.engine.dispose()


def _sqlite_connected(dbapi_connection, record) -> None:
    dbapi_connection.isolation_level = None       # the "begin" event issues BEGIN IMMEDIATE
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=FULL")


def _begin_immediate(conn) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


@lru_cache(maxsize=1024)
def _driver_sql(sql: str, placeholder: str) -> str:
    """The store's SQL (``?`` placeholders) in the driver's parameter style (psycopg: ``%s``)."""
    if placeholder == "?":
        return sql
    return sql.replace("%", "%%").replace("?", placeholder)


def shown(place: str) -> str:
    """The store's place as it may be printed or logged: a URL's password masked."""
    if "://" not in place:
        return place
    try:
        return sa.engine.make_url(place).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return "(a database URL that does not parse)"
