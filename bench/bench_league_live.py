"""League live figures (a script, not a test): key press → Server-Sent Event at a /live client
through the league's receiver.

    .venv/bin/python bench/bench_league_live.py [PRESSES]

A gpiozero MockFactory button is pressed at the device (service loop in its thread, journal
fsync'd under --dir); [live] push posts the signed snapshot over HTTP to the receiver (uvicorn on
127.0.0.1, SQLite store) and its /live/events streams it; times until each of 1 or 50 clients has
the ``table`` event. Presses are spaced past the pusher's coalescing interval (0.25 s: a referee's
keys are seconds apart), so each press is one snapshot. Then the same with the device posting to
one receiver and the clients on another on the same store (two receivers of a federation: the
second sees the snapshot at its next look into the store, server/live/board.py POLL).
"""
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench_live import WAIT, Viewers, figures
from bench_service import _cpu_model, press, run_stamping_frames, write_config

DEVICE, SECRET = "bench-table", b"bench-live-secret-0123456789"
SPACING = 0.3            # seconds before each press: past delivery.live_push.INTERVAL


def league(directory: Path, venue: str, receivers: int):
    """``receivers`` receivers on one SQLite store (each its own Store, as processes have): servers, stores."""
    from server.http_server import ReceiverServer
    from server.ingest.receiver import Receiver
    from server.storage.store import Store

    stores = [Store(str(directory / "league.sqlite")) for _ in range(receivers)]
    stores[0].devices.add(DEVICE, SECRET, venue=venue)
    servers = [ReceiverServer(("127.0.0.1", 0), Receiver(store)) for store in stores]
    for server in servers:
        server.start()
    return servers, stores


def presses(directory: Path, count: int, clients: int, receivers: int = 1) -> list[float]:
    """Key → ``table`` event at each of ``clients`` /live/events clients, in seconds; the device
    posts to the first receiver, the clients watch the last."""
    from gpiozero.pins.mock import MockFactory

    from cli.commands.run import assemble
    from delivery.live_push import LivePusher
    from delivery.transport_http import HttpTransport
    from firmware_host.live.push import SnapshotFeed
    from firmware_host.service import Stop, Ui
    from firmware_host.settings import load
    from wire.signing import Signer

    config = load(write_config(directory))
    factory = MockFactory()
    service, devices, _ = assemble(config, pin_factory=factory)
    servers, stores = league(directory, config.device.venue, receivers)
    transport = HttpTransport(f"http://127.0.0.1:{servers[0].port}/api/v1/live", Signer(DEVICE, SECRET), timeout=2)
    pusher = LivePusher(transport)
    feed = SnapshotFeed(pusher, {"venue": config.device.venue, "table": config.device.table}, service)
    service.observers.append(feed.observe)
    for _ in range(3):
        service.post(Ui("confirm"))                  # ready → setup → single partie → a starts
    thread, shown, frames = run_stamping_frames(service)
    time.sleep(4 * SPACING)                          # the opening screens' snapshots are in
    watchers = Viewers(("127.0.0.1", servers[-1].port), clients, path="/live/events", event=b"event: table\n")
    seen = pusher.sent
    to_event = []

    def events(n: int, start: float) -> None:
        to_event.extend(t - start for t in watchers.wait_all(n + 1, start + WAIT))

    press(factory.pin(17), shown, frames, count, before=lambda n: time.sleep(SPACING), after=events)
    watchers.drain(4 * SPACING)
    if set(watchers.events.values()) != {count}:       # one event per press: none measured early
        raise SystemExit(f"events per client {set(watchers.events.values())}, presses {count}")
    service.post(Stop())
    thread.join(5)
    watchers.close()
    pusher.stop()
    for server, store in zip(servers, stores):
        server.shutdown()
        server.server_close()
        store.close()
    for dev in devices:
        dev.close()
    if pusher.failed:
        raise SystemExit(f"{pusher.failed} snapshots failed ({pusher.sent - seen} sent)")
    return to_event


def main() -> None:
    import argparse
    import warnings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presses", nargs="?", type=int, default=200)
    parser.add_argument("--dir", default="/var/tmp", help="where the journal goes (a real disk)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=DeprecationWarning)     # luma's getdata, every frame
    print(f"machine: {platform.machine()} {_cpu_model()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for clients, receivers in ((1, 1), (50, 1), (50, 2)):
            folder = Path(tmp) / f"clients-{clients}-{receivers}"
            folder.mkdir()
            event = presses(folder, args.presses, clients, receivers)
            where = "the league server" if receivers == 1 else "one receiver, the clients on another"
            print(f"{clients} /live client{'s' * (clients > 1)}, {args.presses} presses: key → SSE event "
                  f"through {where} ({len(event)} receipts): {figures(event)}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
