"""How a team left its competition (A.3.7, A.1.2): ``expelled_how`` says what its ``expelled`` time
stamp was — ``no-shows`` (the competition's second no-show, A.3.7), ``withdrew`` (the team withdrew)
or ``decision`` (the organiser expelled it) — and ``expelled_reason`` the organiser's reason
(server/storage/departures.py ``withdraw_team``, ``reinstate_team``). A team expelled before this
revision was expelled by its no-shows.

Revision ID: 0015
"""
import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("teams") as table:
        table.add_column(sa.Column("expelled_how", sa.Text))
        table.add_column(sa.Column("expelled_reason", sa.Text))
    op.execute("UPDATE teams SET expelled_how = 'no-shows' WHERE expelled IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("teams") as table:
        table.drop_column("expelled_reason")
        table.drop_column("expelled_how")
