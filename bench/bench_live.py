"""Live page figures (a script, not a test): key press → Server-Sent Event on the device.

    .venv/bin/python bench/bench_live.py [PRESSES] [--idle SECONDS]

* key → frame and key → event: a gpiozero MockFactory button is pressed; the service loop runs in
  its thread (journal fsync'd under --dir); times until the frame reaches the (luma dummy) display
  and until each SSE viewer on 127.0.0.1 has the event — with the live page off, with 1 viewer
  and with 50;
* `pocitadlo run` with [live] enabled: process start → first frame (READY=1), and idle CPU with
  20 viewers connected to /events and nothing pressed.
"""
import os
import platform
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench_service import _cpu_model, press, run_stamping_frames, write_config
from stages import percentile
from startup import _rss_kib, idle_cpu, running

WAIT = 5.0


class Viewers:
    """``count`` raw SSE connections to ``path``, read with one selector; ``wait_all`` counts the
    ``event`` events each has had so far and stamps when each new one arrived."""

    def __init__(self, address, count: int, *, path: str = "/events", event: bytes = b"event: state"):
        self.selector = selectors.DefaultSelector()
        self.events, self.event = {}, event
        for n in range(count):          # each from its own loopback address: a spectator's phone each,
            source = (f"127.0.{n // 250}.{2 + n % 250}", 0)     # as the servers cap streams per client
            sock = socket.create_connection(address, timeout=WAIT, source_address=source)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, data=[b""])
            self.events[sock] = 0

    def wait_all(self, target: int, deadline: float) -> list[float]:
        """Read until every viewer has ``target`` state events; when each got its last one."""
        stamps = {}
        while len(stamps) < len(self.events) and time.perf_counter() < deadline:
            for key, _ in self.selector.select(timeout=0.5):
                self._read(key)
                if self.events[key.fileobj] >= target and key.fileobj not in stamps:
                    stamps[key.fileobj] = time.perf_counter()
        if len(stamps) < len(self.events):
            raise SystemExit(f"only {len(stamps)} of {len(self.events)} viewers had event {target}")
        return list(stamps.values())

    def _read(self, key) -> None:
        buffer = key.data[0] + key.fileobj.recv(65536)
        done, _, rest = buffer.rpartition(b"\n\n")
        key.data[0] = rest
        self.events[key.fileobj] += done.count(self.event)

    def drain(self, seconds: float) -> None:
        """Read (and count) whatever arrives within ``seconds``."""
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for key, _ in self.selector.select(timeout=0.05):
                self._read(key)

    def close(self) -> None:
        for sock in self.events:
            self.selector.unregister(sock)
            sock.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def presses(directory: Path, count: int, viewers: int | None) -> tuple[list[float], list[float]]:
    """(key → frame, key → event at each viewer) in seconds; viewers None: the live page off."""
    from gpiozero.pins.mock import MockFactory

    from cli.commands.run import assemble
    from firmware_host.live.server import attach
    from firmware_host.service import Stop, Ui
    from firmware_host.settings import load

    path = write_config(directory)
    if viewers is not None:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f'[live]\nenabled = true\nbind = "127.0.0.1"\nport = {free_port()}\nmax_clients = 64\n')
    config = load(path)
    factory = MockFactory()
    service, devices, _ = assemble(config, pin_factory=factory)
    live = attach(config, service) if viewers is not None else None
    for _ in range(3):
        service.post(Ui("confirm"))                  # ready → setup → single partie → a starts
    thread, shown, frames = run_stamping_frames(service)
    watchers = None
    if live is not None:
        if not live.listening(WAIT):
            raise SystemExit(f"live page: {live.error}")
        watchers = Viewers(live.address, viewers)
        watchers.wait_all(1, time.perf_counter() + WAIT)
    to_event = []

    def events(n: int, start: float) -> None:
        if watchers is not None:
            to_event.extend(t - start for t in watchers.wait_all(n + 2, start + WAIT))

    to_frame = press(factory.pin(17), shown, frames, count, after=events)
    service.post(Stop())
    thread.join(5)
    if watchers is not None:
        watchers.close()
        live.stop()
    for dev in devices:
        dev.close()
    return to_frame, to_event


def idle_with_viewers(directory: Path, viewers: int, seconds: float) -> dict:
    """`pocitadlo run`: start → READY=1, then CPU with ``viewers`` connected (0: [live] off)."""
    port = free_port()
    config = write_config(directory, devices='["terminal"]')
    with open(config, "a", encoding="utf-8") as fh:
        fh.write(f'[live]\nenabled = {str(viewers > 0).lower()}\nbind = "127.0.0.1"\nport = {port}\n')
    with running(config, directory) as (child, stamps):
        first_frame = stamps["ready"]
        watchers = None
        for _ in range(100 if viewers else 0):
            try:
                watchers = Viewers(("127.0.0.1", port), viewers)
                break
            except OSError:
                time.sleep(0.05)
        if viewers and watchers is None:
            raise SystemExit("the live page did not come up")
        if watchers is not None:
            watchers.wait_all(1, time.perf_counter() + WAIT)
        idle = idle_cpu(child.pid, seconds)
        rss = _rss_kib(child.pid)
        if watchers is not None:
            watchers.close()
    return {"first_frame": first_frame, "idle_cpu": idle, "rss_mib": rss / 1024}


def arguments():
    import argparse
    import warnings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presses", nargs="?", type=int, default=200)
    parser.add_argument("--dir", default="/var/tmp", help="where the journal goes (a real disk)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    warnings.filterwarnings("ignore", category=DeprecationWarning)     # luma's getdata, every frame
    return parser.parse_args()


def figures(values: list[float]) -> str:
    return (f"p50 {statistics.median(values) * 1000:.2f} ms, p99 {percentile(values, 99) * 1000:.2f} ms, "
            f"max {max(values) * 1000:.2f} ms")


def main() -> None:
    args = arguments()
    print(f"machine: {platform.machine()} {_cpu_model()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for viewers in (None, 1, 50):
            folder = Path(tmp) / f"viewers-{viewers}"
            folder.mkdir()
            frame, event = presses(folder, args.presses, viewers)
            name = "live page off" if viewers is None else f"{viewers} viewer{'s' * (viewers > 1)}"
            print(f"{name}, {args.presses} presses: key → frame {figures(frame)}")
            if event:
                print(f"    key → SSE event at the viewer ({len(event)} receipts): {figures(event)}")
        for viewers in (0, 20):
            folder = Path(tmp) / f"idle-{viewers}"
            folder.mkdir()
            idle = idle_with_viewers(folder, viewers, args.idle)
            name = f"[live] on, {viewers} viewers connected" if viewers else "[live] off"
            print(f"pocitadlo run, {name}: start → first frame {idle['first_frame'] * 1000:.0f} ms; "
                  f"idle CPU over {args.idle:.0f} s: {idle['idle_cpu'] * 100:.2f} %; "
                  f"resident memory {idle['rss_mib']:.1f} MiB")


if __name__ == "__main__":
    main()
