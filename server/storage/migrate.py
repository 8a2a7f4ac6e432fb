"""Bringing a store's schema up to date with Alembic (server/storage/migrations), on SQLite or PostgreSQL.

A SQLite file made before the migrations existed (no ``alembic_version``) is adopted once: its
tables are set aside, the current schema is made, the devices, items (in their arrival order),
nonces, refusals and forwarding marks are copied over, and the figures are computed again by the
receiver (server/tables/figures.py) when it opens the store.
"""
import logging
import re
from functools import lru_cache
from pathlib import Path

import sqlalchemy as sa

logging.getLogger("alembic").setLevel(logging.WARNING)    # before its import: it logs its plugins at INFO
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

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
    """Apply every migration the store lacks, up to ``target`` (in the connection's transaction).
    A store already at the head is left as it is without Alembic (which an upgrade to the head
    would leave it as): importing Alembic and its scripts is most of a command's start."""
    names = set(sa.inspect(connection).get_table_names())
    if target == "head" and "alembic_version" in names and _at_head(connection):
        return
    legacy = "alembic_version" not in names and "items" in names
    if legacy:
        _set_aside(connection, names)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, target)
    if legacy:
        _copy_back(connection, names)


def _at_head(connection: sa.Connection) -> bool:
    """The store's one revision is the scripts' one head (``head_revision``)."""
    head = head_revision()
    if head is None:
        return False
    return [tuple(row) for row in connection.execute(sa.text("SELECT version_num FROM alembic_version"))] == [(head,)]


_ASSIGNED = re.compile(r'^(revision|down_revision|branch_labels|depends_on) = (?:"([0-9A-Za-z_]+)"|(None))$', re.M)


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The revision no other script follows, read from the scripts' text as Alembic reads their
    ``revision`` and ``down_revision``; None (ask Alembic) unless every script is a plain step
    of one line of revisions: one revision and one (or no) predecessor each, no branch labels
    nor dependencies, one head."""
    revisions, followed = [], set()
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        found: dict[str, list] = {}
        for key, value, _ in _ASSIGNED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(value or None)
        if any(len(found.get(key, ())) != 1 for key in ("revision", "down_revision", "branch_labels", "depends_on")):
            return None
        if found["revision"][0] is None or found["branch_labels"][0] or found["depends_on"][0]:
            return None
        revisions.append(found["revision"][0])
        if found["down_revision"][0] is not None:
            followed.add(found["down_revision"][0])
    heads = set(revisions) - followed
    if len(revisions) != len(set(revisions)) or len(heads) != 1 or not followed <= set(revisions):
        return None
    return heads.pop()


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
