"""Night.CHOICES, the table of handlers an item chosen in a night menu is carried out by (issue 25):
every action a night menu names has its handler, and every handler is named by a menu — a typo in
either is found here, not by a referee's key at the table."""
import ast
from pathlib import Path

from firmware_host.match_night import Night

MODULES = ("match_night.py", "night_menus.py", "night_orphans.py")
NAMING = {"item": 1, "yes_no": 2}           # the calls whose positional argument names an action
NAMING_KEYWORDS = ("back", "undo", "no")    # … and their keywords: the action of Back, undo, "Ne"


def _texts(node) -> set[str]:
    """The action names an argument can be: a string, either branch of a conditional, or the first
    of a tuple (``no=("present", setup)``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _texts(node.body) | _texts(node.orelse)
    if isinstance(node, ast.Tuple) and node.elts:
        return _texts(node.elts[0])
    return set()


def named_actions(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):        # a local of the keyword's name: ``undo = "reopen" if …``
            if any(isinstance(target, ast.Name) and target.id in NAMING_KEYWORDS for target in node.targets):
                found |= _texts(node.value)
            continue
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name in NAMING and len(node.args) > NAMING[name]:
            found |= _texts(node.args[NAMING[name]])
        if name in NAMING or name == "menu":
            for keyword in node.keywords:
                if keyword.arg in NAMING_KEYWORDS:
                    found |= _texts(keyword.value)
    return found


def test_the_check_reads_every_way_a_menu_names_an_action():
    source = ('item("x", "a")\nmenus.yes_no(t, "q", "b", no=("c", s))\n'
              'menu(t, "m", [], back="d", undo="e" if f else None)\nitem("only closes")\n'
              'undo = "f" if g else None\nmenu(t, "m", [], undo=undo)\ntitle = "not an action"')
    assert named_actions(source) == {"a", "b", "c", "d", "e", "f"}


def test_every_action_a_night_menu_names_has_its_handler_and_every_handler_is_named():
    folder = Path(__file__).resolve().parents[2] / "firmware_host"
    named = set().union(*(named_actions((folder / module).read_text(encoding="utf-8")) for module in MODULES))
    assert named - set(Night.CHOICES) == set()          # a menu item nothing carries out
    assert set(Night.CHOICES) - named == set()          # a handler no menu reaches
