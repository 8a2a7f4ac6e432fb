"""Every result where it belongs (issue 22).

``fixture_matches``: the match that is a fixture's result (part 1) and, after the organiser ruled
that an interrupted match's rest be replayed (A.6.5), the match that played the rest (part 2): set
when a device's first item of the match is accepted for the fixture (only once per fixture), or
by the organiser (``pocitadlo server assign``, the web admin). ``rulings``: the organiser's
ruling on an interrupted match (A.6.5): replay the rest on a new date, or award it.
``match_figures.standing``: whether a match counts (``counted``), waits for a ruling
(``pending``), was played between two league teams off the schedule and is not assigned to a
fixture (``unassigned``), or is annulled with an expelled team (``annulled``, A.3.7);
``match_figures.flags``: what the organiser must look at (a player on neither roster, A.3.4).
``fixtures.override``: the organiser's reason for a date outside the rules (A.3.3).
``no_shows.source``: ``organiser``, or the match id of the device's match item ("Tým nepřišel").

The fixtures' results so far are what the schedule showed (of the matches naming a fixture, a
closed one, then the latest); the other matches naming it stay unassigned for the organiser.
Every match's figures are computed again (its standing).

Revision ID: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TEXT, INT = sa.Text, sa.Integer


def upgrade() -> None:
    op.create_table("fixture_matches", sa.Column("match_id", TEXT, primary_key=True),
                    sa.Column("fixture", TEXT, sa.ForeignKey("fixtures.id"), nullable=False),
                    sa.Column("part", INT, nullable=False), sa.Column("assigned_by", TEXT, nullable=False),
                    sa.Column("at", TEXT, nullable=False), sa.UniqueConstraint("fixture", "part"))
    op.create_table("rulings", sa.Column("fixture", TEXT, sa.ForeignKey("fixtures.id"), primary_key=True),
                    sa.Column("kind", TEXT, nullable=False), sa.Column("points_home", INT),
                    sa.Column("points_away", INT), sa.Column("date", TEXT), sa.Column("reason", TEXT, nullable=False),
                    sa.Column("at", TEXT, nullable=False))
    with op.batch_alter_table("match_figures") as table:
        table.add_column(sa.Column("standing", TEXT, nullable=False, server_default="counted"))
        table.add_column(sa.Column("flags", TEXT))
    with op.batch_alter_table("fixtures") as table:
        table.add_column(sa.Column("override", TEXT))
    with op.batch_alter_table("no_shows") as table:
        table.add_column(sa.Column("source", TEXT, nullable=False, server_default="organiser"))
    db = op.get_bind()
    standing = db.execute(sa.text(
        "SELECT m.fixture, m.match_id, COALESCE(i.received, '') FROM match_figures m JOIN fixtures f ON f.id = m.fixture "
        "LEFT JOIN (SELECT match_id, MIN(received) AS received FROM items GROUP BY match_id) i "
        "ON i.match_id = m.match_id ORDER BY m.fixture, m.closed DESC, m.seq DESC")).fetchall()
    assigned: set[str] = set()
    for fixture, match_id, received in standing:
        if fixture not in assigned:
            assigned.add(fixture)
            db.execute(sa.text("INSERT INTO fixture_matches(match_id, fixture, part, assigned_by, at) "
                               "VALUES (:m, :f, 1, :by, :at)"),
                       {"m": match_id, "f": fixture, "by": "device" if received else "organiser", "at": received})
    db.execute(sa.text("INSERT INTO figures_due(match_id) SELECT match_id FROM match_figures"))


def downgrade() -> None:
    for table, column in (("no_shows", "source"), ("fixtures", "override"), ("match_figures", "flags"),
                          ("match_figures", "standing")):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
    op.drop_table("rulings")
    op.drop_table("fixture_matches")
