"""Per-player figures (statistics pages, issue 16): one row per player and partie (or 8-ball
individual match), and their running sums per competition, season, player and team.

The figures are derived data: the match figures are emptied here so that opening the store
computes them all again, the players' with them (server/tables/figures.py ``rebuild_if_missing``).

Revision ID: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TEXT, INT = sa.Text, sa.Integer
PER_PARTIE = ("won", "drawn", "lost", "forfeited", "points", "innings", "best_series", "team_points",
              "sets_won", "sets_lost", "games_won", "games_lost", "fouls")
TOTALS = ("matches", "partie", "won", "drawn", "lost", "points", "innings", "best_series", "team_points",
          "sets_won", "sets_lost", "games_won", "games_lost", "fouls", "best_average_points", "best_average_innings")


def _ints(names):
    return [sa.Column(name, INT, nullable=False) for name in names]


def upgrade() -> None:
    op.create_table("player_figures", sa.Column("match_id", TEXT, primary_key=True),
                    sa.Column("partie_id", TEXT, primary_key=True), sa.Column("side", TEXT, primary_key=True),
                    sa.Column("seq", INT, nullable=False), sa.Column("game", TEXT, nullable=False),
                    sa.Column("season", TEXT, nullable=False), sa.Column("date", TEXT), sa.Column("number", INT),
                    sa.Column("player", TEXT, nullable=False), sa.Column("team", TEXT, nullable=False),
                    sa.Column("opponent", TEXT), sa.Column("opponent_team", TEXT, nullable=False), *_ints(PER_PARTIE))
    op.create_index("player_figures_player", "player_figures", ["player", "game", "season", "team", "seq"])
    op.create_table("player_totals", sa.Column("game", TEXT, primary_key=True), sa.Column("season", TEXT, primary_key=True),
                    sa.Column("player", TEXT, primary_key=True), sa.Column("team", TEXT, primary_key=True), *_ints(TOTALS))
    op.create_index("player_totals_team", "player_totals", ["game", "season", "team"])
    op.create_index("player_totals_player", "player_totals", ["player"])
    for table in ("team_totals", "team_figures", "match_figures"):     # computed again when the store opens
        op.execute(f"DELETE FROM {table}")


def downgrade() -> None:
    op.drop_table("player_totals")
    op.drop_table("player_figures")
