"""The receiver's tables know the games through one registry (server/tables/games.py, issue 25):
every game of rules.games has its tables, no module of the tables compares game names itself,
and a third game needs nothing but its own module and its registry entry."""
import re
import types
from pathlib import Path

import pytest

from server.tables import exports, games, stats
from server.tables.games import TABLE_GAMES, TableGame, of_module, table_game

ROOT = Path(__file__).resolve().parents[3]
# a comparison with a game's name: == "carom", != '8ball', in ("carom", …)
COMPARED = re.compile(r"""[!=]=\s*["'](carom|8ball)["']|["'](carom|8ball)["']\s*[!=]=|\bin\s*\(\s*["'](carom|8ball)["']""")
# the packages checked, and the places still allowed to compare (each with its reason)
CHECKED = ("server/tables", "server/ingest", "server/league", "server/storage", "server/live", "server/site",
           "cli/commands/server.py")
ALLOWED: dict[str, str] = {}


def test_every_game_of_the_rules_has_its_tables():
    from rules.games import GAMES

    assert set(TABLE_GAMES) == set(GAMES)
    for game in TABLE_GAMES.values():
        assert all(callable(getattr(game, field)) for field in TableGame.__dataclass_fields__ if field != "name")


def test_an_unknown_game_is_refused_naming_the_games_there_are():
    with pytest.raises(ValueError, match="carom, 8ball"):
        table_game("snooker")


def _sources(place: Path) -> list[Path]:
    return [place] if place.is_file() else sorted(place.rglob("*.py"))


def test_no_module_of_the_receivers_lower_wings_compares_game_names():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for package in CHECKED for path in _sources(ROOT / package)
             if str(path.relative_to(ROOT)) not in ALLOWED
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if COMPARED.search(line)]
    assert found == []


def toy_game() -> types.ModuleType:
    """A third game's module, as server/tables/carom.py is carom's: here, a game of one frame."""
    toy = types.ModuleType("toy")
    toy.GAME = "toy"
    toy.match_record = lambda rows, match_id, rules: {"match": match_id, "game": "toy", "frames": 1}
    toy.league_table = lambda store, season=None: {"game": "toy", "season": season, "rows": []}
    toy.team_figures = lambda record: [None, None]
    toy.played = lambda record: []
    toy.lineup = lambda record: []
    toy.plays_once = lambda record: False
    toy.player_figures = lambda frame, side: {}
    toy.player_view = lambda row: {"player": row["player"], "frames": row["partie"]}
    toy.partie_view = lambda row: {"frame": row["partie_id"]}
    toy.rankings = lambda rows, min_partie: {"min_partie": None, "rankings": []}
    return toy


def test_a_third_game_needs_only_its_module_and_its_entry(monkeypatch, store):
    """What a toy game took: a module of its own functions, and one entry in TABLE_GAMES. The
    exports, the statistics and the match record find it through the registry."""
    monkeypatch.setitem(TABLE_GAMES, "toy", of_module(toy_game()))
    assert exports.league_table(store, "toy", season="2026/27") == {"game": "toy", "season": "2026/27", "rows": []}
    assert stats.figures({"game": "toy", "player": "Novák", "partie": 3}) == {"player": "Novák", "frames": 3}
    store.devices.add("t-1", b"secret-of-the-toy-counter-000", venue="Herna")
    store.items.put("T-1-p1", "partie", b"{}", device="t-1", via="test", game="toy", match_id="T-1")
    assert exports.match_record(store, "T-1") == {"match": "T-1", "game": "toy", "frames": 1}
    assert games.of_items([{"game": "toy"}]).name == "toy"
