"""A player's name corrected on a team's roster, for the whole season (A.3.4).

``player_renames``: per team (of a season's competition), a name its match records carry (``old``)
and the roster's name of that player (``new``): the organiser's correction of a typo
(``League.rename_player``). The records are the league's signed evidence and stay as they are;
the match records read from them show and count the player under the roster's name
(server/tables/standing.py). Every match's figures are computed again: a name differing from its
roster's spelling only in case, spacing or accents is now counted as the roster spells it.

Revision ID: 0014
"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("player_renames", sa.Column("team", sa.Integer, sa.ForeignKey("teams.id"), primary_key=True),
                    sa.Column("old", sa.Text, primary_key=True), sa.Column("new", sa.Text, nullable=False))
    op.get_bind().execute(sa.text("INSERT INTO figures_due(match_id) SELECT match_id FROM match_figures "
                                  "WHERE match_id NOT IN (SELECT match_id FROM figures_due)"))


def downgrade() -> None:
    op.drop_table("player_renames")
