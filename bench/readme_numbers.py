"""docs/performance.md's device figures: one script, as a Markdown table.

    .venv/bin/python bench/readme_numbers.py --pi-class [--runs 5] [--presses 150] [--json FILE]
                                             [--slowdown 12] [--storage 2:20:150:0.02] [--before DIR]

Runs bench_display and bench_service's measurements on this machine (one core, pinned), then on
that core slowed to a Pi Zero 2 W class (bench/pi_class.py), then with the SD card model as well
— alternating the three, ``--runs`` times — and prints each figure as the median of the runs with
their min–max and spread, its ratio to the baseline and to its floor (luma's bare display(), a bare
interpreter importing luma, a bare write+fdatasync loop). Ratios within one run are what carry
over to another machine; the absolute figures are this one's.

It runs in a venv holding only what a Pi installs (bench/pi_venv.py: made once, the checkout's
code on PYTHONPATH), at nice -20 (root): the development venv's editable-install hook and the
machine's other work otherwise inflate the start and the p99 figures (docs/performance.md).
``bench/agree.py A.json B.json`` checks that two runs' figures agree within 20 %. The serial and
receiver figures are bench/bench_serial.py's and bench/bench_server.py's (they need the [server]
extra: run them from the development venv).
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_display
import bench_service
import pi_class
import pi_venv
import startup

CONFIGS = ("this machine, one core", "Pi-class core", "Pi-class core + SD card model")


def measure(args, directory: Path, *, idle: float) -> dict:
    ticks = pi_class.cpu_ticks(pi_class.bench_cpu())
    out = {"burst": pi_class.burst_ms(BURSTS),
           "display": bench_display.figures(args.iterations),
           "service": bench_service.timed_figures(directory, args, idle=idle)}
    if args.before:                  # the same start, of the source tree before this change
        config = bench_service.write_config(directory / "before", devices='["terminal"]')
        out["before"] = startup.start_and_idle(directory / "before", config, 0, root=Path(args.before))
    out["steal"] = pi_class.stolen_share(ticks, pi_class.cpu_ticks(pi_class.bench_cpu())) * 100
    return out


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max) of one figure over the runs."""
    return statistics.median(values), min(values), max(values)


def cells(runs: dict, pick, fmt: str = "{:.2f} ms", vs_base: bool = True) -> str:
    """One row's cells: the median over the runs, its min–max and spread, the ratio to the first
    column's median. ``runs``: column → list of the runs' figures."""
    names = list(runs)
    base = spread([pick(r) for r in runs[names[0]]])[0]
    out = []
    for name in names:
        values = [pick(r) for r in runs[name]]
        if any(v is None for v in values):
            out.append("")
            continue
        median, low, high = spread(values)
        text = fmt.format(median)
        if len(values) > 1:
            bare = fmt.replace("×", "").replace(" ms", "")
            half = (high - low) / 2 / median * 100 if median else 0.0
            text += f" ({bare.format(low)}–{bare.format(high)}, ±{half:.0f} %)"
        out.append(text if name == names[0] or not vs_base else f"{text} {pi_class.ratio(median, base)}")
    return " | ".join(out)


ROWS: list = []         # (what, pick, script, format): the table's figures, also bench/agree.py's
CONDITIONS = "the machine"      # the script of a row that says how the run went, not a figure to agree
BURSTS = 20                     # rounds of pi_class's fixed burst timed at each column's start


def row(what, pick, script, fmt="{:.2f} ms"):
    ROWS.append((what, pick, script, fmt))


def table(runs: dict, wear: dict, instructions: float | None = None) -> list[str]:
    names = list(runs)
    lines = ["| what | " + " | ".join(names) + " | script |", "|---|" + "---|" * (len(names) + 1)]
    for what, pick, script, fmt in ROWS:
        if all(pick(r) is None for r in runs[names[0]]):
            continue
        ratio_row = fmt.startswith("×")         # already a ratio to its floor: no ratio of ratios
        if script == CONDITIONS:
            lines.append(f"| {what} | {cells(runs, pick, fmt, False)} | `bench/pi_class.py` |")
            continue
        lines.append(f"| {what} | {cells(runs, pick, fmt, not ratio_row)} | `bench/{script}` |")
    return lines + fixed_rows(runs, wear, instructions)


def _rows() -> None:
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
    row("… p99 of everything but the storage's own sync time (goal in Pi-class mode: ≤ 8 ms)",
        svc("but_storage", 1), "bench_service.py")
    row("… the bench process's CPU time from the press to the frame, median (bench/stages.py)",
        lambda r: r["service"]["lat"]["cpu"][0] if "cpu" in r["service"]["lat"] else None, "bench_service.py")
    row("… its p99",
        lambda r: r["service"]["lat"]["cpu"][1] if "cpu" in r["service"]["lat"] else None, "bench_service.py")
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
    row("… before: the first frame of the source tree given with --before (READY=1)",
        lambda r: r["before"]["first_frame"] * 1000 if "before" in r else None, "readme_numbers.py", "{:.0f} ms")
    row("bare `python -c 'import luma.led_matrix.device'` (the floor)",
        lambda r: r["service"]["bare_import"] * 1000, "bench_service.py", "{:.0f} ms")
    row("bare `python -c pass`", lambda r: r["service"]["bare_python"] * 1000, "bench_service.py", "{:.0f} ms")
    row("the core's own speed at the column's start: pi_class's fixed burst of pure Python, median of "
        f"{BURSTS} (its spread over the runs is the host's: one core's varies with its neighbours' work, the "
        "Pi-class core's with it and with the calibration)", lambda r: r.get("burst"), CONDITIONS)
    row("the bench CPU's time the hypervisor took (steal, /proc/stat) while the column ran: above a few "
        "per cent the figures are the host's, not this code's", lambda r: r.get("steal"), CONDITIONS, "{:.1f} %")


_rows()


def fixed_rows(runs: dict, wear: dict, instructions: float | None = None) -> list[str]:
    names = list(runs)
    base = runs[names[0]][0]["service"]
    size = wear["journal"]
    counted = [] if instructions is None else [
        f"| instructions a keypress, pin edge to frame (callgrind on a ManualClock, no sync: the same count "
        f"on any x86-64 host, whatever its speed or load) | {instructions:,.0f} |" + " |" * (len(names) - 1)
        + " `bench/stroke_cpu.py --instructions` |"]
    return counted + [
        f"| idle CPU, nothing pressed / resident memory of `pocitadlo run` | "
        f"{base['idle_cpu'] * 100:.2f} % / {base['rss_mib']:.1f} MiB |" + " |" * (len(names) - 1)
        + " `bench/bench_service.py` |",
        f"| SD card writes per 15-inning partie | journal {size:,} bytes ({wear['commands'] + 1} lines, "
        f"each one write + fdatasync); with its outbox item and the night journal "
        f"{size + wear['outbox'] + wear['night']:,} bytes |" + " |" * (len(names) - 1)
        + " `bench/bench_service.py` |"]


def counted_keypress(presses: int = 100) -> float | None:
    """Instructions a keypress (bench/stroke_cpu.py --instructions, its 100 presses: the count
    includes a little of the first ones' work), None where valgrind is not installed: the one
    device figure that the host's speed, load and neighbours do not move."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction count", file=sys.stderr)
        return None
    import stroke_cpu
    return stroke_cpu.instructions(presses)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=150)
    parser.add_argument("--iterations", type=int, default=1000, help="display state changes per counter")
    parser.add_argument("--preallocate", type=int, default=16384)
    parser.add_argument("--dir", default="/var/tmp")
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=5, help="alternating runs of the three columns (default 5)")
    parser.add_argument("--json", help="also write every run's figures here (for bench/agree.py)")
    parser.add_argument("--before", help="a source tree to time the start of too (e.g. `git archive` of the base)")
    parser.add_argument("--dev-venv", action="store_true",
                        help="run in this interpreter's venv, not in the Pi-like bench venv")
    pi_class.add_arguments(parser)
    args = parser.parse_args()
    if not args.dev_venv:
        pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    startup.compile_tree()                          # bytecode, as install.sh makes it on the Pi
    if args.before:
        startup.compile_tree(Path(args.before))
    fs = subprocess.run(["df", "-T", args.dir], capture_output=True, text=True).stdout.splitlines()[-1].split()[1]
    load = os.getloadavg()
    cpu = pi_class.bench_cpu()
    before = pi_class.pin(cpu)
    niced = pi_class.favour(args)
    columns = CONFIGS if args.pi_class else CONFIGS[:1]
    runs: dict = {name: [] for name in columns}
    calibrations = []
    storage = pi_class.SlowStorage.parse(args.storage)
    try:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            tmp = Path(tmp)
            wear = bench_service.partie_bytes(tmp / "partie")
            for n in range(args.runs):           # the columns alternate: a drift in the machine hits all
                runs[CONFIGS[0]].append(measure(args, tmp / f"base{n}", idle=args.idle if n == 0 else 0))
                if not args.pi_class:
                    continue
                with pi_class.slowed_core(args) as (_, calibration):
                    calibrations.append(calibration)
                    runs[CONFIGS[1]].append(measure(args, tmp / f"slow{n}", idle=0))
                    with storage:
                        runs[CONFIGS[2]].append(measure(args, tmp / f"sd{n}", idle=0))
                print(f"run {n + 1} of {args.runs} done; load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    finally:
        os.sched_setaffinity(0, before)
    instructions = counted_keypress()
    print(f"Machine: {platform.machine()} {bench_service._cpu_model()}, {os.cpu_count()} cores (CPU {cpu} used), "
          f"Linux {platform.release()}, Python {platform.python_version()}, journal on {args.dir} ({fs}); "
          f"{sys.prefix} ({'the Pi-like bench venv' if pi_venv.inside() else 'not the bench venv'}), "
          f"nice {niced}; load average {load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
          f"{args.runs} alternating runs, each figure the median (min–max, ± half the range as % of the median).")
    for calibration in calibrations:
        print(calibration)
    if args.pi_class:
        print(f"SD card model: {storage.describe()}.")
    print()
    print("\n".join(table(runs, wear, instructions)))
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "wear": wear, "instructions": instructions},
                                              default=list), encoding="utf-8")


if __name__ == "__main__":
    main()
