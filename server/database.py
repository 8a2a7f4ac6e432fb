"""One SQL connection for the store, through SQLAlchemy: SQLite (a file, WAL) or PostgreSQL (a URL).

``Database(place)``: a path is a SQLite file (WAL, ``synchronous=FULL``, writes taken with
``BEGIN IMMEDIATE``); ``postgresql+psycopg://…`` is a PostgreSQL database. ``transaction()`` runs
a block in one transaction (a block inside another joins it) and yields this object, whose
``execute(sql, args)`` takes the store's portable SQL with ``?`` placeholders.
"""
import threading
from contextlib import contextmanager
from functools import lru_cache

import sqlalchemy as sa

from server import migrate


class Database:
    def __init__(self, place: str):
        self.url = place if "://" in place else f"sqlite:///{place}"
        self.sqlite = self.url.startswith("sqlite")
        options = {"connect_args": {"check_same_thread": False, "timeout": 30}} if self.sqlite else {}
        self.engine = sa.create_engine(self.url, **options)
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_connected)
            sa.event.listen(self.engine, "begin", self._begin_sqlite)
        self._lock = threading.RLock()       # re-entrant: figures are computed inside put's transaction
        self._writing = True
        self._conn = self.engine.connect()
        try:
            with self._conn.begin():
                migrate.upgrade(self._conn)
        except BaseException:
            self.close()
            raise

    @contextmanager
    def transaction(self, *, write: bool = True):
        """``write=False``: a read (SQLite: a deferred BEGIN, which takes no write lock)."""
        with self._lock:
            if self._conn.in_transaction():
                yield self
                return
            self._writing = write
            with self._conn.begin():
                yield self

    def _begin_sqlite(self, conn) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if self._writing else "BEGIN")

    def execute(self, sql: str, args=()):
        statement, names = _named(sql)
        return self._conn.execute(statement, dict(zip(names, args)))

    def execute_many(self, sql: str, rows) -> None:
        statement, names = _named(sql)
        self._conn.execute(statement, [dict(zip(names, row)) for row in rows])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self.engine.dispose()


def _sqlite_connected(dbapi_connection, record) -> None:
    dbapi_connection.isolation_level = None       # SQLAlchemy's "begin" event issues BEGIN IMMEDIATE
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=FULL")


@lru_cache(maxsize=512)
def _named(sql: str):
    """The statement with ``?`` turned into named parameters (the store's SQL is written with ``?``)."""
    parts = sql.split("?")
    names = tuple(f"p{n}" for n in range(len(parts) - 1))
    return sa.text(parts[0] + "".join(f":{name}{part}" for name, part in zip(names, parts[1:]))), names
