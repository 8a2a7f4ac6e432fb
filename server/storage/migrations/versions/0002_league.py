"""The league's own data: seasons and their halves, competitions, venues, teams with captains,
rosters, fixtures, postponements and no-shows (issue 16; A.2.1, A.3.2-A.3.4, A.3.7).

Revision ID: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TEXT, INT = sa.Text, sa.Integer
COMPETITIONS = (("carom", "Královédvorská kulečníková liga"), ("8ball", "Podkrušnohorská billiard liga"))


def _column(name, kind=TEXT, *foreign, **options):
    return sa.Column(name, kind, *foreign, nullable=options.pop("nullable", False), **options)


def upgrade() -> None:
    op.create_table("seasons", _column("name", primary_key=True),
                    _column("autumn_first"), _column("autumn_last"), _column("spring_first"), _column("spring_last"))
    competitions = op.create_table("competitions", _column("id", primary_key=True), _column("name"))
    op.bulk_insert(competitions, [{"id": key, "name": name} for key, name in COMPETITIONS])
    op.create_table("venues", _column("name", primary_key=True), _column("days", server_default=""))
    op.create_table("teams", _column("id", INT, primary_key=True, autoincrement=True),
                    _column("season", TEXT, sa.ForeignKey("seasons.name")),
                    _column("competition", TEXT, sa.ForeignKey("competitions.id")), _column("name"),
                    _column("venue", TEXT, sa.ForeignKey("venues.name")), _column("captain"), _column("phone"),
                    _column("days", server_default=""), _column("expelled", nullable=True),
                    sa.UniqueConstraint("season", "competition", "name"))
    op.create_table("players", _column("season"), _column("competition"), _column("name"),
                    _column("team", INT, sa.ForeignKey("teams.id")),
                    sa.PrimaryKeyConstraint("season", "competition", "name"))      # A.3.4: one team a season
    op.create_index("players_team", "players", ["team"])
    op.create_table("fixtures", _column("id", primary_key=True), _column("season"), _column("competition"),
                    _column("round", INT), _column("date"), _column("start"),
                    _column("home", INT, sa.ForeignKey("teams.id")), _column("away", INT, sa.ForeignKey("teams.id")),
                    _column("venue"), _column("status", server_default="scheduled"), _column("planned"))
    op.create_index("fixtures_venue", "fixtures", ["venue", "date"])
    op.create_index("fixtures_list", "fixtures", ["season", "competition", "date"])
    op.create_table("postponements", _column("seq", INT, primary_key=True, autoincrement=True),
                    _column("fixture", TEXT, sa.ForeignKey("fixtures.id")), _column("team", INT, sa.ForeignKey("teams.id")),
                    _column("at"), _column("was"), _column("reason", server_default=""))
    op.create_index("postponements_team", "postponements", ["team"])
    op.create_table("no_shows", _column("fixture", TEXT, sa.ForeignKey("fixtures.id"), primary_key=True),
                    _column("team", INT, sa.ForeignKey("teams.id")), _column("at"))
    op.create_index("no_shows_team", "no_shows", ["team"])


def downgrade() -> None:
    for table in ("no_shows", "postponements", "fixtures", "players", "teams", "venues", "competitions", "seasons"):
        op.drop_table(table)
