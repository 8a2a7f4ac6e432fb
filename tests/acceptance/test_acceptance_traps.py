"""Acceptance: the traps of a match night found by playing it as a referee would (issue 24, "Bugs and
traps"), from the keys as `pocitadlo emulate --keys` plays them (newline = Enter, h before a key = a
long press, \\x1b = Esc, \\b = Back)."""
import logging

import pytest

from firmware_host.service import Ui

LOT_DRAW = "\n" * 6         # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)


@pytest.fixture
def player(emulator):
    return emulator(points_limit=30, innings_limit=5)


def test_a_team_that_did_not_come_after_a_match_given_up_on_its_lot_draw_is_no_crash(player):
    """Issue 24 item 1: give a match up on its lot draw (Esc, 1, held Enter), set it up again and
    choose "Tým nepřišel": the forfeit's result, not a lot draw of no pairs (it was a TypeError)."""
    shown = player.play(LOT_DRAW + "\x1b1h\n" + "\n4\n7\n1h\n")
    assert shown[-1]["screen"] == "match" and shown[-1]["points"] == {"home": 0, "away": 8}
    assert player.service.night.match.forfeit == "home"


def test_a_bug_behind_a_key_or_a_screen_is_said_and_the_service_goes_on(player, monkeypatch, caplog):
    """Issue 24 item 1: the service never exits on a referee's key. A bug behind a key is logged
    with its traceback and said on the counter; a bug drawing a screen shows an error text; the
    keys go on working."""
    service, night = player.service, player.service.night
    real_screen = night.screen
    monkeypatch.setattr(night, "ui", lambda action: 1 / 0)
    with caplog.at_level(logging.ERROR, "pocitadlo.service"):
        service.handle(Ui("confirm"))
    assert service.screen()["message"]["text"] == "Chyba programu: hrajte dál"
    assert "ZeroDivisionError" in caplog.text
    monkeypatch.undo()
    monkeypatch.setattr(night, "screen", lambda: {}["broken"])
    assert service.screen() == {"screen": "error", "code": "bug", "text": "Chyba obrazovky: hrajte dál"}
    monkeypatch.setattr(night, "screen", real_screen)
    assert player.key("enter")["title"] == "Utkání (pravidla z konfigurace)"     # the keys still work


def test_a_restart_in_the_middle_of_a_partie_says_where_it_came_back(emulator):
    """Issue 24 item 8: after a restart mid-partie the counter says so — "Obnoveno: úder N" — as it
    says a journal repaired from its copy."""
    first = emulator(data="d", points_limit=30, innings_limit=5)
    first.play("\n1\n\n" "12" "0" "7")                         # a single partie: +1 +2 miss +10
    again = emulator(data="d", points_limit=30, innings_limit=5)
    shown = again.service.screen()
    assert shown["screen"] == "carom" and shown["summary"]["players"]["b"]["points"] == 10
    assert shown["message"] == {"text": "Obnoveno: úder 4", "level": "info", "n": 1}


def test_the_restart_notice_counts_the_strokes_in_effect_not_the_undo_presses(emulator):
    """+1 +2, both taken back, +1 put back: one stroke in effect, five presses in the record."""
    first = emulator(data="d", points_limit=30, innings_limit=5)
    first.play("\n1\n\n" "12" "--" "+")
    again = emulator(data="d", points_limit=30, innings_limit=5)
    shown = again.service.screen()
    assert shown["summary"]["players"]["a"]["points"] == 1
    assert shown["message"] == {"text": "Obnoveno: úder 1", "level": "info", "n": 1}


def key_line(player) -> str:
    from cli.commands.emulate import key_help

    service = player.service
    return key_help(service.night.config, service, service.screen())


def test_the_minus_key_has_one_meaning_on_a_screen_and_the_key_line_says_which(player):
    """Issue 24 item 3: after a single partie is closed, `-` in the setup menu moves the cursor —
    and the key line no longer says it takes the closing back; on the next partie's "kdo začíná?"
    `-` takes the closing back — and the key line no longer says it moves the cursor."""
    player.play("\n1\n\n" + "888" "0" "80" + "\n1h\n")          # a single partie to 30, closed
    assert player.service.night.can_take_back()
    player.key("enter")                                           # the setup menu
    setup = key_line(player)
    assert "vrátit" not in setup and "- + posun" in setup
    assert player.key("-")["selected"] == 2                       # the cursor moved up from tonight's fixture
    assert player.service.night.can_take_back()                   # nothing was taken back

    player.play("\x1b" + LOT_DRAW + "\n\n" + "888" "0" "80" + "\n1h\n")   # a league match: partie 1 closed
    ask = key_line(player)
    assert ask.startswith("1–3 položka · + posun · Enter OK · - vrátit uzavření")
    assert ask.count("- ") == 1
    reopened = player.key("-")
    assert reopened["screen"] == "carom" and reopened["message"]["text"] == "Partie znovu otevřena"


def test_closing_a_partie_asks_one_question_whichever_way_it_is_asked(player):
    """Issue 24 item 10: Enter on a finished partie and the held menu's "Uzavřít partii" ask the same
    question — on "Ne", `1` moves to "Ano", the long press takes it — so the learned `1` never cancels."""
    player.play("\n1\n\n" + "888" "0" "80")                     # a single partie to 30
    by_enter = player.key("enter")
    player.key("esc")
    player.key("enter", held=True)
    by_menu = player.key("3")                                   # the held menu's "3 Uzavřít partii"
    assert by_enter == by_menu == {"screen": "menu", "title": "Uzavřít partii?", "items": ["1 Ano", "2 Ne"],
                                   "selected": 1}
    player.key("1")
    assert player.key("enter")["message"]["text"] == "Ano = podržet Enter"
    assert player.key("enter", held=True)["screen"] == "ready"  # closed, with the single partie's match


def test_a_correction_during_a_running_series_is_refused_at_once(player):
    """Issue 24 item 9: "Opravit náběh" (or "Vložit náběh") while a series runs says "Nejdřív
    ukončete náběh" on the first Enter — not after player, inning and points were picked."""
    player.play("\n1\n\n" + "20" "1")                          # A: 1 missed … B's series of 1 runs
    record = player.key("enter")
    assert record["title"] == "Zápis partie" and record["items"][:2] == ["1 Opravit náběh", "2 Vložit náběh"]
    refused = player.key("enter")
    assert refused["screen"] == "carom" and refused["message"]["text"] == "Nejdřív ukončete náběh"
    player.key("enter"), player.key("2")
    assert player.key("enter")["message"]["text"] == "Nejdřív ukončete náběh"
    assert player.service.night.board.summary()["players"]["b"]["series"] == []


PARTIE = "888" "0" "80"                     # A reaches 30, B's equalising inning: the partie is over


def play_the_match_and_sign(player) -> None:
    player.play(LOT_DRAW + "\n")                                  # the lot draw seen
    for _ in range(4):
        player.play("\n" + PARTIE + "\n1h\n")                     # A won the lag; closed by "Ano"
    assert player.service.screen()["screen"] == "match"


def test_five_habitual_enter_presses_sign_nothing_the_captains_sign_by_the_long_press(player):
    """Issue 24 item 2 (A.6.1): the captains are chosen after attendance; on the result Enter asks
    the home captain by name, and Enter, Enter, … signs nothing — the long press signs."""
    play_the_match_and_sign(player)
    night = player.service.night
    home, away = night.match.captains["home"], night.match.captains["away"]
    assert home == night.match.present["home"][0] and away == night.match.present["away"][0]
    shown = player.play("\n" * 5)
    assert shown[0]["title"] == f"Podpis kapitána Sokol Dvůr: {home}?"
    assert shown[-1]["message"]["text"] == "Podepisuji = podržet Enter"
    assert night.match is not None and night.match.answers == ()
    signed = player.play("h\n")[-1]
    assert signed["title"] == f"Podpis kapitána Jiskra Hořice: {away}?"
    assert player.play("h\n")[-1]["screen"] == "ready"
    after_the_take_back_window(player)
    match = next(item.content["summary"] for item in player.syncer.outbox.pending() if item.kind == "match")
    assert [(s["side"], s["captain"]) for s in match["signatures"]] == [("home", home), ("away", away)]


def after_the_take_back_window(player):
    from firmware_host.match_night import TAKE_BACK_SECONDS

    player.clock.advance(TAKE_BACK_SECONDS)
    player.service.tick()


def test_a_fixture_played_here_is_marked_and_set_up_again_only_on_purpose(player):
    """Issue 24 item 7: tonight's fixture, played and signed, was still offered first and unmarked.
    It is marked ✓ (also before its closing is final), not selected, and asks before a new setup."""
    play_the_match_and_sign(player)
    player.play("\nh\nh\n")                                       # both captains sign: closed
    for final in (False, True):
        if final:
            after_the_take_back_window(player)
        setup = player.key("enter")
        assert setup["items"][3] == "4 ✓ Sokol Dvůr – Jiskra Hořice" and setup["selected"] == 0
        player.key("esc")
    player.key("enter")
    question = player.play("4\n")[-1]
    assert question["title"] == "Sokol Dvůr – Jiskra Hořice už odehráno: znovu?" and question["selected"] == 1
    assert player.key("enter")["title"] == "Utkání (pravidla z konfigurace)"     # "Ne": back to the setup menu
    again = player.play("4\n1h\n")[-1]
    assert again["title"] == "Přítomni: Sokol Dvůr"
