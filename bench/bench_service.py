"""Whole-service figures (a script, not a test): mock pins → referee → rule core → journal → display.

    .venv/bin/python bench/bench_service.py [PRESSES]

* keypress-to-frame latency: a gpiozero MockFactory button is pressed; the time until the frame
  reaches the (luma dummy) display device, through the real service loop in its thread —
  journal append and fsync on the disk under --dir (default: /var/tmp, not a tmpfs) included;
* process start to first frame: `pocitadlo run` started until its READY=1 (sent right after the
  first frame is handed to the display);
* idle CPU and resident memory of that process with nothing pressed (10 s);
* journal bytes of a 15-inning partie (30 innings, typical series, every line with time and CRC).
"""
import argparse
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIG = """
[device]
venue = "Bench"
data_dir = "data"
[rules.carom]
points_limit = {points}
innings_limit = {innings}
[display]
driver = "dummy"
width = 64
height = 16
[keypad]
devices = {devices}
[keypad.buttons.pins]
"1" = 17
"0" = 22
"enter" = 25
[sync]
outbox = "outbox"
"""


def write_config(directory: Path, *, points=10000, innings=1000, devices='["buttons"]') -> Path:
    path = directory / "config.toml"
    path.write_text(CONFIG.format(points=points, innings=innings, devices=devices), encoding="utf-8")
    return path


def latency(directory: Path, presses: int) -> list[float]:
    from gpiozero.pins.mock import MockFactory

    from config.load import load
    from cli.commands.run import assemble
    from firmware_host.service import Stop, Ui

    factory = MockFactory()
    service, devices, _ = assemble(load(write_config(directory)), pin_factory=factory)
    for _ in range(3):
        service.post(Ui("confirm"))                  # ready → setup → single partie → a starts
    thread, shown, stamps = run_stamping_frames(service)
    out = press(factory.pin(17), shown, stamps, presses)
    service.post(Stop())
    thread.join(5)
    for dev in devices:
        dev.close()
    assert service.night.board.summary()["players"]["a"]["points"] == presses
    return out


def press(pin, shown, stamps, presses: int, after=None) -> list[float]:
    """Press and release the mock ``pin`` ``presses`` times; each press's seconds to its frame.
    ``after(n, start)``: called after the n-th press's frame (while the key is still down)."""
    out = []
    for n in range(presses):
        shown.clear()
        start = time.perf_counter()
        pin.drive_low()
        if not shown.wait(2):
            raise SystemExit("no frame after a key press")
        out.append(stamps[-1] - start)
        if after is not None:
            after(n, start)
        time.sleep(0.04)                             # past the 30 ms debounce lock
        pin.drive_high()
        time.sleep(0.04)
    return out


def run_stamping_frames(service):
    """Run ``service``'s loop in a thread; once it is up, stamp each frame its display device gets.
    (thread, an Event set by each frame, the list of perf_counter stamps)."""
    shown = threading.Event()
    stamps = []
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    time.sleep(0.5)
    device = service.display.counter.device
    original = device.display

    def display(image):
        original(image)
        stamps.append(time.perf_counter())
        shown.set()

    device.display = display
    return thread, shown, stamps


def start_and_idle(directory: Path, idle_seconds: float) -> dict:
    config = write_config(directory, devices='["terminal"]')
    with started(config, directory) as (child, first_frame):
        idle = idle_cpu(child.pid, idle_seconds)
        rss = _rss_kib(child.pid)
    return {"first_frame": first_frame, "idle_cpu": idle, "rss_mib": rss / 1024}


@contextmanager
def started(config: Path, directory: Path):
    """`pocitadlo run --config config` until its READY=1: (the process, seconds it took); ended after."""
    address = str(directory / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(30)
        env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="30000000", PYTHONPATH=str(ROOT))
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config),
                                  "--log-level", "WARNING"], stdin=subprocess.PIPE, env=env)
        try:
            message = server.recv(200).decode()
            first_frame = time.perf_counter() - start
            assert message.startswith("READY=1"), message
            yield child, first_frame
        finally:
            child.terminate()
            child.wait(10)


def idle_cpu(pid: int, seconds: float) -> float:
    """The share of one core process ``pid`` used over the next ``seconds``."""
    cpu0 = _cpu(pid)
    time.sleep(seconds)
    return (_cpu(pid) - cpu0) / os.sysconf("SC_CLK_TCK") / seconds


def _cpu(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])        # utime + stime


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def partie_bytes(directory: Path) -> dict:
    """A 15-inning partie (both players, 30 innings), series like a league evening's, then closed."""
    from config.load import load
    from firmware_host.night import Night
    from delivery.outbox import Outbox

    outbox = Outbox(directory / "outbox")
    night = Night(load(write_config(directory, points=200, innings=15)), outbox=outbox)
    for _ in range(3):
        night.ui("confirm")
    rng = random.Random(15)
    commands = 0
    while not night.board.finished:
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4, 6, 9])):
            if night.board.finished:
                break
            night.command({"cmd": "score", "value": rng.choice([1, 1, 1, 2])})
            commands += 1
        if not night.board.finished:
            night.command({"cmd": rng.choice(["miss", "miss", "miss", "foul"])})
            commands += 1
    journal = night.partie_bytes
    innings = night.board.summary()["players"]["a"]["innings"] + night.board.summary()["players"]["b"]["innings"]
    night.ui("confirm"), night.ui("confirm")                 # close: into the outbox, night journal
    queued = sum(len(item.body) for item in outbox.pending())
    night_journal = sum(p.stat().st_size for p in (directory / "data" / "archive").rglob("night.jsonl"))
    return {"journal": journal, "commands": commands, "innings": innings, "outbox": queued,
            "night": night_journal}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def percentile(values, p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def arguments(doc: str, presses: int = 300):
    """PRESSES, --dir and --idle of a service bench; luma's deprecation warnings silenced."""
    import warnings

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("presses", nargs="?", type=int, default=presses)
    parser.add_argument("--dir", default="/var/tmp", help="where the journal goes (a real disk)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    return parser.parse_args()


def main() -> None:
    args = arguments(__doc__)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp = Path(tmp)
        for sub in ("lat", "idle", "partie"):
            (tmp / sub).mkdir()
        lat = latency(tmp / "lat", args.presses)
        proc = start_and_idle(tmp / "idle", args.idle)
        wear = partie_bytes(tmp / "partie")
    fs = subprocess.run(["df", "-T", args.dir], capture_output=True, text=True).stdout.splitlines()[-1].split()[1]
    print(f"machine: {platform.machine()} {_cpu_model()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, journal on {args.dir} ({fs})")
    print(f"keypress-to-frame ({len(lat)} presses, fsync included): median {statistics.median(lat) * 1000:.2f} ms, "
          f"p99 {percentile(lat, 99) * 1000:.2f} ms, max {max(lat) * 1000:.2f} ms")
    print(f"process start to first frame (pocitadlo run → READY=1): {proc['first_frame'] * 1000:.0f} ms")
    print(f"idle CPU, nothing pressed, {args.idle:.0f} s: {proc['idle_cpu'] * 100:.2f} %")
    print(f"resident memory (VmRSS) of pocitadlo run: {proc['rss_mib']:.1f} MiB")
    size, commands = wear["journal"], wear["commands"]
    print(f"journal bytes per 15-inning partie ({wear['innings']} innings): {size} bytes ({commands} commands + "
          f"header, {size / (commands + 1):.0f} bytes a line); closing it adds {wear['outbox']} bytes of outbox "
          f"item and {wear['night']} bytes of night journal: {size + wear['outbox'] + wear['night']} bytes in all "
          f"(each line one fsync)")


if __name__ == "__main__":
    main()
