"""The store's generation: a counter every change to what the pages show moves on (an item
stored, figures computed again). A receiver keeps the pages it built until the counter moves,
and several receivers on one PostgreSQL see each other's items by it (docs/server.md).

Revision ID: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    generation = op.create_table("generation", sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                                 sa.Column("n", sa.BigInteger, nullable=False))
    op.bulk_insert(generation, [{"id": 1, "n": 0}])
