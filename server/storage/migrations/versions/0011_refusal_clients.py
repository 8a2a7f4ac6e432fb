"""The refusal log keeps its oldest evidence: per client (an address; an IPv6 address by its /64)
and status, the count, the first refusal's time and reason and the latest's, beside the bounded
list of the latest refusals, which a flood overwrites (server/storage/refusals.py).

Revision ID: 0011
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("refusal_clients", sa.Column("client", sa.Text, primary_key=True),
                    sa.Column("status", sa.Integer, primary_key=True), sa.Column("n", sa.Integer, nullable=False),
                    sa.Column("first_at", sa.Text, nullable=False), sa.Column("first_reason", sa.Text, nullable=False),
                    sa.Column("last_at", sa.Text, nullable=False), sa.Column("last_reason", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("refusal_clients")
