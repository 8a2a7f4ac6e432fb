"""Acceptance: the key test, and a wrong key in every state — the counter says why (or what to
press) for a moment and nothing else changes (COMMON standards; docs/referee.md)."""
import pytest

SETUP = "\n" * 6        # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)

CAROM_STATES = {       # key script from the ready screen → the state's name
    "ready": "",
    "setup menu": "\n",
    "players present": "\n\n",
    "lot draw": SETUP,
    "lag": SETUP + "\n",
    "partie": SETUP + "\n\n",
    "frozen": SETUP + "\n\n*",
    "partie over": SETUP + "\n\n" + "8" "7" "0",
    "match result": SETUP + "\n\n" + ("870" "\n1h\n\n") * 3 + "870" "\n1h\n",
    "protocol prompt": SETUP + "\n\n" + "10" "0" "\n\n\n\n",
}
WRONG = {              # a key that does nothing in that state → what the counter says
    "ready": ("3", "Enter = utkání"),
    "setup menu": ("9", "Vyberte 1–4, Enter"),
    "players present": ("9", "Vyberte 1–7, Enter"),
    "lot draw": ("5", "Enter = dál"),
    "lag": ("4", "Vyberte 1–3, Enter"),
    "partie": ("9", "Klávesa 9 nemá funkci"),
    "frozen": ("8", "Lpí: jen 1 nebo 2"),
    "partie over": ("1", "Partie skončila"),
    "match result": ("4", "Enter = podpisy a odeslání"),
    "protocol prompt": ("+", "číslice, Enter"),
}


def without_message(model: dict) -> dict:
    return {k: v for k, v in model.items() if k != "message"}


@pytest.mark.parametrize("name", CAROM_STATES)
def test_a_wrong_key_in_each_carom_state_says_why_and_changes_nothing(emulator, name):
    player = emulator(points_limit=30, innings_limit=5)
    player.play(CAROM_STATES[name])
    before = player.service.screen()
    journal = player.service.night.partie_bytes
    key, said = WRONG[name]
    shown = player.key(key)
    assert shown["message"]["text"] == said and shown["message"]["level"] == "warn"
    assert without_message(shown) == without_message(before)
    assert player.service.night.partie_bytes == journal


EIGHTBALL_PLAY = "\n3" + "\n" * 9                # setup, 3 other match → teams → all present → captains → players
EIGHTBALL_STATES = {
    "break": (EIGHTBALL_PLAY, "1", "Nejdřív koule, pak kapsa"),
    "pocket prompt": (EIGHTBALL_PLAY + "70" + "8", "7", "1–6, Zpět = zrušit"),    # after the break (issue 12)
    "group prompt": (EIGHTBALL_PLAY + "790/", "3", "1 plné, 2 půlené"),
    # RULES 2.4: how to choose, the choose prompt's digits included
    "must choose": (EIGHTBALL_PLAY + "790", "7", "Nejdřív zvolte skupinu: / nebo podržte Enter, 1 plné, 2 půlené"),
    "must choose, a digit": (EIGHTBALL_PLAY + "790", "1",
                             "Nejdřív zvolte skupinu: / nebo podržte Enter, 1 plné, 2 půlené"),
    "nothing to undo": (EIGHTBALL_PLAY, "-", "Není co vrátit"),
}


@pytest.mark.parametrize("name", EIGHTBALL_STATES)
def test_a_wrong_key_in_each_eightball_state_says_why_and_changes_nothing(emulator, name):
    script, key, said = EIGHTBALL_STATES[name]
    player = emulator(game="8ball", games_to_win=2, sets_to_win=2)
    player.play(script)
    before = player.service.screen()
    shown = player.key(key)
    assert shown["message"]["text"] == said
    assert without_message(shown) == without_message(before)


def test_key_test_shows_each_key_says_how_to_leave_and_leaves_on_a_long_enter(emulator):
    player = emulator()
    menu = player.key("enter")
    assert menu["items"][1] == "2 Test kláves"              # the key test is 2 on any night
    player.key("2")
    start = player.key("enter")
    assert start["screen"] == "keytest" and start["key"] is None
    assert start["message"]["text"] == "Podržte Enter = konec"
    for key, printed in (("1", "1"), ("7", "7"), ("dot", ","), ("*", "*"), ("-", "-"),
                         ("backspace", "Back")):       # as printed on the keypad and the key card
        shown = player.key(key)
        assert (shown["screen"], shown["key"], shown["device"]) == ("keytest", printed, "script")
    short = player.key("enter")                      # a short Enter is shown, and the way out said again
    assert short["key"] == "Enter" and short["message"]["text"] == "Podržte Enter = konec"
    back = player.key("enter", held=True)            # back where the test was started from
    assert back["screen"] == "menu" and back["items"][back["selected"]] == "2 Test kláves"
    assert player.service.night.match is None        # nothing was scored or set up


def test_a_group_is_chosen_with_the_4x4_matrix_keys_alone(emulator):
    """RULES 2.3, 2.4: balls of both groups on the break, the breaker chooses — on the 4x4 matrix
    keypad too, which has no "/": the held D (its Enter) menu, 2 stripes; A takes it back."""
    player = emulator(game="8ball", games_to_win=2, sets_to_win=2)
    player.play(EIGHTBALL_PLAY + "790")
    shown = player.play("hd")[-1]
    assert shown["items"][:2] == ["1 Skupina: plné (1–7)", "2 Skupina: půlené (9–15)"]
    current = player.play("2")[-1]["summary"]["current"]
    assert not current["must_choose"] and set(current["groups"].values()) == {"solids", "stripes"}
    breaker = current["breaker"]
    assert current["groups"][breaker] == "stripes"
