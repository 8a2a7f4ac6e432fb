"""The live endpoint on real sockets (127.0.0.1): state, events, catch-up, bounds, escaping.

Keys are pressed through the emulator player (referee → rule core → journal → counter), so what
the live page gets is what the service showed. Every wait is bounded (live_helpers.WAIT)."""
import json
import socket

import pytest

from firmware_host.live.pages import script_json
from live_helpers import HOSTILE, MATCH, START_PARTIE, Viewer, get, hostile_home_team, request, serving, state, until


@pytest.fixture
def table(emulator):
    """(player, address) of a carom table with its live endpoint; stopped after the test."""
    player = emulator(points_limit=30)
    with serving(player) as live:
        yield player, live.address, live


def test_state_json_follows_the_keys_pressed(table):
    player, address, _ = table
    assert state(address)["view"] == "ready"
    player.play(START_PARTIE + "127")
    now = state(address)
    assert now["view"] == "carom" and now["venue"] == "Hospoda U Lva" and now["table"] == "1"
    assert now["summary"]["players"]["a"]["points"] == 13
    assert now["summary"]["counter"]["at_table"] == "a" and now["summary"]["counter"]["series"] == 13
    player.play("0")                                   # a miss: B is at the table
    assert state(address)["summary"]["counter"]["at_table"] == "b"


def test_every_change_is_an_event_in_order(table):
    player, address, _ = table
    viewer = Viewer(address)
    first_id, first = viewer.next_state()
    assert viewer.status == 200 and first["view"] == "ready"
    player.play(START_PARTIE)
    seen = [viewer.next_state()]
    for key, points in (("1", 1), ("2", 3), ("7", 13)):
        player.play(key)
        seen.append(viewer.next_state())
        assert seen[-1][1]["summary"]["players"]["a"]["points"] == points
    ids = [first_id] + [event_id for event_id, _ in seen]
    assert ids == list(range(first_id, first_id + 5))
    viewer.close()


def test_menus_and_refusals_are_not_events_for_spectators(table):
    player, address, _ = table
    player.play(START_PARTIE + "1")
    before = state(address)
    player.key("h", held=True)                         # the referee's menu over the partie
    player.play("-" * 3)                               # undo past the start: a refusal message
    after = state(address)
    assert after["view"] == "carom" and "message" not in after
    assert after["summary"]["players"]["a"]["points"] in (0, 1)
    assert after["seq"] >= before["seq"]


def test_a_reconnecting_viewer_catches_up_with_the_whole_state(table):
    player, address, _ = table
    viewer = Viewer(address)
    viewer.next_state()
    player.play(START_PARTIE + "1")
    last_id, _ = viewer.next_state()
    while last_id < state(address)["seq"]:
        last_id, _ = viewer.next_state()
    viewer.close()
    player.play("270")                                 # while nobody watches
    again = Viewer(address, last_event_id=last_id)
    event_id, now = again.next_state()
    assert event_id == state(address)["seq"] > last_id
    assert now["summary"]["players"]["a"]["points"] == 13 and now["summary"]["counter"]["at_table"] == "b"
    again.close()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_nothing_but_get_and_head(table, method):
    player, address, _ = table
    player.play(START_PARTIE + "1")
    before = state(address)
    for path in ("/", "/state.json", "/events", "/overlay"):
        answer = request(address, f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}")
        assert answer.startswith(b"HTTP/1.1 405 ") and b"\r\nAllow: GET, HEAD\r\n" in answer
    assert state(address) == before


def test_head_has_the_headers_and_no_body(table):
    _, address, _ = table
    status, headers, body = get(address, "/state.json", "HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_unknown_paths_and_garbage_get_a_plain_answer(table):
    _, address, _ = table
    assert get(address, "/admin")[0] == 404
    assert request(address, "HELLO\r\n\r\n").startswith(b"HTTP/1.1 400 ")


def test_pages_carry_a_content_security_policy(table):
    _, address, _ = table
    for path in ("/", "/overlay"):
        status, headers, body = get(address, path)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert get(address, "/live.js")[0] == 200 and get(address, "/live.css")[0] == 200


def test_a_hostile_name_is_never_markup(emulator):
    """Player and venue names that try to close the data block and run a script stay text."""
    player = emulator()
    hostile_home_team(player)
    with serving(player, identity={"venue": HOSTILE, "table": '"><b>1', "language": "cs"}) as live:
        player.play(MATCH)
        body = get(live.address, "/")[2].decode()
        assert "<script>alert" not in body and "<img" not in body and "<b>" not in body
        assert body.count("</script>") == 2                # the data block's and live.js's own
        data = json.loads(body.split('id="live-data">', 1)[1].split("</script>", 1)[0])
        assert data["state"]["venue"] == HOSTILE
        assert data["state"]["summary"]["players"]["a"]["name"].startswith(HOSTILE)


def test_script_json_escapes_what_could_end_the_block():
    text = script_json({"name": "</script><!--&"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"name": "</script><!--&"}


def test_the_connection_cap_answers_503_and_frees_a_place_when_a_viewer_leaves(emulator):
    with serving(emulator(), max_clients=2) as live:
        first, second = Viewer(live.address), Viewer(live.address)
        first.next_state(), second.next_state()
        assert get(live.address, "/state.json")[0] == 503
        first.close()
        until(lambda: live.connections < 2, "the server noticed the viewer left")
        assert get(live.address, "/state.json")[0] == 200
        second.close()


def ended(viewer) -> bool:
    """The server ended this viewer's stream (after the state it was sent on connect)."""
    try:
        for _ in range(10):
            viewer.next_state()
    except (EOFError, ConnectionResetError):
        return True
    return False


def test_one_address_holds_at_most_its_share_of_the_streams(emulator):
    """A client opening stream after stream ends its own oldest, never another's: it cannot
    take every place."""
    with serving(emulator(), max_clients=10) as live:
        live.streams.per_client = 2
        other = Viewer(live.address, source="127.0.0.2")
        mine = [Viewer(live.address) for _ in range(3)]
        try:
            assert other.status == 200 and all(v.status == 200 for v in mine)
            assert ended(mine[0]) and other.next_state()[1]["view"]
            until(lambda: len(live.streams) == 3, "the ended stream left")
        finally:
            for viewer in [other, *mine]:
                viewer.close()


def test_when_every_place_is_held_a_new_viewer_ends_the_idlest_stream(emulator):
    with serving(emulator(), max_clients=2) as live:
        first, second = Viewer(live.address, source="127.0.0.2"), Viewer(live.address, source="127.0.0.3")
        first.next_state(), second.next_state()
        third = Viewer(live.address, source="127.0.0.4")
        try:
            assert third.status == 200 and third.next_state()[1]["view"]
            assert ended(first)
        finally:
            for viewer in (first, second, third):
                viewer.close()


def test_beyond_twice_the_cap_connections_are_closed_unread(emulator):
    with serving(emulator(), max_clients=1) as live:
        viewer = Viewer(live.address)
        viewer.next_state()
        with socket.create_connection(live.address, timeout=10) as silent:
            until(lambda: live.connections == 2, "the silent connection counted")
            try:
                answer = request(live.address, "GET /state.json HTTP/1.1\r\n\r\n")
            except ConnectionResetError:
                answer = b""
            assert answer == b""
            silent.sendall(b"GET /state.json HTTP/1.1\r\n\r\n")
            assert silent.recv(100).startswith(b"HTTP/1.1 503 ")
        viewer.close()


def test_a_silent_client_is_dropped_after_the_header_deadline(emulator):
    with serving(emulator(), header_deadline=0.2) as live:
        with socket.create_connection(live.address, timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\n")          # and never the blank line
            assert sock.recv(100) == b""                   # closed by the server, no answer
        until(lambda: live.connections == 0, "the slot is free again")


def test_a_slow_viewer_does_not_hold_up_the_others(emulator):
    """A viewer that reads nothing: its queue is cut back to the newest state; a reading viewer
    gets every event meanwhile, and the slow one, once it reads, ends on the newest state."""
    player = emulator(points_limit=30)
    with serving(player, queue_limit=4, send_buffer=2048) as live:
        slow = Viewer(live.address, receive_buffer=2048)
        fast = Viewer(live.address)
        fast.next_state()
        player.play(START_PARTIE)
        fast.next_state()
        for _ in range(40):                              # 40 x (+1, undo): 80 states, each ~1 kB
            for key in "1-":
                player.play(key)
                fast.next_state()
        clients = list(live.hub.clients)
        until(lambda: any(c.dropped for c in clients), "the slow viewer's queue was cut back")
        assert all(len(c.pending) <= 4 for c in clients)
        player.play("2")
        _, newest = fast.next_state()
        assert newest["summary"]["players"]["a"]["points"] == 2
        events = []
        for _ in range(200):
            events.append(slow.next_state())
            if events[-1][0] == newest["seq"]:
                break
        assert events[-1][1] == newest and len(events) < 80    # not every step: it was cut back
        slow.close(), fast.close()
