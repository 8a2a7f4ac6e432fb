"""The live board in the store, shared by every receiver on the database: the latest snapshot per
(venue, table) with the time it arrived and the change that wrote it, each device's latest
(signed timestamp, seq), and a change number a receiver with viewers polls
(server/storage/live.py, server/live/board.py).

Revision ID: 0013
"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("live_tables", sa.Column("venue", sa.Text, primary_key=True),
                    sa.Column("table_name", sa.Text, primary_key=True), sa.Column("device", sa.Text, nullable=False),
                    sa.Column("heard", sa.Float, nullable=False), sa.Column("n", sa.BigInteger, nullable=False),
                    sa.Column("snap", sa.Text, nullable=False))
    op.create_table("live_devices", sa.Column("device", sa.Text, primary_key=True),
                    sa.Column("signed", sa.BigInteger, nullable=False), sa.Column("seq", sa.BigInteger, nullable=False))
    changes = op.create_table("live_changes", sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                              sa.Column("n", sa.BigInteger, nullable=False))
    op.bulk_insert(changes, [{"id": 1, "n": 0}])


def downgrade() -> None:
    for table in ("live_changes", "live_devices", "live_tables"):
        op.drop_table(table)
