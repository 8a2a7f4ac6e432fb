"""Figures computed after the device's answer: the items whose match's figures are still to be
computed (server/tables/figures.py ``settle``). The item's own transaction adds its row; the step that
computes the figures, after the answer, removes it in the transaction that stores them. A row
left by a receiver stopped in between is computed when a store is next opened or read.

Revision ID: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("figures_pending", sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
                    sa.Column("match_id", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("figures_pending")
