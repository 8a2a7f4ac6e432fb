"""The one menu/prompt engine (input/overlays.py) in both its uses: the referee's menu (a digit
chooses) and the night's menus (a digit moves the cursor, Enter chooses, cancel goes back)."""
from input.messages import say
from input.overlays import Fired, Menu, MenuItem, NumberPrompt
from rules.board import Board


def key(name):
    return Fired(name, "kbd", None) if name.isdigit() else Fired("", "kbd", name)


def night_menu(**kw):
    items = (MenuItem("Jedna", ui="single", confirm=False), MenuItem("Test", ui="keytest", confirm=False),
             MenuItem("Utkání", ui="present", value="fixture-1", confirm=False))
    return Menu("Utkání", items, numbers=(1, 2, 4), digit_selects=True, leave_on=("cancel",),
                back=MenuItem("", ui="setup_menu", confirm=False), hint="Vyberte 1–4, Enter", **kw)


def test_night_menu_shows_the_items_digits_and_a_digit_only_moves_the_cursor():
    menu = night_menu()
    assert menu.model()["items"] == ["1 Jedna", "2 Test", "4 Utkání"]
    outcome, after = menu.handle(key("4"), None)
    assert outcome.empty and after.selected == 2
    outcome, closed = after.handle(key("confirm"), None)
    assert (outcome.ui, outcome.value, closed) == ("present", "fixture-1", None)


def test_night_menu_says_which_digits_on_a_wrong_key_and_cancel_goes_back():
    menu = night_menu()
    outcome, same = menu.handle(key("3"), None)
    assert outcome.message["text"] == "Vyberte 1–4, Enter" and same is menu
    outcome, closed = menu.handle(key("cancel"), None)
    assert outcome.ui == "setup_menu" and closed is None


def test_a_night_menu_without_a_hint_says_the_menus_hint_on_a_wrong_key():
    """Found by mypy: a wrong key on a menu with no hint of its own said None (a message with no
    text); it says the general menu hint, as a menu whose digit chooses does."""
    items = (MenuItem("Jedna", ui="single", confirm=False), MenuItem("Dvě", ui="keytest", confirm=False))
    menu = Menu("Utkání", items, digit_selects=True, leave_on=("cancel",))
    outcome, same = menu.handle(key("3"), None)
    assert outcome.message["text"] == say("menu_hint", menu.language) and same is menu


def test_referee_menu_a_digit_chooses_at_once():
    menu = Menu("Menu", (MenuItem("Test", ui="keytest", confirm=False),))
    outcome, closed = menu.handle(key("1"), None)
    assert outcome.ui == "keytest" and closed is None
    assert menu.handle(key("menu"), None) == (menu.handle(key("cancel"), None)[0], None)


def test_number_prompt_types_clears_leaves_and_gives_the_command_the_board_accepts():
    """Issue 6 (RULES 1.4.6): a correction typed in the protocol; one over the limit is refused."""
    board = Board({"game": "carom", "a": "A", "b": "B", "points_limit": 3000, "innings_limit": 2})
    board.push({"cmd": "score", "value": 2})
    board.push({"cmd": "miss"})
    prompt = NumberPrompt("Body?", "číslice, Enter",
                          lambda n: {"cmd": "correct", "player": "a", "inning": 1, "points": n})
    for digit in "12345":
        prompt = prompt.handle(key(digit), None)[1]
    assert prompt.model()["value"] == "2345"                # four digits at most
    outcome, _ = prompt.handle(key("up"), None)
    assert outcome.message["text"] == "číslice, Enter"
    cleared = prompt.handle(key("cancel"), None)[1]
    assert cleared.value == "" and cleared.handle(key("cancel"), None)[1] is None
    outcome, closed = prompt.handle(key("confirm"), board)
    assert outcome.commands == ({"cmd": "correct", "player": "a", "inning": 1, "points": 2345},)
    assert closed is None
    over = NumberPrompt("Body?", "", prompt.make, value="9999")
    outcome, closed = over.handle(key("confirm"), board)
    assert outcome.commands == () and outcome.message["text"] == "A: 9999 bodů, limit 3000" and closed is None   # which limit (issue 12)


def test_a_hold_item_is_taken_only_by_the_long_press_and_a_short_enter_says_so():
    """Issue 12: an irreversible item ("Ano" to closing, a forfeit) is not taken by a habitual Enter."""
    items = (MenuItem("Ano", ui="close", hold=True, confirm=False), MenuItem("Ne", confirm=False))
    menu = Menu("Uzavřít partii?", items, digit_selects=True, leave_on=("cancel",), hint="Vyberte 1–2, Enter")
    outcome, same = menu.handle(key("confirm"), None)
    assert outcome.message["text"] == "Ano = podržet Enter" and same is menu and not outcome.ui
    outcome, closed = menu.handle(key("menu"), None)           # the held Enter
    assert outcome.ui == "close" and closed is None


def test_a_menus_undo_item_replaces_moving_up():
    """Issue 12: on the menu after a closing, the undo key takes the closing back."""
    menu = night_menu(undo=MenuItem("", ui="reopen", confirm=False), selected=1)
    outcome, closed = menu.handle(key("undo"), None)
    assert outcome.ui == "reopen" and closed is None
    assert night_menu(selected=1).handle(key("undo"), None)[1].selected == 0
