"""What a live snapshot (wire/live.py) carries of the rule core's summary: what the wall counter
shows (RULES 1.7) and how the partie ended, small; one from an older device still parses."""
import json

from league_live_helpers import PLAYED, forfeit, played
from wire.live import parse, snapshot


def carried(view: dict) -> dict:
    return json.loads(snapshot(venue="Hospoda U Lva", table="1", seq=1, view=view))["summary"]


def test_a_carom_snapshot_carries_who_is_at_the_table_the_series_and_each_players_innings():
    summary = carried(played(PLAYED["mid"]))           # A 1 in 1 inning, B at the table on a series of 3
    assert summary["counter"]["at_table"] == "b" and summary["counter"]["series"] == 3
    assert [(p["points"], p["innings"]) for p in summary["players"].values()] == [(1, 1), (3, 0)]
    assert summary["counter"]["points_left"] == {"a": 19, "b": 17}
    assert summary["counter"]["last_two"] is False and summary["counter"]["equalising"] is False


def test_a_carom_snapshot_carries_the_last_two_innings_and_the_equalising_inning():
    counter = carried(played(PLAYED["equalising"]))["counter"]      # A reached 20 in the first inning
    assert (counter["at_table"], counter["last_two"], counter["equalising"]) == ("b", True, True)
    assert counter["points_left"] == {"a": 0, "b": 20}
    second = carried(played([{"cmd": "miss"}] * 2))["counter"]     # the 2nd of 3 innings: one of the last 2
    assert second["last_two"] is True and second["equalising"] is False


def test_a_carom_snapshot_carries_how_the_partie_ended():
    lost = carried(played(PLAYED["forfeit"]))           # A forfeits leading 10:1
    assert (lost["finished"], lost["result"], lost["forfeit"]) == (True, "b", "a")
    assert carried(played(PLAYED["draw"]))["result"] == "draw"


def test_an_eightball_snapshot_carries_the_winner_and_the_forfeit():
    summary = carried(played([{"cmd": "game", "winner": "b"}, forfeit("b")], game="8ball"))
    assert (summary["finished"], summary["winner"], summary["forfeit"]) == (True, "a", "b")


def test_the_snapshot_stays_small_and_keeps_nothing_else():
    view = played(PLAYED["mid"], a="Ř" * 200, b="Ž" * 200)
    body = snapshot(venue="V" * 200, table="1", seq=2**63 - 1, view=view)
    assert len(body) < 1536                                  # two 200-character names included
    summary = json.loads(body)["summary"]
    assert set(summary["players"]["a"]) == {"name", "points", "innings"}       # no series list, no average
    assert set(summary["counter"]) == {"at_table", "inning", "series", "points_left", "last_two", "equalising"}


def test_an_older_devices_snapshot_without_the_new_keys_still_parses():
    old = {"venue": "Hospoda U Lva", "table": "1", "seq": 1, "view": "carom", "record": None, "match": None,
           "summary": {"game": "carom", "finished": False, "result": None, "forfeit": None, "innings_limit": 15,
                       "players": {"a": {"name": "Novák", "points": 3}, "b": {"name": "Dvořák", "points": 1}},
                       "counter": {"at_table": "a", "inning": 2, "series": 0}}}
    assert parse(json.dumps(old).encode()) == old
