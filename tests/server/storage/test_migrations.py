"""The schema is Alembic's (server/storage/migrations): applied when a store is opened, idempotent, and a
SQLite file from before the migrations is adopted with its rows in their arrival order."""
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory
from sql_helpers import sql

from server import storage
from server.storage import migrate
from server.storage.store import Store

HEAD = ScriptDirectory(str(Path(storage.__file__).parent / "migrations")).get_current_head()


def test_a_store_is_at_the_latest_revision_and_reopening_changes_nothing(store, store_place):
    before = store.devices.all()
    assert sql(store, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    again = Store(store_place)
    try:
        assert sql(again, "SELECT version_num FROM alembic_version") == [(HEAD,)]
        assert again.devices.all() == before and len(before) == 4
    finally:
        again.close()


def test_an_empty_postgresql_database_is_migrated_to_the_latest_revision(postgresql):
    """The other PostgreSQL tests start from a copy of a migrated database; this one from nothing."""
    store = Store(postgresql(migrated=False))
    try:
        assert sql(store, "SELECT version_num FROM alembic_version") == [(HEAD,)]
        assert store.devices.all() == []
    finally:
        store.close()


def test_the_head_read_from_the_scripts_text_is_alembics():
    """A store at it opens without Alembic (server/storage/migrate.py): it must be Alembic's head."""
    assert migrate.head_revision() == HEAD


def test_a_store_at_the_head_opens_without_alembic(store_place):
    """The start of every command on a migrated store: Alembic is not even imported."""
    Store(store_place).close()
    probe = ("import sys; from server.storage.store import Store; s = Store(sys.argv[1]); s.close(); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))")
    root = str(Path(storage.__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-c", probe, store_place], capture_output=True, text=True, check=True,
                         cwd=root, env={**os.environ, "PYTHONPATH": root}).stdout
    assert out.strip() == "[]"


LEGACY = [   # a store as the receiver made it before the migrations (rowid order, no seq columns)
    "CREATE TABLE devices (id TEXT PRIMARY KEY, secret BLOB NOT NULL, note TEXT NOT NULL DEFAULT '', "
    "added TEXT NOT NULL, role TEXT NOT NULL DEFAULT 'device')",
    "CREATE TABLE items (id TEXT PRIMARY KEY, kind TEXT NOT NULL, game TEXT, match_id TEXT, device TEXT NOT NULL, "
    "via TEXT NOT NULL, received TEXT NOT NULL, body BLOB NOT NULL, origin TEXT)",
    "CREATE INDEX items_match ON items(match_id)",
    "CREATE TABLE refusals (at TEXT NOT NULL, via TEXT NOT NULL, remote TEXT, device TEXT, item_id TEXT, "
    "status INTEGER NOT NULL, reason TEXT NOT NULL)",
    *(f"INSERT INTO items VALUES ('{item_id}', 'partie', 'carom', NULL, 'd', 'http', '2026-01-01', x'7b7d', NULL)"
      for item_id in ("z-first", "a-second", "m-third")),         # arrival order is not the ids' order
    "INSERT INTO devices VALUES ('d', x'00', '', '2026-01-01', 'gateway')",
    "INSERT INTO refusals VALUES ('2026-01-01', 'http', NULL, NULL, NULL, 401, 'old')",
]


def test_a_sqlite_store_from_before_the_migrations_keeps_its_rows_in_order(tmp_path):
    with sqlite3.connect(tmp_path / "old.sqlite") as db:
        for statement in LEGACY:
            db.execute(statement)
    db.close()
    store = Store(tmp_path / "old.sqlite")
    assert [row["id"] for row in store.items.all()] == ["z-first", "a-second", "m-third"]
    assert store.devices.all() == [{"id": "d", "note": "", "added": "2026-01-01", "role": "gateway", "venue": None}]
    assert [r["reason"] for r in store.refusals.latest()] == ["old"]
    assert sql(store, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    store.close()


def test_migration_0015_says_a_team_expelled_before_it_was_expelled_by_its_no_shows(tmp_path):
    """Before 0015 a team left its competition only by its no-shows (A.3.7)."""
    import sqlalchemy as sa

    place = tmp_path / "league.sqlite"
    engine = sa.create_engine(f"sqlite:///{place}")
    with engine.begin() as connection:
        migrate.upgrade(connection, "0014")
        for statement in ("INSERT INTO seasons VALUES ('2026/27', '2026-10-01', '2026-11-30', '2027-03-01', "
                          "'2027-04-30')", "INSERT INTO venues(name, days) VALUES ('U Lva', '')",
                          *(f"INSERT INTO teams(season, competition, name, venue, captain, phone, expelled) VALUES "
                            f"('2026/27', 'carom', '{name}', 'U Lva', 'K', '777000111', {expelled})"
                            for name, expelled in (("Orli", "'2026-11-02T20:00:00+00:00'"), ("Lvi", "NULL")))):
            connection.exec_driver_sql(statement)
    engine.dispose()
    store = Store(str(place))
    try:
        teams = {t["name"]: (t["expelled_how"], t["expelled_reason"]) for t in store.league.teams("2026/27", "carom")}
        assert teams == {"Orli": ("no-shows", None), "Lvi": (None, None)}
    finally:
        store.close()
