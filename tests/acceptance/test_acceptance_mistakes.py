"""Acceptance: a referee's slips on a carom league night, from the keys as `pocitadlo emulate --keys`
plays them (newline = Enter, h before a key = a long press, \\b = Back). Issue 12, "Nothing
irreversible by a habitual key": the team forfeit and giving a match up start on "Ne", take the
long press, are journalled, send nothing and can be taken back (docs/referee.md). A player's
forfeit and the closings: tests/acceptance/test_acceptance_carom.py."""
import pytest

from firmware_host.match_night import TAKE_BACK_SECONDS

LOT_DRAW = "\n" * 6         # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)
NO = 1                      # the index of "2 Ne" in a yes/no question


@pytest.fixture
def player(emulator):
    return emulator(points_limit=30, innings_limit=5)


def events(player) -> list[str]:
    """The night journal's events so far (each line once)."""
    return [line["ev"] for line in player.service.night.store.journal.lines]


def after_the_take_back_window(player):
    player.clock.advance(TAKE_BACK_SECONDS)
    player.service.tick()
    return player.service.screen()


def test_a_team_forfeit_takes_the_long_press_and_is_taken_back_by_giving_the_match_up(player):
    """RULES A.3.7: "Tým nepřišel" is item 7 — where the +10 key lands. Enter, Enter and Enter on
    "Ano" record nothing; the long press records the 0:8; `-` on its result gives the match up."""
    player.play("\n\n")
    question = player.play("7\n")[-1]
    assert question["title"] == "Sokol Dvůr nepřišel: kontumace?" and question["selected"] == NO
    assert player.key("enter")["title"] == "Přítomni: Sokol Dvůr"             # Enter on "Ne"
    player.play("7\n1")
    said = player.key("enter")                                                  # Enter on "Ano"
    assert said["message"]["text"] == "Ano = podržet Enter" and player.service.night.match is None
    forfeit = player.key("enter", held=True)
    assert forfeit["screen"] == "match" and forfeit["points"] == {"home": 0, "away": 8}
    assert player.syncer.outbox.pending() == []                                 # not final yet

    give_up = player.key("-")                                                   # the slip taken back
    assert give_up["title"] == "Zrušit utkání? Zůstane v archivu" and give_up["selected"] == NO
    player.key("1")
    assert player.key("enter", held=True)["screen"] == "ready"
    assert player.service.night.match is None and events(player)[-1] == "abandon"   # journalled
    assert after_the_take_back_window(player)["screen"] == "ready"
    assert player.syncer.outbox.pending() == []                                 # nothing ever sent
    again = player.play("\n\n")[-1]                                             # set up again, rightly
    assert again["title"] == "Přítomni: Sokol Dvůr"


def test_a_match_set_up_wrongly_is_given_up_before_its_first_partie_closes_and_not_after(player):
    """Wrong away team or attendance: Back on the lot draw (or "Zrušit utkání" in partie 1's Enter
    menu) asks, starting on "Ne"; given up by the long press, taken back with `-` on the ready screen;
    once partie 1 is closed the partie records' corrections are the way."""
    player.play(LOT_DRAW)
    question = player.key("backspace")
    assert question["title"] == "Zrušit utkání? Zůstane v archivu" and question["selected"] == NO
    assert player.key("enter")["screen"] == "lotdraw"                           # Enter on "Ne"
    player.play("\b1")
    assert player.key("enter")["message"]["text"] == "Ano = podržet Enter"
    assert player.key("enter", held=True)["screen"] == "ready"
    assert events(player) == ["match", "lot", "abandon"]

    back = player.key("-")                                                      # taken back
    assert back["screen"] == "lotdraw" and back["message"]["text"] == "Utkání obnoveno"
    assert events(player) == ["match", "lot", "abandon", "reopen"]              # nothing deleted
    player.key("enter")                                                         # partie 1: kdo začíná?
    asked = player.key("backspace")                                             # Back asks here too
    assert asked["title"] == "Zrušit utkání? Zůstane v archivu" and asked["selected"] == NO
    assert player.key("enter")["title"] == "Partie 1: kdo začíná?"
    player.play("\n" "12")
    menu = player.key("enter")
    assert menu["title"] == "Zápis partie" and menu["items"][-1] == "3 Zrušit utkání"
    player.key("esc")
    over = player.play("0" "87")[-1]                                            # B reaches 30 (RULES 1.4.1)
    assert over["summary"]["finished"]
    lag = player.play("\n1h\n")[-1]                                            # partie 1 closed
    assert lag["title"] == "Partie 2: kdo začíná?"
    assert player.key("backspace")["title"] == "Partie 2: kdo začíná?"          # no giving up now
    player.play("\n" "1")
    assert player.key("enter")["items"] == ["1 Opravit náběh", "2 Vložit náběh"]
