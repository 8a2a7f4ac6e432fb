"""The clock of the match-night tests (test_night*.py), and the small league night of the crash and
property tests (test_night_crashes.py, test_night_properties.py): two teams of four, their match
tonight at U Lva."""
import datetime as dt

from leagues import league_text

TONIGHT = dt.datetime(2026, 11, 29, 19, 30)        # the clock of these nights (UTC)
TEAMS = (("Sokol", "U Lva", ("A1", "A2", "A3", "A4")), ("Jiskra", None, ("B1", "B2", "B3", "B4")))


def write_night(path, points_limit: int) -> None:
    """In ``path``: league.toml with tonight's match, config.toml of a counter at U Lva playing carom
    to ``points_limit`` points or 2 innings, its journal not fsynced."""
    (path / "league.toml").write_text(league_text(TONIGHT.date(), ((0, "Sokol", "Jiskra"),), TEAMS),
                                      encoding="utf-8")
    (path / "config.toml").write_text('[device]\nvenue = "U Lva"\nleague = "league.toml"\ndata_dir = "d"\n'
                                      f'[rules.carom]\npoints_limit = {points_limit}\ninnings_limit = 2\n'
                                      '[journal]\nfsync = false\n', encoding="utf-8")


def sign_off(night) -> None:
    """On the match result: Enter asks the home captain chosen at setup (A.6.1) to sign; the long
    press takes "Podepisuji" (A.6.9d, issue 24); the away captain is asked next, then the match is
    sent. A captain not chosen at setup (a team that did not come) picks the first name offered."""
    night.ui("confirm")
    while night.match is not None and night.match.awaiting is not None:
        if night.screen()["items"][0] != "1 Podepisuji":
            night.ui("confirm")                     # the first name offered
        night.ui("menu")
