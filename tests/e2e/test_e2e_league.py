"""End to end: what the service really produces reaches the league's receiver, once and intact.

The service is built by ``cli.commands.run.assemble`` from a config file with
``[sync] transport = "http"`` (or ``"serial"``); its Syncer runs in its own thread as ``serve``
runs it; the receiver (server/) is a real HTTP server on 127.0.0.1, or its serial listener at the
other end of a pty cable. The referee's menu actions and record commands are posted to the service
as its keypads post them, and the loop is run by hand (Table).

RULES 1.5 (team points 2/1/0), 1.6 (4 partie, match result, zápis), 1.8 (league table),
2.9 (8-ball match records); issue 7: exactly once, byte-identical, delivered after an outage.
"""
import json
import socket
import time

import pytest
from gpiozero.pins.mock import MockFactory

from device_table_helpers import (
    B_WINS_ON_INNINGS,
    CLOSE,
    HOME_WINS,
    NIGHT,
    Table,
    assert_arrived_once_and_intact,
    close_match,
    device_config,
    fetch,
    fetch_html,
    http_sync,
    play_partie,
)
from server.tables import exports
from sync_helpers import DEVICE, SECRET, league_store, relay, running_server, serial_listener, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HOME, AWAY = "Sokol Dvůr", "Jiskra Hořice"
VENUE = "Hospoda U Lva"       # the venue in LEAGUE below: the device is registered for it
LEAGUE = """
[[teams]]
name = "{HOME}"
venue = "Hospoda U Lva"
players = ["Novák", "Dvořák", "Svoboda", "Černý"]
[[teams]]
name = "{AWAY}"
players = ["Kučera", "Veselý", "Horák", "Němec", "Pokorný"]
[[fixtures]]
date = {tonight}
home = "{HOME}"
away = "{AWAY}"
"""


def write_config(tmp_path, sync: str, clock, *, game: str = "carom", league: bool = True,
                 pins: str = '"enter" = 25') -> object:
    """The device's config, and a league with tonight's fixture by ``clock``."""
    text = LEAGUE.format(HOME=HOME, AWAY=AWAY, tonight=clock.today().isoformat())
    (tmp_path / "league.toml").write_text(text, encoding="utf-8")
    return device_config(tmp_path / "config.toml", DEVICE, SECRET.decode(), sync, game=game,
                         league="league.toml" if league else "", pins=pins)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def table_for(tmp_path, evening):
    tables = []

    def make(sync: str, game: str = "carom") -> Table:
        tables.append(Table(write_config(tmp_path, sync, evening, game=game), evening))
        return tables[-1]

    yield make
    for t in tables:
        t.close()


def start_fixture(table: Table) -> dict:
    """Ready → tonight's fixture → everybody present (both teams) → the captains (A.6.1: the first
    present) → the lot draw shown."""
    assert table.screen["screen"] == "ready"
    table.ui("confirm", "confirm", "confirm", "confirm", "confirm", "confirm")
    lot = table.screen
    assert lot["screen"] == "lotdraw" and len(lot["pairs"]) == 4
    table.ui("confirm")
    return lot


def play_night(table: Table) -> dict:
    """The whole carom match night of NIGHT; returns the lot draw shown."""
    lot = start_fixture(table)
    for home_lag, cmds, _ in NIGHT:
        play_partie(table, home_lag, cmds)
    result = close_match(table)
    assert result["points"] == {"home": 3, "away": 5}
    return lot


def play_single(table: Table, cmds) -> None:
    """Ready → a single partie (carom) or single match (8-ball) outside the league, player 1 starts."""
    assert table.screen["screen"] == "ready"
    table.ui("confirm", 1, "confirm")         # setup: 1 is a single partie on any night
    assert table.screen["screen"] == "menu"    # who starts?
    table.ui("confirm")
    table.play(*cmds)
    assert table.service.night.board.finished, table.screen
    table.ui(*CLOSE)                          # close it? yes
    assert table.screen["screen"] == "ready"
    table.service.night.finalize()            # not taken back: final (issue 12)
    table.service.show()


def assert_ready_all_sent(table: Table) -> None:
    """Issue 7: the ready screen's backlog is back to 0 and shows the last delivery."""
    ready = table.screen
    assert ready["screen"] == "ready"
    assert ready["unsent"] == 0 and ready["last_sent"] is not None
    assert table.outbox.last_delivery() is not None


def assert_carom_night_at_the_receiver(store, items: dict, lot: dict) -> None:
    """RULES 1.6: the zápis lists the 4 drawn partie with their team points (1.5); the league
    table (1.8) has both teams with their points."""
    match = next(c for c in items.values() if c["kind"] == "match")
    partie_ids = match["summary"]["partie_ids"]
    assert len(partie_ids) == 4 and set(partie_ids) < set(items)
    record = exports.match_record(store, match["id"])
    assert record["home"] == HOME and record["away"] == AWAY and record["closed"] is True
    assert record["missing_partie"] == [] and record["seed"] == lot["seed"]
    assert [p["number"] for p in record["partie"]] == [1, 2, 3, 4]
    assert [(p["home"]["team_points"], p["away"]["team_points"]) for p in record["partie"]] == \
        [points for _, _, points in NIGHT]
    assert [p["forfeit"] for p in record["partie"]] == [None, None, None, "home"]      # 1.4.8
    assert [(p["home"]["name"], p["away"]["name"]) for p in record["partie"]] == \
        [(pair["home"], pair["away"]) for pair in lot["pairs"]]
    assert record["points"] == record["declared_points"] == {"home": 3, "away": 5}
    # A.6.9d: each captain took the first player present and signed
    assert [(s["side"], s["captain"]) for s in record["signatures"]] == [("home", "Novák"), ("away", "Kučera")]
    assert record["objections"] == [] and record["unsigned"] == [] and record["interrupted"] is False

    rows = {row["team"]: row for row in exports.league_table(store)["rows"]}
    assert set(rows) == {HOME, AWAY}
    assert rows[HOME]["points"] == 3 and rows[AWAY]["points"] == 5
    assert rows[AWAY]["place"] == 1 and rows[HOME]["matches"] == rows[AWAY]["matches"] == 1


def test_carom_match_night_reaches_the_league_server_over_http(evening, tmp_path, table_for):
    """RULES 1.6: the 4 drawn partie and the match item arrive once and intact over HTTP; the Syncer
    is woken by each closed record (its idle wait is 60 s, far beyond the wait here)."""
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, clock=evening.time) as server:
        table = table_for(http_sync(server.port))
        lot = play_night(table)
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 5
        assert_ready_all_sent(table)
        # the figures follow the answers: a page asked now waits for the step that computes them (server/tables/settling.py)
        league_table = fetch(server.port, "/table.json")
        assert_carom_night_at_the_receiver(store, items, lot)
        (match_id,) = [i for i, c in items.items() if c["kind"] == "match"]
        assert fetch(server.port, f"/matches/{match_id}.json") == exports.match_record(store, match_id)
        assert league_table == exports.league_table(store)



def test_carom_match_night_reaches_the_league_server_over_a_pty_serial_cable(evening, tmp_path, table_for):
    """Issue 7 serial transport: the same night across real pty pairs to the receiver's serial listener."""
    from server.ingest.receiver import Receiver

    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, relay() as cable, \
            serial_listener(Receiver(store, clock=evening.time), cable.listener_port):
        table = table_for(f'transport = "serial"\nserial_port = "{cable.device_port}"\nack_timeout = 0.5\n')
        lot = play_night(table)
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 5 and {r["via"] for r in store.items.all()} == {"serial"}
        assert_ready_all_sent(table)
        assert_carom_night_at_the_receiver(store, items, lot)


def test_receiver_down_when_the_partie_closes_delivers_it_later_exactly_once(evening, tmp_path, table_for):
    """Issue 7: the receiver is down when the partie closes: the ready screen shows "1 unsent" and
    no last delivery; once the receiver is up the record arrives, once and intact."""
    port = free_port()
    table = table_for(http_sync(port))
    play_single(table, HOME_WINS[1])
    assert wait_for(lambda: table.syncer.status()["last_error"] is not None, timeout=10)   # it tried
    ready = table.screen
    assert ready["unsent"] == 1 and ready["last_sent"] is None
    assert table.service.display.model["unsent"] == 1          # what the counter was given to draw
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, port, clock=evening.time):
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 1 and next(iter(items.values()))["summary"]["result"] == "a"
        assert_ready_all_sent(table)
        assert wait_for(lambda: table.syncer.status()["last_error"] is None, timeout=10)   # set just after


def test_eightball_single_match_reaches_the_league_server(evening, tmp_path, table_for):
    """RULES 2.9: a single 8-ball match outside the league arrives once and intact, and replays to
    its summary at the receiver (games to win 2, sets to win 1)."""
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, clock=evening.time) as server:
        table = table_for(http_sync(server.port), game="8ball")
        play_single(table, [{"cmd": "game", "winner": "a"}, {"cmd": "game", "winner": "b"},
                            {"cmd": "game", "winner": "a"}])
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 1
        (item,) = items.values()
        assert item["summary"]["winner"] == "a" and item["summary"]["sets"] == {"a": 1, "b": 0}
        assert [row["game"] for row in store.items.all()] == ["8ball"]
        assert_ready_all_sent(table)


def test_eightball_team_match_reaches_the_league_server(evening, tmp_path, table_for):
    """RULES 2.9: an 8-ball team match of 3 individual matches through the service: each arrives
    once and intact; the receiver's 8-ball match record has them in order with their winners, and
    the team score (individual matches won, 2:1) reaches the 8-ball league table."""
    game = {"a": {"cmd": "game", "winner": "a"}, "b": {"cmd": "game", "winner": "b"}}
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, clock=evening.time) as server:
        table = table_for(http_sync(server.port), game="8ball")
        assert table.screen["screen"] == "ready"
        table.ui("confirm", "confirm", "confirm", "confirm")          # tonight's fixture, all present
        table.ui("confirm", "confirm")                                # the captains (A.6.1)
        for number, winner in enumerate("aba", start=1):
            assert table.screen["title"] == f"Zápas {number}: domácí"
            table.ui(number, "confirm", number, "confirm")             # the n-th player of each team
            table.play(game[winner], game[winner])
            assert table.service.night.board.finished
            table.ui(*CLOSE)
        assert close_match(table)["points"] == {"home": 2, "away": 1}
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 4

        (match_id,) = [i for i, c in items.items() if c["kind"] == "match"]
        record = fetch(server.port, f"/matches/{match_id}.json")
        assert record["game"] == "8ball" and (record["home"], record["away"]) == (HOME, AWAY)
        assert record["closed"] is True and record["missing_partie"] == []
        assert [m["number"] for m in record["individual"]] == [1, 2, 3]
        assert [m["winner"] for m in record["individual"]] == ["home", "away", "home"]
        assert [(m["home"]["name"], m["away"]["name"]) for m in record["individual"]] == [
            ("Novák", "Kučera"), ("Dvořák", "Veselý"), ("Svoboda", "Horák")]
        assert record["points"] == record["declared_points"] == {"home": 2, "away": 1}
        rows = {row["team"]: row for row in fetch(server.port, "/table-8ball.json")["rows"]}
        assert rows[HOME]["points"] == 2 and rows[AWAY]["points"] == 1 and rows[HOME]["place"] == 1
        assert_ready_all_sent(table)


@pytest.mark.parametrize("game", ["carom", "8ball"])
def test_a_team_that_does_not_turn_up_forfeits_and_the_league_table_counts_it(evening, tmp_path, table_for, game):
    """RULES 1.6 / A.3.7: the away team did not come; the match item (the only item) reaches the
    receiver, whose match record shows the forfeit result and whose league table (1.8; 8-ball: 2.9)
    counts the match for both teams with the present team's points."""
    full = {"carom": 8, "8ball": 3}[game]          # 4 partie × 2 (rules.carom.match); 3 individual matches
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, clock=evening.time) as server:
        table = table_for(http_sync(server.port), game=game)
        table.ui("confirm", "confirm", "confirm")          # tonight's fixture, the home team present
        table.ui("down", "confirm", 1, "menu")             # the away team: "did not come", 1 yes by the long press
        assert close_match(table)["points"] == {"home": full, "away": 0}
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        (match_id,) = items

        record = fetch(server.port, f"/matches/{match_id}.json")
        assert record["points"] == record["declared_points"] == {"home": full, "away": 0}
        assert record["forfeit"] == "away" and record["closed"] is True
        table_path = "/table.json" if game == "carom" else "/table-8ball.json"
        rows = {row["team"]: row for row in fetch(server.port, table_path)["rows"]}
        assert rows[HOME]["points"] == full and rows[AWAY]["points"] == 0
        assert rows[HOME]["matches"] == rows[AWAY]["matches"] == 1 and rows[HOME]["place"] == 1
        assert f"{full} : 0" in fetch_html(server.port, f"/matches/{match_id}.html")
        assert AWAY in fetch_html(server.port, "/table.html" if game == "carom" else "/table-8ball.html")


def test_a_restart_while_the_receiver_is_down_keeps_the_backlog_and_delivers_it_once(evening, tmp_path, table_for):
    """Issue 7: the partie closes while the receiver is down, then the device restarts: the new
    service's ready screen still shows "1 unsent", and the record is delivered once when the
    receiver is up."""
    port = free_port()
    first = table_for(http_sync(port))
    play_single(first, HOME_WINS[1])
    assert wait_for(lambda: first.syncer.status()["last_error"] is not None, timeout=10)
    first.close()                                              # the power goes

    table = table_for(http_sync(port))                          # the service starts again
    assert table.screen["unsent"] == 1 and table.screen["last_sent"] is None
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, port, clock=evening.time):
        assert wait_for(table.sent, timeout=20)
        items = assert_arrived_once_and_intact(table, store)
        assert len(items) == 1
        assert_ready_all_sent(table)


PINS = {"1": 17, "2": 27, "7": 5, "0": 22, "enter": 25}      # "7" is +10 in the default carom key map


def test_pocitadlo_run_serve_delivers_a_partie_keyed_on_mock_buttons_and_stops_on_sigterm(evening, tmp_path):
    """``serve`` exactly as ``pocitadlo run`` calls it: keys on gpiozero mock pins, the syncer it
    starts delivers the closed single partie to the receiver over HTTP; SIGTERM stops it cleanly
    (exit 0). RULES 1.4.1: a reaches the limit, b misses the equalising inning, a wins."""
    import os
    import signal
    import threading

    from cli.commands.run import serve
    from delivery.outbox import Outbox

    factory = MockFactory()
    presses = ["enter", "enter", "enter",                      # setup: single partie; player 1 starts
               "7", "1", "2", "0", "1", "0", "7", "2", "2", "0",   # 13 | 1 | 20 (limit) | equalising miss
               "enter", "1", ("enter", 1.0),                    # close the partie? 1 yes, by the long press
               "enter", "enter", "enter"]                       # the next single partie: the one before is final
    pins = "\n".join(f'"{key}" = {pin}' for key, pin in PINS.items())
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store) as server:
        config = write_config(tmp_path, http_sync(server.port), evening, league=False, pins=pins)
        outbox = Outbox(config.parts["sync"].outbox)
        done = threading.Event()
        untouched = signal.getsignal(signal.SIGTERM)

        def referee():
            try:
                time.sleep(0.3)                                  # the service is up
                for press in presses:
                    key, held = press if isinstance(press, tuple) else (press, 0.06)
                    pin = factory.pin(PINS[key])
                    pin.drive_low()
                    time.sleep(held)                             # held past the debounce time
                    pin.drive_high()
                    time.sleep(0.06)
                wait_for(lambda: outbox.delivered_ids() and outbox.last_delivery(), timeout=20)
            finally:
                done.set()
                if signal.getsignal(signal.SIGTERM) is not untouched:   # serve's handler, not pytest's end
                    os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=referee, daemon=True).start()
        assert serve(config, pin_factory=factory) == 0
        assert done.is_set()
        items = {row["id"]: json.loads(row["body"]) for row in store.items.all()}
        assert len(items) == 1 and outbox.pending() == []
        (item,) = items.values()
        assert store.items.body(item["id"]) == (outbox.directory / "delivered" / f"{item['id']}.json").read_bytes()
        assert item["summary"]["result"] == "a" and item["summary"]["players"]["a"]["points"] == 20


def test_a_delivery_wakes_the_service_so_the_ready_screen_drops_the_backlog_at_once(evening, tmp_path, table_for):
    """Issue 7: the ready screen shows the backlog. The loop sleeps up to a minute on the ready
    screen, so a delivery made by the syncer's thread must wake it (an event in its queue), or
    "1 unsent" would stay on the counter for up to a minute after the record went."""
    port = free_port()
    table = table_for(http_sync(port))
    play_single(table, B_WINS_ON_INNINGS[1])
    assert wait_for(lambda: table.syncer.status()["last_error"] is not None, timeout=10)
    assert table.service.display.model["unsent"] == 1
    while not table.service.queue.empty():                    # nothing else is waiting for the loop
        table.service.handle(table.service.queue.get())
    with league_store(tmp_path / "league.sqlite", venue=VENUE) as store, running_server(store, port, clock=evening.time):
        assert wait_for(lambda: not table.service.queue.empty(), timeout=10)   # the loop is woken
        assert wait_for(table.sent, timeout=10)
        table.service.handle(table.service.queue.get())           # what the loop does when woken
        assert table.service.display.model["unsent"] == 0
        assert table.service.display.model["last_sent"] is not None
