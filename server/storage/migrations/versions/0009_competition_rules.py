"""A competition's rules (issue 22, A.1.2): the settings the organiser changed for a season's game
(server.league.competition_rules holds every setting and its default), as a JSON object; and the
matches whose figures a league change (a rule, an expulsion, a ruling) made due to be computed
again, which the next figures step computes with the pending items (server/tables/figures.py).

Revision ID: 0009
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("competition_rules", sa.Column("season", sa.Text, sa.ForeignKey("seasons.name"), primary_key=True),
                    sa.Column("competition", sa.Text, sa.ForeignKey("competitions.id"), primary_key=True),
                    sa.Column("rules", sa.Text, nullable=False))
    op.create_table("figures_due", sa.Column("match_id", sa.Text, primary_key=True))


def downgrade() -> None:
    op.drop_table("figures_due")
    op.drop_table("competition_rules")
