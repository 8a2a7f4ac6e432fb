"""The receiver's store: devices, items kept verbatim, nonces, refusals, forwarding, figures.

Revision ID: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TEXT, INT = sa.Text, sa.Integer
SUMMED = ("matches", "points", "partie", "scored", "conceded", "innings", "won", "lost",
          "sets_won", "sets_lost", "games_won", "games_lost")


def _summed():
    return [sa.Column(name, INT, nullable=False) for name in SUMMED]


def upgrade() -> None:
    op.create_table("devices", sa.Column("id", TEXT, primary_key=True), sa.Column("secret", sa.LargeBinary, nullable=False),
                    sa.Column("note", TEXT, nullable=False, server_default=""), sa.Column("added", TEXT, nullable=False),
                    sa.Column("role", TEXT, nullable=False, server_default="device"), sa.Column("venue", TEXT))
    op.create_table("items", sa.Column("seq", INT, primary_key=True, autoincrement=True),
                    sa.Column("id", TEXT, nullable=False, unique=True), sa.Column("kind", TEXT, nullable=False),
                    sa.Column("game", TEXT), sa.Column("match_id", TEXT), sa.Column("device", TEXT, nullable=False),
                    sa.Column("via", TEXT, nullable=False), sa.Column("received", TEXT, nullable=False),
                    sa.Column("body", sa.LargeBinary, nullable=False), sa.Column("origin", TEXT), sa.Column("venue", TEXT))
    op.create_index("items_match", "items", ["match_id", "seq"])
    op.create_table("nonces", sa.Column("device", TEXT, primary_key=True), sa.Column("nonce", TEXT, primary_key=True),
                    sa.Column("ts", sa.BigInteger, nullable=False))
    op.create_index("nonces_ts", "nonces", ["ts"])
    op.create_table("refusals", sa.Column("seq", INT, primary_key=True, autoincrement=True),
                    sa.Column("at", TEXT, nullable=False), sa.Column("via", TEXT, nullable=False), sa.Column("remote", TEXT),
                    sa.Column("device", TEXT), sa.Column("item_id", TEXT), sa.Column("status", INT, nullable=False),
                    sa.Column("reason", TEXT, nullable=False))
    op.create_table("refusal_counts", sa.Column("status", INT, primary_key=True), sa.Column("via", TEXT, primary_key=True),
                    sa.Column("n", INT, nullable=False))
    op.create_table("forwarded", sa.Column("seq", INT, primary_key=True, autoincrement=True),
                    sa.Column("id", TEXT, nullable=False, unique=True), sa.Column("state", TEXT, nullable=False),
                    sa.Column("at", TEXT, nullable=False), sa.Column("why", TEXT))
    op.create_table("match_figures", sa.Column("match_id", TEXT, primary_key=True), sa.Column("seq", INT, nullable=False),
                    sa.Column("game", TEXT, nullable=False), sa.Column("season", TEXT), sa.Column("date", TEXT),
                    sa.Column("venue", TEXT), sa.Column("home", TEXT), sa.Column("away", TEXT),
                    sa.Column("points_home", INT), sa.Column("points_away", INT), sa.Column("closed", INT, nullable=False),
                    sa.Column("unreadable", TEXT))
    op.create_index("match_figures_list", "match_figures", ["game", "season", "seq"])
    op.create_index("match_figures_seq", "match_figures", ["seq"])
    where = sa.text("unreadable IS NOT NULL")
    op.create_index("match_figures_unreadable", "match_figures", ["game", "season", "seq"],
                    sqlite_where=where, postgresql_where=where)
    op.create_table("team_figures", sa.Column("match_id", TEXT, primary_key=True), sa.Column("game", TEXT, nullable=False),
                    sa.Column("season", TEXT), sa.Column("team", TEXT, primary_key=True),
                    sa.Column("opponent", TEXT, nullable=False), *_summed())
    op.create_table("team_totals", sa.Column("game", TEXT, primary_key=True), sa.Column("season", TEXT, primary_key=True),
                    sa.Column("team", TEXT, primary_key=True), sa.Column("opponent", TEXT, primary_key=True), *_summed())
