"""The registry of games, by the ``game`` name used in record headers: one entry per game.

An entry holds what the rules know of a game: its rule core over one partie (the protocol of
rules.board; ``core.summary`` is the record summary) and its team match. What other layers keep
per game (the counter's screens, the receiver's tables) they key by the same name.
"""
from dataclasses import dataclass
from typing import Callable

from rules.carom import match as carom_match
from rules.carom.core import CAROM
from rules.core import Core, JSONObject
from rules.eightball import match as eightball_match
from rules.eightball.core import EIGHTBALL
from rules.errors import HeaderError


@dataclass(frozen=True)
class Game:
    name: str                     # the record header's "game"
    core: Core                    # parse_header, initial, step, summary, finished (rules.board)
    partie_per_match: int         # partie (8-ball: individual matches) in a team match by default
    players_per_team: int         # players a team needs present to start a team match
    partie_points: Callable[[JSONObject], JSONObject | None]    # a partie summary → team points of "a" and "b"
    first_break: Callable[[str | None], str] | None = None   # header "first_break" from "home"


GAMES = {game.name: game for game in (
    Game("carom", CAROM, carom_match.PARTIE_PER_MATCH, carom_match.PLAYERS_PER_TEAM,
         carom_match.partie_points),
    Game("8ball", EIGHTBALL, eightball_match.INDIVIDUAL_MATCHES, eightball_match.PLAYERS_PER_TEAM,
         eightball_match.partie_points, eightball_match.first_break),
)}


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)


def game_for(name: object) -> Game:
    """The registry entry for a header's ``game`` value."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise HeaderError(f"unknown game {name!r} (known: {known})", code="unknown_game")
    return game
