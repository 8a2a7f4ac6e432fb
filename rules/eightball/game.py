"""8-ball as the device plays it: its entry of the game registry (rules.games)."""
from types import MappingProxyType

from rules.eightball import match
from rules.eightball.core import EIGHTBALL
from rules.game import Game, Keys

POCKET_KEYS = {str(n): f"pocket{n}" for n in range(1, 7)}

KEYS = Keys(
    # the 4x4 matrix keypad's "#" is the foul, as its "," is missing
    tap={**POCKET_KEYS, "7": "pot_solid", "9": "pot_stripe", "8": "pot8", "0": "shot",
         "dot": "foul", "*": "scratch", "/": "choose", "#": "foul"},
    hold={"0": "nocushion"},
    actions=("pot_solid", "pot_stripe", "pot8", "scratch", "foul", "shot", "choose", "nocushion", "pocket8")
    + tuple(POCKET_KEYS.values()),
    commands={"scratch": {"cmd": "scratch"}, "foul": {"cmd": "foul"}, "shot": {"cmd": "shot"},
              "nocushion": {"cmd": "nocushion"}},
    # a game's end entered as such, or replayed: rare, so bound only to a long press
    destructive=("stalemate", "game"),
    menu=("pocket8", "stalemate", "game"),
    stray_digit="pocket_first",
    ahead=("shot",),                        # a pot asks for its pocket first: only the miss is drawn ahead
)

GAME = Game(
    name="8ball",
    core=EIGHTBALL,
    partie_per_match=match.INDIVIDUAL_MATCHES,
    players_per_team=match.PLAYERS_PER_TEAM,
    partie_points=match.partie_points,
    win_points=match.POINTS_PER_MATCH,
    score=match.sets,
    screen="eightball",
    keys=KEYS,
    first_break=match.night_first_break,
    news=match.news,
    team_point_defaults=MappingProxyType({"win_points": match.POINTS_PER_MATCH}),
)
