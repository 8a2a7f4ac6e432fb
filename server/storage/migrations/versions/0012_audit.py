"""The admin's audit log: every change the organiser makes on the web (who, when, what).

Revision ID: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("audit", sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
                    sa.Column("at", sa.Text, nullable=False), sa.Column("who", sa.Text, nullable=False),
                    sa.Column("action", sa.Text, nullable=False), sa.Column("what", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("audit")
