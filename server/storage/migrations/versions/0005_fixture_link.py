"""A match's figures name the league fixture it was played for (issue 16).

A device records a match set up from a fixture under its own match id (the fixture's id and a
random suffix, so that a fixture set up twice never gives two items one id) and sends the fixture's
id beside it; the schedule links its fixtures to their results through this column. Matches stored
before name none: their match id stands for the fixture, as the league's own no-show forfeits do.

Revision ID: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_figures", sa.Column("fixture", sa.Text))
    op.execute("UPDATE match_figures SET fixture = match_id")
    op.create_index("match_figures_fixture", "match_figures", ["fixture", "closed", "seq"])


def downgrade() -> None:
    op.drop_index("match_figures_fixture", "match_figures")
    op.drop_column("match_figures", "fixture")
