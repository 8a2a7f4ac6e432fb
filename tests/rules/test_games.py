"""The games registry (rules.games): one entry per game with its rule core and its team match."""
import pytest

from rules.board import Board
from rules.carom.core import CAROM
from rules.eightball.core import EIGHTBALL
from rules.errors import HeaderError
from rules.games import GAMES, game_for, game_names


def finished_carom(winner_points: int, loser_points: int) -> dict:
    board = Board({"game": "carom", "a": "A", "b": "B", "points_limit": 30, "innings_limit": 1})
    for value in (winner_points, loser_points):
        board.push({"cmd": "score", "value": value})
        board.push({"cmd": "miss"})
    return board.summary()


def test_every_game_has_one_entry_under_its_header_name():
    assert game_names() == ("carom", "8ball")
    assert game_for("carom").core is CAROM and game_for("8ball").core is EIGHTBALL
    assert all(name == game.name for name, game in GAMES.items())


def test_an_unknown_game_is_a_header_error():
    with pytest.raises(HeaderError, match="unknown game 'pool'") as info:
        game_for("pool")
    assert info.value.code == "unknown_game"
    with pytest.raises(HeaderError):
        game_for(None)


def test_1_6_a_carom_match_is_4_partie_of_teams_with_4_players_present():
    carom = game_for("carom")
    assert (carom.partie_per_match, carom.players_per_team) == (4, 4)
    assert carom.first_break is None


def test_1_6_a_carom_partie_brings_its_winner_2_team_points_a_draw_1_each():
    carom = game_for("carom")
    assert carom.partie_points(finished_carom(20, 10)) == {"a": 2, "b": 0}
    assert carom.partie_points(finished_carom(20, 20)) == {"a": 1, "b": 1}
    board = Board({"game": "carom", "a": "A", "b": "B"})
    assert carom.partie_points(board.summary()) is None


def test_2_9_an_individual_match_won_brings_one_team_point_by_default():
    eightball = game_for("8ball")
    assert (eightball.partie_per_match, eightball.players_per_team) == (4, 1)
    board = Board({"game": "8ball", "a": "A", "b": "B", "games_to_win": 1, "sets_to_win": 1})
    assert eightball.partie_points(board.summary()) is None
    board.push({"cmd": "game", "winner": "b"})
    assert eightball.partie_points(board.summary()) == {"a": 0, "b": 1}


def test_2_3_the_away_player_breaks_the_first_individual_match_then_they_alternate():
    """RULES 2.3 (8B:2b corrected): the home player racks and the away player breaks the 1st
    individual match of a team meeting, the home player the 2nd, the away player the 3rd …; a
    single match outside the league: player "a", the one picked to start."""
    first_break = game_for("8ball").first_break
    assert [first_break("a", n) for n in (1, 2, 3, 4)] == ["b", "a", "b", "a"]
    assert [first_break("b", n) for n in (1, 2, 3, 4)] == ["a", "b", "a", "b"]
    assert first_break(None, 1) == first_break(None, 2) == "a"
    with pytest.raises(ValueError):
        first_break("home", 1)


@pytest.mark.parametrize("partie, breaker", [(None, "b"), (1, "b"), (2, "a"), (3, "b"), (4, "a")])
def test_2_3_a_header_without_first_break_takes_it_from_home_and_the_partie_number(partie, breaker):
    """RULES 2.3 (8B:2b): a record of individual match ``partie`` that does not say who broke."""
    header = {"game": "8ball", "a": "A", "b": "B", "home": "a"}
    if partie is not None:
        header["partie"] = partie
    assert Board(header).summary()["current"]["breaker"] == breaker


@pytest.mark.parametrize("game", game_names())
def test_the_strokes_drawn_ahead_are_commands_the_keys_enter_as_they_are(game):
    """Keys.ahead: the counter draws these strokes' frames before their key (Night.screens_ahead),
    from the command each enters without asking anything (Keys.commands)."""
    keys = game_for(game).keys
    assert keys.ahead and set(keys.ahead) <= set(keys.commands) and set(keys.ahead) <= set(keys.tap.values())
