"""Names are identities (issue 22): the near-duplicates a store holds are folded into one, and
reported.

Venues, the teams of a season's competition and the players of a season's competition whose
names are the same after NFC, trimming, collapsing inner whitespace and case folding
(server.league.names) become one: a spelling already clean is kept (then the one most referred
to, then the first in code-point order), in its cleaned form; every reference (teams, fixtures,
devices, rosters, postponements, no-shows) moves to it. Each fold is logged and kept in
``name_folds`` (the web admin lists them). A device registered with a differently written venue
name is registered at that venue. The bug this mends: a device registered as "na  růžku" whose
every match item was refused, for ever.

Revision ID: 0008
"""
import logging

import sqlalchemy as sa
from alembic import op

from server.league import names

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    op.create_table("name_folds", sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("kind", sa.Text, nullable=False), sa.Column("scope", sa.Text, nullable=False),
                    sa.Column("kept", sa.Text, nullable=False), sa.Column("folded", sa.Text, nullable=False))
    db = op.get_bind()
    _venues(db)
    _teams(db)
    _players(db)


def downgrade() -> None:
    op.drop_table("name_folds")


def _rows(db, sql: str, **args) -> list:
    return db.execute(sa.text(sql), args).fetchall()


def _run(db, sql: str, **args) -> None:
    db.execute(sa.text(sql), args)


def _keep(spellings: list[str], references: dict[str, int]) -> str:
    """The spelling kept: one already clean, then the most referred to, then the first (capitals
    before small letters)."""
    return min(spellings, key=lambda n: (n != names.cleaned(n), -references.get(n, 0), n))


def _report(db, kind: str, scope: str, kept: str, folded: list[str]) -> None:
    for name in folded:
        log.warning("names are identities (issue 22): %s %r%s folded into %r", kind, name,
                    f" ({scope})" if scope else "", kept)
        _run(db, "INSERT INTO name_folds(kind, scope, kept, folded) VALUES (:k, :s, :kept, :f)",
             k=kind, s=scope, kept=kept, f=name)


def _venues(db) -> None:
    venues = dict(_rows(db, "SELECT name, days FROM venues"))
    references: dict[str, int] = {}
    for (venue,) in _rows(db, "SELECT venue FROM teams UNION ALL SELECT venue FROM fixtures "
                              "UNION ALL SELECT venue FROM devices WHERE venue IS NOT NULL"):
        references[venue] = references.get(venue, 0) + 1
    groups: dict[str, list[str]] = {}
    for name in sorted(venues):
        groups.setdefault(names.identity(name), []).append(name)
    for spellings in groups.values():
        chosen = _keep(spellings, references)
        kept = names.cleaned(chosen)
        if kept not in venues:
            _run(db, "INSERT INTO venues(name, days) VALUES (:n, :d)", n=kept, d=venues[chosen])
        for name in spellings:
            if name != kept:
                for table in ("teams", "fixtures", "devices"):
                    _run(db, f"UPDATE {table} SET venue = :kept WHERE venue = :name", kept=kept, name=name)
                _run(db, "DELETE FROM venues WHERE name = :name", name=name)
        _report(db, "venue", "", kept, [n for n in spellings if n != kept])
    known = _rows(db, "SELECT name FROM venues")
    for device, venue in _rows(db, "SELECT id, venue FROM devices WHERE venue IS NOT NULL"):
        spelled = names.find(venue, [v for (v,) in known]) or names.cleaned(venue)
        if spelled != venue:
            _run(db, "UPDATE devices SET venue = :v WHERE id = :d", v=spelled, d=device)
            _report(db, "device venue", device, spelled, [venue])


def _teams(db) -> None:
    references: dict[int, int] = {}
    for (team,) in _rows(db, "SELECT team FROM players UNION ALL SELECT home FROM fixtures UNION ALL "
                             "SELECT away FROM fixtures UNION ALL SELECT team FROM no_shows UNION ALL "
                             "SELECT team FROM postponements"):
        references[team] = references.get(team, 0) + 1
    groups: dict[tuple, list[tuple[int, str]]] = {}
    for team_id, season, competition, name in _rows(db, "SELECT id, season, competition, name FROM teams ORDER BY id"):
        groups.setdefault((season, competition, names.identity(name)), []).append((team_id, name))
    for (season, competition, _), teams in groups.items():
        by_name = {name: team_id for team_id, name in teams}
        chosen = _keep([name for _, name in teams], {name: references.get(i, 0) for i, name in teams})
        kept_id = by_name[chosen]
        for team_id, _name in teams:
            if team_id == kept_id:
                continue
            for table, column in (("players", "team"), ("fixtures", "home"), ("fixtures", "away"),
                                  ("no_shows", "team"), ("postponements", "team")):
                _run(db, f"UPDATE {table} SET {column} = :kept WHERE {column} = :old", kept=kept_id, old=team_id)
            _run(db, "DELETE FROM teams WHERE id = :old", old=team_id)
        kept = names.cleaned(chosen)
        if kept != chosen:
            _run(db, "UPDATE teams SET name = :n WHERE id = :i", n=kept, i=kept_id)
        _report(db, "team", f"{competition} {season}", kept, [name for _, name in teams if name != kept])


def _players(db) -> None:
    groups: dict[tuple, list[str]] = {}
    for season, competition, name in _rows(db, "SELECT season, competition, name FROM players ORDER BY name"):
        groups.setdefault((season, competition, names.identity(name)), []).append(name)
    for (season, competition, _), spellings in groups.items():
        chosen = _keep(spellings, {})
        for name in spellings:
            if name != chosen:
                _run(db, "DELETE FROM players WHERE season = :s AND competition = :c AND name = :n",
                     s=season, c=competition, n=name)
        kept = names.cleaned(chosen)
        if kept != chosen:
            _run(db, "UPDATE players SET name = :new WHERE season = :s AND competition = :c AND name = :n",
                 new=kept, s=season, c=competition, n=chosen)
        _report(db, "player", f"{competition} {season}", kept, [name for name in spellings if name != kept])
