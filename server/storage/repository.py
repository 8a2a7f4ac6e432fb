"""What every repository of the store shares: the one database, its transactions and the clock."""
from contextlib import contextmanager
from functools import lru_cache


def upsert(table: str, columns, key: tuple[str, ...]) -> str:
    """INSERT of a row that replaces the row of the same key, if any (a row written twice is written once)."""
    return _upsert(table, tuple(columns), tuple(key))


@lru_cache(maxsize=64)
def _upsert(table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
    """``upsert``'s text, written once per table and columns (every figures step asks again)."""
    return (f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
            f"ON CONFLICT({', '.join(key)}) DO UPDATE SET "
            + ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key))


class Repository:
    """A small class over the store's one Database: its tables' SQL and nothing else's."""

    def __init__(self, store):
        self._store = store

    def _read(self):
        """A read on a pooled connection of its own (inside a write: joins it)."""
        return self._store.database.transaction(write=False)

    def _write(self, *, durable: bool = True):
        """One write transaction (inside another: joins it); ``durable=False``: its commit does not
        wait for the disk (server/storage/database.py)."""
        return self._store.database.transaction(durable=durable)

    @contextmanager
    def _changing(self):
        """A write that changes what the pages show: the store's generation moves on with it."""
        with self._write() as db:
            self._store.changed()
            yield db

    def now(self) -> str:
        return self._store.now()
