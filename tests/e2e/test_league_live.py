"""A key pressed at the device reaches the league's /live board: the emulator player's service,
its live snapshots signed and posted over HTTP, the receiver on 127.0.0.1 (issue 15 part 2)."""
import pytest

from league_live_helpers import START_PARTIE, VENUE, Events, connect, league  # noqa: F401 — a fixture

pytestmark = pytest.mark.e2e


def next_table(events, condition):
    for _ in range(100):
        name, data = events.next()
        if name == "table" and condition(data):
            return data
    raise AssertionError("no such table event in 100 events")


def test_a_key_at_the_device_reaches_the_league_live_board(emulator, league):
    player = emulator(points_limit=30)
    pusher = connect(player, league.port)
    events = Events(league.port)
    try:
        assert events.next()[0] == "tables"
        player.play(START_PARTIE + "127")
        table = next_table(events, lambda t: t["view"] == "carom" and t["summary"]["players"]["a"]["points"] == 13)
        assert (table["venue"], table["table"]) == (VENUE, "1")
        assert table["summary"]["counter"]["at_table"] == "a"
    finally:
        events.close()
        pusher.stop()
    assert pusher.failed == 0
