"""Records per second into the receiver: over HTTP on 127.0.0.1 (1 and 4 devices at once), and
the receiver's own decision (signature, replay check, SQLite WAL insert with synchronous=FULL),
and a gateway passing its stored records on to the league (`pocitadlo serve --forward`).

    .venv/bin/python bench/bench_server.py [--records 200]
"""
import argparse
import os
import platform
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from delivery.outbox import item_body  # noqa: E402
from wire.signing import Signer  # noqa: E402
from delivery.transport_http import HttpTransport  # noqa: E402
from server import samples  # noqa: E402
from server.receiver import Receiver  # noqa: E402
from server.store import Store  # noqa: E402
from server.http_server import ReceiverServer
from server.web import RECORDS  # noqa: E402

SECRET = b"bench-secret-0123456789"


def bodies(prefix: str, n: int) -> list[bytes]:
    out = []
    for i in range(n):
        item_id = f"{prefix}-{i}"
        text, summary = samples.partie(item_id, "Novák", "Dvořák", seed=i % 50)
        out.append(item_body(item_id, "partie", text, summary))
    return out


def over_http(store_path: Path, batches: list[list[bytes]]) -> float:
    store = Store(store_path)
    store.add_device("bench", SECRET)
    server = ReceiverServer(("127.0.0.1", 0), Receiver(store))
    server.start()
    url = f"http://127.0.0.1:{server.port}{RECORDS}"

    def device(batch):
        transport = HttpTransport(url, Signer("bench", SECRET), timeout=30)
        for body in batch:
            assert transport.send(body).delivered

    threads = [threading.Thread(target=device, args=(batch,)) for batch in batches]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    server.shutdown()
    server.server_close()
    assert store.count() == sum(len(b) for b in batches)
    store.close()
    return elapsed


def direct(store_path: Path, batch: list[bytes]) -> float:
    store = Store(store_path)
    store.add_device("bench", SECRET)
    receiver, signer = Receiver(store), Signer("bench", SECRET)
    signed = [signer.sign(body) for body in batch]
    started = time.perf_counter()
    for s in signed:
        assert receiver.handle(s, via="bench")[0] == 200
    elapsed = time.perf_counter() - started
    store.close()
    return elapsed


def through_gateway(tmp: Path, batch: list[bytes]) -> float:
    """A gateway's store full of records, forwarded by its Syncer to a league receiver over HTTP."""
    from server.forward import forwarder

    gateway, league = Store(tmp / "gateway.sqlite"), Store(tmp / "league.sqlite")
    for store in (gateway, league):
        store.add_device("bench", SECRET)
    league.add_device("gw", SECRET, role="gateway")
    signer = Signer("bench", SECRET)
    receiver = Receiver(gateway)
    for body in batch:
        assert receiver.handle(signer.sign(body), via="bench")[0] == 200
    server = ReceiverServer(("127.0.0.1", 0), Receiver(league))
    server.start()
    syncer = forwarder(gateway, f"http://127.0.0.1:{server.port}{RECORDS}", "gw", SECRET, timeout=30)
    started = time.perf_counter()
    syncer.send_all()
    elapsed = time.perf_counter() - started
    server.shutdown()
    server.server_close()
    assert league.count() == len(batch) and syncer.status()["unsent"] == 0
    gateway.close()
    league.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200)
    args = parser.parse_args()
    n = args.records
    print(f"machine: {platform.machine()} {os.cpu_count()} cpu, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}, SQLite WAL synchronous=FULL on {tempfile.gettempdir()}")
    one = bodies("a", n)
    print(f"records: {n} league carom partie, mean body {sum(map(len, one)) // n} B")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = direct(tmp / "direct.sqlite", one)
        print(f"receiver decision only (verify signature + replay + store): {n / t:.0f} records/s")
        t = over_http(tmp / "one.sqlite", [one])
        print(f"HTTP, 1 device: {n / t:.0f} records/s")
        four = [bodies(f"d{d}", n // 4) for d in range(4)]
        t = over_http(tmp / "four.sqlite", four)
        print(f"HTTP, 4 devices at once: {sum(map(len, four)) / t:.0f} records/s")
        t = through_gateway(tmp, one)
        print(f"gateway forwarding its store to the league over HTTP: {n / t:.0f} records/s")


if __name__ == "__main__":
    main()
