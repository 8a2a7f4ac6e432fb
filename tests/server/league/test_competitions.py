"""A competition (season × game) holds its rules (issue 22, A.1.2): set in the CLI and the web admin,
defaults the counters' config values, sent to the venues' counters in the signed league document,
and the limits of A.3.3 and A.3.7 taken from it; on SQLite and PostgreSQL."""
import datetime as dt
import re

import pytest
from league_admin_helpers import (
    LVA,
    SEASON,
    before_the_season,
    fixture_between,
    free_working_day,
    no_show,
    play_as_device,
    set_up_league,
)

from admin_http_helpers import TOKEN, AdminClient
from cli.main import main
from config.load import CaromRules, EightBallRules
from server.league import competition_rules
from server.league.admin_fields import LeagueError
from server.tables import exports, figures
from server.tables.league_document import league_document
from wire.league import parse_document


def test_A_1_2_the_default_rules_are_the_counters_config_values(store):
    set_up_league(store, rules=None)
    carom, eightball = store.league.rules(SEASON, "carom"), store.league.rules(SEASON, "8ball")
    assert (carom["points_limit"], carom["innings_limit"]) == (CaromRules.points_limit, CaromRules.innings_limit)
    assert (carom["points_limit"], carom["innings_limit"], carom["partie_per_match"]) == (200, 15, 4)  # A.5.1, A.5.2
    assert (carom["win_points"], carom["draw_points"], carom["loss_points"]) == (2, 1, 0)           # A.5.3-A.5.5
    assert (eightball["games_to_win"], eightball["sets_to_win"], eightball["partie_per_match"]) == (
        EightBallRules.games_to_win, EightBallRules.sets_to_win, EightBallRules.individual_matches)
    assert carom["postponements"] == 2 and carom["expelling_no_shows"] == 2 and carom["min_players"] == 4
    assert competition_rules.forfeit_points(carom) == 8 and competition_rules.forfeit_points(eightball) == 4


def test_A_5_3_to_A_5_5_and_RULES_2_9_the_scores_a_played_match_can_end_with():
    """What an award may give as played (A.6.5): carom's 4 partie at 2/1/0 always add up to 8 (every
    split 0:8 … 8:0); 8-ball's individual matches are won or lost, never drawn (RULES 2.9: 4 at 1
    point add up to 4); rules the organiser changed (A.1.2) give their own totals."""
    carom, eightball = competition_rules.defaults("carom"), competition_rules.defaults("8ball")
    assert competition_rules.played_scores(carom) == {(home, 8 - home) for home in range(9)}
    assert competition_rules.played_scores(eightball) == {(home, 4 - home) for home in range(5)}
    three = competition_rules.played_scores(carom | {"win_points": 3, "partie_per_match": 2})
    assert three == {(6, 0), (4, 1), (3, 3), (2, 2), (1, 4), (0, 6)}          # 2 partie at 3/1/0


def test_A_1_2_the_organiser_sets_a_rule_and_a_wrong_one_is_refused_naming_it(store):
    set_up_league(store)
    rules = store.league.set_rules(SEASON, "carom", {"innings_limit": "20", "entry_fee": "500",
                                                     "prize_key": "1. místo 50 %, 2. místo 30 %"})
    assert (rules["innings_limit"], rules["entry_fee"], rules["points_limit"]) == (20, 500, 20)
    assert store.league.rules(SEASON, "8ball")["sets_to_win"] == 2            # the other competition unchanged
    with pytest.raises(LeagueError, match=r"innings_limit \(A.5.2\) must be 1 to 1000, got 0"):
        store.league.set_rules(SEASON, "carom", {"innings_limit": "0"})
    with pytest.raises(LeagueError, match="carom has no rule 'games_to_win'"):
        store.league.set_rules(SEASON, "carom", {"games_to_win": "3"})
    with pytest.raises(LeagueError, match=r"win_points \(A.5.3\) must be a whole number 0 to 100, got 'two'"):
        store.league.set_rules(SEASON, "carom", {"win_points": "two"})
    store.league.set_rules(SEASON, "carom", {"innings_limit": "15", "entry_fee": ""})    # back to the defaults
    assert store.league.rules(SEASON, "carom")["innings_limit"] == 15
    assert store.league.rules(SEASON, "carom")["entry_fee"] is None


def test_A_1_2_the_cli_shows_and_sets_a_competitions_rules(tmp_path, capsys):
    db = str(tmp_path / "league.sqlite")
    assert main(["server", "--db", db, "season", "add", SEASON]) == 0
    assert main(["server", "--db", db, "competition", "set", "--season", SEASON, "--competition", "8ball",
                 "games_to_win=4", "forfeit_points=6"]) == 0
    assert "8ball 2026/27: games_to_win 4, forfeit_points 6" in capsys.readouterr().out
    assert main(["server", "--db", db, "competition", "show", "--season", SEASON, "--competition", "8ball"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "games_to_win\t4\t8B:8\tVyhraných her na set\t(default 3)" in lines
    assert any(line.startswith("sets_to_win\t2\t8B:8\t") for line in lines)
    assert main(["server", "--db", db, "competition", "set", "--season", SEASON, "innings_limit=many"]) == 2
    assert "innings_limit (A.5.2) must be a whole number 1 to 1000, got 'many'" in capsys.readouterr().err


def test_A_1_2_the_web_admin_shows_and_sets_the_rules(receiver, serving):
    set_up_league(receiver.store, rules=None)
    with serving(receiver, admin_token=TOKEN) as server:
        admin = AdminClient(server.port)
        admin.login()
        status, page, _ = admin.get(f"/admin?season={SEASON}&competition=carom")
        assert status == 200 and 'name="rule_innings_limit" value="15"' in page
        page = admin.change("/admin/rules", {"season": SEASON, "competition": "carom",      # Post/Redirect/Get
                                             "rule_innings_limit": "25", "rule_points_limit": "200"})
        assert 'name="rule_innings_limit" value="25"' in page
        status, page, _ = admin.post("/admin/rules", {"season": SEASON, "competition": "carom",
                                                      "rule_points_limit": "-3"})
        assert status == 400 and "Pravidlo „Limit bodů v partii“ (A.5.1) musí být od 1 do 10000; zadáno -3." in page
    assert receiver.store.league.rules(SEASON, "carom")["innings_limit"] == 25


def test_the_league_document_carries_the_competitions_rules_of_play(store):
    set_up_league(store, rules=None)
    store.league.set_rules(SEASON, "carom", {"innings_limit": "20", "entry_fee": "300"})
    document = parse_document(league_document(store, LVA, dt.date(2026, 10, 1)))
    assert document["league"]["rules"] == {"points_limit": 200, "innings_limit": 20, "partie_per_match": 4,
                                           "win_points": 2, "draw_points": 1, "loss_points": 0}


def test_A_3_3_and_A_3_7_the_limits_are_the_competitions(store):
    before_the_season(store)            # the postponement's new date is not in the past, whatever today is
    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    store.league.set_rules(SEASON, "carom", {"postponements": "1", "expelling_no_shows": "3"})
    first, second = fixture_between(store, "Lvi", "Orli"), fixture_between(store, "Lvi", "Sokoli")
    store.fixtures.postpone(first["id"], "Lvi", to=free_working_day(store, first))
    with pytest.raises(LeagueError, match=r"a team may postpone at most 1 \(A.3.3\)"):
        store.fixtures.postpone(second["id"], "Lvi")
    for other in ("Orli", "Sokoli"):
        done = no_show(store, fixture_between(store, "Jiskra", other)["id"], "Jiskra")
    assert done["no_shows"] == 2 and not done["expelled"]       # the third expels in this competition


@pytest.mark.parametrize("change, in_force", [
    ({"win_points": "3"}, "win_points (A.5.3) stays 2"), ({"draw_points": "2"}, "draw_points (A.5.4) stays 1"),
    ({"innings_limit": "20"}, "innings_limit (A.5.2) stays 3"), ({"partie_per_match": "5"}, "partie_per_match "
                                                                                            "(A.3.6) stays 4"),
    ({"forfeit_points": "6"}, "forfeit_points (A.3.7) stays 8"),
])
def test_A_1_2_a_rule_deciding_what_a_match_counts_is_fixed_from_the_seasons_first_result(carom_league, items, sign,
                                                                                         change, in_force):
    """A.1.2: the organiser sets the rules for the season; once a match of it is stored, the captains
    signed its zápis under them (A.5.3-A.5.5), so a change of what a match counts or how it is played
    is refused naming the rule, and the table stays; the rules that count no result stay settable."""
    store = carom_league
    store.league.set_rules(SEASON, "carom", {"win_points": "3"})        # before the first result: settable
    store.league.set_rules(SEASON, "carom", {"win_points": "2"})
    fixture = fixture_between(store, "Lvi", "Orli")
    play_as_device(store, items, sign, fixture)
    figures.settle(store)
    table = exports.league_table(store, "carom", SEASON)["rows"]
    with pytest.raises(LeagueError, match=rf"^{re.escape(in_force)} this season: its matches stored were played"):
        store.league.set_rules(SEASON, "carom", change)
    figures.settle(store)
    assert exports.league_table(store, "carom", SEASON)["rows"] == table
    store.league.set_rules(SEASON, "carom", {"win_points": "2", "entry_fee": "500", "prize_key": "vítěz 100 %",
                                             "postponements": "1", "min_players": "5"})    # unchanged, or no result's
    assert store.league.rules(SEASON, "carom")["entry_fee"] == 500
    assert store.league.set_rules(SEASON, "8ball", {"win_points": "3"})["win_points"] == 3     # no result of it yet


def test_A_1_2_the_cli_refuses_a_rule_change_after_the_first_result_in_one_line(carom_league, store_place, items,
                                                                                sign, capsys):
    play_as_device(carom_league, items, sign, fixture_between(carom_league, "Lvi", "Orli"))     # not settled yet
    assert main(["server", "--db", store_place, "competition", "set", "--season", SEASON, "win_points=3"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.endswith("win_points (A.5.3) stays 2 this season: its matches stored were played and signed under it "
                         "(A.1.2)")
