"""SQL straight on a store's database, for tests that set up or inspect tables themselves."""


def sql(store, statement: str, args=()) -> list[tuple]:
    """Rows of one statement (``?`` placeholders) run in a write transaction of its own."""
    with store.transaction() as db:
        rows = db.execute(statement, args)
        return [tuple(row) for row in rows.fetchall()] if rows.returns_rows else []
