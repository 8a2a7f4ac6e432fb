"""What the sync, serial and server tests share: a receiver on 127.0.0.1, pty cables, queued partie.

Import it from a test module (``from sync_helpers import ...``; pytest puts tests/ on sys.path).
The fixtures ``store`` (a receiver's store with DEVICE registered with SECRET) and ``server`` (it,
served over HTTP on 127.0.0.1) are used by importing them into the test module.
"""
import http.client
import json
import os
import re
import select
import socket
import struct
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import carom_samples
from delivery.outbox import Outbox
from delivery.sync import Syncer
from server.http_server import ReceiverServer
from server.ingest.receiver import Receiver
from server.ingest.serial_listener import SerialListener
from server.site.routes import RECORDS
from server.storage.store import Store

DEVICE = "u-lva-1"
SECRET = b"sync-test-secret-0123456789"
VENUE = "Hostinec U Lva"


class FakeClock:
    """A monotonic clock the test moves by hand (the Syncer's backoff waits take no time)."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


@contextmanager
def league_store(path, secret: bytes = SECRET, device: str = DEVICE, venue: str = VENUE):
    """A receiver's store with one registered device of ``venue`` (carom_samples.match's default)."""
    store = Store(path)
    store.devices.add(device, secret, venue=venue)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def running_server(store, port: int = 0, *, certfile=None, keyfile=None, **receiver_options):
    """The receiver as a real HTTP(S) server on 127.0.0.1 (``port`` 0: any free port)."""
    server = ReceiverServer(("127.0.0.1", port), Receiver(store, **receiver_options), certfile=certfile, keyfile=keyfile)
    server.start(poll_interval=0.02)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def records_url(port: int) -> str:
    return f"http://127.0.0.1:{port}{RECORDS}"


@contextmanager
def answering(status: int, body: bytes, content_type: str | None = None):
    """A server on 127.0.0.1 that is not the receiver (a captive portal, a proxy's error page):
    every POST is answered ``status`` with ``body``. Yields the records URL a device would post to."""
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(status)
            if content_type is not None:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        yield records_url(server.server_port)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def sync_store(tmp_path):
    """The receiver's store the sync tests deliver into (SQLite, the test device registered)."""
    with league_store(tmp_path / "league.sqlite") as s:
        yield s


@pytest.fixture
def sync_server(sync_store):
    with running_server(sync_store) as srv:
        yield srv


@contextmanager
def serial_listener(receiver, port: str, **options):
    """A SerialListener serving ``port`` in a thread for the duration of the block."""
    options.setdefault("reopen_delay", 0.05)
    listener = SerialListener(receiver, port, **options)
    listener.link.open()        # before the block sends: pyserial's open flushes what came earlier
    thread, stop = listener.start()
    try:
        yield listener
    finally:
        stop.set()
        thread.join(2)


class Proxy(threading.Thread):
    """Forwards TCP to ``target``; each new connection takes the next behaviour from ``script``:
    "ok", "500", "reset", "stall", "slow", "lost-answer" (forward, then reset instead of answering)."""

    def __init__(self, target_port: int, script):
        super().__init__(daemon=True)
        self.target_port, self.script = target_port, list(script)
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.seen = []

    def run(self):
        while not self.stop.is_set():
            ready, _, _ = select.select([self.sock], [], [], 0.02)
            if ready:
                conn, _ = self.sock.accept()
                how = self.script.pop(0) if self.script else "ok"
                self.seen.append(how)
                threading.Thread(target=self._serve, args=(conn, how), daemon=True).start()

    @staticmethod
    def _read_request(conn) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += conn.recv(65536)
        return data[:len(head) + 4] + body

    @staticmethod
    def _reset(conn):
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    def _serve(self, conn, how):
        try:
            request = self._read_request(conn)
            if how == "500":
                conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\nConnection: close\r\n\r\noops!")
                conn.close()
            elif how == "reset":
                self._reset(conn)
            elif how == "stall":
                self.stop.wait(1.0)
                conn.close()
            else:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
                upstream.sendall(request)
                answer = b""
                while True:
                    chunk = upstream.recv(65536)
                    answer += chunk
                    if not chunk or (b"\r\n\r\n" in answer and len(answer.partition(b"\r\n\r\n")[2]) >= int(
                            re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", answer).group(1))):
                        break
                upstream.close()
                if how == "lost-answer":
                    self._reset(conn)
                    return
                if how == "slow":
                    time.sleep(0.2)
                conn.sendall(answer)
                conn.close()
        except OSError:
            conn.close()

    def close(self):
        self.stop.set()
        self.join(2)
        self.sock.close()


@contextmanager
def proxy(target_port: int, script):
    """A faulty network between a sender and the receiver at ``target_port`` (see Proxy)."""
    between = Proxy(target_port, script)
    between.start()
    try:
        yield between
    finally:
        between.close()


class Relay(threading.Thread):
    """A serial cable of two pty pairs: device (pty 1 slave) <-> relay (both masters) <-> listener
    (pty 2 slave). ``fault(chunk, direction)`` may drop, change or duplicate each chunk."""

    def __init__(self, fault=None):
        super().__init__(daemon=True)
        self.m1, s1 = os.openpty()
        self.m2, s2 = os.openpty()
        self.device_port, self.listener_port = os.ttyname(s1), os.ttyname(s2)
        self._slaves = (s1, s2)     # kept open so a master never sees a hang-up between openings
        self.fault = fault or (lambda chunk, direction: chunk)
        self.stop = threading.Event()

    def run(self):
        peer = {self.m1: (self.m2, "to-listener"), self.m2: (self.m1, "to-device")}
        while not self.stop.is_set():
            ready, _, _ = select.select([self.m1, self.m2], [], [], 0.02)
            for fd in ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    continue
                out, direction = peer[fd]
                chunk = self.fault(chunk, direction)
                if chunk:
                    os.write(out, chunk)

    def close(self):
        self.stop.set()
        self.join(2)
        for fd in (self.m1, self.m2, *self._slaves):
            os.close(fd)


@contextmanager
def relay(fault=None):
    cable = Relay(fault)
    cable.start()
    try:
        yield cable
    finally:
        cable.close()


def partie_items(n: int, seed: int = 1) -> list[tuple[str, str, dict]]:
    """``n`` short finished carom partie p-0..p-{n-1}: (id, record text, summary)."""
    return [(f"p-{i}", *carom_samples.partie(f"p-{i}", "Novák", "Dvořák", seed=seed + i, points_limit=30, innings_limit=5))
            for i in range(n)]


def queue(directory, n: int, seed: int = 1) -> Outbox:
    """An outbox at ``directory`` holding ``partie_items(n)``."""
    outbox = Outbox(directory)
    for item_id, text, summary in partie_items(n, seed):
        outbox.add(item_id, "partie", text, summary)
    return outbox


def drain(syncer, clock: FakeClock, outbox, max_steps: int = 400) -> None:
    """Step the syncer until the outbox is empty, moving the fake clock over every backoff wait."""
    for _ in range(max_steps):
        if not outbox.pending():
            return
        wait = syncer.step()
        clock.t += 0.0 if wait == float("inf") else wait


def deliver_all(outbox, transport, max_steps: int = 400) -> Syncer:
    """Deliver the whole outbox through ``transport`` (fake clock, short backoff), then close it."""
    clock = FakeClock()
    syncer = Syncer(outbox, transport, clock=clock, backoff_initial=1.0, backoff_max=8.0)
    drain(syncer, clock, outbox, max_steps)
    transport.close()
    return syncer


def damaged(data: bytes, draw, hows=("flip", "drop", "dup", "insert"), times=(1, 4)) -> bytes:
    """``data`` with a few bytes flipped, dropped, duplicated or inserted, as hypothesis draws them
    (``draw`` is ``st.data()``)."""
    from hypothesis import strategies as st

    out = bytearray(data)
    for _ in range(draw.draw(st.integers(*times))):
        at = draw.draw(st.integers(0, len(out) - 1))
        how = draw.draw(st.sampled_from(hows))
        if how == "flip":
            out[at] ^= 1 << draw.draw(st.integers(0, 7))
        elif how == "drop":
            del out[at]
        elif how == "dup":
            out.insert(at, out[at])
        else:
            out.insert(at, draw.draw(st.integers(0, 255)))
    return bytes(out)


def wait_for(condition, timeout: float = 30.0, poll: float = 0.02) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` passes (a bound on a hang, not a speed test)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True


def assert_exactly_once(outbox, store, n: int) -> None:
    """Every item p-0..p-{n-1} left the outbox and is stored once, byte for byte as it was sent."""
    assert outbox.pending() == [] and outbox.held() == []
    assert sorted(r["id"] for r in store.items.all()) == sorted(f"p-{i}" for i in range(n))
    for i in range(n):
        assert store.items.body(f"p-{i}") == (outbox.directory / "delivered" / f"p-{i}.json").read_bytes()


def post_json(port: int, path: str, body: bytes, headers: dict, *, timeout: float = 10,
              source: str = "127.0.0.1") -> tuple[int, dict]:
    """POST ``body`` to the receiver on 127.0.0.1:``port`` (from the loopback address ``source``);
    (status, its JSON answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()
