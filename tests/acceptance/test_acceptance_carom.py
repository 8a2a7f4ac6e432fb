"""Acceptance: a carom league night played from the referee's keys, as `pocitadlo emulate --keys`
plays them (terminal key letters; newline = Enter; h before a key = a long press).

The walkthrough uses the bundled emulator config and league file with small limits (30 points,
5 innings) so the scripts stay short; every step asserts what the counter's screen model shows.
"""
import json

import pytest

SETUP = "\n" * 6        # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)


@pytest.fixture
def player(emulator):
    return emulator(points_limit=30, innings_limit=5)


def state(model):
    """(points A, points B, inning, player at the table, series) of a carom screen."""
    summary = model["summary"]
    counter = summary["counter"]
    return (summary["players"]["a"]["points"], summary["players"]["b"]["points"], counter["inning"],
            counter["at_table"], counter["series"])


def test_league_night_from_the_ready_screen_to_the_closed_records(player):
    """RULES 1.6 (4 partie drawn by lot, seed shown, team points summed), 1.2–1.4 and 1.7 on the way."""
    ready = player.service.screen()
    assert ready["screen"] == "ready" and ready["venue"] == "Hospoda U Lva"
    menu = player.key("enter")
    assert menu["title"] == "Utkání (pravidla z konfigurace)" and menu["items"] == ["1 Jedna partie", "2 Test kláves", "3 Jiné utkání",
                                                          "4 Sokol Dvůr – Jiskra Hořice"]
    assert menu["selected"] == 3                                            # tonight's fixture
    present = player.key("enter")
    assert present["title"] == "Přítomni: Sokol Dvůr" and present["items"][present["selected"]] == "6 Hotovo"
    player.key("enter")
    captain = player.key("enter")                                           # A.6.1: after attendance
    assert captain["title"] == "Kapitán: Sokol Dvůr" and captain["items"][0] == "1 Novák"
    assert player.key("enter")["title"] == "Kapitán: Jiskra Hořice"
    lot = player.key("enter")
    assert lot["screen"] == "lotdraw" and isinstance(lot["seed"], int)
    night = player.service.night
    assert night.match.captains == {"home": "Novák", "away": night.match.present["away"][0]}
    pairs = lot["pairs"]
    assert [p["partie"] for p in pairs] == [1, 2, 3, 4]
    assert len({p["home"] for p in pairs}) == len({p["away"] for p in pairs}) == 4       # each plays once
    lag = player.key("enter")
    assert lag["title"] == "Partie 1: kdo začíná?" and lag["items"] == [f"1 {pairs[0]['home']}", f"2 {pairs[0]['away']}",
                                                                         "3 Přerušit utkání"]     # A.6.5
    model = player.key("enter")                      # the home player won the lag: A
    assert model["summary"]["players"]["a"]["name"] == pairs[0]["home"]
    assert state(model) == (0, 0, 1, "a", 0)

    # a real-looking partie
    shown = player.play("112")
    assert [state(m)[4] for m in shown] == [1, 2, 4]                 # RULES 1.7: the running series
    assert state(player.key("0")) == (4, 0, 1, "b", 0)               # a miss ends the inning (1.3)
    asked = player.key("3")                                          # 1.7 (6.8g): points to go on request
    assert asked["message"] == {"text": "Zbývá 26:30", "level": "info", "n": asked["message"]["n"]}
    assert state(asked) == (4, 0, 1, "b", 0) and player.service.night.board.history[-1] == {"cmd": "miss"}
    assert state(player.key("0")) == (4, 0, 2, "a", 0)
    player.play("71")
    assert state(player.key("dot")) == (15, 0, 2, "b", 0)            # a foul: the series so far counts (1.3)
    player.play("220")
    assert player.key("*")["summary"]["counter"]["frozen"]
    refused = player.key("7")                                        # RULES 1.2: 10 refused while frozen
    assert refused["message"]["text"] == "Lpí: jen 1 nebo 2"
    assert state(refused) == (15, 4, 3, "a", 0) and refused["summary"]["counter"]["frozen"]
    assert state(player.key("1")) == (16, 4, 3, "a", 1)
    undone = player.key("-")
    assert state(undone) == (15, 4, 3, "a", 0) and undone["summary"]["counter"]["frozen"]
    assert state(player.key("+")) == (16, 4, 3, "a", 1)
    player.play("00")
    last = player.service.screen()["summary"]["counter"]
    assert (last["inning"], last["last_two"]) == (4, True)           # RULES 1.7: the last 2 innings
    assert last["points_left"]["a"] == 14                            # … and 20 or fewer to go
    player.play("720" "220")
    reached = player.key("2")                                        # A reaches 30 in inning 5
    counter = reached["summary"]["counter"]
    assert state(reached)[:4] == (30, 8, 5, "b") and counter["equalising"]    # 1.4.1: B's equalising inning
    end = player.play("82")[-1]
    assert end["summary"]["result"] == "draw"                        # 1.4.4: B reached the limit too
    assert player.key("0")["message"]["text"] == "Partie skončila"   # a key after the end changes nothing
    close = player.key("enter")
    assert close["title"] == "Uzavřít partii?" and close["items"][:2] == ["1 Ano", "2 Ne"]
    assert close["selected"] == 1                                    # issue 12: it starts on "Ne" …
    player.key("1")
    assert player.key("enter")["message"]["text"] == "Ano = podržet Enter"   # … and Enter never closes
    assert player.key("enter", held=True)["title"] == "Partie 2: kdo začíná?"

    player.key("enter")
    assert player.play("87")[-1]["summary"]["counter"]["equalising"]
    assert player.key("0")["summary"]["result"] == "a"               # 1.4.4: B did not reach it
    player.play("\n1h\n\n")                                         # close (Ano: 1, held Enter), next
    assert player.play("1020" * 5)[-1]["summary"]["result"] == "b"   # 1.4.5: innings limit, more points
    player.play("\n1h\n\n")
    four = player.play("087")[-1]
    assert four["summary"]["result"] == "b" and four["summary"]["finished"]   # 1.4.3: B ends it at once
    player.play("\n1")
    result = player.key("enter", held=True)
    assert result["screen"] == "match"
    assert result["points"] == {"home": 1 + 2 + 0 + 0, "away": 1 + 0 + 2 + 2}          # RULES 1.6
    assert [line.split()[0] for line in result["partie"]] == ["1.", "2.", "3.", "4."]
    # the team points in brackets, so "Němec 1:1" is not read as a score of Němec's
    assert [line.split()[-1] for line in result["partie"]] == ["(1:1)", "(2:0)", "(0:2)", "(0:2)"]
    assert player.key("enter")["title"] == "Podpis kapitána Sokol Dvůr: Novák?"    # A.6.9d: the captains sign
    assert player.play("h\n")[-1]["title"].startswith("Podpis kapitána Jiskra Hořice: ")   # by the long press
    assert player.play("h\n")[-1]["screen"] == "ready"            # both signed: the match is closed
    # issue 12: partie 1-3 were final at the next partie's first stroke; the 4th and the match can
    # still be taken back, so they are not in the outbox yet
    assert [item.id[-3:] for item in player.syncer.outbox.pending()] == ["-p1", "-p2", "-p3"]
    back = player.key("-")
    assert back["screen"] == "match" and back["message"]["text"] == "Utkání znovu otevřeno"
    assert player.key("enter")["title"] == "Uzavřít utkání?"          # signed: only the close is asked
    player.play("1h\n")                                               # closed again
    let_the_take_back_window_run_out(player)

    items = player.syncer.outbox.pending()
    assert sorted(item.kind for item in items) == ["match"] + ["partie"] * 4
    match = next(item.content for item in items if item.kind == "match")
    assert json.dumps(match, ensure_ascii=False).count(str(lot["seed"])) >= 1          # the seed recorded


def let_the_take_back_window_run_out(player):
    from firmware_host.match_night import TAKE_BACK_SECONDS

    player.clock.advance(TAKE_BACK_SECONDS)
    player.service.tick()


def test_quit_mid_series_and_start_again_comes_back_to_the_same_stroke(emulator):
    first = emulator(points_limit=30, innings_limit=5)
    first.play(SETUP + "\n\n" + "1120" "112")
    before = first.service.screen()
    again = emulator(points_limit=30, innings_limit=5)      # the same --data
    assert again.service.screen() == dict(before, message={"text": "Obnoveno: úder 7", "level": "info", "n": 1})
    assert state(before) == (4, 4, 1, "b", 4)
    assert state(again.key("2")) == (4, 6, 1, "b", 6)


def test_a_protocol_correction_and_a_forgotten_inning_from_the_protocol_screen(player):
    """The referee corrects A's 2nd inning and inserts an inning B forgot, from Enter's menu."""
    player.play(SETUP + "\n\n" + "1120" "20" "0" "0")
    protocol = player.key("enter")
    assert protocol["title"] == "Zápis partie" and protocol["items"] == ["1 Opravit náběh", "2 Vložit náběh",
                                                                          "3 Zrušit utkání"]   # partie 1
    assert player.key("enter")["items"][0] == "1 " + player.service.night.board.header["a"]
    innings = player.key("enter")
    assert innings["items"] == ["1 1. náběh: 4", "2 2. náběh: 0"]
    player.key("2")
    prompt = player.key("enter")
    assert prompt["screen"] == "prompt" and prompt["title"] == "Body v 2. náběhu?"
    assert player.key("5")["value"] == "5"
    corrected = player.key("enter")
    assert corrected["summary"]["players"]["a"]["series"] == [4, 5] and state(corrected)[:2] == (9, 2)

    player.key("1")                                  # a series is running: no insert now, said at once
    refused = player.play("\n2\n")[-1]              # (issue 24 item 9), in Czech
    assert refused["screen"] == "carom" and refused["message"]["text"] == "Nejdřív ukončete náběh"
    assert player.service.screen()["summary"]["players"]["a"]["series"] == [4, 5]

    player.key("0")                                  # the inning ended: B's forgotten inning goes at the end
    player.play("\n2\n2\n3\n")                       # Vložit náběh → B → "na konec" → prompt
    assert player.key("3")["value"] == "3"
    inserted = player.key("enter")
    players = inserted["summary"]["players"]
    assert (players["a"]["series"], players["b"]["series"]) == ([4, 5, 1], [2, 0, 3])
    assert state(inserted) == (10, 5, 4, "a", 0)


def test_the_wrong_starter_picked_can_be_taken_back_before_the_first_stroke(emulator):
    """RULES 1.1: A is whoever won the lag. An Enter too quick on "kdo začíná?" must not make the
    wrong player A for the whole partie: until anything is entered, Enter offers to start again."""
    player = emulator(points_limit=30, innings_limit=5)
    lot = player.play(SETUP)[-1]
    pair = lot["pairs"][0]
    started = player.play("\n\n")[-1]
    assert started["summary"]["players"]["a"]["name"] == pair["home"]
    menu = player.key("enter")
    assert menu["title"] == "Zápis partie" and menu["items"] == ["1 Začít znovu (jiný začínající)", "2 Zrušit utkání"]
    again = player.key("enter")
    assert again["title"] == "Partie 1: kdo začíná?"
    assert emulator(points_limit=30, innings_limit=5).service.night.board is None   # durable
    player.key("2")
    fixed = player.key("enter")
    assert fixed["summary"]["players"]["a"]["name"] == pair["away"]
    player.key("1")
    assert player.key("enter")["items"] == ["1 Opravit náběh", "2 Vložit náběh", "3 Zrušit utkání"]   # no restart


def test_habitual_keys_take_nothing_irreversible_and_a_forfeit_is_taken_back(player):
    """Issue 12, RULES 1.4.8 and A.3.7, from the referee's keys: the +10 key (7) on "Přítomni"
    lands on "Tým nepřišel", but Enter, Enter records nothing; a player's forfeit and the closing
    it allows take the long press, and `-`, `-` take both back."""
    player.play("\n\n")
    assert player.key("7")["items"][6] == "7 Tým nepřišel"
    question = player.key("enter")
    assert question["items"] == ["1 Ano", "2 Ne"] and question["selected"] == 1
    back = player.key("enter")                                     # Enter, Enter: "Ne"
    assert back["title"] == "Přítomni: Sokol Dvůr" and player.service.night.match is None
    player.play("6\n\n\n\n\n\n")                                   # everybody present; captains; the lot; A starts
    player.play("12")
    menu = player.key("enter", held=True)
    assert menu["items"][:2] == ["1 Vzdává " + player.service.night.board.header["a"],
                                 "2 Vzdává " + player.service.night.board.header["b"]]
    question = player.key("1")                                     # the one yes/no question (issue 24)
    assert question["title"] == "Vzdává " + player.service.night.board.header["a"] + "?"
    assert question["items"] == ["1 Ano", "2 Ne"] and question["selected"] == 1
    said = player.key("enter")                                     # a habitual Enter: "Ne"
    assert said["screen"] == "carom" and not player.service.night.board.finished
    player.key("enter", held=True), player.key("1"), player.key("1")
    forfeited = player.key("enter", held=True)                     # the long press: A forfeits
    assert forfeited["summary"]["forfeit"] == "a"
    player.play("\n1h\n")                                          # closed: partie 2 is next
    assert player.service.screen()["title"] == "Partie 2: kdo začíná?"
    reopened = player.key("-")                                     # the closing taken back …
    assert reopened["message"]["text"] == "Partie znovu otevřena" and reopened["summary"]["forfeit"] == "a"
    revoked = player.key("-")                                      # … and the forfeit with it
    assert revoked["summary"]["forfeit"] is None and state(revoked) == (3, 0, 1, "a", 3)
    assert player.syncer.outbox.pending() == []


def test_a_single_partie_can_have_the_players_names_from_the_rosters(player, monkeypatch):
    """Issue 24: a single partie with "Hráč 1" and "Hráč 2" ends with "VYHRÁL 1"; the referee may
    pick the players from the league's rosters instead — who starts, then the other."""
    from display import fonts

    starts = player.play("\n1\n")[-1]
    assert starts["items"] == ["1 Hráč 1", "2 Hráč 2", "3 Jména ze soupisek"]
    assert starts["selected"] == 0                                  # Enter still starts Hráč 1 – Hráč 2
    first = player.play("3\n")[-1]
    assert first["title"] == "Kdo začíná?" and first["items"][:2] == ["1 Novák", "2 Dvořák"]
    second = player.play("2\n")[-1]
    assert second["title"] == "Dvořák proti:" and "Dvořák" not in " ".join(second["items"])
    assert player.key("backspace")["title"] == "Kdo začíná?"       # Back: one step back
    player.play("2\n")
    start = player.play("6\n")[-1]
    names = start["summary"]["players"]
    assert (names["a"]["name"], names["b"]["name"]) == ("Dvořák", second["items"][5].split(" ", 1)[1])
    player.play("887")                                               # Dvořák reaches 30 …
    end = player.key("0")                                            # … the other misses the equaliser
    assert end["summary"]["result"] == "a"
    said = []
    paint = fonts.BitmapFont.paint
    monkeypatch.setattr(fonts.BitmapFont, "paint", lambda font, p, xy, text: said.append(text) or paint(
        font, p, xy, text))
    counter = player.service.display.counter
    for page in range(4):
        counter.render(end, page * 3.0)
    assert any("VYHRÁL Dvořák" in text or text == "Dvořák" for text in said)
