"""Whole-service figures (a script, not a test): mock pins → referee → rule core → journal → display.

    .venv/bin/python bench/bench_service.py [PRESSES] [--pi-class [--slowdown 12] [--storage 2:20:150:0.02]]

* keypress-to-frame latency, stage by stage (bench/stages.py): a gpiozero MockFactory button is
  pressed; the time until the frame reaches the (luma dummy) display device, through the real
  service loop in its thread — journal append and sync on the disk under --dir (default: /var/tmp,
  not a tmpfs) included — with the partie journal preallocated (--preallocate) and as the night
  opens it (exact size); beside them bare write+fdatasync loops on the same disk (the floors);
* process start to the counter lit and to ready to score (bench/startup.py), where the start goes
  (-X importtime), beside an interpreter that only imports luma's driver (the floor); idle CPU and
  memory. The start is a MAX7219 64x16 counter on a file standing in for /dev/spidev0.0, its first
  frame saved as by an earlier start (lit without luma: display.boot_frame), and again a counter
  lit through luma (its dummy device: the emulator's and the terminal's way);
* journal bytes of a 15-inning partie (30 innings, typical series, every line with time and CRC).

``--pi-class`` (bench/pi_class.py) runs the timed figures again on a slowed core, then with the SD
card model too, and prints each with its ratio to the baseline of the same run.
"""
import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import pi_class
import pi_venv
import startup
from stages import Stages, percentile, summary

CONFIG = """
[device]
venue = "Bench"
data_dir = "data"
[rules.carom]
points_limit = {points}
innings_limit = {innings}
[display]
driver = "{driver}"
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


def write_config(directory: Path, *, points=10000, innings=1000, devices='["buttons"]', driver="dummy") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "config.toml"
    path.write_text(CONFIG.format(points=points, innings=innings, devices=devices, driver=driver), encoding="utf-8")
    return path


def max7219_start_config(directory: Path) -> Path:
    """A config for a MAX7219 64x16 counter whose SPI device is a file (``spidev0.0`` beside it),
    its first frame saved and its parse kept as a previous start leaves them (a device's every boot
    but its first): `pocitadlo run` lights it without luma (display.boot_frame) and without tomllib;
    luma's own open then fails (no SPI here) and the service goes on."""
    from cli.commands.boot import ErrorCounter, boot_model
    from config import toml_files

    config = write_config(directory, devices='["terminal"]', driver="max7219")
    spidev = directory / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    toml_files.keep_parses_in(str(directory / "data"))     # startup.unit_env's STATE_DIRECTORY
    toml_files.read(config)
    toml_files.keep_parses_in(None)
    return config


def latency(directory: Path, presses: int, preallocate: int) -> list[dict]:
    """Per press: the stages of bench/stages.py in seconds, and the total. ``preallocate``: the
    partie journal's zero room (0: the exact size, no room)."""
    from gpiozero.pins.mock import MockFactory

    from cli.commands.run import assemble, settle_memory
    from firmware_host.service import Stop, Ui
    from firmware_host.settings import load

    factory = MockFactory()
    service, devices, _ = assemble(load(write_config(directory)), pin_factory=factory)
    settle_memory()                                  # as `pocitadlo run` does before its loop
    service.night.store.partie_room = preallocate    # before the loop's thread opens the partie
    for _ in range(3):
        service.post(Ui("confirm"))                  # ready → setup → single partie → a starts
    thread, shown, stamps = run_stamping_frames(service)
    until(lambda: service.night.partie is not None, "the single partie never started")
    partie = service.night.partie
    stages = Stages()
    stages.wrap(service.referee, "press", "key")
    stages.wrap(service.night, "enter", "command")
    stages.wrap(partie.journal, "append", "append")
    stages.wrap(service.display, "show", "frame")
    for name in ("fsync", "fdatasync"):
        stages.wrap(os, name, "storage")
    try:
        press(factory.pin(17), shown, stamps, presses, before=lambda n: stages.begin(),
              after=lambda n, start: stages.end(stamps[-1] - start))
    finally:
        stages.unwrap()
        service.post(Stop())
        thread.join(10)
        for dev in devices:
            dev.close()
    assert service.night.board.summary()["players"]["a"]["points"] == presses
    return stages.presses


def run_stamping_frames(service):
    """Run ``service``'s loop in a thread; once it is up, stamp each frame its display device gets.
    (thread, an Event set by each frame, the list of perf_counter stamps)."""
    shown = threading.Event()
    stamps = []
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    until(lambda: service.running and service.display.counter.device is not None, "the service never started")
    device = service.display.counter.device
    original = device.display

    def display(image):
        original(image)
        stamps.append(time.perf_counter())
        shown.set()

    device.display = display
    return thread, shown, stamps


def until(done, what: str, bound: float = 60.0) -> None:
    """Wait for ``done()``: on a slowed, loaded core the loop's start takes seconds (a fixed 0.5 s
    sleep lost the race there and the bench died)."""
    end = time.monotonic() + bound
    while not done():
        if time.monotonic() > end:
            raise SystemExit(what)
        time.sleep(0.02)


def press(pin, shown, stamps, presses: int, *, before=None, after=None) -> list[float]:
    """Press and release the mock ``pin`` ``presses`` times; each press's seconds to its frame.
    ``before(n)`` runs just before the n-th press, ``after(n, start)`` after its frame (the key
    still down)."""
    out = []
    for n in range(presses):
        shown.clear()
        if before is not None:
            before(n)
        start = time.perf_counter()
        pin.drive_low()
        if not shown.wait(5):
            raise SystemExit("no frame after a key press")
        out.append(stamps[-1] - start)
        if after is not None:
            after(n, start)
        time.sleep(0.04)                             # past the 30 ms debounce lock
        pin.drive_high()
        time.sleep(0.04)
    return out


def bare_sync(directory: Path, preallocated: bool, count: int = 200) -> tuple[float, float]:
    """(median, p99) ms of the floor: one 75-byte write and fdatasync — appended (the file grows:
    its size is metadata to sync too) or into zeros written and synced beforehand (data only)."""
    path = directory / "bare.log"
    line = b"x" * 74 + b"\n"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    times = []
    try:
        if preallocated:
            os.write(fd, bytes(len(line) * count))
            os.fsync(fd)
        for i in range(count):
            start = time.perf_counter()
            os.pwrite(fd, line, i * len(line))
            os.fdatasync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times) * 1000, percentile(times, 99) * 1000


def partie_bytes(directory: Path) -> dict:
    """A 15-inning partie (both players, 30 innings), series like a league evening's, then closed."""
    from delivery.outbox import Outbox
    from firmware_host.match_night import Night
    from firmware_host.settings import load

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
    night.ui("confirm"), night.ui(1), night.ui("menu")       # close: Ano by the long press (issue 12)
    night.finalize()                                         # not taken back: into the outbox, archived
    queued = sum(len(item.body) for item in outbox.pending())
    night_journal = sum(p.stat().st_size for p in (directory / "data" / "archive").rglob("night.jsonl"))
    return {"journal": journal, "commands": commands, "innings": innings, "outbox": queued,
            "night": night_journal}


def timed_figures(directory: Path, args, *, idle: float) -> dict:
    """Everything that depends on the CPU and the disk, measured once under the current conditions."""
    config = max7219_start_config(directory / "start")
    dummy = write_config(directory / "dummy", devices='["terminal"]')
    exact = latency(directory / "exact", args.presses, 0)
    preallocated = latency(directory / "lat", args.presses, args.preallocate)
    proc = startup.start_and_idle(directory / "start", config, idle)
    proc["no_bytecode"] = startup.start_and_idle(directory / "start", config, 0, bytecode=False)["first_frame"]
    proc["lit_luma"] = startup.start_and_idle(directory / "dummy", dummy, 0)["lit"]
    imports = startup.import_profile(directory / "start", config)
    return {"lat": summary(preallocated), "exact": summary(exact), "sync": bare_sync(directory, False),
            "sync_pre": bare_sync(directory, True), "imports": imports,
            "bare_python": startup.bare_start("pass"),
            "bare_import": startup.bare_start("import luma.led_matrix.device"), **proc}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def report(runs: dict[str, dict], wear: dict, args) -> None:
    names = list(runs)
    base = runs[names[0]]

    def row(label: str, pick, unit: str = "ms", scale: float = 1.0):
        cells = []
        for name in names:
            value = pick(runs[name]) * scale
            cell = f"{value:.2f} {unit}"
            if name != names[0]:
                cell += f" ({pi_class.ratio(value, pick(base) * scale)})"
            cells.append(f"{cell:>24}")
        print(f"{label:44}" + "".join(cells))

    print(f"{'':44}" + "".join(f"{n:>24}" for n in names))
    for stage in ("key", "rules", "journal", "storage", "frame", "rest"):
        row(f"  {stage} (median)", lambda r, s=stage: r["lat"][s][0])
    for label, key in (("key → frame", "total"), ("key → frame but the storage", "but_storage")):
        row(f"{label}, median", lambda r, k=key: r["lat"][k][0])
        row(f"{label}, p99", lambda r, k=key: r["lat"][k][1])
    row("key → frame, exact-size journal, median", lambda r: r["exact"]["total"][0])
    row("key → frame, exact-size journal, p99", lambda r: r["exact"]["total"][1])
    row("  its storage (median)", lambda r: r["exact"]["storage"][0])
    row("bare append+fdatasync loop, median (floor)", lambda r: r["sync"][0])
    row("bare append+fdatasync loop, p99", lambda r: r["sync"][1])
    row("bare preallocated write+fdatasync, median", lambda r: r["sync_pre"][0])
    row("bare preallocated write+fdatasync, p99", lambda r: r["sync_pre"][1])
    row("start → counter lit (MAX7219, first frame without luma)", lambda r: r["lit"], scale=1000)
    row("start → counter lit through luma (its dummy device)", lambda r: r["lit_luma"], scale=1000)
    row("  imports before it (-X importtime)", lambda r: r["imports"]["lit"][0], scale=1000)
    row("bare `import luma.led_matrix.device` (floor)", lambda r: r["bare_import"], scale=1000)
    row("bare `python -c pass`", lambda r: r["bare_python"], scale=1000)
    row("start → ready to score (READY=1)", lambda r: r["first_frame"], scale=1000)
    row("  imports after the counter is lit", lambda r: r["imports"]["ready"][0], scale=1000)
    row("start → READY=1 without bytecode (.pyc)", lambda r: r["no_bytecode"], scale=1000)
    for name in names:
        for part, label in (("lit", "before lit"), ("ready", "after lit")):
            tops = ", ".join(f"{m} {t * 1000:.0f}" for m, t in runs[name]["imports"][part][1])
            print(f"slowest imports {label}, {name} (ms): {tops}")
    print(f"idle CPU, nothing pressed, {args.idle:.0f} s: {base['idle_cpu'] * 100:.2f} %; "
          f"resident memory of pocitadlo run: {base['rss_mib']:.1f} MiB")
    size, commands = wear["journal"], wear["commands"]
    print(f"journal bytes per 15-inning partie ({wear['innings']} innings): {size} bytes ({commands} commands + "
          f"header, {size / (commands + 1):.0f} bytes a line); closing it adds {wear['outbox']} bytes of outbox "
          f"item and {wear['night']} bytes of night journal: {size + wear['outbox'] + wear['night']} bytes in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presses", nargs="?", type=int, default=200)
    parser.add_argument("--preallocate", type=int, default=16384,
                        help="zero room of the partie journal in bytes (default 16384; 0: exact size)")
    parser.add_argument("--dir", default="/var/tmp", help="where the journal goes (a real disk)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    parser.add_argument("--dev-venv", action="store_true",
                        help="run in this interpreter's venv, not in the Pi-like bench venv (bench/pi_venv.py)")
    pi_class.add_arguments(parser)
    args = parser.parse_args()
    if not args.dev_venv:
        pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    pi_class.favour(args)
    import warnings
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    fs = subprocess.run(["df", "-T", args.dir], capture_output=True, text=True).stdout.splitlines()[-1].split()[1]
    load = os.getloadavg()[0]
    print(f"machine: {platform.machine()} {_cpu_model()}, {os.cpu_count()} cores, load {load:.2f} at start, "
          f"Python {platform.python_version()}, journal on {args.dir} ({fs})")
    runs = {}
    startup.compile_tree()                  # as install.sh does on the Pi
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp = Path(tmp)
        wear = partie_bytes(tmp / "partie")
        if not args.pi_class:
            runs["this machine"] = timed_figures(tmp / "base", args, idle=args.idle)
        else:
            before = pi_class.pin(pi_class.bench_cpu())       # the baseline on the same core
            try:
                runs["baseline"] = timed_figures(tmp / "base", args, idle=args.idle)
                storage = pi_class.SlowStorage.parse(args.storage)
                with pi_class.slowed_core(args) as (_, calibration):
                    runs["slowed core"] = timed_figures(tmp / "slow", args, idle=0)
                    with storage:
                        runs["+ SD card model"] = timed_figures(tmp / "sd", args, idle=0)
            finally:
                os.sched_setaffinity(0, before)
            print(calibration)
            print(f"SD card model: {storage.describe()} (this process's syncs only)")
    report(runs, wear, args)


if __name__ == "__main__":
    main()
