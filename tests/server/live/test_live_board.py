"""The league's live board (issue 15 part 2): signed snapshots shown on /live, never a record.
Shared by the receivers on one database, expiry and bounds: test_live_shared.py."""
import json

import pytest

from conftest import KOULE, LVA, SECRETS, Client, signer
from league_live_helpers import PLAYED, Events, page_state, played, snap
from league_live_helpers import post_snapshot as post_live
from wire.live import snapshot
from wire.signing import Signer

HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;"'


@pytest.fixture
def store_place(tmp_path):          # the HTTP side: one database kind is enough (the board's SQL: test_live_shared.py)
    return str(tmp_path / "league.sqlite")


def post_signed(port, body: bytes, device="u-lva-1"):
    return post_live(port, body, signer(device).sign(body).headers())


def shown(port) -> list:
    status, html = Client(port).get("/live")
    assert status == 200
    return page_state(html)


def test_a_signed_snapshot_is_shown_on_the_live_page(server):
    assert post_signed(server.port, snap(LVA, "2", points=(7, 4)))[0] == 200
    [table] = shown(server.port)
    assert (table["venue"], table["table"], table["view"]) == (LVA, "2", "carom")
    assert [table["summary"]["players"][side]["points"] for side in "ab"] == [7, 4]
    assert table["received"] and table["record_url"] is None


def test_the_live_page_carries_what_the_wall_counter_shows_and_how_the_partie_ended(server):
    """RULES 1.7 through the receiver, from the rule core's own summary: who is at the table, the
    series, each player's innings, the points left, the last 2 innings and the equalising inning;
    at the end the result and the forfeit (A forfeits leading 10:1: B won)."""
    said = {}
    for seq, (case, commands) in enumerate(PLAYED.items(), start=1):
        body = snapshot(venue=LVA, table="1", seq=seq, view=played(commands))
        assert post_signed(server.port, body)[1]["status"] == "shown"
        [table] = shown(server.port)
        said[case] = table["summary"]
    assert said["mid"]["counter"] == {"at_table": "b", "inning": 1, "series": 3, "points_left": {"a": 19, "b": 17},
                                      "last_two": False, "equalising": False}
    assert [said["mid"]["players"][side]["innings"] for side in "ab"] == [1, 0]
    assert (said["equalising"]["counter"]["last_two"], said["equalising"]["counter"]["equalising"]) == (True, True)
    forfeited = said["forfeit"]
    assert (forfeited["result"], forfeited["forfeit"], forfeited["players"]["a"]["points"]) == ("b", "a", 10)
    assert said["draw"]["result"] == "draw"


def test_an_older_devices_snapshot_without_the_counters_new_facts_is_shown(server):
    """A device from before the snapshot carried innings, points left, the last 2 innings and the
    equalising inning: shown as it came (the page leaves out what it does not say)."""
    old = {"venue": LVA, "table": "3", "seq": 1, "view": "carom", "record": None, "match": None,
           "summary": {"game": "carom", "finished": False, "result": None, "forfeit": None, "innings_limit": 15,
                       "players": {"a": {"name": "Novák", "points": 3}, "b": {"name": "Dvořák", "points": 1}},
                       "counter": {"at_table": "a", "inning": 2, "series": 0}}}
    assert post_signed(server.port, json.dumps(old).encode())[1]["status"] == "shown"
    [table] = shown(server.port)
    assert table["summary"] == old["summary"]


def test_without_its_script_the_page_claims_no_empty_board(server):
    """The rows are drawn by the page's script: without it the page said "Právě se nehraje žádná
    partie." whatever was in play. That line is hidden until the script finds the board empty, and
    a reader without scripts is told where the results are."""
    status, html = Client(server.port).get("/live")
    assert status == 200 and b'<p id="live-none" hidden>' in html and b"<noscript>" in html


def test_the_page_has_a_strict_policy_and_its_script(server):
    status, headers, _ = Client(server.port).request("GET", "/live")
    assert status == 200 and "default-src 'none'" in headers["content-security-policy"]
    status, headers, script = Client(server.port).request("GET", "/live.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript") and b"textContent" in script


def test_unsigned_badly_signed_and_unknown_snapshots_are_refused(server, store):
    body = snap(LVA)
    assert post_live(server.port, body, {})[0] == 401
    forged = signer("u-lva-1").sign(body + b" ").headers()
    assert post_live(server.port, body, forged)[0] == 401
    assert post_signed(server.port, body, device="gw-lva")[0] == 401      # a gateway signs no table
    assert shown(server.port) == []
    assert store.refusals.report()["total"] >= 3


def test_a_removed_devices_table_leaves_the_board_and_its_next_snapshot_is_refused(server, store):
    """Audit report 11: after `server remove-device` an open stream is told its table is gone,
    /live no longer shows it, and its next snapshot is refused like an unregistered device's."""
    assert post_signed(server.port, snap(LVA, "2"))[0] == 200
    events = Events(server.port)
    try:
        assert [entry["table"] for entry in events.next()[1]] == ["2"]
        store.devices.remove("u-lva-1")
        assert events.next() == ("gone", {"venue": LVA, "table": "2"})
    finally:
        events.close()
    assert shown(server.port) == []
    status, answer = post_signed(server.port, snap(LVA, "2", seq=2))
    assert status == 401 and "not a registered device" in answer["reason"] and shown(server.port) == []


def test_a_stale_snapshot_is_refused(server, store):
    body = snap(LVA)
    late = Signer("u-lva-1", SECRETS["u-lva-1"], clock=lambda: store.clock.time() - 3600).sign(body)
    status, answer = post_live(server.port, body, late.headers())
    assert status == 401 and "stale timestamp" in answer["reason"] and shown(server.port) == []


def test_a_device_of_another_venue_or_of_none_is_refused(server):
    status, answer = post_signed(server.port, snap(LVA), device="u-koule-1")
    assert status == 403 and KOULE in answer["reason"]
    assert post_signed(server.port, snap(LVA), device="u-nowhere")[0] == 403
    assert shown(server.port) == []


def test_a_malformed_or_huge_snapshot_is_refused(server):
    assert post_signed(server.port, b'{"venue": 1}')[0] == 400
    assert post_signed(server.port, b"x" * 20_000)[0] == 413
    beyond = snap(LVA).replace(b'"seq":1', b'"seq":' + str(2**63).encode())     # more than the store's 64 bits
    status, answer = post_signed(server.port, beyond)
    assert status == 400 and "'seq'" in answer["reason"] and shown(server.port) == []


def test_an_older_snapshot_never_replaces_a_newer_one(server, store):
    """Snapshots are ordered by (signed timestamp, seq): within one second of the device's clock
    the higher seq wins; a replay, as sent or signed anew in that second, is older."""
    second = store.clock.time()
    same_second = Signer("u-lva-1", SECRETS["u-lva-1"], clock=lambda: second)
    newer, older = snap(LVA, seq=5, points=(9, 0)), snap(LVA, seq=4, points=(1, 0))
    first = same_second.sign(newer).headers()
    assert post_live(server.port, newer, first)[1]["status"] == "shown"
    assert post_live(server.port, newer, first)[1]["status"] == "older"
    assert post_live(server.port, newer, same_second.sign(newer).headers())[1]["status"] == "older"
    assert post_live(server.port, older, same_second.sign(older).headers())[1]["status"] == "older"
    assert shown(server.port)[0]["summary"]["players"]["a"]["points"] == 9


def test_a_restarted_devices_first_snapshot_replaces_its_last_one(server, store):
    """A device counts seq from 0 again after a restart: its later timestamp orders it."""
    now = store.clock.time()
    before, after = (Signer("u-lva-1", SECRETS["u-lva-1"], clock=lambda t=t: t) for t in (now - 5, now))
    assert post_live(server.port, snap(LVA, seq=40, points=(9, 0)),
                     before.sign(snap(LVA, seq=40, points=(9, 0))).headers())[1]["status"] == "shown"
    restarted = snap(LVA, seq=1, points=(0, 0))
    assert post_live(server.port, restarted, after.sign(restarted).headers())[1]["status"] == "shown"
    assert shown(server.port)[0]["summary"]["players"]["a"]["points"] == 0


def test_a_snapshot_never_changes_a_record_or_a_table(server, store, items):
    client = Client(server.port)
    for body in items():
        assert client.post(body)[0] == 200
    before = [client.get(path) for path in ("/table.json", "/table-8ball.json", "/matches.json", "/matches/KD-1.json")]
    stored = store.items.all()
    for seq in range(1, 6):
        assert post_signed(server.port, snap(LVA, seq=seq, record="KD-1-1", points=(seq, 99)))[0] == 200
    assert [client.get(path) for path in ("/table.json", "/table-8ball.json", "/matches.json",
                                          "/matches/KD-1.json")] == before
    assert store.items.all() == stored


def test_a_stored_partie_is_linked_to_its_record(server, items):
    client = Client(server.port)
    server.app.state.live.link_every = 0             # look into the store at every page load
    bodies = items()
    partie_id = json.loads(bodies[0])["id"]
    assert post_signed(server.port, snap(LVA, seq=1, record=partie_id, finished=True))[0] == 200
    assert shown(server.port)[0]["record_url"] is None          # not stored yet
    assert client.post(bodies[0])[0] == 200
    [table] = shown(server.port)
    assert table["record_url"] == f"/api/v1/records/{partie_id}"
    assert client.get(table["record_url"]) == (200, bodies[0])


def test_the_stream_sends_the_list_then_each_change(server):
    post_signed(server.port, snap(LVA, "1"))
    events = Events(server.port)
    try:
        assert events.status == 200
        name, tables = events.next()
        assert name == "tables" and [t["table"] for t in tables] == ["1"]
        post_signed(server.port, snap(LVA, "2", seq=2, points=(5, 6)))
        name, table = events.next()
        assert name == "table" and table["table"] == "2" and table["summary"]["players"]["b"]["points"] == 6
    finally:
        events.close()


def test_a_hostile_name_stays_text(server):
    post_signed(server.port, snap(LVA, a=HOSTILE))
    status, html = Client(server.port).get("/live")
    assert b"<script>alert" not in html and b"<img" not in html
    assert page_state(html)[0]["summary"]["players"]["a"]["name"] == HOSTILE
    events = Events(server.port)
    try:
        assert b"<" not in events.buffer and events.next()[1][0]["summary"]["players"]["a"]["name"] == HOSTILE
    finally:
        events.close()


def ended(events: Events) -> bool:
    """The receiver ended this stream (after the list it was sent on connect)."""
    try:
        for _ in range(10):
            events.next()
    except EOFError:
        return True
    return False


def test_one_address_holds_at_most_its_share_of_the_streams(receiver, serving):
    """A client opening stream after stream ends its own oldest ones, never another client's:
    it cannot hold every slot."""
    with serving(receiver) as srv:
        board = srv.app.state.live
        board.streams.per_client = 3
        other = Events(srv.port, source="127.0.0.2")
        mine = [Events(srv.port) for _ in range(5)]
        try:
            assert other.status == 200 and all(events.status == 200 for events in mine)
            assert ended(mine[0]) and ended(mine[1])
            assert len(board.streams) == 4 and other.next()[0] == "tables"
        finally:
            for events in [other, *mine]:
                events.close()


def test_when_every_stream_is_held_a_new_viewer_ends_the_idlest(receiver, serving):
    with serving(receiver) as srv:
        board = srv.app.state.live
        board.streams.most = 2
        first, second = Events(srv.port, source="127.0.0.2"), Events(srv.port, source="127.0.0.3")
        first.next(), second.next()
        third = Events(srv.port, source="127.0.0.4")
        try:
            assert third.status == 200 and third.next()[0] == "tables"
            assert ended(first) and len(board.streams) == 2
        finally:
            for events in (first, second, third):
                events.close()
