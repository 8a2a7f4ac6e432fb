"""Acceptance: a league match interrupted at the table (A.6.5, issue 22), from the keys as
`pocitadlo emulate --keys` plays them (newline = Enter, h before a key = a long press): the referee
interrupts at any partie by the long press, picks a reason from a short list, the home captain
confirms; it can be taken back until it is final; the match item carries where and why."""
import pytest

from firmware_host.match_night import TAKE_BACK_SECONDS

SETUP = "\n" * 6 + "\n"            # tonight's fixture, everybody present, the captains, the lot draw seen
PARTIE = "\n" "888" "0" "80" "\n1h\n"     # A won the lag, reaches 30, B equalises; closed by "Ano"


@pytest.fixture
def player(emulator):
    return emulator(points_limit=30, innings_limit=5)


def final(player) -> None:
    player.clock.advance(TAKE_BACK_SECONDS)
    player.service.tick()


def match_item(player) -> dict | None:
    return next((i.content["summary"] for i in player.syncer.outbox.pending() if i.kind == "match"), None)


def test_a_6_5_the_referee_interrupts_a_partie_by_the_long_press_with_a_reason_the_home_captain_confirms(player):
    player.play(SETUP + PARTIE + "\n" "12" "0" "7")             # partie 2: A 3, B 10 running
    night = player.service.night
    menu = player.key("enter", held=True)
    assert menu["items"][-1] == "5 Přerušit utkání"             # after the key test: the digits stay
    reasons = player.key("5")
    assert reasons["title"] == "Přerušení: důvod" and reasons["items"] == [
        "1 spor, nelze pokračovat", "2 technická závada", "3 zranění, nevolnost", "4 zavírací doba", "5 jiný důvod"]
    home = night.match.captains["home"]
    question = player.key("enter")                              # a dispute (A.6.5)
    assert question["title"] == f"Přerušit? Potvrzuje {home} (Sokol Dvůr)" and question["selected"] == 1
    assert player.key("enter")["screen"] == "carom"             # a habitual Enter: "Ne", play goes on
    player.play("h\n5\n1")
    zapis = player.key("enter", held=True)                      # the home captain's "Ano"
    assert zapis["screen"] == "match" and zapis["partie"][0].startswith("1. ")
    pair = night.match.pairs[1]
    assert zapis["partie"][1] == f"2. {pair['home']} 3:10 {pair['away']} (nedohráno)"
    assert zapis["partie"][2] == "Přerušeno – partie 2: spor, nelze pokračovat"

    back = player.key("-")                                      # taken back: partie 2 goes on
    assert back["screen"] == "carom" and back["message"]["text"] == "Utkání pokračuje"
    assert back["summary"]["players"]["b"]["points"] == 10 and night.match.interrupted is None
    player.play("h\n" "5" "4\n" "1h\n")                          # interrupted again: closing time
    assert player.play("\nh\nh\n")[-1]["screen"] == "ready"    # both captains sign the zápis
    final(player)
    summary = match_item(player)
    assert summary["interrupted"] == {"partie": 2, "reason": "closing", "captain": home,
                                      "at": summary["interrupted"]["at"],
                                      "in_play": {"id": f"{summary['id']}-p2", "home": pair["home"], "score": "3:10",
                                                  "away": pair["away"]}}
    assert summary["interrupted"]["at"] and summary["finished"] is False and len(summary["partie_ids"]) == 1
    kinds = sorted(i.kind for i in player.syncer.outbox.pending())
    assert kinds == ["match", "partie"]                         # partie 2 is unfinished: not sent


def test_a_6_5_between_partie_kdo_zacina_offers_the_interruption_too(player):
    player.play(SETUP + PARTIE)
    ask = player.service.screen()
    assert ask["title"] == "Partie 2: kdo začíná?" and ask["items"][-1] == "3 Přerušit utkání"
    player.play("3\n" "2\n" "1h\n")                             # equipment failure, confirmed
    zapis = player.service.screen()
    assert zapis["partie"][-1] == "Přerušeno – partie 2: technická závada"
    assert "in_play" not in player.service.night.match.interrupted           # no partie was in play


def test_a_single_partie_offers_no_interruption(player):
    player.play("\n1\n\n" "12")
    menu = player.key("enter", held=True)
    assert not any("Přerušit" in item for item in menu["items"])
