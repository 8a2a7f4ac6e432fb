"""Bringing a store's schema up to date with Alembic (server/storage/migrations), on SQLite or PostgreSQL.

A SQLite file made before the migrations existed (no ``alembic_version``) is adopted once: its
tables are set aside, the current schema is made, the devices, items (in their arrival order),
nonces, refusals and forwarding marks are copied over, and the figures are computed again by the
receiver (server/tables/figures.py) when it opens the store.
"""
import logging
from pathlib import Path

import sqlalchemy as sa

logging.getLogger("alembic").setLevel(logging.WARNING)    # before its import: it logs its plugins at INFO
from alembic import command  # noqa: E402
from alembic.config import Config  # noqa: E402

LEGACY = ("devices", "items", "nonces", "refusals", "refusal_counts", "forwarded", "match_figures",
          "team_figures", "team_totals")
COPIED = {   # table: (its columns here, what an older store may lack and its value then)
    "devices": (("id", "secret", "note", "added", "role", "venue"), {"role": "'device'", "venue": "NULL"}),
    "items": (("id", "kind", "game", "match_id", "device", "via", "received", "body", "origin", "venue"),
              {"origin": "NULL", "venue": "NULL"}),
    "nonces": (("device", "nonce", "ts"), {}),
    "refusals": (("at", "via", "remote", "device", "item_id", "status", "reason"), {}),
    "forwarded": (("id", "state", "at", "why"), {}),
}


def upgrade(connection: sa.Connection, target: str = "head") -> None:
    """Apply every migration the store lacks, up to ``target`` (in the connection's transaction)."""
    names = set(sa.inspect(connection).get_table_names())
    legacy = "alembic_version" not in names and "items" in names
    if legacy:
        _set_aside(connection, names)
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).resolve().parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, target)
    if legacy:
        _copy_back(connection, names)


def _set_aside(connection, names) -> None:
    for (index,) in connection.execute(sa.text("SELECT name FROM sqlite_master WHERE type = 'index' "
                                               "AND sql IS NOT NULL")).fetchall():
        connection.execute(sa.text(f'DROP INDEX "{index}"'))
    for table in LEGACY:
        if table in names:
            connection.execute(sa.text(f'ALTER TABLE "{table}" RENAME TO "legacy_{table}"'))


def _copy_back(connection, names) -> None:
    for table, (columns, defaults) in COPIED.items():
        if table not in names:
            continue
        have = {c["name"] for c in sa.inspect(connection).get_columns(f"legacy_{table}")}
        source = ", ".join(c if c in have else defaults[c] for c in columns)
        connection.execute(sa.text(f"INSERT INTO {table} ({', '.join(columns)}) "
                                   f"SELECT {source} FROM legacy_{table} ORDER BY rowid"))
    for table in LEGACY:
        if table in names:
            connection.execute(sa.text(f'DROP TABLE "legacy_{table}"'))
