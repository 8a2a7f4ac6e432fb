"""Finding 7 (RULES 2.9): a forfeit wins the individual match, not a game: games and sets stay as played."""
import carom_samples
from delivery.outbox import item_body
from server.site import pages
from server.tables import eightball, exports

MATCH = {"id": "PK-1", "home": "Koule", "away": "Tágo", "venue": "Hospoda U Koule", "date": "2026-11-27"}


def test_a_forfeit_before_the_next_break_counts_as_a_won_match_not_a_won_game(receiver, sign):
    """RULES 2.9: Koule's player leads 1:2 in games and Tágo's player forfeits before the next break."""
    text, summary = carom_samples.eightball("PK-1-m1", "Koule hráč", "Tágo hráč", "aba", match=MATCH, number=1,
                                      home="a", forfeit="b")
    assert [g["reason"] for g in summary["games_log"]][-1] == "forfeit"       # the rule core logs it
    assert receiver.handle(sign("u-koule-1").sign(item_body("PK-1-m1", "partie", text, summary)),
                           via="test")[0] == 200
    [row] = eightball.league_table(receiver.store)["rows"][:1]
    assert (row["team"], row["points"], row["individual_won"], row["individual_lost"]) == ("Koule", 1, 1, 0)
    assert (row["games_won"], row["games_lost"], row["games_difference"]) == (2, 1, 1)     # as played
    assert (row["sets_won"], row["sets_lost"]) == (0, 0)
    record = exports.match_record(receiver.store, "PK-1")
    [individual] = record["individual"]
    assert individual["sets"] == [{"set": 1, "games": {"home": 2, "away": 1}, "winner": None}]   # a race to 3: not won
    assert (individual["winner"], individual["forfeit"]) == ("home", "away")
    assert record["totals"]["home"] == {"sets": 0, "games": 2, "matches": 1}
    assert "skrečováno" in pages.match(record)


def test_a_set_a_forfeit_cuts_short_has_no_winner_on_the_zapis(receiver, sign):
    """RULES 2.9 / 8B:8: a set is won by reaching its race of games. Koule's player wins set 1
    2:0; Tágo's player leads set 2 1:0 and then forfeits. The zápis lists set 1 won by Koule's
    player and set 2 with no winner, as the sets count 1:0 says (it named Tágo's player)."""
    text, summary = carom_samples.eightball("PK-1-m1", "Koule hráč", "Tágo hráč", "aab", match=MATCH, number=1,
                                      home="a", forfeit="b", games_to_win=2)
    assert receiver.handle(sign("u-koule-1").sign(item_body("PK-1-m1", "partie", text, summary)),
                           via="test")[0] == 200
    [individual] = exports.match_record(receiver.store, "PK-1")["individual"]
    assert (individual["home"]["sets"], individual["away"]["sets"]) == (1, 0)
    assert individual["sets"] == [{"set": 1, "games": {"home": 2, "away": 0}, "winner": "home"},
                                  {"set": 2, "games": {"home": 0, "away": 1}, "winner": None}]


def test_the_zapis_lists_the_games_played_not_the_forfeit_as_a_game(receiver, sign):
    """RULES 2.9: the games list of an individual match has the games played (3 here); the forfeit
    is said beside the match (skrečováno), not as a 4th game broken and won by the forfeiter's
    opponent."""
    text, summary = carom_samples.eightball("PK-1-m1", "Koule hráč", "Tágo hráč", "aba", match=MATCH, number=1,
                                            home="a", forfeit="b")
    assert receiver.handle(sign("u-koule-1").sign(item_body("PK-1-m1", "partie", text, summary)),
                           via="test")[0] == 200
    record = exports.match_record(receiver.store, "PK-1")
    [individual] = record["individual"]
    assert [g["game"] for g in individual["games"]] == [1, 2, 3]
    assert all(g["reason"] != "forfeit" for g in individual["games"])
    page = pages.match(record)
    assert "skrečováno" in page and page.count("<td>skrečováno</td>") == 0
