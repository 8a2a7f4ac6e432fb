"""Serial delivery across real pty pairs and pyserial's socket://, with a faulty cable in between.

device (pyserial on pty 1 slave) <-> relay (pty 1 master, pty 2 master) <-> listener (pty 2 slave).
The relay drops, flips and duplicates bytes or cuts the line mid-frame; every record must arrive
exactly once and byte-identical.
"""
import json
import os
import random
import select
import socket
import threading

import pytest

from firmware_host.outbox import Outbox
from firmware_host.signing import Signer
from firmware_host.sync import Syncer, TransportError
from firmware_host.transport_serial import SerialTransport
from server import samples
from server.receiver import Receiver
from server.serial_listener import SerialListener
from server.store import Store

SECRET = b"serial-secret-0123456789"


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Relay(threading.Thread):
    """Copies bytes between two pty masters; ``fault(chunk, direction)`` may change each chunk."""

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


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "league.sqlite")
    s.add_device("u-lva-1", SECRET)
    yield s
    s.close()


def queue(tmp_path, n, seed=1):
    outbox = Outbox(tmp_path / "outbox")
    for i in range(n):
        text, summary = samples.partie(f"p-{i}", "Novák", "Dvořák", seed=seed + i, points_limit=30, innings_limit=5)
        outbox.add(f"p-{i}", "partie", text, summary)
    return outbox


def deliver_all(outbox, transport, max_steps=400):
    clock = FakeClock()
    syncer = Syncer(outbox, transport, clock=clock, backoff_initial=1.0, backoff_max=8.0)
    for _ in range(max_steps):
        if not outbox.pending():
            break
        wait = syncer.step()
        clock.t += wait if wait != float("inf") else 0.0
    transport.close()
    return syncer


def assert_exactly_once(outbox, store, n):
    assert outbox.pending() == [] and outbox.held() == []
    rows = store.items()
    assert sorted(r["id"] for r in rows) == sorted(f"p-{i}" for i in range(n))
    for item_id in (f"p-{i}" for i in range(n)):
        assert store.stored_body(item_id) == (outbox.directory / "delivered" / f"{item_id}.json").read_bytes()


def run_link(tmp_path, store, fault, n=6, tries=8, quiet_gap=0.1):
    relay = Relay(fault)
    relay.start()
    listener = SerialListener(Receiver(store), relay.listener_port, quiet_gap=quiet_gap, reopen_delay=0.05)
    thread, stop = listener.start()
    try:
        outbox = queue(tmp_path, n)
        transport = SerialTransport(relay.device_port, Signer("u-lva-1", SECRET), ack_timeout=0.15, tries=tries)
        syncer = deliver_all(outbox, transport)
        return outbox, syncer
    finally:
        stop.set()
        thread.join(2)
        relay.close()


def test_records_cross_a_clean_pty_pair_exactly_once(tmp_path, store):
    outbox, syncer = run_link(tmp_path, store, None)
    assert_exactly_once(outbox, store, 6)
    assert syncer.status()["last_error"] is None


def test_dropped_flipped_and_duplicated_bytes_in_both_directions(tmp_path, store):
    rng = random.Random(7)
    hits = {"drop": 0, "flip": 0, "dup": 0, "dup-chunk": 0}

    def fault(chunk, direction):
        if rng.random() > 0.35:
            return chunk
        how = rng.choice(sorted(hits))
        hits[how] += 1
        at = rng.randrange(len(chunk))
        if how == "drop":
            return chunk[:at] + chunk[at + 1:]
        if how == "flip":
            return chunk[:at] + bytes([chunk[at] ^ (1 << rng.randrange(8))]) + chunk[at + 1:]
        if how == "dup":
            return chunk[:at + 1] + chunk[at:]
        return chunk + chunk

    outbox, _ = run_link(tmp_path, store, fault, n=8)
    assert all(hits.values()), hits         # every kind of damage really happened
    assert_exactly_once(outbox, store, 8)


def test_the_cable_pulled_mid_frame(tmp_path, store):
    """The first frame is cut after 100 bytes and the line stays dead for a while."""
    state = {"sent": 0, "dead_chunks": 0}

    def fault(chunk, direction):
        if direction != "to-listener":
            return chunk
        if state["sent"] < 100 <= state["sent"] + len(chunk):
            state["sent"] += len(chunk)
            state["dead_chunks"] = 2
            return chunk[:100 - (state["sent"] - len(chunk))]
        if state["dead_chunks"]:
            state["dead_chunks"] -= 1
            return b""
        state["sent"] += len(chunk)
        return chunk

    outbox, _ = run_link(tmp_path, store, fault, n=3)
    assert_exactly_once(outbox, store, 3)


class SocketCable:
    """A TCP end for pyserial's socket:// on one side and a pty on the other; ``pull`` cuts it."""

    def __init__(self):
        self.master, slave = os.openpty()
        self._slave = slave
        self.listener_port = os.ttyname(slave)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.conn = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            fds = [self.master] + ([self.server] if self.server and self.conn is None else []) \
                + ([self.conn] if self.conn else [])
            ready, _, _ = select.select(fds, [], [], 0.02)
            for r in ready:
                if r is self.server:
                    self.conn, _ = self.server.accept()
                elif r is self.conn:
                    data = self._recv()
                    if data:
                        os.write(self.master, data)
                elif r == self.master:
                    data = os.read(self.master, 4096)
                    if self.conn:
                        self.conn.sendall(data)

    def _recv(self):
        try:
            data = self.conn.recv(4096)
        except OSError:
            data = b""
        if not data:
            self.conn.close()
            self.conn = None
        return data

    def pull(self):
        """Cut the cable: the connection drops and nobody answers until ``plug``."""
        port = self.server.getsockname()[1]
        self.server.close()
        self.server = None
        if self.conn:
            self.conn.close()
            self.conn = None
        return port

    def plug(self, port):
        self.server = socket.create_server(("127.0.0.1", port))

    def close(self):
        self.stop.set()
        self.thread.join(2)
        for s in (self.server, self.conn):
            if s:
                s.close()
        os.close(self.master)
        os.close(self._slave)


def test_socket_cable_pulled_then_plugged_back(tmp_path, store):
    """pyserial socket://: the port itself fails; the transport reopens it once the cable is back."""
    cable = SocketCable()
    listener = SerialListener(Receiver(store), cable.listener_port, quiet_gap=0.1, reopen_delay=0.05)
    thread, stop = listener.start()
    try:
        outbox = queue(tmp_path, 4)
        transport = SerialTransport(cable.url, Signer("u-lva-1", SECRET), ack_timeout=0.2, tries=3)
        clock = FakeClock()
        syncer = Syncer(outbox, transport, clock=clock, backoff_initial=1.0, backoff_max=4.0)
        assert syncer.step() == 0.0                 # the first one goes through
        port = cable.pull()
        wait = syncer.step()                        # the next one fails: backoff
        assert wait > 0 and outbox.unsent() == 3
        assert syncer.status()["last_error"]
        clock.t += wait
        assert syncer.step() > 0                    # still unplugged: cannot even open
        cable.plug(port)
        for _ in range(50):
            if not outbox.pending():
                break
            clock.t += 10
            syncer.step()
        transport.close()
        assert_exactly_once(outbox, store, 4)
    finally:
        stop.set()
        thread.join(2)
        cable.close()


def test_a_missing_port_is_a_transport_error(tmp_path):
    transport = SerialTransport(str(tmp_path / "ttyUSB9"), Signer("d", SECRET), ack_timeout=0.05, tries=1)
    with pytest.raises(TransportError, match="cannot open"):
        transport.send(b"{}")


def test_a_refusal_over_serial_comes_back_in_the_ack(tmp_path, store):
    """An unknown device gets the receiver's 401 over serial too (same signature as HTTP)."""
    relay = Relay()
    relay.start()
    listener = SerialListener(Receiver(store), relay.listener_port, reopen_delay=0.05)
    thread, stop = listener.start()
    try:
        transport = SerialTransport(relay.device_port, Signer("u-tygra-9", SECRET), ack_timeout=0.3, tries=3)
        answer = transport.send(json.dumps({"id": "x", "kind": "partie"}).encode())
        transport.close()
    finally:
        stop.set()
        thread.join(2)
        relay.close()
    assert answer.status == 401 and "unknown device" in answer.message
    assert store.count() == 0
