"""The referee's keys → record commands, prompts and UI actions.

    referee = Referee("carom", settings.keymap("carom"), time.monotonic)
    outcome = referee.press(event, board)        # every KeyEvent / DeviceStatus, in order
    outcome = referee.poll(now)                  # at referee.deadline() (long press, debounce)

``board`` is the rules.board.Board of the partie being played, or None while the service shows
its own screens (then keys come back as UI actions: digit, confirm, cancel, up, down, menu).
The overlay in force (``slot``) is shared with the match night: keys drive the night's menus
too, and a chosen night item comes back as ui "night" for the service to hand on.
Commands in an Outcome were accepted by ``board.check``; the service journals and pushes them
before it handles the next event. A refused key gives a message and no command.
"""
import time
from dataclasses import replace

from input.debounce import BOUNCE, LONG_PRESS, Debouncer, Gesture
from input.events import DeviceStatus
from input.keymap import KeyMap, default_keymap, key_label
from input.messages import game_text, refusal, say
from input.overlays import (
    Confirm,
    Fired,
    KeyTest,
    Menu,
    MenuItem,
    OnSlot,
    Outcome,
    Slot,
    ValuePrompt,
    checked,
    first_error,
    note,
    yes_no,
)
from rules.games import game_for

# looked up by a key's action (None: an unbound key)
STACK_COMMANDS: dict[str | None, dict] = {"undo": {"cmd": "undo"}, "redo": {"cmd": "redo"}}
# Keys → service actions while no partie runs (board is None).
NAVIGATION = {"confirm": "confirm", "cancel": "cancel", "undo": "undo", "redo": "down",
              "up": "up", "down": "down", "menu": "menu"}
POCKETS = range(1, 7)
GROUPS = {1: "solids", 2: "stripes"}
PLAYER_ITEMS = {"forfeit": ("forfeit", "by"), "game": ("game_won", "winner")}   # text, argument
_LAST = object()           # poll(): "the board of the last press"


class Referee(OnSlot):
    def __init__(self, game: str, keymap: KeyMap | None = None, clock=time.monotonic, *,
                 language: str = "cs", bounce: float = BOUNCE, long_press: float = LONG_PRESS,
                 slot: Slot | None = None):
        self.game = game
        self.keys = game_for(game).keys        # what the game's actions enter (rules.games)
        self.keymap = keymap or default_keymap(game)
        self.clock = clock
        self.language = language
        self.debouncer = Debouncer(bounce, long_press)
        self.slot = slot or Slot()  # the overlay in force, shared with the night's menus
        self._pending: list = []    # gestures waiting until the service has pushed a command
        self._board = None          # the board of the last press: a hold belongs to that partie

    # -- the service's API ---------------------------------------------------
    @property
    def screen(self) -> dict | None:
        """The overlay model in force (prompt, menu, keytest), or None for the game screen."""
        return self.overlay.model() if self.overlay is not None else None

    def press(self, event, board) -> Outcome:
        if isinstance(event, DeviceStatus):
            return self._status(event)
        self._board = board
        self._pending += self.debouncer.feed(event)
        return self._drain(board)

    def poll(self, now: float | None = None, board=_LAST) -> Outcome:
        """Due long presses and settling contacts; ``board`` defaults to the one last pressed on."""
        self._pending += self.debouncer.poll(self.clock() if now is None else now)
        return self._drain(self._board if board is _LAST else board)

    def deadline(self) -> float | None:
        """When ``poll`` is due (clock time), or None: nothing is waiting."""
        if self._pending:
            return float("-inf")
        return self.debouncer.deadline()

    def start_keytest(self) -> Outcome:
        """The key test, with how to leave it (staff would otherwise be stuck pressing Enter)."""
        self.overlay = KeyTest(under=self.overlay)
        return Outcome(message={"text": say("keytest_hint", self.language), "level": "info"}, screen=self.screen)

    def cancel(self) -> Outcome:
        """Drop any prompt or menu (e.g. the service started a new partie)."""
        self.overlay = None
        self._pending.clear()
        return Outcome()

    # -- gestures ------------------------------------------------------------
    def _status(self, status: DeviceStatus) -> Outcome:
        if not status.connected:
            self.debouncer.reset(status.device)
        kind = "keypad_back" if status.connected else "keypad_lost"
        level = "info" if status.connected else "error"
        return Outcome(message={"text": say(kind, self.language), "level": level},
                       screen=self.screen, ui=kind, value=status.device)

    def _drain(self, board) -> Outcome:
        outcome = Outcome()
        while self._pending and not (outcome.commands or outcome.ui):
            outcome = outcome.then(self._gesture(self._pending.pop(0), board))
        return Outcome(outcome.commands, outcome.message, self.screen, outcome.ui, outcome.value)

    def _gesture(self, gesture: Gesture, board) -> Outcome:
        if isinstance(self.overlay, KeyTest):
            return self._keytest(gesture)
        fired = self._fire(gesture)
        if fired is None:
            return Outcome()
        if isinstance(fired, Outcome):
            return fired
        if self.overlay is not None:
            outcome, self.overlay = self.overlay.handle(fired, board)
            return self.start_keytest() if outcome.ui == "keytest" else outcome
        if board is None:
            return self._navigate(fired)
        return self._act(fired, board)

    def _fire(self, gesture: Gesture):
        """Which action a gesture fires: taps on press, or on release when the key also holds."""
        key, tap, hold = gesture.key, self.keymap.tap.get(gesture.key), \
            self.keymap.hold.get(gesture.key)
        if gesture.kind == "press" and hold is None:
            return Fired(key, gesture.device, tap)
        if gesture.kind == "hold" and hold is not None:
            return Fired(key, gesture.device, hold, hold=True)
        if gesture.kind == "release" and hold is not None and not gesture.held:
            if tap is None:
                return note(say("hold_longer", self.language))
            return Fired(key, gesture.device, tap)
        return None

    def _keytest(self, gesture: Gesture) -> Outcome:
        if gesture.kind == "press":
            self.overlay = replace(self.overlay, key=gesture.key, device=gesture.device)
        elif gesture.kind == "hold" and self._leaves_keytest(gesture.key):
            self.overlay = self.overlay.under
            return Outcome(ui="keytest_end")
        elif gesture.kind == "release" and not gesture.held and self._leaves_keytest(gesture.key):
            return note(say("keytest_hint", self.language), "info")     # a short Enter: say to hold it
        return Outcome()

    def _leaves_keytest(self, key: str) -> bool:
        return self.keymap.hold.get(key) == "menu" or "menu" not in self.keymap.hold.values()

    def _navigate(self, fired: Fired) -> Outcome:
        if fired.digit is not None:
            return Outcome(ui="digit", value=str(fired.digit))
        if fired.action in NAVIGATION:
            return Outcome(ui=NAVIGATION[fired.action], value=fired.key)
        return self._unbound(fired)

    def _unbound(self, fired: Fired) -> Outcome:
        return note(say("unbound", self.language, key=key_label(fired.key)))

    # -- actions during a partie -------------------------------------------
    def _act(self, fired: Fired, board) -> Outcome:
        action = fired.action
        undo_error = first_error(board, [STACK_COMMANDS["undo"]]) if action == "undo" else None
        if undo_error is not None:
            # nothing to undo in the partie: the refusal, and ui "undo" for the night, which may
            # take back its last decision instead (the partie before, just closed)
            return Outcome(message=note(refusal(undo_error, self.language)).message, ui="undo", value=fired.key)
        simple = STACK_COMMANDS.get(action) or (self.keys.commands.get(action) if action is not None else None)
        if simple is not None:
            return self._checked(board, simple)
        if action in ("confirm", "cancel", "up", "down"):
            return Outcome(ui=action, value=fired.key)
        if action == "keytest":
            return self.start_keytest()
        if action == "togo":
            return self._to_go(board, fired)
        if action == "menu":
            return self._menu(self._menu_items(board), board)
        if action in ("forfeit", "game"):
            return self._menu(self._player_items(action, board), board)
        if action in ("new_partie", "end_match"):
            return self._close(board)
        if action == "stalemate":
            return self._menu([self._stalemate_item()], board, Confirm)
        if action in ("pot_solid", "pot_stripe"):
            return self._pot(action[4:], board)
        if action in ("pot8", "pocket8", "choose"):
            return self._ask(action, board)
        if fired.digit is not None and self.keys.stray_digit:
            if self._group_awaited(board):     # 1 / 2 answer the group only after "/" or in the menu
                return note(self._choose_first())
            return note(say(self.keys.stray_digit, self.language))
        return self._unbound(fired)

    def _checked(self, board, cmd: dict) -> Outcome:
        """overlays.checked, its refusal worded by ``_refusal``."""
        return checked(board, cmd, self.language, said=lambda error: self._refusal(error, board))

    def _refusal(self, error, board) -> str:
        """The refusal's text; "choose a group first" says how to choose on this keymap."""
        if getattr(error, "code", None) == "must_choose":
            return self._choose_first()
        return refusal(error, self.language, board.header)

    def _group_awaited(self, board) -> bool:
        """RULES 2.3, 2.4: balls of both groups dropped, and the shooter must choose one now."""
        return first_error(board, self._group_commands()) is None

    @staticmethod
    def _group_commands() -> list[dict]:
        return [{"cmd": "choose", "group": group} for group in GROUPS.values()]

    def _choose_first(self) -> str:
        """Where a group is chosen: the key bound to "choose" ("/" on a numeric keypad), if any,
        and the held menu's items 1 and 2, which every keypad reaches (a 4x4 matrix has no "/")."""
        keys = self.keymap.keys_for("choose")
        if keys:
            return say("choose_first_key", self.language, key=key_label(keys[0]))
        return say("choose_first_menu", self.language)

    def _to_go(self, board, fired: Fired) -> Outcome:
        """RULES 1.7 (6.8g): on request the exact points each player still needs, A:B as the score."""
        left = board.summary().get("counter", {}).get("points_left")
        if not left:
            return self._unbound(fired)
        return note(say("togo", self.language, a=left["a"], b=left["b"]), "info")

    def _open(self, overlay) -> Outcome:
        self.overlay = overlay
        return Outcome()

    def _pot(self, ball: str, board) -> Outcome:
        """A ball potted; the last of its group needs its pocket, so ask for it."""
        plain = {"cmd": "pot", "ball": ball}
        error = first_error(board, [plain])
        if error is None:
            return Outcome(commands=(plain,))
        prompt = self._pocket_prompt(f"pocket_last_{ball}", lambda p: {**plain, "pocket": p})
        if first_error(board, prompt.commands()) is not None:
            return note(self._refusal(error, board))
        return self._open(prompt)

    def _ask(self, action: str, board) -> Outcome:
        if action == "pot8" and first_error(board, [{"cmd": "pot8"}]) is None:
            return Outcome(commands=({"cmd": "pot8"},))      # on the break its pocket does not matter
        prompt = self._choose_prompt() if action == "choose" else self._eight_prompt(action)
        error = first_error(board, prompt.commands())
        if error is not None:
            return note(self._refusal(error, board))
        return self._open(prompt)

    def _choose_prompt(self) -> ValuePrompt:
        return ValuePrompt(say("choose_title", self.language), say("choose_hint", self.language),
                           lambda n: {"cmd": "choose", "group": GROUPS[n]}, tuple(GROUPS),
                           (("pot_solid", 1), ("pot_stripe", 2)), self.language)

    def _eight_prompt(self, name: str) -> ValuePrompt:
        """The pocket of the 8: "pot8" where it dropped, "pocket8" the one named before (8B:6f)."""
        title = "pocket8_title" if name == "pot8" else "pocket_named_title"
        return self._pocket_prompt(title, lambda p: {"cmd": name, "pocket": p})

    def _pocket_prompt(self, title: str, make) -> ValuePrompt:
        return ValuePrompt(say(title, self.language), say("pocket_hint", self.language), make,
                           tuple(POCKETS), language=self.language)

    # -- menus -----------------------------------------------------------------
    def _menu(self, items: list, board, single=None) -> Outcome:
        """Rare actions, each confirmed; items not offered now (None) and record commands the core
        refuses now are left out, and every other item keeps its digit: its place in ``items``.

        ``single``: the overlay for a lone item (Confirm) instead of a one-line menu."""
        numbered = [(n, i) for n, i in enumerate(items, start=1) if i is not None
                    and (i.command is None or first_error(board, [i.command]) is None)]
        if not numbered:
            return self._checked(board, next(i for i in items if i is not None).command)
        if single is not None and len(numbered) == 1:
            return self._open(single(numbered[0][1], self.language))
        return self._open(Menu(say("menu_title", self.language), tuple(i for _, i in numbered),
                               language=self.language, numbers=tuple(n for n, _ in numbered)))

    def _menu_items(self, board) -> list:
        """The hold menu in a fixed order, so an item keeps its digit however the game stands:
        the game's own items (its registry entry's ``keys.menu``), the forfeits, closing, the key
        test, interrupting a league match (A.6.5); None where an item is not offered now (the 8's
        pocket, closing before the end, interrupting a partie outside a league match)."""
        items = []
        for name in self.keys.menu:
            items += self.GAME_ITEMS[name](self, board)
        items += self._player_items("forfeit", board)
        items.append(self._close_item() if board.finished else None)
        items.append(MenuItem(say("keytest", self.language), ui="keytest", confirm=False))
        items.append(self._interrupt_item() if board.header.get("match") else None)
        return items

    def _interrupt_item(self) -> MenuItem:
        """A.6.5: a league match that cannot go on is interrupted at any partie; the night asks why
        and the home captain's confirmation."""
        return MenuItem(say("interrupt", self.language), ui="night", value=("interrupt_q", None), confirm=False)

    def _pocket8_item(self, board) -> list:
        prompt = self._eight_prompt("pocket8")
        offered = first_error(board, prompt.commands()) is None
        return [MenuItem(say("pocket8", self.language), confirm=False, opens=lambda: prompt) if offered else None]

    def _group_item(self, number: int, board) -> list:
        """RULES 2.3, 2.4: while a group must be chosen, items 1 and 2 choose it, numbered as the
        "/" prompt's answers (1 solids, 2 stripes), so a keypad without "/" (the 4x4 matrix) can
        choose too. They stand where the 8's pocket and PAT are (neither applies then: no group is
        fixed, and no shot is played until one is); [] when no group is awaited."""
        if not self._group_awaited(board):
            return []
        group = GROUPS[number]
        return [MenuItem(say(f"choose_{group}", self.language), {"cmd": "choose", "group": group}, confirm=False)]

    # the game items of the hold menu by their name in a game's ``keys.menu``
    GAME_ITEMS = {
        "pocket8": lambda self, board: self._group_item(1, board) or self._pocket8_item(board),
        "stalemate": lambda self, board: self._group_item(2, board) or [self._stalemate_item()],
        "game": lambda self, board: self._player_items("game", board),
    }

    def _close_item(self) -> MenuItem:
        """Close the partie (8-ball: the individual match, "zápas") once it is over; the service
        then starts the next one or shows the team match's result. One item: "new partie" and
        "end of match" both did only this, so the menu offered the same thing twice."""
        return MenuItem(game_text("close", self.game, self.language), ui="new_partie", hold=True)

    def _close(self, board) -> Outcome:
        """A key bound to new_partie / end_match: the same close, confirmed, once it is over."""
        if not board.finished:
            return note(game_text("not_over", self.game, self.language))
        item = self._close_item()
        return self._open(yes_no(say("confirm_title", self.language, item=item.text), item, self.language))

    def _player_items(self, action: str, board) -> list:
        """One item per player: "forfeit" (by whom) or "game" (won by whom)."""
        text, argument = PLAYER_ITEMS[action]
        return [MenuItem(say(text, self.language, name=board.header.get(side, side)),
                         {"cmd": action, argument: side}, hold=action == "forfeit") for side in ("a", "b")]

    def _stalemate_item(self) -> MenuItem:
        return MenuItem(say("stalemate", self.language), {"cmd": "stalemate"})
