"""The emulator's key line: the keys that work on the screen shown, as the terminal types them.

One line under the counter (``pocitadlo emulate``), rebuilt whenever the screen changes: a menu
lists its item digits and how to move, choose and leave it; a question the long press answers
says so; a prompt its answers; a partie only the game's keys the rule core would accept now
(8-ball: the group choice while it is open, the illegal break on the break, never a key twice).
The words come from the catalogs (``keys.*``, ``short.*``); "h" before a key is the emulator's
long press (input/terminal.py).
"""
from input.keymap import KeyMap
from input.messages import say
from input.overlays import Confirm, KeyTest, Menu, NumberPrompt, ValuePrompt, first_error
from input.terminal import HOLD_PREFIX as HOLD
from input.terminal import QUIT
from rules.games import game_for

# What the terminal types for a key name (input/terminal.py reads these characters).
TYPED = {"enter": "Enter", "dot": ".", "backspace": "Backspace", "esc": "Esc", "space": "Space", "tab": "Tab"}
PREFERRED = ("enter", "esc", "dot")        # of two keys for one action, the one the line names …
MATRIX = frozenset("ABCD#")                  # … and the 4x4 matrix's letters last


def _rank(key: str) -> tuple:
    if key in PREFERRED:
        return 0, PREFERRED.index(key)
    return (2 if key in MATRIX else 1), 0

POCKET_ANSWERS = {"pot_solid": ("pot", "solid"), "pot_stripe": ("pot", "stripe")}


class KeyLine:
    """The key line for one key map and language."""

    def __init__(self, keymap: KeyMap, language: str = "cs"):
        self.keymap, self.language = keymap, language

    def __call__(self, model: dict, overlay=None, board=None, *, take_back: bool = False,
                 abandonable: bool = False, signing: bool = False) -> str:
        """``overlay``: the menu, prompt or key test in force; ``board``: the partie in play;
        ``take_back``: the undo key would take the last closing back on a screen (a menu says
        itself what its undo key does); ``abandonable``: cancel on
        the lot draw gives the match up; ``signing``: on the result, Enter asks the captains."""
        if overlay is not None:
            parts = self._overlay(overlay)
        else:
            parts = self._screen(model, board, take_back, abandonable, signing)
        return " · ".join([p for p in parts if p] + [f"{QUIT} {self._say('keys.quit')}"])

    # -- the words -------------------------------------------------------------
    def _say(self, text_id: str, **values) -> str:
        return say(text_id, self.language, **values)

    def key(self, action: str, held: bool = False) -> str | None:
        """The terminal's key for ``action`` (tap, or with ``held`` the long press), or None."""
        bound = self.keymap.hold if held else self.keymap.tap
        keys = sorted((k for k, a in bound.items() if a == action and (len(k) == 1 or k in TYPED)), key=_rank)
        if not keys:
            return None
        return (f"{HOLD} " if held else "") + TYPED.get(keys[0], keys[0])

    def _with(self, text_id: str, action: str, held: bool = False) -> str | None:
        key = self.key(action, held)
        return None if key is None else self._say(text_id, key=key)

    # -- overlays ----------------------------------------------------------------
    def _overlay(self, overlay) -> list:
        if isinstance(overlay, Menu):
            return self._menu(overlay)
        if isinstance(overlay, Confirm):
            return [self._with("keys.yes", "confirm"), self._say("keys.no")]
        if isinstance(overlay, ValuePrompt):
            answers = "keys.group" if len(overlay.valid) == 2 else "keys.pocket"
            return [self._say(answers), self._with("keys.cancel", "cancel")]
        if isinstance(overlay, NumberPrompt):
            return [self._say("keys.digits"), self._with("keys.ok", "confirm"), self._with("keys.clear", "cancel")]
        if isinstance(overlay, KeyTest):
            return [self._say("keys.keytest"), self._with("keys.end", "menu", held=True)]
        return []

    def _menu(self, menu: Menu) -> list:
        numbers = [menu.number(i) for i in range(len(menu.items))]
        digits = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"
        if not menu.digit_selects:                   # the referee's menu: a digit chooses at once
            return [self._say("keys.choose", digits=digits), self._with("keys.close", "cancel")]
        takes_back = menu.undo is not None          # then the undo key takes back, and moves nothing
        parts = [self._say("keys.item", digits=digits), self._moves(takes_back), self._with("keys.ok", "confirm")]
        if any(item.hold for item in menu.items):
            parts.append(self._with("keys.yes", "menu", held=True))
        if takes_back:
            parts.append(self._with("keys.take_back", "undo"))
        if menu.back is not None or "cancel" in menu.leave_on:
            parts.append(self._with("keys.back", "cancel"))
        return parts

    def _moves(self, takes_back: bool = False) -> str | None:
        """How the cursor moves: the undo and redo keys — only redo where undo takes a decision
        back (one key, one meaning on a screen: issue 24)."""
        up, down = self.key("undo"), self.key("redo")
        if takes_back:
            return self._say("keys.move_down", down=down) if down else None
        return self._say("keys.move", up=up, down=down) if up and down else None

    # -- screens -----------------------------------------------------------------
    def _screen(self, model: dict, board, take_back: bool, abandonable: bool, signing: bool) -> list:
        screen = model.get("screen")
        undo = self._with("keys.take_back", "undo") if take_back else None
        if screen == "ready":
            return [self._with("keys.setup", "confirm"), undo]
        if screen == "lotdraw":
            return [self._with("keys.next", "confirm"), abandonable and self._with("keys.give_up", "cancel")]
        if screen == "match":
            return [self._with("keys.sign" if signing else "keys.close_match", "confirm"), undo]
        if screen == "menu":                        # a night menu not yet touched ("kdo začíná?")
            digits = f"1–{len(model['items'])}" if len(model["items"]) > 1 else "1"
            return [self._say("keys.item", digits=digits), self._moves(bool(undo)), self._with("keys.ok", "confirm"),
                    undo]
        if board is not None and screen == board.header["game"]:
            return self._partie(board, take_back)
        return []

    def _partie(self, board, take_back: bool) -> list:
        game = game_for(board.header["game"])
        keys = game.keys
        parts = [] if board.finished else [self._game_key(board, action, keys.commands.get(action))
                                           for action in keys.actions]
        if board.history:
            parts.append(self._labelled("undo"))
        elif take_back:
            parts.append(self._with("keys.take_back", "undo"))
        if first_error(board, [{"cmd": "redo"}]) is None:
            parts.append(self._labelled("redo"))
        confirm = "keys.close_partie" if board.finished else ("keys.record" if game.protocol else None)
        parts += [confirm and self._with(confirm, "confirm"), self._with("keys.menu", "menu", held=True)]
        return parts

    def _game_key(self, board, action: str, cmd: dict | None) -> str | None:
        """``action``'s key and short label if the core would take it now (or its prompt; ``cmd``
        None: the key asks first, or only says something)."""
        held = action not in self.keymap.tap.values()
        if cmd is None:
            ok = self._asks(board, action)
        else:
            ok = first_error(board, [cmd]) is None
        return self._labelled(action, held) if ok else None

    def _asks(self, board, action: str) -> bool:
        """Whether a key that may ask a question first (a pocket, a group) works now."""
        if action == "togo":
            return bool(board.summary().get("counter", {}).get("points_left"))
        if action in POCKET_ANSWERS:
            cmd, ball = POCKET_ANSWERS[action]
            return first_error(board, [{"cmd": cmd, "ball": ball}] +
                               [{"cmd": cmd, "ball": ball, "pocket": p} for p in range(1, 7)]) is None
        if action == "pot8":
            return first_error(board, [{"cmd": "pot8"}] + [{"cmd": "pot8", "pocket": p} for p in range(1, 7)]) is None
        if action == "choose":
            return first_error(board, [{"cmd": "choose", "group": g} for g in ("solids", "stripes")]) is None
        return False

    def _labelled(self, action: str, held: bool = False) -> str | None:
        key = self.key(action, held)
        return None if key is None else f"{key} {self._say('short.' + action)}"
