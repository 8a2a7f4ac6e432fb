"""The session's PostgreSQL server (tests/server/conftest.py) outlives another pytest session
starting on the same machine (issue 26's loaded runs: one run's server died with PANIC,
"could not open file …/global/pg_control: Permission denied", 133 errors after it)."""
import os
import stat

import sqlalchemy as sa


def test_the_server_keeps_working_after_another_session_makes_pytests_folder_private(postgresql, tmp_path):
    """What a starting session does to the per-user folder (pytest's getbasetemp: mode 0700),
    done here; then a database copied from the template, which forces a checkpoint that
    reopens pg_control by its whole path."""
    per_user = next(p for p in tmp_path.parents if p.name.startswith("pytest-of-"))
    mode = stat.S_IMODE(per_user.stat().st_mode)
    os.chmod(per_user, 0o700)
    try:
        place = postgresql()
        engine = sa.create_engine(place)
        try:
            with engine.connect() as conn:
                assert conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
        finally:
            engine.dispose()
        postgresql.drop(place)
    finally:
        os.chmod(per_user, mode)
