"""No layer of the device compares game names: each asks the game's registry entry (rules.games,
issue 25), so a new game is its entry and its own modules (tests/test_toy_game.py).

A comparison is ``game == "carom"``, ``!=``, ``is``, ``in ("carom", …)`` or ``case "8ball":`` with
a registered game's name; naming a game elsewhere (a record header, a config example, a parser's
list of choices) is not one.
"""
import ast
from pathlib import Path

import pytest

from rules.games import game_names

ROOT = Path(__file__).resolve().parents[1]
# The packages held to it: every package of the device. The receiver (server/) joins once its wings
# ask the registry too.
PACKAGES = ("rules", "input", "display", "firmware_host", "cli", "clock", "wire", "delivery", "config")
# Where a game may be named: the registry, the game's own modules.
ALLOWED = ("rules/games.py", "rules/game.py", "rules/carom/", "rules/eightball/")
NAMES = frozenset(game_names())
EQUALITY = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
MEMBERSHIP = (ast.In, ast.NotIn)


def _named(node) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def comparisons(source: str) -> list[int]:
    """The lines of ``source`` that compare something with a game's name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, (left, right) in zip(node.ops, zip(operands, operands[1:])):
                if isinstance(op, EQUALITY) and (_named(left) or _named(right)):
                    lines.append(node.lineno)
                elif isinstance(op, MEMBERSHIP) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) \
                        and any(_named(item) for item in right.elts):
                    lines.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and _named(node.value):
            lines.append(node.lineno)
    return sorted(set(lines))


def held_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if not path.relative_to(ROOT).as_posix().startswith(ALLOWED))


@pytest.mark.parametrize("source, found", [
    ('if game == "carom": pass', [1]),
    ('x = "8ball" != header["game"]', [1]),
    ('ok = game in ("carom", "pool")', [1]),
    ('ok = game not in ["8ball"]', [1]),
    ('match game:\n    case "carom":\n        pass', [2]),
    ('header = {"game": "carom"}\nok = game in GAMES\nname = "8ball"', []),
])
def test_the_check_finds_a_comparison_with_a_game_name(source, found):
    assert comparisons(source) == found


def test_the_device_packages_ask_the_registry_instead_of_comparing_game_names():
    assert len(held_files()) > 50
    found = {path.relative_to(ROOT).as_posix(): lines for path in held_files()
             if (lines := comparisons(path.read_text(encoding="utf-8")))}
    assert found == {}
