"""The referee's keys → record commands on the real rule cores (issue 5, RULES Parts 1 and 2)."""
import pytest

from desk_helpers import Desk
from input.keymap import default_keymap
from rules.board import Board

CAROM = {"game": "carom", "a": "Novák", "b": "Dvořák", "points_limit": 200, "innings_limit": 15}
EIGHT = {"game": "8ball", "a": "Novák", "b": "Dvořák", "games_to_win": 3, "sets_to_win": 2,
         "first_break": "b"}


def carom(**options):
    return Desk(Board(CAROM), **options)


def eight(**options):
    return Desk(Board(EIGHT), **options)


# -- carom ---------------------------------------------------------------------
def test_carom_score_keys_give_the_four_stroke_values():
    """RULES 1.2: the values 1, 2, 10, 20 on keys 1, 2, 7, 8."""
    desk = carom().keys("1 2 7 8")
    assert desk.commands == [{"cmd": "score", "value": v} for v in (1, 2, 10, 20)]
    assert desk.board.summary()["counter"]["series"] == 33


def test_carom_miss_and_foul_end_the_inning():
    """RULES 1.3: a miss and a foul each end the inning."""
    desk = carom().keys("1 0")
    assert desk.board.summary()["counter"]["at_table"] == "b"
    desk.keys("dot")
    assert desk.commands[-1] == {"cmd": "foul"}
    assert desk.board.summary()["counter"]["at_table"] == "a"


def test_frozen_key_then_ten_is_refused_with_a_czech_message():
    """RULES 1.2 (B.1.7): after frozen balls are announced 10/20 are refused; nothing changes."""
    desk = carom().keys("* 7")
    assert desk.commands == [{"cmd": "frozen"}]
    assert desk.messages == ["Lpí: jen 1 nebo 2"]
    assert desk.board.summary()["players"]["a"]["points"] == 0


def test_undo_redo_keys_and_nothing_to_undo_message():
    desk = carom().keys("1 - + - -")
    assert [c["cmd"] for c in desk.commands] == ["score", "undo", "redo", "undo"]
    assert desk.messages == ["Není co vrátit"]
    assert desk.board.summary()["players"]["a"]["points"] == 0


def test_unbound_key_changes_nothing_and_says_why():
    desk = carom().keys("5")
    assert desk.commands == [] and desk.messages == ["Klávesa 5 nemá funkci"]


def test_english_messages():
    desk = carom(language="en").keys("-")
    assert desk.messages == ["Nothing to undo"]


def test_forfeit_needs_long_press_menu_and_confirm():
    """RULES 1.4.8: a forfeit is entered by the referee — through a long press and the one yes/no
    question of an irreversible choice (issue 24): it starts on "Ne", "Ano" takes the long press."""
    desk = carom()
    desk.tap("enter")                     # a short press is just "confirm" for the service
    assert desk.ui == ["confirm"] and desk.screen is None
    desk.hold("enter")
    assert desk.screen["screen"] == "menu"
    assert desk.screen["items"][:2] == ["1 Vzdává Novák", "2 Vzdává Dvořák"]
    desk.tap("2")
    assert desk.screen == {"screen": "menu", "title": "Vzdává Dvořák?", "items": ["1 Ano", "2 Ne"], "selected": 1}
    assert desk.commands == []
    desk.tap("enter")                     # issue 12: a habitual Enter on "Ne" takes nothing
    assert desk.commands == [] and desk.screen is None
    desk.hold("enter"), desk.tap("2"), desk.tap("1")
    desk.tap("enter")                     # Enter on "Ano" says how to say it
    assert desk.commands == [] and desk.messages[-1] == "Ano = podržet Enter"
    desk.hold("enter")                    # the long press says "Ano"
    assert desk.commands == [{"cmd": "forfeit", "by": "b"}]
    assert desk.board.summary()["forfeit"] == "b" and desk.screen is None


def test_the_forfeit_question_says_what_to_press_and_back_leaves_it():
    desk = carom().keys("hold:enter 1 0")
    assert desk.commands == [] and desk.screen["title"] == "Vzdává Novák?"
    assert desk.messages == ["Vyberte 1–2, Enter"]
    desk.keys("esc")
    assert desk.commands == [] and desk.screen is None


def test_a_rare_action_that_can_be_undone_is_confirmed_with_enter_and_any_other_key_cancels():
    desk = eight().keys("7 0 hold:enter 2")               # PAT (8B:8) after the break: Enter = yes
    assert desk.screen["title"] == "PAT – opakovat hru?"
    desk.keys("0")
    assert desk.commands == [{"cmd": "pot", "ball": "solid"}, {"cmd": "shot"}]          # the break only
    assert desk.screen is None and desk.messages[-1] == "Zrušeno"


def test_menu_navigation_with_redo_and_undo_keys():
    desk = carom().keys("hold:enter 1 1 hold:enter hold:enter")   # a forfeit ends it: the close is offered
    assert desk.screen["items"] == ["3 Uzavřít partii", "4 Test kláves"]     # digits fixed (issue 12)
    desk.keys("+ +")
    assert desk.screen["selected"] == 0
    desk.keys("enter")
    assert desk.screen["title"] == "Uzavřít partii?" and desk.screen["selected"] == 1     # on "Ne"
    desk.keys("1 hold:enter")
    assert desk.ui[-1] == "new_partie" and desk.commands == [{"cmd": "forfeit", "by": "a"}]


def test_menu_offers_no_close_while_the_partie_runs():
    """"Nová partie" and "Konec zápasu" both only closed a finished partie: one item, once it is over."""
    items = carom().keys("hold:enter").screen["items"]
    assert items == ["1 Vzdává Novák", "2 Vzdává Dvořák", "4 Test kláves"]     # 3 closes, once over


@pytest.mark.parametrize("game, language, item", [
    ("carom", "cs", "Uzavřít partii"), ("carom", "en", "Close the partie"),
    ("8ball", "cs", "Uzavřít zápas"), ("8ball", "en", "Close the match")])
def test_the_close_item_names_the_games_unit(game, language, item):
    """RULES 2 (8B:8): in 8-ball the referee's unit is the individual match (zápas), not a partie."""
    desk = (carom if game == "carom" else eight)(language=language)
    forfeit = next(i.split()[0] for i in desk.keys("hold:enter").screen["items"]
                   if "Vzdává" in i or "forfeits" in i)      # an item's digit is the start of its text
    desk.keys(f"{forfeit} 1 hold:enter hold:enter")
    assert desk.board.finished
    items = desk.screen["items"]
    close = {"carom": 3, "8ball": 7}[game]                    # the hold menu's digits are fixed (issue 12)
    assert f"{close} {item}" in items
    assert not any(old in i for i in items for old in ("Nová partie", "Konec zápasu", "New partie", "End"))


def test_menu_leaves_out_a_forfeit_the_core_refuses():
    """RULES 1.4.8: no forfeit once the partie is over (the core refuses it)."""
    desk = carom().keys("hold:enter 1 1 hold:enter hold:enter")
    assert not any("Vzdává" in item for item in desk.screen["items"])
    desk.keys("-")
    assert desk.screen is None


def test_destructive_key_bound_to_a_tap_only_fires_on_hold():
    keymap = default_keymap("carom").with_overrides({"9": "none"}, {"9": "end_match"})
    desk = carom(keymap=keymap).keys("9")
    assert desk.messages == ["Podržte klávesu déle"] and desk.screen is None
    desk.keys("hold:9")
    assert desk.messages[-1] == "Partie neskončila" and desk.screen is None   # nothing to close yet
    desk.keys("hold:enter 1 1 hold:enter hold:9")
    assert desk.screen["title"] == "Uzavřít partii?"
    desk.keys("enter")                    # issue 12: closing takes the long press; Enter on "Ne" closes
    assert desk.ui == [] and desk.screen is None
    desk.keys("hold:9 1 hold:enter")
    assert desk.ui == ["new_partie"]


def test_key_with_tap_and_hold_fires_tap_on_release_and_hold_once():
    desk = eight()
    desk.event("0", True)
    assert desk.commands == []            # "0" also holds (nocushion): wait for the release
    desk.event("0", False)
    assert desk.commands == [{"cmd": "shot"}]
    desk.event("0", True)
    desk.wait(5.0)                        # held far longer than a long press: one hold only
    desk.event("0", False)
    assert desk.commands == [{"cmd": "shot"}]
    assert desk.messages == ["Jen při rozstřelu"]   # nocushion: only on a break


def test_without_a_board_keys_are_navigation_for_the_service():
    desk = Desk(None, "carom")
    desk.keys("3 enter backspace - + hold:enter")
    assert desk.ui == ["digit", "confirm", "cancel", "undo", "down", "menu"]
    assert desk.outcomes[0].value == "3"


def test_keytest_shows_every_key_and_ends_with_a_held_enter():
    desk = carom()
    desk.referee.start_keytest()
    desk.keys("numlock 5 enter")
    assert desk.screen == {"screen": "keytest", "key": "Enter", "device": "kp"}
    assert desk.commands == []
    desk.hold("enter")
    assert desk.screen is None and desk.ui == ["keytest_end"]


@pytest.mark.parametrize("key, shown", [("dot", ","), ("enter", "Enter"), ("backspace", "Back"),
                                        ("numlock", "Num"), ("7", "7"), ("#", "#")])
def test_keytest_shows_the_key_as_printed_on_the_keypad_not_its_internal_name(key, shown):
    """The key test names keys like the key card does (input.keymap.key_label): staff look for ","."""
    desk = carom()
    desk.referee.start_keytest()
    desk.keys(key)
    assert desk.screen == {"screen": "keytest", "key": shown, "device": "kp"}


def test_keytest_from_the_menu():
    desk = carom().keys("hold:enter 4")                   # the key test is 4 in the carom hold menu
    assert desk.screen == {"screen": "keytest", "key": None, "device": None}


# -- 8-ball --------------------------------------------------------------------
def break_and_take_solids(desk):
    """RULES 2.3/2.4: a legal break pots a solid, fixing the breaker's (b's) group."""
    desk.keys("7 0")
    assert desk.board.summary()["current"]["groups"] == {"a": "stripes", "b": "solids"}


def test_pot_keys_and_end_of_shot():
    """RULES 2.5: a player continues while potting their own group."""
    desk = eight()
    break_and_take_solids(desk)
    desk.keys("7 0")
    assert desk.commands[-2:] == [{"cmd": "pot", "ball": "solid"}, {"cmd": "shot"}]
    assert desk.board.summary()["current"]["shooter"] == "b"


def test_scratch_and_foul_keys():
    """RULES 2.6: a scratch is a foul; ball in hand for the opponent."""
    desk = eight()
    break_and_take_solids(desk)
    desk.keys("* 0")
    cur = desk.board.summary()["current"]
    assert cur["shooter"] == "a" and cur["ball_in_hand"]
    desk.keys("dot 0")
    assert desk.commands[-2] == {"cmd": "foul"}


def test_the_8_on_the_break_is_entered_without_asking_its_pocket():
    """RULES 2.3 (8B:2d): the 8 on the break re-racks wherever it dropped: no "Kapsa 8?" (issue 12)."""
    desk = eight().keys("8")
    assert desk.screen is None and desk.commands == [{"cmd": "pot8"}]
    desk.keys("0")
    current = desk.board.summary()["current"]
    assert current["break_shot"] and current["breaker"] == "b"     # re-racked: the same player breaks


def test_pot8_asks_for_the_pocket():
    """RULES 2.7: after the break the 8's pocket decides the game — asked for, then recorded."""
    desk = eight()
    break_and_take_solids(desk)
    desk.keys("8")
    assert desk.screen == {"screen": "prompt", "title": "Kapsa 8?", "value": "",
                           "hint": "1–6, Zpět = zrušit"}
    desk.keys("9")
    assert desk.messages == ["1–6, Zpět = zrušit"] and desk.screen is not None
    desk.keys("*")
    assert desk.messages[-1] == "Nejdřív odpovězte, Zpět = zrušit"
    desk.keys("4")
    assert desk.commands[-1] == {"cmd": "pot8", "pocket": 4} and desk.screen is None


def test_prompt_cancelled_by_undo_without_a_command():
    desk = eight()
    break_and_take_solids(desk)
    entered = len(desk.commands)
    desk.keys("8 -")
    assert len(desk.commands) == entered and desk.screen is None and desk.messages[-1] == "Zrušeno"


def test_last_ball_of_a_group_asks_for_its_pocket():
    """RULES 2.2: the pocket of the group's last ball fixes the 8's pocket, so it is asked for."""
    desk = eight()
    break_and_take_solids(desk)
    for _ in range(5):
        desk.keys("7 0")
    assert desk.board.summary()["current"]["left"]["solids"] == 1
    desk.keys("7")
    assert desk.screen["title"] == "Kapsa poslední plné?"
    desk.keys("2 0")
    assert desk.commands[-2] == {"cmd": "pot", "ball": "solid", "pocket": 2}
    assert desk.board.summary()["current"]["eight_pocket"]["b"] == 5   # opposite of 2


def test_choose_group_prompt_when_both_groups_drop():
    """RULES 2.4 (8B:2c): both groups on the break — the breaker chooses."""
    desk = eight().keys("7 9 0")
    assert desk.board.summary()["current"]["must_choose"]
    desk.keys("7")
    assert desk.messages[-1] == "Nejdřív zvolte skupinu: / nebo podržte Enter, 1 plné, 2 půlené"
    desk.keys("/")
    assert desk.screen["title"] == "Skupina?"
    desk.keys("3")                      # no such group: the answers are said, not "Kapsa jen 1–6"
    assert desk.messages[-1] == "1 plné, 2 půlené" and desk.screen["title"] == "Skupina?"
    desk.keys("2")
    assert desk.commands[-1] == {"cmd": "choose", "group": "stripes"}
    assert desk.board.summary()["current"]["groups"]["b"] == "stripes"


def test_choose_prompt_also_takes_the_pot_keys():
    desk = eight().keys("7 9 0 / 7")
    assert desk.commands[-1] == {"cmd": "choose", "group": "solids"}


def test_a_group_is_chosen_in_the_held_menu_on_a_4x4_matrix_keypad():
    """RULES 2.3, 2.4: balls of both groups on the break — the breaker chooses, on a keypad without
    "/" too: the held D (Enter) menu's items 1 and 2, numbered as the "/" prompt's answers."""
    desk = eight().keys("7 9 0 hold:D")
    assert desk.screen["items"] == ["1 Skupina: plné (1–7)", "2 Skupina: půlené (9–15)", "3 Hru vyhrál Novák",
                                    "4 Hru vyhrál Dvořák", "5 Vzdává Novák", "6 Vzdává Dvořák", "8 Test kláves"]
    desk.keys("2")
    assert desk.commands[-1] == {"cmd": "choose", "group": "stripes"} and desk.screen is None
    current = desk.board.summary()["current"]
    assert not current["must_choose"] and current["groups"] == {"a": "solids", "b": "stripes"}
    desk.keys("A")                                        # undone like a stroke, the choice is awaited again
    assert desk.board.summary()["current"]["must_choose"]
    desk.keys("hold:D 1")
    assert desk.board.summary()["current"]["groups"] == {"a": "stripes", "b": "solids"}


def test_the_held_menu_offers_the_groups_only_while_one_is_awaited():
    """RULES 2.4: once the group is fixed, items 1 and 2 are the 8's pocket and PAT again."""
    desk = eight()
    break_and_take_solids(desk)
    desk.keys("hold:enter")
    assert not any("Skupina" in item for item in desk.screen["items"])
    assert desk.screen["items"][0] == "2 PAT – opakovat hru"


@pytest.mark.parametrize("language, keymap, said", [
    ("cs", None, "Nejdřív zvolte skupinu: / nebo podržte Enter, 1 plné, 2 půlené"),
    ("cs", {"/": "none"}, "Nejdřív zvolte skupinu: podržte Enter, 1 plné, 2 půlené"),
    ("en", None, "Choose a group first: / or hold Enter, 1 solids, 2 stripes")],
    ids=["cs", "cs-without-slash", "en"])
def test_every_key_refused_while_a_group_is_awaited_says_how_to_choose(language, keymap, said):
    """RULES 2.4: the shooter must choose before the next shot; each refused key of the matrix says
    how (the key bound to "choose" if any, and the held menu), the digits 1 and 2 included — not
    "Nejdřív koule, pak kapsa", which does not apply here."""
    bindings = default_keymap("8ball").with_overrides(keymap, {}) if keymap else None
    desk = eight(keymap=bindings, language=language).keys("7 9 0")
    before = len(desk.commands)
    for key in ("#", "*", "7", "9", "8", "1", "2", "3", "0"):
        desk.keys(key)
        assert desk.messages[-1] == said, key
    desk.keys("hold:0")                                   # the illegal break: not now either
    assert desk.messages[-1] == said
    assert len(desk.commands) == before and desk.board.summary()["current"]["must_choose"]


def test_choose_when_there_is_nothing_to_choose():
    desk = eight().keys("/")
    assert desk.screen is None and desk.messages == ["Není co volit"]


def test_stalemate_and_quick_game_result_from_the_menu():
    """RULES 2.8: PAT is entered by the referee (long press, confirm)."""
    desk = eight()
    break_and_take_solids(desk)
    desk.keys("hold:enter")
    items = desk.screen["items"]
    assert items[:2] == ["2 PAT – opakovat hru", "3 Hru vyhrál Novák"]    # 1 (the 8's pocket) is not offered
    assert not any("kapsu 8" in i for i in items)      # 8B:6f does not apply now
    desk.keys("3 enter")
    assert desk.commands[-1] == {"cmd": "game", "winner": "a"}
    assert desk.board.summary()["games"]["a"] == 1


def test_digit_outside_a_prompt_in_8ball():
    desk = eight().keys("3")
    assert desk.commands == [] and desk.messages == ["Nejdřív koule, pak kapsa"]


@pytest.mark.parametrize("game", ["carom", "8ball"])
def test_every_default_binding_is_a_known_action(game):
    from input.keymap import actions_for
    keymap = default_keymap(game)
    assert set(keymap.tap.values()) | set(keymap.hold.values()) <= set(actions_for(game))


def test_poll_with_only_the_time_uses_the_board_of_the_last_press():
    """The service's timer calls poll(now): a long press still belongs to the partie pressed on."""
    from input.events import KeyEvent
    from input.referee import Referee
    board = Board(CAROM)
    referee = Referee("carom", clock=lambda: 0.0)
    referee.press(KeyEvent("enter", True, 10.0, "kp", True), board)
    assert referee.deadline() == 10.8
    outcome = referee.poll(10.8)
    assert outcome.screen["screen"] == "menu" and outcome.prompt == outcome.screen
    assert "1 Vzdává Novák" in outcome.screen["items"]


def test_unplugged_keypad_forgets_its_held_keys():
    from input.events import DeviceStatus
    desk = carom()
    desk.event("1", True)
    desk.feed(DeviceStatus("kp", False, "unplugged"))
    assert desk.ui == ["keypad_lost"] and desk.messages == ["Klávesnice odpojena"]
    assert desk.referee.debouncer.pressed() == []
    desk.feed(DeviceStatus("kp", True, ""))
    desk.keys("1")                        # the same key works at once after the replug
    assert desk.commands == [{"cmd": "score", "value": 1}] * 2


def test_keytest_ends_with_any_held_key_when_no_key_opens_the_menu():
    keymap = default_keymap("carom").with_overrides({}, {"enter": "none", "D": "none"})
    desk = carom(keymap=keymap)
    desk.referee.start_keytest()
    desk.keys("hold:5")
    assert desk.screen is None and desk.ui == ["keytest_end"]


def test_direct_stalemate_key_refused_before_the_break_without_a_confirm():
    """RULES 2.8: no PAT while the rack is full; the refusal comes at once."""
    keymap = default_keymap("8ball").with_overrides({}, {"/": "stalemate"})
    desk = eight(keymap=keymap).keys("hold:/")
    assert desk.screen is None and desk.messages == ["Hra ještě nezačala"]
    break_and_take_solids(desk)
    desk.keys("hold:/")
    assert desk.screen["title"] == "PAT – opakovat hru?"
    desk.keys("enter")
    assert desk.commands[-1] == {"cmd": "stalemate"}


def test_naming_the_8_pocket_after_the_opponent_pots_ones_last_ball_in_the_middle():
    """RULES 2.2 (8B:6f): the opponent potted a's last stripe into a middle pocket, so a may
    name any pocket for the 8 — from the menu, with the pocket prompt."""
    desk = eight().keys("7 0 0")            # b breaks, takes solids, misses: a (stripes) shoots
    for _ in range(6):
        desk.keys("9 0")
    desk.keys("0")                          # a misses with one stripe left
    desk.keys("9")                          # b pots a's last stripe...
    assert desk.screen["title"] == "Kapsa poslední půlené?"
    desk.keys("2 0")                        # ...into the left middle pocket
    assert desk.board.summary()["current"]["eight_pocket"]["a"] == 5
    desk.keys("hold:enter")
    assert desk.screen["items"][0] == "1 Ohlásit kapsu 8"
    desk.keys("1 6")
    assert desk.commands[-1] == {"cmd": "pocket8", "pocket": 6}
    assert desk.board.summary()["current"]["eight_pocket"]["a"] == 6
