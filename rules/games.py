"""The registry of rule cores, by the ``game`` name used in record headers."""
from importlib import import_module

from rules.errors import HeaderError

_GAMES = {
    "carom": "rules.carom:CAROM",
    "8ball": "rules.eightball:EIGHTBALL",
}


def game_names() -> tuple[str, ...]:
    return tuple(_GAMES)


def game_for(name: object):
    """Return the rule core for a header's ``game`` value."""
    target = _GAMES.get(name) if isinstance(name, str) else None
    if target is None:
        known = ", ".join(sorted(_GAMES))
        raise HeaderError(f"unknown game {name!r} (known: {known})", code="unknown_game")
    module, attr = target.split(":")
    return getattr(import_module(module), attr)
