"""The README's "Numbers": every device figure from one run of one script, as a Markdown table.

    .venv/bin/python bench/readme_numbers.py [--presses 150] [--slowdown 12] [--storage 2:20:150:0.02]
                                             [--before DIR]

Runs bench_display, bench_service and bench_serial's measurements on this machine (one core,
pinned), then on that core slowed to a Pi Zero 2 W class (bench/pi_class.py), then with the SD
card model as well, and prints each figure with its ratio to the baseline of the same run and to
its floor (luma's bare display(), a bare interpreter importing luma, a bare write+fdatasync loop).
Ratios within one run are what carry over to another machine; the absolute figures are this one's.
The receiver's figures are bench/bench_server.py's.
"""
import argparse
import os
import platform
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))     # carom_samples

import bench_display
import bench_serial
import bench_service
import pi_class
import startup

RECORDS = 5          # serial: league partie records sent at 115200 baud and unpaced


def measure(args, directory: Path, *, idle: float, serial: bool = True) -> dict:
    out = {"display": bench_display.figures(args.iterations),
           "service": bench_service.timed_figures(directory, args, idle=idle),
           "serial": bench_serial.rates(115200, _records()) if serial else None}
    if args.before:                  # the same start, of the source tree before this change
        config = bench_service.write_config(directory / "before", devices='["terminal"]')
        out["before"] = startup.start_and_idle(directory / "before", config, 0, root=Path(args.before))
    return out


def _records() -> list:
    import carom_samples

    return [(f"p-{i}", *carom_samples.partie(f"p-{i}", "Novák", "Dvořák", seed=i)) for i in range(RECORDS)]


def cells(runs: dict, pick, fmt: str = "{:.2f} ms", vs_base: bool = True) -> str:
    names = list(runs)
    base = pick(runs[names[0]])
    out = []
    for name in names:
        value = pick(runs[name])
        if value is None:
            out.append("")
            continue
        text = fmt.format(value)
        out.append(text if name == names[0] or not vs_base else f"{text} ({pi_class.ratio(value, base)})")
    return " | ".join(out)


def table(runs: dict, wear: dict) -> list[str]:
    names = list(runs)
    lines = ["| what | " + " | ".join(names) + " | script |", "|---|" + "---|" * (len(names) + 1)]

    def row(what, pick, script, fmt="{:.2f} ms"):
        ratio_row = fmt.startswith("×")         # already a ratio to its floor: no ratio of ratios
        lines.append(f"| {what} | {cells(runs, pick, fmt, not ratio_row)} | `bench/{script}` |")

    disp = lambda name, i: (lambda r: r["display"][name][i])          # noqa: E731
    row("state change → frame handed to a MAX7219 64x16 (luma's real driver, no-op SPI), median",
        disp("MAX7219 64x16", 0), "bench_display.py")
    row("… as a multiple of luma's bare `display()` of a ready image", lambda r: r["display"]["MAX7219 64x16"][0]
        / r["display"]["MAX7219 64x16"][3], "bench_display.py", "×{:.1f}")
    for name in ("MAX7219 32x8", "MAX7219 96x16", "MAX7219 128x32", "7-segment 16 digits"):
        row(f"… {name}, p99", disp(name, 1), "bench_display.py")
    svc = lambda key, i: (lambda r: r["service"]["lat"][key][i])       # noqa: E731
    row("keypress → frame, whole service (mock pins → referee → rule core → journal → dummy display), median",
        svc("total", 0), "bench_service.py")
    row("… p99", svc("total", 1), "bench_service.py")
    row("… p99 of everything but the storage's own sync time (goal in Pi-class mode: < 20 ms)",
        svc("but_storage", 1), "bench_service.py")
    for stage in ("key", "rules", "journal", "storage", "frame", "rest"):
        row(f"… stage {stage}, median", svc(stage, 0), "bench_service.py")
    row("… the same with the journal as the night opens it (exact size, no room), p99",
        lambda r: r["service"]["exact"]["total"][1], "bench_service.py")
    row("bare 75-byte append + fdatasync loop on the same disk (the floor), median",
        lambda r: r["service"]["sync"][0], "bench_service.py")
    row("… into preallocated zeros, median", lambda r: r["service"]["sync_pre"][0], "bench_service.py")
    row("process start → counter lit (`pocitadlo run`, venue and table shown; MAX7219: the first frame"
        " without luma, a file standing in for /dev/spidev0.0)",
        lambda r: r["service"]["lit"] * 1000, "bench_service.py", "{:.0f} ms")
    row("… as a multiple of a bare interpreter importing luma's driver",
        lambda r: r["service"]["lit"] / r["service"]["bare_import"], "bench_service.py", "×{:.2f}")
    row("… as a multiple of a bare `python -c pass`",
        lambda r: r["service"]["lit"] / r["service"]["bare_python"], "bench_service.py", "×{:.2f}")
    row("… a counter lit through luma (its dummy device: the emulator's and the terminal's way)",
        lambda r: r["service"]["lit_luma"] * 1000, "bench_service.py", "{:.0f} ms")
    row("process start → ready to score (READY=1)", lambda r: r["service"]["first_frame"] * 1000,
        "bench_service.py", "{:.0f} ms")
    row("… the same without bytecode (every module compiled at start)",
        lambda r: r["service"]["no_bytecode"] * 1000, "bench_service.py", "{:.0f} ms")
    if "before" in runs[names[0]]:
        row("… before: the first frame of the source tree given with --before (READY=1)",
            lambda r: r["before"]["first_frame"] * 1000, "readme_numbers.py", "{:.0f} ms")
    row("bare `python -c 'import luma.led_matrix.device'` (the floor)",
        lambda r: r["service"]["bare_import"] * 1000, "bench_service.py", "{:.0f} ms")
    row("bare `python -c pass`", lambda r: r["service"]["bare_python"] * 1000, "bench_service.py", "{:.0f} ms")
    row("serial sync at 115200 baud, records/s (league partie, signed, framed, ACKed)",
        lambda r: r["serial"] and r["serial"][115200][0], "bench_serial.py", "{:.2f}")
    row("… unpaced pty (CPU bound), records/s", lambda r: r["serial"] and r["serial"][None][0],
        "bench_serial.py", "{:.1f}")
    base = runs[names[0]]["service"]
    lines.append(f"| idle CPU, nothing pressed / resident memory of `pocitadlo run` | "
                 f"{base['idle_cpu'] * 100:.2f} % / {base['rss_mib']:.1f} MiB |" + " |" * (len(names) - 1)
                 + " `bench/bench_service.py` |")
    size = wear["journal"]
    lines.append(f"| SD card writes per 15-inning partie | journal {size:,} bytes ({wear['commands'] + 1} lines, "
                 f"each one write + fdatasync); with its outbox item and the night journal "
                 f"{size + wear['outbox'] + wear['night']:,} bytes |" + " |" * (len(names) - 1)
                 + " `bench/bench_service.py` |")
    lines.append("| records into the receiver | (bench_server.py's figures) |" + " |" * (len(names) - 1)
                 + " `bench/bench_server.py` |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=150)
    parser.add_argument("--iterations", type=int, default=1000, help="display state changes per counter")
    parser.add_argument("--preallocate", type=int, default=16384)
    parser.add_argument("--dir", default="/var/tmp")
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--before", help="a source tree to time the start of too (e.g. `git archive` of the base)")
    pi_class.add_arguments(parser)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    startup.compile_tree()                          # bytecode, as install.sh makes it on the Pi
    if args.before:
        startup.compile_tree(Path(args.before))
    fs = subprocess.run(["df", "-T", args.dir], capture_output=True, text=True).stdout.splitlines()[-1].split()[1]
    load = os.getloadavg()
    cpu = pi_class.bench_cpu()
    before = pi_class.pin(cpu)
    runs = {}
    try:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            tmp = Path(tmp)
            wear = bench_service.partie_bytes(tmp / "partie")
            runs["this machine, one core"] = measure(args, tmp / "base", idle=args.idle)
            storage = pi_class.SlowStorage.parse(args.storage)
            with pi_class.slowed_core(args) as (_, calibration):
                runs["Pi-class core"] = measure(args, tmp / "slow", idle=0)
                with storage:
                    runs["Pi-class core + SD card model"] = measure(args, tmp / "sd", idle=0, serial=False)
    finally:
        os.sched_setaffinity(0, before)
    print(f"Machine: {platform.machine()} {bench_service._cpu_model()}, {os.cpu_count()} cores (CPU {cpu} used), "
          f"Linux {platform.release()}, Python {platform.python_version()}, journal on {args.dir} ({fs}); "
          f"load average {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end.")
    print(f"{calibration}. SD card model: {storage.describe()}.")
    print()
    print("\n".join(table(runs, wear)))


if __name__ == "__main__":
    main()
