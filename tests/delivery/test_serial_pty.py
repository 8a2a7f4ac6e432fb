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

from delivery.sync import Syncer
from delivery.transport_serial import SerialTransport
from server.ingest.receiver import Receiver
from sync_helpers import (
    DEVICE,
    SECRET,
    FakeClock,
    assert_exactly_once,
    deliver_all,
    drain,
    queue,
    relay,
    serial_listener,
)
from wire.answer import TransportError
from wire.signing import Signer

pytestmark = pytest.mark.slow


def run_link(tmp_path, store, fault, n=6, tries=8, quiet_gap=0.1):
    with relay(fault) as cable, serial_listener(Receiver(store), cable.listener_port, quiet_gap=quiet_gap):
        outbox = queue(tmp_path / "outbox", n)
        transport = SerialTransport(cable.device_port, Signer(DEVICE, SECRET), ack_timeout=0.15, tries=tries)
        return outbox, deliver_all(outbox, transport)


def test_records_cross_a_clean_pty_pair_exactly_once(tmp_path, sync_store):
    outbox, syncer = run_link(tmp_path, sync_store, None)
    assert_exactly_once(outbox, sync_store, 6)
    assert syncer.status()["last_error"] is None


def test_dropped_flipped_and_duplicated_bytes_in_both_directions(tmp_path, sync_store):
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

    outbox, _ = run_link(tmp_path, sync_store, fault, n=8)
    assert all(hits.values()), hits         # every kind of damage really happened
    assert_exactly_once(outbox, sync_store, 8)


def test_the_cable_pulled_mid_frame(tmp_path, sync_store):
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

    outbox, _ = run_link(tmp_path, sync_store, fault, n=3)
    assert_exactly_once(outbox, sync_store, 3)


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


def test_socket_cable_pulled_then_plugged_back(tmp_path, sync_store):
    """pyserial socket://: the port itself fails; the transport reopens it once the cable is back."""
    cable = SocketCable()
    try:
        with serial_listener(Receiver(sync_store), cable.listener_port, quiet_gap=0.1):
            outbox = queue(tmp_path / "outbox", 4)
            transport = SerialTransport(cable.url, Signer(DEVICE, SECRET), ack_timeout=0.2, tries=3)
            _pull_and_plug(cable, outbox, transport)
    finally:
        cable.close()
    assert_exactly_once(outbox, sync_store, 4)


def _pull_and_plug(cable, outbox, transport):
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
    drain(syncer, clock, outbox, max_steps=50)
    transport.close()


def test_a_missing_port_is_a_transport_error(tmp_path):
    transport = SerialTransport(str(tmp_path / "ttyUSB9"), Signer("d", SECRET), ack_timeout=0.05, tries=1)
    with pytest.raises(TransportError, match=r"^serial port .*ttyUSB9 does not exist \(is the cable or its USB adapter plugged in\?\)$"):
        transport.send(b"{}")


def test_a_refusal_over_serial_comes_back_in_the_ack(tmp_path, sync_store):
    """An unknown device gets the receiver's 401 over serial too (same signature as HTTP)."""
    with relay() as cable, serial_listener(Receiver(sync_store), cable.listener_port):
        transport = SerialTransport(cable.device_port, Signer("u-tygra-9", SECRET), ack_timeout=0.3, tries=3)
        answer = transport.send(json.dumps({"id": "x", "kind": "partie"}).encode())
        transport.close()
    assert answer.status == 401 and "unknown device" in answer.message
    assert sync_store.items.count() == 0
