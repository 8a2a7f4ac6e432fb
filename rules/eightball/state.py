"""8-ball settings, immutable state and match progression (RULES 2.2, 2.3, 2.8, 2.9).

Pure: no I/O, states are frozen dataclasses holding tuples. Per-player pairs are ``(a, b)``
tuples, per-group pairs ``(solids, stripes)`` tuples.
"""
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rules.core import JSONObject
from rules.errors import HeaderError, IllegalCommand
from rules.game import MAX_TEAM_POINTS

# League defaults; the service passes its config values explicitly in the header (RULES 2.9).
DEFAULT_GAMES_TO_WIN = 3
DEFAULT_SETS_TO_WIN = 2
DEFAULT_FIRST_BREAK = "b"
RACE_LIMIT = 99
DEFAULT_WIN_POINTS = 1          # RULES 2.9 Decision: team points per individual match won
# RULES 2.2 Decision: corner to the diagonally opposite corner, middle to the other middle.
DEFAULT_OPPOSITE = (4, 5, 6, 1, 2, 3)   # DEFAULT_OPPOSITE[p - 1] is the pocket opposite p

PLAYERS = ("a", "b")
GROUPS = ("solids", "stripes")
POCKETS = (1, 2, 3, 4, 5, 6)
MIDDLE_POCKETS = (2, 5)
RACK_SIZE = 7

Pair = tuple[int, ...]          # a count per player (a, b) or per group (solids, stripes)
Entry = tuple[Any, ...]         # an input of the open shot: ("pot", group, pocket|None), ... (shot.py)
_Default = TypeVar("_Default", str, None)


class Refused(IllegalCommand):
    """An 8-ball command refused in the current state; ``code`` says which rule refused it."""


class MatchOver(Refused):
    code = "match_over"


class UnknownCommand(Refused):
    code = "unknown_command"


class BadArgument(Refused):
    code = "bad_argument"


def other(player: str) -> str:
    return "b" if player == "a" else "a"


def other_group(group: str) -> str:
    return "stripes" if group == "solids" else "solids"


def credit(pair: Pair, key: str, keys: tuple[str, ...] = PLAYERS, amount: int = 1) -> Pair:
    """``pair`` with ``amount`` added at ``key``'s position."""
    return tuple(v + amount if k == key else v for k, v in zip(keys, pair))


# -- settings (the header) ----------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """An 8-ball partie's settings, from its record header: the players and the race."""
    a: str
    b: str
    games_to_win: int = DEFAULT_GAMES_TO_WIN
    sets_to_win: int = DEFAULT_SETS_TO_WIN
    first_break: str = DEFAULT_FIRST_BREAK
    opposite: tuple[int, ...] = DEFAULT_OPPOSITE
    home: str | None = None
    win_points: int = DEFAULT_WIN_POINTS     # the competition's, in the header when not the default

    def opposite_of(self, pocket: int) -> int:
        return self.opposite[pocket - 1]


def first_break(home: str | None, number: int = 1) -> str:
    """Who breaks the first game of an individual match (RULES 2.3, 8B:2b): in a team match the
    home player racks and the away player breaks the 1st, the following ones alternate (the home
    player breaks the 2nd, the away player the 3rd, …); outside a team match (``home`` None)
    player "b", the second named."""
    if home is None:
        return DEFAULT_FIRST_BREAK
    if home not in PLAYERS:
        raise ValueError(f"home side must be \"a\" or \"b\", not {home!r}")
    return other(home) if number % 2 else home


def parse_header(header: JSONObject) -> Settings:
    if not isinstance(header, dict):
        raise HeaderError("the header must be a JSON object")
    home = _side(header, "home", None)
    number = header.get("partie")
    number = number if type(number) is int and number >= 1 else 1
    return Settings(
        a=_name(header, "a"),
        b=_name(header, "b"),
        games_to_win=_race(header, "games_to_win", DEFAULT_GAMES_TO_WIN),
        sets_to_win=_race(header, "sets_to_win", DEFAULT_SETS_TO_WIN),
        first_break=_side(header, "first_break", first_break(home, number)),
        opposite=read_opposite(header.get("opposite")),
        home=home,
        win_points=_team_points(header, "win_points", DEFAULT_WIN_POINTS),
    )


def _name(header: JSONObject, key: str) -> str:
    value = header.get(key)
    if not isinstance(value, str) or not value.strip():
        raise HeaderError(f"\"{key}\" must be the player's name (non-empty text)", code="bad_player")
    return value.strip()


def _race(header: JSONObject, key: str, default: int) -> int:
    return _whole(header, key, default, 1, RACE_LIMIT, "bad_race")


def _team_points(header: JSONObject, key: str, default: int) -> int:
    return _whole(header, key, default, 0, MAX_TEAM_POINTS, "bad_team_points")


def _whole(header: JSONObject, key: str, default: int, least: int, most: int, code: str) -> int:
    value = header.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise HeaderError(f"\"{key}\" must be a whole number from {least} to {most}, not {value!r}", code=code)
    return value


def _side(header: JSONObject, key: str, default: _Default) -> str | _Default:
    value: str | _Default = header.get(key, default)
    if value is not default and value not in PLAYERS:
        raise HeaderError(f"\"{key}\" must be \"a\" or \"b\", not {value!r}", code="bad_side")
    return value


def read_opposite(value: object) -> tuple[int, ...]:
    """The pocket map of RULES 2.2: {"1": 4, ...}, all six pockets, each pair mutual."""
    if value is None:
        return DEFAULT_OPPOSITE
    fault = "\"opposite\" must map every pocket 1..6 to another pocket, both ways (e.g. {\"1\":4,\"4\":1,...})"
    if not isinstance(value, dict):
        raise HeaderError(fault, code="bad_opposite")
    table: dict[int, int] = {}
    for key, target in value.items():
        pocket = _pocket_key(key)
        if pocket is None or type(target) is not int or target not in POCKETS or target == pocket:
            raise HeaderError(f"{fault}; bad entry {key!r}: {target!r}", code="bad_opposite")
        table[pocket] = target
    if sorted(table) != list(POCKETS) or any(table[table[p]] != p for p in POCKETS):
        raise HeaderError(f"{fault}; got {value!r}", code="bad_opposite")
    return tuple(table[p] for p in POCKETS)


def _pocket_key(key: object) -> int | None:
    if isinstance(key, str) and key.isdigit():
        key = int(key)
    return key if type(key) is int and key in POCKETS else None


# -- state ------------------------------------------------------------------------

@dataclass(frozen=True)
class Rack:
    """One rack on the table: from a break to the end of the game, a re-rack or a PAT."""
    breaker: str
    shooter: str
    break_shot: bool = True              # the next shot is the break
    group_a: str | None = None           # player a's group; b has the other (None: open table)
    left: Pair = (RACK_SIZE, RACK_SIZE)   # object balls on the table per group
    ball_in_hand: bool = False           # for the next shot only (RULES 2.6)
    must_choose: bool = False            # both groups dropped on the group-fixing shot (2.4)
    open_shot: bool = False              # 8B:6d: the next shot may hit any ball first
    last_pocket: tuple[int | None, ...] = (None, None)   # per group: the pocket its last ball dropped into
    last_by: tuple[str | None, ...] = (None, None)       # per group: who potted its last ball
    named: tuple[int | None, ...] = (None, None)         # per group: the 8 pocket named under 8B:6f
    fouls: Pair = (0, 0)                 # fouls per player in this game
    pending: tuple[Entry, ...] = ()      # the inputs of the open shot

    def group_of(self, player: str) -> str | None:
        if self.group_a is None:
            return None
        return self.group_a if player == "a" else other_group(self.group_a)

    def owner_of(self, group: str) -> str | None:
        if self.group_a is None:
            return None
        return "a" if group == self.group_a else "b"

    def left_of(self, group: str) -> int:
        return self.left[GROUPS.index(group)]

    def may_name_pocket(self, group: str) -> bool:
        """8B:6f: the opponent potted this group's last ball into a middle pocket (RULES 2.2)."""
        i = GROUPS.index(group)
        owner = self.owner_of(group)
        return (owner is not None and self.last_pocket[i] in MIDDLE_POCKETS
                and self.last_by[i] not in (None, owner))

    def eight_pocket(self, settings: Settings, group: str | None) -> int | None:
        """The pocket the 8 must go into for the owner of ``group`` (None until known)."""
        if group is None:
            return None
        i = GROUPS.index(group)
        if self.named[i] is not None and self.may_name_pocket(group):
            return self.named[i]
        last = self.last_pocket[i]
        return None if last is None else settings.opposite_of(last)


@dataclass(frozen=True)
class GameResult:
    """One finished game of a set: who broke, who won and how."""
    set: int
    game: int                 # number of the game within its set, 1-based
    breaker: str
    winner: str
    reason: str
    groups: tuple[str | None, ...]   # (a's group, b's group)
    fouls: Pair               # (a's fouls, b's fouls) in this game
    loser_left: int | None    # balls of the loser's group still on the table


@dataclass(frozen=True)
class State:
    """An 8-ball partie's facts after its commands: the rack, the set and game, the scores."""
    settings: Settings
    rack: Rack
    set_no: int = 1
    sets: Pair = (0, 0)
    games: Pair = (0, 0)      # games won in the set being played
    log: tuple[GameResult, ...] = ()   # GameResult for every finished game
    winner: str | None = None
    forfeit: str | None = None


# -- match progression -------------------------------------------------------------

def set_opener(settings: Settings, set_no: int) -> str:
    """RULES 2.3 Decision: each set is opened by the player who did not open the previous one."""
    return settings.first_break if set_no % 2 else other(settings.first_break)


def breaker_for(settings: Settings, set_no: int, games: Pair) -> str:
    """RULES 2.3 Decision: breaks alternate game by game from the set's opener."""
    opener = set_opener(settings, set_no)
    return opener if sum(games) % 2 == 0 else other(opener)


def new_rack(breaker: str) -> Rack:
    return Rack(breaker=breaker, shooter=breaker)


def initial(settings: Settings) -> State:
    return State(settings=settings, rack=new_rack(breaker_for(settings, 1, (0, 0))))


def rerack(state: State) -> State:
    """Re-rack or PAT replay: the same player breaks again and it is not a game (RULES 2.3, 2.8)."""
    return replace(state, rack=new_rack(state.rack.breaker))


def final_rack(rack: Rack) -> Rack:
    """The rack as it stays on show once the match is over: nothing pending, nothing due."""
    return replace(rack, pending=(), ball_in_hand=False, open_shot=False, must_choose=False)


def game_result(state: State, rack: Rack, winner: str, reason: str) -> GameResult:
    loser_group = rack.group_of(other(winner))
    return GameResult(
        set=state.set_no, game=sum(state.games) + 1, breaker=rack.breaker, winner=winner,
        reason=reason, groups=(rack.group_of("a"), rack.group_of("b")), fouls=rack.fouls,
        loser_left=None if loser_group is None else rack.left_of(loser_group),
    )


def end_game(state: State, rack: Rack, winner: str, reason: str) -> State:
    """Record a won game and go on to the next game, the next set or the end of the match (2.9)."""
    settings = state.settings
    log = state.log + (game_result(state, rack, winner, reason),)
    games = credit(state.games, winner)
    if games[PLAYERS.index(winner)] < settings.games_to_win:
        return replace(state, log=log, games=games,
                       rack=new_rack(breaker_for(settings, state.set_no, games)))
    sets = credit(state.sets, winner)
    if sets[PLAYERS.index(winner)] >= settings.sets_to_win:
        return replace(state, log=log, games=games, sets=sets, rack=final_rack(rack), winner=winner)
    set_no = state.set_no + 1
    return replace(state, log=log, games=(0, 0), sets=sets, set_no=set_no,
                   rack=new_rack(breaker_for(settings, set_no, (0, 0))))


def forfeit(state: State, by: str) -> State:
    """The whole match is lost by ``by``; the unfinished game is logged with reason "forfeit"."""
    winner = other(by)
    rack = final_rack(state.rack)
    log = state.log + (game_result(state, rack, winner, "forfeit"),)
    return replace(state, log=log, rack=rack, winner=winner, forfeit=by)
