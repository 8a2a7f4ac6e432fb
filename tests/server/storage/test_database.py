"""The store's connections (server/storage/database.py): a page read runs beside an item being stored,
and a database URL is never printed with its password."""
import threading

from server.storage.database import shown


def test_a_read_is_not_held_up_by_a_write_in_progress_and_sees_only_what_was_committed(store):
    in_write, release = threading.Event(), threading.Event()

    def writer():
        with store.transaction():
            store.devices.add("u-new", b"new-secret-0123456789abcdef", venue="Hostinec U Lva")
            in_write.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert in_write.wait(10)
        # a read waiting for the write would only return after it committed, with u-new in it
        assert "u-new" not in [d["id"] for d in store.devices.all()]
    finally:
        release.set()
        thread.join(10)
    assert "u-new" in [d["id"] for d in store.devices.all()]


def test_a_database_url_is_shown_without_its_password():
    assert shown("postgresql+psycopg://pocitadlo:SECRET@db.example/liga") == \
        "postgresql+psycopg://pocitadlo:***@db.example/liga"
    assert shown("liga.sqlite") == "liga.sqlite"
    assert "SECRET" not in shown("postgresql://u:SECRET@db.example:port/liga")
