"""What the site shows of each game, by the game's name in rules.games (as server/tables/games.py
is the tables'): its label, its table's address, the columns of its players and rankings, a
player's partie and facts, a team's facts. The pages ask the registry and never compare game
names themselves (tests/server/tables/test_table_games.py checks server/site too); a third game
needs its entry here and its two page builders in server/site/pages.py."""
from dataclasses import dataclass
from typing import Callable

from rules.games import GAMES
from server.site import czech
from server.site.cells import col, number, pair, signed
from server.site.language import N_, say

NAME = col("Hráč", "name stick", row=True)
TEAM = col("Družstvo", "name")


@dataclass(frozen=True)
class SiteGame:
    name: str
    label: str                    # "karambol": the competition switcher, titles
    table_path: str               # "/table.html": its league table (…json, …csv beside it)
    named: bool                   # named in the pages' addresses (?game=8ball); the site's first game is not
    unit: str                     # what a player plays: "Partie", "Zápasy"
    columns: tuple                # the players' columns: (key of stats.figures, column)
    decimals: frozenset           # the columns (and rankings) that hold a decimal
    signed: frozenset             # the columns that hold a signed difference
    players_note: tuple           # under the players' table: its sentences, in one line
    ranking_counts: tuple         # beside a ranking's value: (key, column)
    ranking_note: str             # under the rankings ("" for none)
    partie_head: tuple            # the game's own columns of a player's partie
    partie_cells: Callable        # a partie of the player's page -> those cells
    player_facts: Callable        # a player's season totals -> (label, value) pairs
    team_facts: Callable          # a team's table line -> (label, value) pairs


EXPLAINED = N_("Zkratky: GP generální průměr, NS nejvyšší série, NP nejlepší průměr v partii, V/R/P výhry, remízy a "
               "prohry.")

CAROM = SiteGame(
    name="carom", label=N_("karambol"), table_path="/table.html", named=False, unit=N_("Partie"),
    columns=(("player", NAME), ("team", TEAM), ("partie", col("Partie", "num")), ("points", col("Body", "num")),
             ("innings", col("Náběhy", "num")), ("general_average", col("GP", "num", "generální průměr")),
             ("best_series", col("NS", "num", "nejvyšší série")),
             ("best_partie_average", col("NP", "num", "nejlepší průměr v partii")),
             ("won", col("V", "num", "vyhrané partie")), ("drawn", col("R", "num", "remízy")),
             ("lost", col("P", "num", "prohrané partie")), ("matches", col("Utkání", "num")),
             ("team_points", col("Body pro družstvo", "num"))),
    decimals=frozenset({"general_average", "best_partie_average"}), signed=frozenset(),
    players_note=(N_("Generální průměr: všechny body ÷ všechny náběhy, 3 desetinná místa useknutá (RULES 1.5)."),
                  EXPLAINED),
    ranking_counts=(("partie", col("Partie", "num")), ("points", col("Body", "num")),
                    ("innings", col("Náběhy", "num"))),
    ranking_note=N_("Pořadí podle přesného zlomku; hráči se stejnou hodnotou sdílejí místo. Generální průměr: hráči "
                    "s alespoň polovinou partií nejčastějšího hráče sezóny."),
    partie_head=(col("Body", "num"), col("Náběhy", "num"), col("Průměr", "num"), col("NS", "num", "nejvyšší série"),
                 col("Body pro družstvo", "num")),
    partie_cells=lambda p: [p["points"], p["innings"], number(p["average"]), p["best_series"], p["team_points"]],
    player_facts=lambda row: [
        [say("Partie"), say("{partie} (výhry {won}, remízy {drawn}, prohry {lost})", partie=row["partie"],
                            won=row["won"], drawn=row["drawn"], lost=row["lost"])],
        [say("Body"), row["points"]], [say("Náběhy"), row["innings"]],
        [say("Generální průměr"), czech.decimal(row["general_average"])], [say("Nejvyšší série"), row["best_series"]],
        [say("Nejlepší průměr v partii"), czech.decimal(row["best_partie_average"])],
        [say("Body pro družstvo"), row["team_points"]]],
    team_facts=lambda line: [[say("Skóre"), f"{line['scored']}:{line['conceded']}"],
                             [say("Generální průměr"), czech.decimal(line["general_average"])]],
)

EIGHTBALL = SiteGame(
    name="8ball", label=N_("8-ball"), table_path="/table-8ball.html", named=True, unit=N_("Zápasy"),
    columns=(("player", NAME), ("team", TEAM), ("individual", col("Zápasy", "num")), ("won", col("Výhry", "num")),
             ("lost", col("Prohry", "num")), ("sets_won", col("Sety +", "num", "sety vyhrané")),
             ("sets_lost", col("Sety −", "num", "sety prohrané")), ("games_won", col("Hry +", "num", "hry vyhrané")),
             ("games_lost", col("Hry −", "num", "hry prohrané")), ("games_difference", col("Rozdíl her", "num")),
             ("fouls", col("Fauly", "num")), ("matches", col("Utkání", "num"))),
    decimals=frozenset(), signed=frozenset({"games_difference"}),
    players_note=(N_("Zápasy: jednotlivé zápasy 8-ball (RULES 2.9)."),),
    ranking_counts=(("partie", col("Zápasy", "num")),), ranking_note="",
    partie_head=(col("Sety", "num"), col("Hry", "num"), col("Fauly", "num")),
    partie_cells=lambda p: [pair(p["sets_won"], p["sets_lost"]), pair(p["games_won"], p["games_lost"]), p["fouls"]],
    player_facts=lambda row: [[say("Zápasy"), say("{individual} (výhry {won}, prohry {lost})",
                                                  individual=row["individual"], won=row["won"], lost=row["lost"])],
                              [say("Sety"), f"{row['sets_won']}:{row['sets_lost']}"],
                              [say("Hry"), f"{row['games_won']}:{row['games_lost']}"], [say("Fauly"), row["fouls"]]],
    team_facts=lambda line: [[say("Zápasy"), f"{line['individual_won']}:{line['individual_lost']}"],
                             [say("Sety"), f"{line['sets_won']}:{line['sets_lost']}"],
                             [say("Hry"), f"{line['games_won']}:{line['games_lost']}"]],
)

SITE_GAMES = {game.name: game for game in (CAROM, EIGHTBALL)}
assert set(SITE_GAMES) == set(GAMES), "every game of rules.games has its pages"
DEFAULT = next(iter(SITE_GAMES))          # the game an address without ?game= means
LABELS = {name: game.label for name, game in SITE_GAMES.items()}


def site_game(name: str) -> SiteGame:
    return SITE_GAMES[name]


def in_address(name: str | None) -> str | None:
    """The game as an address names it: None for the default game (so its addresses stay short)."""
    return name if name is not None and SITE_GAMES[name].named else None


def value(row: dict, key: str, game: SiteGame, *, as_key: str | None = None):
    """A player's figure as its column shows it (a decimal with a comma, a signed difference);
    ``as_key``: the figure ``row[key]`` is (a ranking's value)."""
    kind = as_key or key
    if kind in game.decimals:
        return number(row[key])
    if kind in game.signed:
        return signed(int(row[key]))        # a ranking's value comes as text
    return row[key]

