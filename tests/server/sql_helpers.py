"""SQL straight on a store's database, for tests that set up or inspect tables themselves."""
from contextlib import contextmanager


def sql(store, statement: str, args=()) -> list[tuple]:
    """Rows of one statement (``?`` placeholders) run in a write transaction of its own."""
    with store.transaction() as db:
        rows = db.execute(statement, args)
        return [tuple(row) for row in rows.fetchall()] if rows.returns_rows else []


@contextmanager
def store_at(store_place: str, revision: str, statements=()):
    """A store as an older version left it: its database migrated up to ``revision`` only, with
    ``statements`` run on it; the connection (one transaction) for more, then closed."""
    import sqlalchemy as sa

    from server.storage import migrate

    engine = sa.create_engine(store_place if "://" in store_place else f"sqlite:///{store_place}")
    try:
        with engine.begin() as db:
            if sa.inspect(db).has_table("alembic_version"):    # upgrading "to" an older revision does nothing
                raise AssertionError("store_at needs an empty database: use empty_store_place, not store_place")
            migrate.upgrade(db, revision)
            for statement in statements:
                db.execute(sa.text(statement))
            yield db
    finally:
        engine.dispose()


def old_store(store_place: str, revision: str, statements=()) -> None:
    """``store_at`` with nothing more to do."""
    with store_at(store_place, revision, statements):
        pass
