"""The lists of matches (``/``, ``/matches.json``) show one season, not every match ever stored:
an index by season and arrival, which also finds the seasons there are one seek each.

Revision ID: 0007
"""
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("match_figures_season", "match_figures", ["season", "seq"])


def downgrade() -> None:
    op.drop_index("match_figures_season", "match_figures")
