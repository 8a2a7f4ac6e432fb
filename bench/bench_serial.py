"""Serial sync throughput at a paced line rate over a pty pair, against the raw line rate.

A pty does not limit its speed, so a relay between two pty pairs passes bytes at the chosen baud
rate (8N1: 10 bits a byte) in each direction. The device sends real carom partie records (signed,
framed, stop-and-wait ACK) to the receiver's serial listener. Printed: records/s, body bytes/s,
the share of the raw line rate that carries record bodies, and the same unpaced (CPU bound).

``--pi-class`` runs both again on a slowed core (bench/pi_class.py; the device, the relay and the
receiver all on it) and prints the ratios to the baseline of the same run.

    .venv/bin/python bench/bench_serial.py [--baud 115200] [--records 20] [--pi-class]
"""
import argparse
import os
import platform
import select
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))     # carom_samples

import carom_samples
import pi_class
from delivery.outbox import Outbox
from delivery.sync import Syncer
from delivery.transport_serial import SerialTransport
from server.ingest.receiver import Receiver
from server.ingest.serial_listener import SerialListener
from server.storage.store import Store
from wire import framing
from wire.signing import Signer

SECRET = b"bench-secret-0123456789"


class PacedRelay(threading.Thread):
    """Two pty pairs joined by a relay that passes at most baud/10 bytes a second each way."""

    def __init__(self, baud: int | None):
        super().__init__(daemon=True)
        self.m1, self.s1 = os.openpty()
        self.m2, self.s2 = os.openpty()
        self.device_port, self.listener_port = os.ttyname(self.s1), os.ttyname(self.s2)
        self.byte_time = 10 / baud if baud else 0.0
        self.free_at = {self.m1: 0.0, self.m2: 0.0}   # when each direction's line is free again
        self.stop = threading.Event()

    def run(self):
        peer = {self.m1: self.m2, self.m2: self.m1}
        while not self.stop.is_set():
            ready, _, _ = select.select([self.m1, self.m2], [], [], 0.05)
            for fd in ready:
                chunk = os.read(fd, 256)
                if self.byte_time:
                    start = max(time.perf_counter(), self.free_at[fd])
                    self.free_at[fd] = start + len(chunk) * self.byte_time
                    delay = self.free_at[fd] - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                os.write(peer[fd], chunk)

    def close(self):
        self.stop.set()
        self.join(2)
        for fd in (self.m1, self.m2, self.s1, self.s2):
            os.close(fd)


def run(baud: int | None, records: list, workdir: Path) -> dict:
    store = Store(workdir / f"bench-{baud}.sqlite")
    store.devices.add("bench", SECRET)
    relay = PacedRelay(baud)
    relay.start()
    listener = SerialListener(Receiver(store), relay.listener_port)
    thread, stop = listener.start()
    outbox = Outbox(workdir / f"outbox-{baud}")
    for item_id, text, summary in records:
        outbox.add(item_id, "partie", text, summary)
    body_bytes = sum(len(i.body) for i in outbox.pending())
    transport = SerialTransport(relay.device_port, Signer("bench", SECRET), baudrate=baud or 115200,
                                ack_timeout=1.0, tries=5)
    syncer = Syncer(outbox, transport)
    started = time.perf_counter()
    syncer.send_all()
    elapsed = time.perf_counter() - started
    transport.close()
    stop.set()
    thread.join(2)
    relay.close()
    assert store.items.count() == len(records), "not every record arrived"
    store.close()
    return {"elapsed": elapsed, "body_bytes": body_bytes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baud", type=int, default=115200)
    parser.add_argument("--records", type=int, default=20)
    pi_class.add_arguments(parser)
    args = parser.parse_args()
    records = [(f"p-{i}", *carom_samples.partie(f"p-{i}", "Novák", "Dvořák", seed=i)) for i in range(args.records)]
    sizes = [len(text) for _, text, _ in records]
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpu, "
          f"{platform.system()} {platform.release()}, Python {platform.python_version()}")
    print(f"records: {len(records)} league partie (200 points / 15 innings), record text "
          f"{min(sizes)}-{max(sizes)} B, mean {sum(sizes) // len(sizes)} B; frame overhead {framing.OVERHEAD} B")
    runs = {}
    if not args.pi_class:
        runs["this machine"] = rates(args.baud, records)
    else:
        before = pi_class.pin(pi_class.bench_cpu())
        try:
            runs["baseline"] = rates(args.baud, records)
            with pi_class.slowed_core(args) as (_, calibration):
                runs["slowed core"] = rates(args.baud, records)
        finally:
            os.sched_setaffinity(0, before)
        print(calibration)
    raw = args.baud / 10
    base = next(iter(runs.values()))
    for name, run in runs.items():
        for baud, (per_second, rate) in run.items():
            label = f"{baud} baud (paced)" if baud else "unpaced pty"
            line = f"{name}, {label}: {per_second:.2f} records/s, {rate:,.0f} body B/s"
            if baud:
                line += f" = {100 * rate / raw:.1f}% of the raw line rate {raw:,.0f} B/s"
            if run is not base:
                line += f" ({pi_class.ratio(per_second, base[baud][0])} the baseline's records/s)"
            print(line)


def rates(baud: int, records: list) -> dict:
    """{baud or None (unpaced): (records/s, body bytes/s)}."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rate in (baud, None):
            r = run(rate, records, Path(tmp))
            out[rate] = (len(records) / r["elapsed"], r["body_bytes"] / r["elapsed"])
    return out

if __name__ == "__main__":
    main()
