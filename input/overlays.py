"""What the referee's keys drive while the game screen is covered: prompts, menus, confirm, key
test — the one menu/prompt engine, for the referee's menus and the match night's alike.

An overlay answers one fired key with ``(outcome, next_overlay)``: itself to stay, None to close,
another overlay to move on. Outcomes carry commands already checked against the board. The one
overlay in force lives in a ``Slot`` the referee and the night share.
"""
from dataclasses import dataclass, replace
from typing import Any, Callable

from input.keymap import DIGITS, key_label
from input.messages import refusal, say
from rules.errors import RuleError


@dataclass(frozen=True)
class Outcome:
    """What one key event means for the service.

    commands: record commands board.check accepted — journal, then push, in this order.
    message:  {"text", "level"} to show for a moment (why a key was refused), or None.
    screen:   the overlay model in force afterwards (prompt / menu / keytest), None = game screen.
    ui:       an action for the service: "confirm", "cancel", "up", "down", "digit", "menu",
              "undo" (nothing to undo on the board, or none in play: the night may take back its
              last closing; a refusal message comes with it for when it cannot),
              "new_partie" (close the finished partie, confirmed), "keytest_end", "keypad_lost",
              "keypad_back", "night" (an item of a night menu chosen); or None. ("end_match" is
              no longer sent: it was the same close.)
    value:    the digit for ui "digit", the device for "keypad_*", (action, value) for "night",
              else the key name.
    """

    commands: tuple = ()
    message: dict | None = None
    screen: dict | None = None
    ui: str | None = None
    value: Any = None

    @property
    def prompt(self) -> dict | None:
        """The same as ``screen`` (the overlay model to draw instead of the game)."""
        return self.screen

    @property
    def empty(self) -> bool:
        return not (self.commands or self.message or self.ui)

    def then(self, later: "Outcome") -> "Outcome":
        """Two outcomes in a row (at most one of them has commands)."""
        return Outcome(self.commands + later.commands, later.message or self.message,
                       later.screen, self.ui or later.ui, self.value if self.ui else later.value)


@dataclass(frozen=True)
class Fired:
    """A key that fired: its action in the key map (None when unbound), or a raw press in key test."""

    key: str
    device: str
    action: str | None
    hold: bool = False

    @property
    def digit(self) -> int | None:
        if self.key in DIGITS:
            return int(self.key)
        if self.action and self.action.startswith("pocket") and self.action[6:].isdigit():
            return int(self.action[6:])
        return None


def note(text: str, level: str = "warn") -> Outcome:
    return Outcome(message={"text": text, "level": level})


def checked(board, cmd: dict, language: str, said=None) -> Outcome:
    """The command if the rule core would accept it now, else the refusal as a message
    (``said(error)``: its text, for a caller that words a refusal its own way)."""
    try:
        board.check(cmd)
    except RuleError as exc:
        return note(said(exc) if said else refusal(exc, language, getattr(board, "header", None)))
    return Outcome(commands=(dict(cmd),))


def first_error(board, cmds) -> RuleError | None:
    """None if any of the commands is accepted now, else the first one's error."""
    first = None
    for cmd in cmds:
        try:
            board.check(cmd)
            return None
        except RuleError as exc:
            first = first or exc
    return first


CANCEL_ACTIONS = ("cancel", "undo")
# What a menu or prompt of the night takes besides digits; any other key "does nothing".
NAVIGATION_ACTIONS = ("confirm", "cancel", "undo", "redo", "up", "down", "menu")


def wrong_key(fired: Fired, hint: str, language: str) -> Outcome:
    """A key a night menu or prompt has no use for: its hint (what to press), or for a key that
    is not a digit nor navigation, that the key does nothing here."""
    if fired.key and fired.digit is None and fired.action not in NAVIGATION_ACTIONS:
        return note(say("unbound", language, key=key_label(fired.key)))
    return note(hint)


@dataclass(frozen=True)
class ValuePrompt:
    """A value the command needs: a pocket 1–6 or a group. Digits (or ``picks``) answer it."""

    title: str
    hint: str
    make: Callable[[Any], dict]       # the answer (a digit, or a pick's) → the command
    valid: tuple = tuple(range(1, 7))
    picks: tuple = ()                 # (action, answer): e.g. pot_solid answers "solids" with 1
    language: str = "cs"

    def model(self) -> dict:
        return {"screen": "prompt", "title": self.title, "value": "", "hint": self.hint}

    def commands(self) -> list[dict]:
        """The command of every valid answer: the prompt is worth opening if one is accepted."""
        return [self.make(answer) for answer in self.valid]

    def handle(self, fired: Fired, board):
        answer = dict(self.picks).get(fired.action, fired.digit)
        if answer in self.valid:
            return checked(board, self.make(answer), self.language), None
        if fired.action in CANCEL_ACTIONS:
            return note(say("cancelled", self.language), "info"), None
        if fired.digit is not None:         # out of range: say what the answers are ("1 plné, 2 půlené")
            return note(self.hint), self
        return note(say("prompt_waiting", self.language)), self


@dataclass(frozen=True)
class MenuItem:
    """One line of a referee's menu: its text and what choosing it does."""
    text: str
    command: dict | None = None       # a record command, checked when chosen
    ui: str | None = None             # or an action for the service
    confirm: bool = True              # destructive: ask "…?" before doing it
    opens: Callable | None = None     # or another overlay (a prompt)
    value: Any = None                 # what goes with ``ui`` (which fixture, which player …)
    hold: bool = False                # irreversible by a habit: only a long press (the menu key) takes it


@dataclass(frozen=True)
class Menu:
    """Items picked by their digit or the cursor and Enter.

    The referee's menu (default): a digit chooses at once; cancel, undo or menu leave it.
    The match night's menus: ``digit_selects`` (a digit moves the cursor, Enter chooses),
    ``numbers`` (the items' digits, 1, 2, 3 … unless given), ``leave_on`` ("cancel" only),
    ``back`` (the item cancel performs: the menu before) and ``hint`` (said on a wrong key);
    ``undo``: the item the undo key performs (taking back the last decision) instead of moving up.
    An item with ``hold`` is taken only by the long press (the menu key held, "menu" action): a
    short Enter on it says so and changes nothing.
    """
    title: str
    items: tuple
    selected: int = 0
    language: str = "cs"
    numbers: tuple | None = None
    digit_selects: bool = False
    leave_on: tuple = CANCEL_ACTIONS + ("menu",)
    back: MenuItem | None = None
    hint: str | None = None
    undo: MenuItem | None = None

    def number(self, index: int) -> int:
        return self.numbers[index] if self.numbers else index + 1

    def index(self, number: int) -> int | None:
        """The item that digit picks, if any."""
        return next((i for i in range(len(self.items)) if self.number(i) == number), None)

    def model(self) -> dict:
        return {"screen": "menu", "title": self.title,
                "items": [f"{self.number(i)} {item.text}" for i, item in enumerate(self.items)],
                "selected": self.selected}

    def handle(self, fired: Fired, board):
        count = len(self.items)
        index = self.index(fired.digit) if fired.digit is not None else None
        if index is not None:
            if self.digit_selects:
                return Outcome(), replace(self, selected=index)
            return self.choose(self.items[index], board)
        if fired.action in ("down", "redo"):
            return Outcome(), replace(self, selected=(self.selected + 1) % count)
        if fired.action == "undo" and self.undo is not None:
            return perform(self.undo, board, self.language), None
        if fired.action == "up" or (fired.action == "undo" and "undo" not in self.leave_on):
            return Outcome(), replace(self, selected=(self.selected - 1) % count)
        held = fired.action == "menu" and "menu" not in self.leave_on
        if fired.action == "confirm" or held:
            item = self.items[self.selected]
            if item.hold and not held and not item.confirm:     # (a confirmed item asks first)
                return note(say("hold_to_confirm", self.language, item=item.text), "info"), self
            return self.choose(item, board)
        if fired.action in self.leave_on:
            return (Outcome() if self.back is None else perform(self.back, board, self.language)), None
        if self.digit_selects:
            return wrong_key(fired, self.hint or say("menu_hint", self.language), self.language), self
        return note(self.hint or say("menu_hint", self.language)), self

    def choose(self, item: MenuItem, board):
        if item.opens is not None:
            return Outcome(), item.opens()
        if item.confirm and item.hold:          # irreversible: the one yes/no question (issue 24)
            return Outcome(), yes_no(say("confirm_title", self.language, item=item.text), item, self.language)
        if item.confirm:
            return Outcome(), Confirm(item, self.language)
        return perform(item, board, self.language), None


def yes_no(title: str, yes: MenuItem, language: str, *, no: MenuItem | None = None) -> Menu:
    """The one question before an irreversible choice (closing a partie or the match, a forfeit,
    giving a match up): it starts on "Ne", a digit moves to an answer, and "Ano" — ``yes`` done —
    is taken only by the long press, so a habitual Enter, Enter never takes it. ``no``: what "Ne"
    does (default: it only closes the question)."""
    items = (replace(yes, text=say("yes", language), confirm=False, hold=True),
             no or MenuItem(say("no", language), confirm=False))
    return Menu(title, items, 1, language, digit_selects=True, leave_on=("cancel",),
                hint=say("hint_menu", language, n=len(items)))


@dataclass(frozen=True)
class NumberPrompt:
    """A number typed digit by digit (the points of an inning in the protocol): Enter gives
    ``make(number)`` as a command if the board accepts it, cancel clears what was typed, then
    leaves."""

    title: str
    hint: str
    make: Callable[[int], dict]
    value: str = ""
    digits: int = 4
    language: str = "cs"

    def model(self) -> dict:
        return {"screen": "prompt", "title": self.title, "value": self.value, "hint": self.hint}

    def handle(self, fired: Fired, board):
        if fired.key in DIGITS:
            return Outcome(), replace(self, value=(self.value + fired.key)[-self.digits:])
        if fired.action == "cancel":
            return Outcome(), (replace(self, value="") if self.value else None)
        if fired.action == "confirm" and self.value:
            return checked(board, self.make(int(self.value)), self.language), None
        return wrong_key(fired, self.hint, self.language), self


@dataclass(frozen=True)
class Confirm:
    """A rare action that can be undone (PAT, a game's result entered as such) waits for the
    confirm key; any other key cancels it. An irreversible one asks ``yes_no`` instead."""

    item: MenuItem
    language: str = "cs"

    def model(self) -> dict:
        return {"screen": "prompt", "title": say("confirm_title", self.language, item=self.item.text),
                "value": None, "hint": say("confirm_hint", self.language)}    # a question: no cursor

    def handle(self, fired: Fired, board):
        if fired.action == "confirm":
            return perform(self.item, board, self.language), None
        return note(say("cancelled", self.language), "info"), None


def perform(item: MenuItem, board, language: str) -> Outcome:
    if item.command is not None:
        return checked(board, item.command, language)
    return Outcome(ui=item.ui, value=item.value)


@dataclass(frozen=True)
class KeyTest:
    """Venue staff press keys and see them as printed on the keypad (the key card's names, not
    internal ones like "dot"); holding the menu key ends it, back to the overlay ``under`` it."""

    key: str | None = None
    device: str | None = None
    under: object = None

    def model(self) -> dict:
        return {"screen": "keytest", "key": key_label(self.key) if self.key else None,
                "device": self.device}

    def handle(self, fired: Fired, board):
        """A menu action from a script while the keys are tested: only the keys end it."""
        return note(say("keytest_hint"), "info"), self


class Slot:
    """Where the one overlay in force lives: the referee's keys and the night's menus share it,
    so what covers the game screen has one place and one source."""

    def __init__(self):
        self.overlay = None


class OnSlot:
    """``self.overlay`` read and written through ``self.slot`` (the referee, the night)."""

    slot: Slot

    @property
    def overlay(self):
        """The menu, prompt or key test covering the screen, whoever opened it."""
        return self.slot.overlay

    @overlay.setter
    def overlay(self, overlay) -> None:
        self.slot.overlay = overlay
