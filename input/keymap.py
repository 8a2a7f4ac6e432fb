"""Key names, referee actions and the default key maps per game.

A ``KeyMap`` binds key names to actions twice: ``tap`` (fires when pressed) and ``hold`` (fires
once the key has been held for the long-press time). A key bound in both fires its tap action on
release, if released before the long press. Destructive actions may only be bound to ``hold``
and always ask for a confirmation too.
"""
from dataclasses import dataclass, field
from types import MappingProxyType

DIGITS = tuple("0123456789")

# Normalized key names every device uses. Matrix keypads add "A".."D" and "#".
KEY_NAMES = frozenset(DIGITS + (
    "A", "B", "C", "D", "#", "*", "+", "-", "/", "=", "00", "000",
    "enter", "backspace", "dot", "numlock", "esc", "tab", "space",
    "up", "down", "left", "right",
))

COMMON_ACTIONS = ("undo", "redo", "confirm", "cancel", "menu", "up", "down", "keytest")
DESTRUCTIVE = ("forfeit", "new_partie", "end_match")
GAME_ACTIONS = {
    "carom": ("score1", "score2", "score10", "score20", "miss", "foul", "frozen", "togo"),
    "8ball": ("pot_solid", "pot_stripe", "pot8", "scratch", "foul", "shot", "choose",
              "nocushion", "pocket8") + tuple(f"pocket{n}" for n in range(1, 7)),
}
# 8-ball actions that end or replay a whole game: rare, so treated like the destructive ones.
GAME_DESTRUCTIVE = {"carom": (), "8ball": ("stalemate", "game")}
UNBOUND = "none"


def actions_for(game: str) -> tuple[str, ...]:
    return GAME_ACTIONS[game] + GAME_DESTRUCTIVE[game] + COMMON_ACTIONS + DESTRUCTIVE


def needs_hold(game: str, action: str) -> bool:
    return action in DESTRUCTIVE or action in GAME_DESTRUCTIVE[game]


@dataclass(frozen=True)
class KeyMap:
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


# Numeric keypad layout: left column 1/10 (direct), middle column 2/20 (cushion first), so the
# big values sit a row further from the everyday ones; the large 0 key is the most common "miss".
_CAROM_TAP = {
    "1": "score1", "2": "score2", "7": "score10", "8": "score20",
    "0": "miss", "dot": "foul", "*": "frozen", "3": "togo",
    "-": "undo", "+": "redo", "enter": "confirm", "backspace": "cancel", "esc": "cancel",
    # 4x4 matrix keypad (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D)
    "#": "foul", "A": "undo", "B": "redo", "C": "cancel", "D": "confirm",
}
_EIGHTBALL_TAP = {
    **{str(n): f"pocket{n}" for n in range(1, 7)},
    "7": "pot_solid", "9": "pot_stripe", "8": "pot8", "0": "shot",
    "dot": "foul", "*": "scratch", "/": "choose",
    "-": "undo", "+": "redo", "enter": "confirm", "backspace": "cancel", "esc": "cancel",
    "#": "foul", "A": "undo", "B": "redo", "C": "cancel", "D": "confirm",
}
_HOLD = {"enter": "menu", "D": "menu"}

DEFAULTS = {
    "carom": KeyMap.build("carom", _CAROM_TAP, _HOLD),
    "8ball": KeyMap.build("8ball", _EIGHTBALL_TAP, {**_HOLD, "0": "nocushion"}),
}


# What a key is called where the referee reads it (the key card, "Klávesa , nemá funkci").
KEY_LABELS = {"numlock": "Num", "dot": ",", "enter": "Enter", "backspace": "Back", "esc": "Esc",
              "tab": "Tab", "space": "Space"}


def key_label(key: str) -> str:
    return KEY_LABELS.get(key, key)
