"""What the tables need of each game, by the game's name in rules.games: its match record, league
table, team and player figures, a player's page and rankings. A game is one module here
(server/tables/carom.py, eightball.py) registered below."""
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

from rules.games import GAMES
from server.tables import carom, eightball


@dataclass(frozen=True)
class TableGame:
    name: str
    match_record: Callable      # (a match's stored rows, match_id, its competition's rules) -> the zápis or None
    league_table: Callable      # (store, season) -> the league table of a season (default: the latest)
    team_figures: Callable      # a match record -> the figures of its home and away team (None: nothing counted)
    played: Callable            # a match record -> the partie (individual matches) its players' figures count
    lineup: Callable            # a match record -> every partie (individual match) in it, for who played it
    plays_once: Callable        # a match record -> whether a team's player plays one partie of it (RULES 1.6)
    player_figures: Callable    # (one of them, side) -> that player's figures of it
    player_view: Callable       # a player's totals -> what the pages and exports show
    partie_view: Callable       # a player's row -> that partie's own figures on the player's page
    rankings: Callable          # (a season's player totals, min_partie) -> {"min_partie", "rankings"}


def of_module(module: ModuleType) -> TableGame:
    """A game's entry from its module: one function per field, the module's GAME its name."""
    return TableGame(module.GAME, **{field: getattr(module, field) for field in TableGame.__dataclass_fields__
                                     if field != "name"})


TABLE_GAMES = {game.name: game for game in map(of_module, (carom, eightball))}
assert set(TABLE_GAMES) == set(GAMES), "every game of rules.games has its tables"


def table_game(name: object) -> TableGame:
    """The tables of a game by its name; ValueError naming the games there are."""
    game = TABLE_GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ValueError(f"game must be one of {', '.join(TABLE_GAMES)}, got {name!r}")
    return game


def of_items(rows: list[dict]) -> TableGame:
    """The game a match's items name (the first that names one; the league's first game otherwise)."""
    named = next((row["game"] for row in rows if row["game"] in TABLE_GAMES), None)
    return TABLE_GAMES[named] if named is not None else next(iter(TABLE_GAMES.values()))
