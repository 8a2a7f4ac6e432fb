"""Acceptance: an 8-ball individual match played from the referee's keys in the emulator
(bundled emulator-8ball.toml; 2 games a set, 2 sets to win, to keep the script short)."""

PLAY = "\n3" + "\n" * 9   # setup, 3 other match → home, away team → all present → captains → home, away player


def current(model):
    return model["summary"]["current"]


def test_eightball_break_groups_foul_last_ball_pocket_eight_and_a_set_change(emulator):
    player = emulator(game="8ball", games_to_win=2, sets_to_win=2)
    start = player.play(PLAY)[-1]
    summary = start["summary"]
    assert summary["names"] == {"a": "Novák", "b": "Kučera"} and summary["home"] == "a"
    assert current(start)["breaker"] == "b" and current(start)["break_shot"]   # RULES 2.3: away breaks

    player.key("0", held=True)                       # an illegal break (RULES 2.3): the same player again
    rerack = player.key("0")
    assert rerack["message"]["text"] == "Znovu rozstřel"
    assert current(rerack)["breaker"] == "b" and current(rerack)["break_shot"]
    entered = player.key("9")                        # the shot's entries are shown before it closes
    assert current(entered)["pending"] == [{"cmd": "pot", "ball": "stripe"}]
    broke = player.key("0")
    assert current(broke)["groups"] == {"a": "solids", "b": "stripes"}      # 2.3/2.4: first pot fixes it
    assert current(broke)["shooter"] == "b"                                 # 2.3: a pot keeps the breaker on
    assert current(player.key("0"))["shooter"] == "a"                       # an empty shot is a miss
    player.play("70")
    foul = player.play(".0")[-1]
    assert current(foul)["shooter"] == "b" and current(foul)["ball_in_hand"]   # 2.6: ball in hand
    assert current(player.play("90")[-1])["ball_in_hand"] is False          # one shot from the hand
    player.play("90" * 4)
    prompt = player.key("9")                         # the last stripe: its pocket fixes the 8's (2.2)
    assert prompt["screen"] == "prompt" and prompt["title"] == "Kapsa poslední půlené?"
    player.key("4")
    cleared = player.key("0")
    assert current(cleared)["left"]["stripes"] == 0 and current(cleared)["eight_pocket"]["b"] == 1   # 4 ↔ 1
    assert player.key("8")["title"] == "Kapsa 8?"
    player.key("1")
    won = player.key("0")                            # the 8 legally into pocket 1: B wins the game
    assert won["summary"]["games"] == {"a": 0, "b": 1}
    assert won["message"]["text"] == "Hru vyhrál Kučera"     # the next rack is on at once: say who won
    assert current(won)["breaker"] == "a" and current(won)["break_shot"]    # 2.3: breaks alternate

    menu = player.key("enter", held=True)
    item = next(i for i in menu["items"] if "Kučera" in i and "vyhrál" in i)
    question = player.key(item.split()[0])
    assert question["title"] == "Hru vyhrál Kučera?" and question["value"] is None
    set_two = player.key("enter")
    assert set_two["summary"]["sets"] == {"a": 0, "b": 1} and set_two["summary"]["set"] == 2
    assert set_two["summary"]["games"] == {"a": 0, "b": 0}
    assert set_two["message"]["text"] == "Set vyhrál Kučera"
    assert current(set_two)["breaker"] == "a"        # 2.3: the set is opened by who did not open set 1

    player.play("70")                                # A takes the solids ...
    player.play("8")
    player.key("3")
    lost = player.key("0")                           # ... and pots the 8 before clearing them: 2.7 (5a)
    assert lost["summary"]["games"] == {"a": 0, "b": 1} and current(lost)["breaker"] == "b"
    assert lost["message"]["text"] == "Hru vyhrál Kučera: 8 předčasně"      # says how (issue 12)
    menu = player.key("enter", held=True)        # the hold menu's digits are fixed (issue 12): 4 is B's game
    assert "4 Hru vyhrál Kučera" in menu["items"] and not any(i.startswith("1 ") for i in menu["items"])
    player.play("4" + "\n")
    over = player.service.screen()
    assert over["summary"]["finished"] and over["summary"]["winner"] == "b"
    assert over["summary"]["sets"] == {"a": 0, "b": 2}
    assert player.key("enter")["title"] == "Uzavřít zápas?"     # 8-ball: an individual match (8B:8)
    player.key("1")
    assert player.key("enter", held=True)["title"] == "Zápas 2: domácí"     # "Ano" by the long press
    assert player.syncer.outbox.pending() == []          # issue 12: it can be taken back until the next shot
    assert player.key("-")["summary"]["finished"]        # taken back: the individual match is open again …
    player.play("\n1h\n\n\n")                           # … closed again; the next pairing
    player.play("7")                                     # the next match's first shot: the one before is final
    items = player.syncer.outbox.pending()
    assert [item.kind for item in items] == ["partie"]


def test_a_single_8ball_match_asks_who_breaks_in_games_and_sets(emulator):
    """8-ball is played in games (hry) and sets (8B:8): the question before a single match's first
    break names them, not a carom partie."""
    player = emulator(game="8ball")
    question = player.play("\n1\n")[-1]
    assert question["title"] == "1. set, 1. hra: kdo rozráží?" and "artie" not in question["title"]
    start = player.key("enter")
    assert start["screen"] == "8ball" and current(start)["break_shot"]
