"""A key pressed at the device reaches the league's /live board: the emulator player's service,
its live snapshots signed and posted over HTTP, the receiver on 127.0.0.1 (issue 15 part 2)."""
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from league_live_helpers import DEVICE, SECRET, START_PARTIE, VENUE, Events, connect, page_state
from live_helpers import until

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


def test_pocitadlo_run_with_push_shows_its_table_on_the_league_board(tmp_path, league):
    """The whole device process: `pocitadlo run` with [live] push (the LAN page off) and [sync]
    over HTTP to the league; its ready screen appears on /live; SIGTERM stops it cleanly."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[device]\nvenue = "{VENUE}"\ntable = "3"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
        '[keypad]\ndevices = ["terminal"]\n'
        f'[sync]\ntransport = "http"\nurl = "http://127.0.0.1:{league.port}/api/v1/records"\n'
        f'allow_plain_http = true\ndevice_id = "{DEVICE}"\nsecret = "{SECRET.decode()}"\noutbox = "outbox"\n'
        '[live]\npush = true\n', encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    env.pop("NOTIFY_SOCKET", None)
    with open(tmp_path / "log", "w") as log:
        child = subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config)],
                                 stdin=subprocess.DEVNULL, stderr=log, env=env)
    try:
        tables = until(lambda: board(league.port), "the device's table on /live", limit=30)
    finally:
        child.send_signal(signal.SIGTERM)
        code = child.wait(20)
    assert [(t["venue"], t["table"], t["view"]) for t in tables] == [(VENUE, "3", "ready")]
    assert code == 0, (tmp_path / "log").read_text()


def board(port: int) -> list:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/live", timeout=10) as answer:
        return page_state(answer.read())
