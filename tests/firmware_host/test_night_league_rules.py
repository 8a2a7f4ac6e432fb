"""The counter plays a league match by its competition's rules (issue 22): those of the league
document the receiver sent (wire.league "rules"); its config is only the fallback, and then the
setup screen says so."""
import dataclasses

import pytest
from night_helpers import TONIGHT

from clock import ManualClock
from delivery.outbox import Outbox
from firmware_host.league import load_league
from firmware_host.match_night import Night
from firmware_host.settings import load

TEAMS = (("Sokol Dvůr", "Hospoda U Lva", ("Novák", "Dvořák", "Svoboda", "Černý")),
         ("Jiskra Hořice", "Na Růžku", ("Kučera", "Veselý", "Horák", "Němec")))


@pytest.fixture
def counter(tmp_path, league_file):
    league_file(((0, "Sokol Dvůr", "Jiskra Hořice"),), teams=TEAMS, tonight=TONIGHT.date())
    (tmp_path / "config.toml").write_text(
        '[device]\nvenue = "Hospoda U Lva"\ntable = "2"\nname = "lev-2"\nleague = "league.toml"\n'
        'data_dir = "data"\n[rules.carom]\npoints_limit = 20\ninnings_limit = 2\n', encoding="utf-8")

    def night(rules=None) -> Night:
        config = load(tmp_path / "config.toml")
        league = load_league(config.device.league)
        if rules is not None:           # as fetched from the receiver
            league = dataclasses.replace(league, rules=rules)
        return Night(config, league, outbox=Outbox(tmp_path / "outbox"), status=lambda: {},
                     clock=ManualClock(TONIGHT), urandom=lambda n: bytes(n))
    return night


def first_partie_header(night: Night) -> dict:
    night.ui("confirm")            # ready -> setup
    night.ui("confirm")            # tonight's fixture
    night.ui("confirm"), night.ui("confirm")     # everybody present
    night.ui("confirm"), night.ui("confirm")     # A.6.1: each team's captain, the first offered
    night.ui("confirm")            # the lot draw
    night.ui(1), night.ui("confirm")             # who starts
    return night.board.header


def test_a_league_partie_is_played_by_the_competitions_rules_from_the_receiver(counter):
    night = counter({"points_limit": 150, "innings_limit": 12, "partie_per_match": 4})
    night.ui("confirm")
    assert night.screen()["title"] == "Utkání"
    night.ui("cancel")
    header = first_partie_header(night)
    assert (header["points_limit"], header["innings_limit"]) == (150, 12)
    assert header["cap_points_at_limit"] is True           # not a rule the league sets: the config's


def test_without_the_leagues_rules_the_config_plays_and_the_setup_screen_says_so(counter):
    night = counter()                                      # league.toml: no rules of its own
    night.ui("confirm")
    assert night.screen()["title"] == "Utkání (pravidla z konfigurace)"
    night.ui("cancel")
    header = first_partie_header(night)
    assert (header["points_limit"], header["innings_limit"]) == (20, 2)


def test_a_single_partie_outside_the_league_keeps_the_config(counter):
    night = counter({"points_limit": 150, "innings_limit": 12})
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")      # a single partie
    assert (night.board.header["points_limit"], night.board.header["innings_limit"]) == (20, 2)


def test_A_5_3_to_A_5_5_the_competitions_team_points_reach_the_partie_header(counter):
    """A.5.3-A.5.5: the team points of the league document are rules of play in the partie header
    (the counter's summary counts them); only those not the default are written."""
    night = counter({"points_limit": 150, "innings_limit": 12, "partie_per_match": 4,
                     "win_points": 3, "draw_points": 1, "loss_points": 0})
    header = first_partie_header(night)
    assert header["win_points"] == 3 and "draw_points" not in header and "loss_points" not in header
    assert night.board.settings.team_points() == {"win": 3, "draw": 1, "loss": 0}


def test_a_competition_with_the_default_team_points_writes_the_header_as_before(counter):
    """The receiver sends the default team points too: the header is the one written before they
    were rules of play (no team-point keys), and counts 2/1/0."""
    header = first_partie_header(counter({"points_limit": 150, "innings_limit": 12, "partie_per_match": 4,
                                          "win_points": 2, "draw_points": 1, "loss_points": 0}))
    assert set(header) == {"game", "a", "b", "points_limit", "innings_limit", "cap_points_at_limit", "id",
                           "device", "venue", "table", "date", "match", "partie", "home"}


def test_A_3_7_a_no_show_at_the_table_scores_the_competitions_team_points(counter):
    """A.3.7 with A.5.3: the team present gets every partie at the competition's win_points (4 × 3)."""
    night = counter({"partie_per_match": 4, "win_points": 3})
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm")    # fixture; home all present
    night.ui(6), night.ui("confirm"), night.ui(1), night.ui("menu")  # Jiskra did not come: yes (long press)
    assert night.screen()["screen"] == "match" and night.screen()["points"] == {"home": 12, "away": 0}
