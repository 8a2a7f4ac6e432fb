"""A live endpoint on 127.0.0.1 beside an emulator player, and a bounded raw-socket viewer."""
import json
import socket
import time
from contextlib import contextmanager

from firmware_host.live.server import LiveServer
from firmware_host.live.settings import LiveSettings
from firmware_host.live.state import match_context

START_PARTIE = "\n1\n\n"         # ready → setup menu → a single partie → A starts
WAIT = 10.0                      # seconds any socket read may block: a hang bound, not a speed test


def serve(player, *, max_clients: int = 8, identity=None, **kw) -> LiveServer:
    """A LiveServer on a free port, told every model the player's service shows (as `run` wires it)."""
    service = player.service
    live = LiveServer(LiveSettings(True, "127.0.0.1", 0, max_clients),
                      identity or {"venue": "Hospoda U Lva", "table": "1", "language": "cs"},
                      context=lambda: match_context(service.night), **kw)
    service.observers.append(live.observe)
    live.observe(service.display.model)          # what the first frame told it
    assert live.listening(WAIT), live.error
    return live


@contextmanager
def serving(player, **kw):
    """``serve`` for the length of a with block."""
    live = serve(player, **kw)
    try:
        yield live
    finally:
        live.stop()


def request(address, text: str) -> bytes:
    """Send a raw request; the whole answer (the server closes after one)."""
    with socket.create_connection(address, timeout=WAIT) as sock:
        sock.sendall(text.encode())
        chunks = []
        for _ in range(1000):
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def get(address, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    answer = request(address, f"{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def state(address) -> dict:
    status, _, body = get(address, "/state.json")
    assert status == 200
    return json.loads(body)


class Viewer:
    """An /events client on a raw socket: ``next_state()`` is the next state event."""

    def __init__(self, address, *, receive_buffer: int | None = None, last_event_id: int | None = None,
                 path: str = "/events", source: str | None = None):
        self.sock = socket.socket()
        if source is not None:          # another loopback address: another client
            self.sock.bind((source, 0))
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(WAIT)
        self.sock.connect(address)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
        self.buffer = b""
        self.status = int(self._until(b"\r\n\r\n").split()[1])

    def _until(self, mark: bytes) -> bytes:
        for _ in range(10_000):
            if mark in self.buffer:
                part, self.buffer = self.buffer.split(mark, 1)
                return part
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the stream")
            self.buffer += chunk
        raise AssertionError("no end of event in 10,000 reads")

    def next_event(self) -> dict:
        """The fields of the next named event; retry lines and keep-alive comments skipped."""
        for _ in range(1000):
            fields = dict(line.split(": ", 1) for line in self._until(b"\n\n").decode().split("\n")
                          if ": " in line and not line.startswith(":"))
            if "event" in fields:
                return fields
        raise AssertionError("no event in 1000 blocks")

    def next_state(self) -> tuple[int, dict]:
        """(event id, state) of the next state event."""
        for _ in range(1000):
            fields = self.next_event()
            if fields["event"] == "state":
                return int(fields["id"]), json.loads(fields["data"])
        raise AssertionError("no state event in 1000 events")

    def close(self) -> None:
        self.sock.close()


def until(condition, what: str, limit: float = WAIT):
    """Poll ``condition`` (a hang bound: at most ``limit`` seconds); its truthy value."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"not within {limit} s: {what}")


HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;"'
MATCH = "\n4\n\n\n\n\n\n\n"      # tonight's fixture, everybody present, the captains, the lot draw, A starts


def hostile_home_team(player) -> None:
    """Every home player's name (Sokol Dvůr) is ``HOSTILE`` + their own: whoever the lot draws
    for partie 1 has a name that tries to be markup."""
    import json

    from firmware_host.league import load_league

    night = player.service.night
    path = night.device.league
    text = open(path, encoding="utf-8").read()
    for name in ("Novák", "Dvořák", "Svoboda", "Černý", "Procházka"):
        text = text.replace(json.dumps(name, ensure_ascii=False), json.dumps(HOSTILE + name, ensure_ascii=False))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    night.league = load_league(path)
