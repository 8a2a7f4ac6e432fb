"""Finding 7 (RULES 2.9): a forfeit wins the individual match, not a game: games and sets stay as played."""
from delivery.outbox import item_body
from server import eightball, pages, samples

MATCH = {"id": "PK-1", "home": "Koule", "away": "Tágo", "venue": "Hospoda U Koule", "date": "2026-11-27"}


def test_a_forfeit_before_the_next_break_counts_as_a_won_match_not_a_won_game(receiver, sign):
    """RULES 2.9: Koule's player leads 1:2 in games and Tágo's player forfeits before the next break."""
    text, summary = samples.eightball("PK-1-m1", "Koule hráč", "Tágo hráč", "aba", match=MATCH, number=1,
                                      home="a", forfeit="b")
    assert [g["reason"] for g in summary["games_log"]][-1] == "forfeit"       # the rule core logs it
    assert receiver.handle(sign("u-koule-1").sign(item_body("PK-1-m1", "partie", text, summary)),
                           via="test")[0] == 200
    [row] = eightball.league_table(receiver.store)["rows"][:1]
    assert (row["team"], row["points"], row["individual_won"], row["individual_lost"]) == ("Koule", 1, 1, 0)
    assert (row["games_won"], row["games_lost"], row["games_difference"]) == (2, 1, 1)     # as played
    assert (row["sets_won"], row["sets_lost"]) == (0, 0)
    record = eightball.match_record(receiver.store, "PK-1")
    [individual] = record["individual"]
    assert individual["sets"] == [{"set": 1, "games": {"home": 2, "away": 1}, "winner": "home"}]
    assert (individual["winner"], individual["forfeit"]) == ("home", "away")
    assert record["totals"]["home"] == {"sets": 0, "games": 2, "matches": 1}
    assert "skrečováno" in pages.match(record)
