"""Key names, referee actions and the default key map of a game (its own keys from its registry
entry, rules.games, with the keys every game shares).

A ``KeyMap`` binds key names to actions twice: ``tap`` (fires when pressed) and ``hold`` (fires
once the key has been held for the long-press time). A key bound in both fires its tap action on
release, if released before the long press. Destructive actions may only be bound to ``hold``
and always ask for a confirmation too.
"""
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.games import game_for

DIGITS = tuple("0123456789")

# Normalized key names every device uses. Matrix keypads add "A".."D" and "#".
KEY_NAMES = frozenset(DIGITS + (
    "A", "B", "C", "D", "#", "*", "+", "-", "/", "=", "00", "000",
    "enter", "backspace", "dot", "numlock", "esc", "tab", "space",
    "up", "down", "left", "right",
))

COMMON_ACTIONS = ("undo", "redo", "confirm", "cancel", "menu", "up", "down", "keytest")
DESTRUCTIVE = ("forfeit", "new_partie", "end_match")
UNBOUND = "none"


def actions_for(game: str) -> tuple[str, ...]:
    keys = game_for(game).keys
    return keys.actions + keys.destructive + COMMON_ACTIONS + DESTRUCTIVE


def needs_hold(game: str, action: str) -> bool:
    return action in DESTRUCTIVE or action in game_for(game).keys.destructive


@dataclass(frozen=True)
class KeyMap:
    """What each key means for one game: on a tap and on a hold."""
    game: str
    tap: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    hold: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def build(cls, game: str, tap: dict, hold: dict) -> "KeyMap":
        return cls(game, MappingProxyType(dict(tap)), MappingProxyType(dict(hold)))

    def with_overrides(self, tap: dict, hold: dict) -> "KeyMap":
        """Config entries replace defaults key by key; the action "none" unbinds a key."""
        def merged(base, extra):
            out = dict(base)
            for key, action in extra.items():
                if action == UNBOUND:
                    out.pop(key, None)
                else:
                    out[key] = action
            return out
        return KeyMap.build(self.game, merged(self.tap, tap), merged(self.hold, hold))

    def keys_for(self, action: str) -> list[str]:
        """Keys that trigger ``action`` (tap first), e.g. for hints and the key card."""
        return [k for k, a in self.tap.items() if a == action] + \
               [k for k, a in self.hold.items() if a == action]


# The keys every game shares; a game's own (its strokes) come from its registry entry (rules.games).
COMMON_TAP = {
    "-": "undo", "+": "redo", "enter": "confirm", "backspace": "cancel", "esc": "cancel",
    # 4x4 matrix keypad (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D)
    "A": "undo", "B": "redo", "C": "cancel", "D": "confirm",
}
COMMON_HOLD = {"enter": "menu", "D": "menu"}


def default_keymap(game: str) -> KeyMap:
    """The key map of ``game`` before a config's [keypad.<game>] changes it."""
    keys = game_for(game).keys
    return KeyMap.build(game, {**keys.tap, **COMMON_TAP}, {**COMMON_HOLD, **keys.hold})


# What a key is called where the referee reads it (the key card, "Klávesa , nemá funkci").
KEY_LABELS = {"numlock": "Num", "dot": ",", "enter": "Enter", "backspace": "Back", "esc": "Esc",
              "tab": "Tab", "space": "Space"}


def key_label(key: str) -> str:
    return KEY_LABELS.get(key, key)
