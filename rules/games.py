"""The registry of games, by the ``game`` name used in record headers: one ``Game`` per game.

An entry (rules.game.Game) holds all the device's layers need of a game — its rule core, its team
match, the counter's screen, its keys — so that no layer compares game names: they ask the entry.
Carom and 8-ball are registered here; ``register`` adds another (a test's toy game).
"""
from rules.carom.game import GAME as CAROM_GAME
from rules.eightball.game import GAME as EIGHTBALL_GAME
from rules.errors import HeaderError
from rules.game import Game, Keys

__all__ = ["GAMES", "Game", "Keys", "game_for", "game_names", "is_game", "register"]

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a name registered again is replaced)."""
    GAMES[game.name] = game
    return game


for _game in (CAROM_GAME, EIGHTBALL_GAME):
    register(_game)


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)


def is_game(name: object) -> bool:
    """Whether ``name`` is a registered game's (a screen model named for the game in play)."""
    return isinstance(name, str) and name in GAMES


def game_for(name: object) -> Game:
    """The registry entry for a header's ``game`` value."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise HeaderError(f"unknown game {name!r} (known: {known})", code="unknown_game")
    return game
