"""Fault injection between the device and a real receiver on 127.0.0.1.

A small TCP proxy answers 500, resets connections, stalls past the timeout, answers slowly, or
forwards the post and then resets before the answer gets back. The receiver is down all night
and comes back. The device is killed with SIGKILL mid-delivery and restarted. Every record must
arrive exactly once and byte-identical.
"""
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from firmware_host.outbox import Outbox
from firmware_host.signing import Signer
from firmware_host.sync import Syncer
from firmware_host.transport_http import HttpTransport
from server import samples
from server.receiver import Receiver
from server.store import Store
from server.web import RECORDS, ReceiverServer

SECRET = b"fault-secret-0123456789"
ROOT = Path(__file__).resolve().parent.parent


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


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
                            answer.split(b"Content-Length: ")[1].split(b"\r\n")[0])):
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


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "league.sqlite")
    s.add_device("u-lva-1", SECRET)
    yield s
    s.close()


@pytest.fixture
def server(store):
    srv = ReceiverServer(("127.0.0.1", 0), Receiver(store))
    srv.start(poll_interval=0.02)
    yield srv
    srv.shutdown()
    srv.server_close()


def make_items(n, seed=1):
    return [(f"p-{i}", *samples.partie(f"p-{i}", "Novák", "Dvořák", seed=seed + i, points_limit=30, innings_limit=5))
            for i in range(n)]


def queue(tmp_path, n):
    outbox = Outbox(tmp_path / "outbox")
    for item_id, text, summary in make_items(n):
        outbox.add(item_id, "partie", text, summary)
    return outbox


def assert_exactly_once(outbox, store, n):
    assert outbox.pending() == [] and outbox.held() == []
    assert sorted(r["id"] for r in store.items()) == sorted(f"p-{i}" for i in range(n))
    for i in range(n):
        assert store.stored_body(f"p-{i}") == (outbox.directory / "delivered" / f"p-{i}.json").read_bytes()


def drain(syncer, clock, outbox, max_steps=200):
    for _ in range(max_steps):
        if not outbox.pending():
            return
        wait = syncer.step()
        clock.t += 0 if wait == float("inf") else wait


def test_500s_resets_stalls_slow_answers_and_lost_answers(tmp_path, server, store):
    script = ["500", "reset", "stall", "slow", "lost-answer", "500", "lost-answer", "reset", "slow"]
    proxy = Proxy(server.port, script)
    proxy.start()
    try:
        outbox = queue(tmp_path, 5)
        clock = FakeClock()
        transport = HttpTransport(f"http://127.0.0.1:{proxy.port}{RECORDS}", Signer("u-lva-1", SECRET), timeout=0.3)
        syncer = Syncer(outbox, transport, clock=clock, backoff_initial=1.0, backoff_max=30.0)
        drain(syncer, clock, outbox)
    finally:
        proxy.close()
    assert proxy.seen[:len(script)] == script
    assert_exactly_once(outbox, store, 5)
    assert syncer.status() == {"unsent": 0, "last_delivery": outbox.last_delivery(), "last_error": None}


def test_the_receiver_down_all_night_then_back(tmp_path, store):
    """Twelve hours without a receiver: attempts back off to the cap, then everything arrives."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    outbox = queue(tmp_path, 3)
    clock = FakeClock()
    transport = HttpTransport(f"http://127.0.0.1:{port}{RECORDS}", Signer("u-lva-1", SECRET), timeout=0.5)
    syncer = Syncer(outbox, transport, clock=clock, backoff_initial=2.0, backoff_max=600.0,
                    rand=random.Random(1).random)
    attempts, waits = 0, []
    while clock.t < 12 * 3600:
        wait = syncer.step()
        attempts += 1
        waits.append(wait)
        clock.t += wait
    assert max(waits) <= 600.0 and max(waits) >= 300.0        # capped, jittered in [cap/2, cap]
    assert 72 <= attempts <= 160                              # not a busy loop, not given up
    assert syncer.status()["unsent"] == 3 and "Connection refused" in syncer.status()["last_error"]
    srv = ReceiverServer(("127.0.0.1", port), Receiver(store))
    srv.start(poll_interval=0.02)
    try:
        clock.t += syncer.step()     # still waiting out the backoff...
        syncer.retry_now()           # ...or the referee presses "send now"
        drain(syncer, clock, outbox)
    finally:
        srv.shutdown()
        srv.server_close()
    assert_exactly_once(outbox, store, 3)


DEVICE = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from firmware_host.outbox import Outbox
    from firmware_host.signing import Signer
    from firmware_host.sync import Syncer
    from firmware_host.transport_http import HttpTransport
    from server import samples
    outbox = Outbox({outbox!r})
    for i in range({n}):   # a restarted service re-adds what it finished: add is idempotent
        text, summary = samples.partie(f"p-{{i}}", "Novák", "Dvořák", seed=1 + i, points_limit=30, innings_limit=5)
        outbox.add(f"p-{{i}}", "partie", text, summary)
    syncer = Syncer(outbox, HttpTransport({url!r}, Signer("u-lva-1", {secret!r}), timeout=5),
                    backoff_initial=0.01, backoff_max=0.05)
    while outbox.pending():
        time.sleep(min(syncer.step(), 0.05))
""")


def test_the_device_killed_mid_delivery_and_restarted(tmp_path, server, store):
    n = 6
    proxy = Proxy(server.port, ["slow", "lost-answer", "slow", "slow", "lost-answer"] + ["slow"] * 20)
    proxy.start()
    script = tmp_path / "device.py"
    outbox_dir = tmp_path / "outbox"
    try:
        def device(port):
            script.write_text(DEVICE.format(root=str(ROOT), outbox=str(outbox_dir), n=n, secret=SECRET,
                                            url=f"http://127.0.0.1:{port}{RECORDS}"), encoding="utf-8")
            return subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE)

        first = device(proxy.port)
        deadline = time.monotonic() + 30
        while store.count() < 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        first.send_signal(signal.SIGKILL)        # killed mid-delivery (answers are slow)
        first.wait()
        assert first.returncode == -signal.SIGKILL
        assert 2 <= store.count() < n
        second = device(server.port)
        assert second.wait(60) == 0, second.stderr.read().decode()
    finally:
        proxy.close()
    outbox = Outbox(outbox_dir)
    assert_exactly_once(outbox, store, n)
