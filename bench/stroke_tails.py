"""What made the slowest keypresses slow: readme_numbers' loop, every slowed stroke kept.

    .venv/bin/python bench/stroke_tails.py [--runs 5] [--presses 150] [--slowdown 12]

Runs what bench/readme_numbers.py runs for its first two columns (the display and service figures
on one core, then on the slowed core, in one process, ``--runs`` times), and for each slowed run
prints the p99 besides storage (the second slowest of the preallocated journal's strokes), and
its three slowest strokes: their stages (bench/stages.py) and what of the service ran from 100 ms
before each stroke to its frame — its garbage collections (firmware_host.service.collect_garbage),
the journal's top-ups, and any collection Python made by itself. A stroke whose every stage is
several times its usual one, with nothing of these beside it and several times the median stroke's
CPU time (bench/stages.py's ``cpu``), ran while the core itself was slower (docs/performance.md,
"The tails").
"""
import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_display
import bench_service
import firmware_host.service as service_module
import pi_class
import pi_venv
import startup
from firmware_host.journal import Journal
from stages import percentile

WINDOW = 0.1            # seconds before a stroke in which what ran is listed with it


class Recorder:
    """Stamps of the service's own work, the collector's, and each stroke's (press, frame)."""

    def __init__(self):
        self.ran: list[tuple[float, float, str]] = []         # (start, end, what)
        self.collections: list[tuple[float, str, int]] = []   # (time, phase, generation)
        self.runs: list[tuple[int, list[dict], list[tuple[float, float]]]] = []

    def timing(self, owner, name: str, what: str) -> None:
        real = getattr(owner, name)

        def timed(*args, **kw):
            start = time.perf_counter()
            try:
                return real(*args, **kw)
            finally:
                self.ran.append((start, time.perf_counter(), what))
        setattr(owner, name, timed)

    def collected(self, phase: str, info: dict) -> None:
        self.collections.append((time.perf_counter(), phase, info["generation"]))

    def latency(self, real_latency, real_press):
        """bench_service.latency keeping each press's stamps beside its stages."""
        def latency(directory, presses, preallocate):
            strokes: list[tuple[float, float]] = []

            def press(pin, shown, stamps, count, *, before=None, after=None):
                def kept(n, start):
                    after(n, start)
                    strokes.append((start, stamps[-1]))
                return real_press(pin, shown, stamps, count, before=before, after=kept)

            bench_service.press = press
            try:
                stages = real_latency(directory, presses, preallocate)
            finally:
                bench_service.press = real_press
            self.runs.append((preallocate, stages, strokes))
            return stages
        return latency

    def report(self, title: str) -> None:
        for preallocate, stages, strokes in self.runs:
            if not preallocate:
                continue            # the journal as the night opens it: readme_numbers' secondary row
            but_storage = [p["but_storage"] * 1000 for p in stages]
            slowest = sorted(range(len(stages)), key=lambda i: -but_storage[i])
            typical = statistics.median(p["cpu"] for p in stages) * 1000
            print(f"{title}: p99 besides storage {percentile(but_storage, 99):.1f} ms, "
                  f"median {statistics.median(but_storage):.1f} ms", flush=True)
            for i in slowest[:3]:
                pressed, shown = strokes[i]
                ran = [f"{what} at {(a - pressed) * 1000:+.1f} ms for {(b - a) * 1000:.2f} ms"
                       for a, b, what in self.ran if b > pressed - WINDOW and a < shown]
                by_python = [f"gen{g} {phase} at {(t - pressed) * 1000:+.1f} ms"
                             for t, phase, g in self.collections if pressed - WINDOW < t < shown]
                print(f"  stroke {i}: " + ", ".join(f"{k} {v * 1000:.2f}" for k, v in stages[i].items())
                      + f" (the median stroke's cpu {typical:.2f})")
                print(f"    beside it: {'; '.join(ran + by_python) or 'nothing'}")
        self.runs.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=150)
    parser.add_argument("--preallocate", type=int, default=16384)
    parser.add_argument("--iterations", type=int, default=1000, help="display state changes per counter")
    parser.add_argument("--dir", default="/var/tmp")
    pi_class.add_arguments(parser)
    args = parser.parse_args()
    pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    startup.compile_tree()
    recorder = Recorder()
    recorder.timing(service_module, "collect_garbage", "the loop's collection")
    recorder.timing(Journal, "top_up", "the journal's top-up")
    gc.callbacks.append(recorder.collected)
    bench_service.latency = recorder.latency(bench_service.latency, bench_service.press)
    cpu = pi_class.bench_cpu()
    before = pi_class.pin(cpu)
    pi_class.favour(args)
    try:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            for n in range(args.runs):
                bench_display.figures(args.iterations)
                bench_service.timed_figures(Path(tmp) / f"base{n}", args, idle=0)
                recorder.runs.clear()
                with pi_class.slowed_core(args) as (_, calibration):
                    print(calibration, flush=True)
                    bench_display.figures(args.iterations)
                    bench_service.timed_figures(Path(tmp) / f"slow{n}", args, idle=0)
                    recorder.report(f"run {n + 1} of {args.runs}, slowed")
    finally:
        os.sched_setaffinity(0, before)


if __name__ == "__main__":
    main()
