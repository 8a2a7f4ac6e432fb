"""The CPU work of one stroke, on the host (a script, not a test): what issue 27's keypress goal
asks of the code, measured without the Pi-class core's windows.

    taskset -c 0 nice -n 19 .venv/bin/python bench/stroke_cpu.py [--rounds 3] [--presses 200]
    taskset -c 0 nice -n 19 .venv/bin/python bench/stroke_cpu.py --instructions [--presses 100]

* by default: ``bench_service.latency`` (the whole service in its thread, mock pins, the journal
  synced on the disk under --dir) ``--rounds`` times, and the medians of the stages of
  bench/stages.py and of each stroke's process CPU time — the keypress figures of
  readme_numbers' one-core column, several rounds in one process;
* ``--instructions``: the instructions of one keypress from the pin's edge to the frame (the
  service driven in this thread on a ``ManualClock``, no sync: the same instructions every run),
  counted by valgrind's callgrind — a figure that load on the machine does not move, for telling
  a change's effect from the machine's. It runs this script again under valgrind
  (``--count``); a stroke is counted while inside ``functools.reduce``, which nothing of the
  stroke calls.

Run pinned to one core and niced beside other work; compare trees by alternating runs.
"""
import argparse
import functools
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_service
import pi_venv
import startup
from stages import summary

TOGGLE = "functools_reduce"     # CPython's C function of functools.reduce (callgrind --toggle-collect)


def rounds(directory: Path, count: int, presses: int, preallocate: int) -> dict:
    """stage → (median ms, p99 ms) over ``count`` rounds of ``bench_service.latency``."""
    strokes: list[dict] = []
    for n in range(count):
        strokes += bench_service.latency(directory / f"round{n}", presses, preallocate)
    return summary(strokes)


def counted_strokes(directory: Path, presses: int, warm: int = 20) -> int:
    """Press the mock button ``warm`` + ``presses`` times, the service handling each press in this
    thread on a ManualClock (no sync); each of the last ``presses`` presses, from the pin's edge to
    its frame, runs inside ``functools.reduce`` (what ``--count`` counts). Returns the frames."""
    from gpiozero.pins.mock import MockFactory

    from cli.commands.run import assemble
    from clock import ManualClock
    from firmware_host.service import Ui, collect_garbage
    from firmware_host.settings import load

    factory = MockFactory()
    clock = ManualClock(datetime(2026, 12, 2, 19, 0))
    service, devices, _ = assemble(load(bench_service.write_config(directory)), pin_factory=factory, clock=clock)

    def drain():
        while not service.queue.empty():
            service.handle(service.queue.get())

    service.running = True
    service.display.start(clock.monotonic())
    service.show()
    drain()
    for _ in range(3):
        service.handle(Ui("confirm"))                # ready → setup → single partie → a starts
    service.draw_ahead()
    service.night.partie.journal._fsync = False      # the disk's time is not the code's
    pin = factory.pin(17)

    def press(_=None, __=None):
        pin.drive_low()
        service.handle(service.queue.get())

    try:
        for n in range(warm + presses):
            clock.advance(0.5)
            if n < warm:
                press()
            else:
                functools.reduce(press, [None], None)
            service.tick()
            clock.advance(0.1)
            pin.drive_high()
            drain()
            service.tick()
            service.draw_ahead()                    # as the loop does once nothing waits
            collect_garbage()
    finally:
        for device in devices:
            device.close()
    assert service.night.board.summary()["players"]["a"]["points"] == warm + presses
    return service.display.counter.frames


def instructions(presses: int) -> float:
    """Instructions per keypress (see ``counted_strokes``), counted by callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")      # the same dicts every run
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                        f"--toggle-collect={TOGGLE}", sys.executable, str(Path(__file__).resolve()),
                        "--count", "--presses", str(presses), "--dir", tmp],
                       check=True, env=env, capture_output=True)
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
    return int(totals[0].split()[1]) / presses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--preallocate", type=int, default=16384)
    parser.add_argument("--dir", default="/var/tmp", help="where the journal goes (a real disk)")
    parser.add_argument("--instructions", action="store_true", help="instructions per keypress (callgrind)")
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)    # the run under valgrind
    args = parser.parse_args()
    pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    import warnings
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    if args.count:
        counted_strokes(Path(args.dir), args.presses)
        return
    startup.compile_tree()
    if args.instructions:
        print(f"instructions per keypress, pin to frame: {instructions(args.presses):,.0f}")
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        figures = rounds(Path(tmp), args.rounds, args.presses, args.preallocate)
    print(f"{args.rounds} rounds of {args.presses} presses, medians (p99) in ms:")
    for stage in ("key", "rules", "journal", "storage", "frame", "rest", "but_storage", "cpu"):
        median, p99 = figures[stage]
        print(f"  {stage:12} {median:7.3f} ({p99:.3f})")


if __name__ == "__main__":
    main()
