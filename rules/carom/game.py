"""Carom as the device plays it: its entry of the game registry (rules.games)."""
from types import MappingProxyType

from rules.carom import match
from rules.carom.core import CAROM
from rules.carom.figures import TEAM_POINTS
from rules.game import Game, Keys

KEYS = Keys(
    # Numeric keypad layout: left column 1/10 (direct), middle column 2/20 (cushion first), so the
    # big values sit a row further from the everyday ones; the large 0 key is the most common "miss".
    # The 4x4 matrix keypad's "#" is the foul, as its "," is missing.
    tap={"1": "score1", "2": "score2", "7": "score10", "8": "score20",
         "0": "miss", "dot": "foul", "*": "frozen", "3": "togo", "#": "foul"},
    actions=("score1", "score2", "score10", "score20", "miss", "foul", "frozen", "togo"),
    commands={"score1": {"cmd": "score", "value": 1}, "score2": {"cmd": "score", "value": 2},
              "score10": {"cmd": "score", "value": 10}, "score20": {"cmd": "score", "value": 20},
              "miss": {"cmd": "miss"}, "foul": {"cmd": "foul"}, "frozen": {"cmd": "frozen"}},
    ahead=("score1", "miss", "score2"),     # most strokes: a point, an inning's end, a cushion first
)

GAME = Game(
    name="carom",
    core=CAROM,
    partie_per_match=match.PARTIE_PER_MATCH,
    players_per_team=match.PLAYERS_PER_TEAM,
    partie_points=match.partie_points,
    win_points=TEAM_POINTS["win"],
    score=match.points,
    screen="carom",
    keys=KEYS,
    draw_lot=match.draw_lot,
    match_facts=match.facts,
    match_result=match.result,
    protocol=True,
    team_point_defaults=MappingProxyType({"win_points": TEAM_POINTS["win"], "draw_points": TEAM_POINTS["draw"],
                                "loss_points": TEAM_POINTS["loss"]}),
)
