"""Time from a state change to the frame handed to the device (a script, not a test).

For each counter: the real max7219 driver (luma's, with pocitadlo's byte packing:
display.max7219_packing) over luma's no-op serial interface — everything but the SPI transfer
itself — and the 7-segment board on the same driver. Each iteration shows a new carom state
(points and series change, as after a stroke), so every call renders, compares and pushes one frame.

Beside each counter, the floor: the driver's bare ``device.display(image)`` of a ready image
(luma's own packing, pixel by pixel, took about 5 times as long before issue 27); ``--pi-class``
runs everything again on a slowed core (bench/pi_class.py) and prints the ratios to the baseline
of the same run.

    .venv/bin/python bench/bench_display.py [ITERATIONS] [--pi-class [--slowdown 12]]
"""
import argparse
import copy
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

from luma.core.interface.serial import noop
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))   # the sample states
import pi_class
from display.counter import Counter
from display.devices import open_device
from display.settings import DisplaySettings
from display_samples import sample

warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated", DeprecationWarning)

COUNTERS = [
    ("MAX7219 32x8", DisplaySettings(driver="max7219", width=32, height=8)),
    ("MAX7219 64x16", DisplaySettings(driver="max7219", width=64, height=16)),
    ("MAX7219 96x16", DisplaySettings(driver="max7219", width=96, height=16)),
    ("MAX7219 128x32", DisplaySettings(driver="max7219", width=128, height=32)),
    ("7-segment 8 digits", DisplaySettings(driver="sevensegment", digits=8)),
    ("7-segment 16 digits", DisplaySettings(driver="sevensegment", digits=16)),
]


def states(count: int) -> list[dict]:
    """Carom models as after successive strokes: the series and the points go up by one."""
    base = sample("carom-series")
    out = []
    for i in range(count):
        model = copy.deepcopy(base)
        summary = model["summary"]
        summary["players"]["b"]["points"] = 13 + i % 180
        summary["counter"]["series"] = 13 + i % 180
        out.append(model)
    return out


def measure(settings: DisplaySettings, models: list[dict]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (this thread) milliseconds per state change. On a shared machine the
    wall-clock tail includes time the scheduler gave to other processes; the CPU time does not."""
    counter = Counter(open_device(settings, serial_interface=noop()), settings)
    wall, cpu = [], []
    for model in models:
        now = 0.0                   # the first page (the scores: 32x8 has a page of "1/15" alone) and one blink phase
        start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
        counter.show(model, now)
        cpu.append((time.thread_time_ns() - start_cpu) / 1e6)
        wall.append((time.perf_counter_ns() - start) / 1e6)
    assert counter.frames == len(models), "every state change must push exactly one frame"
    return wall, cpu


def bare(settings: DisplaySettings, count: int) -> list[float]:
    """Wall-clock milliseconds of the driver's ``display()`` of a ready image, alternating two images."""
    device = open_device(settings, serial_interface=noop())
    images = [Image.new(device.mode, device.size), Image.new(device.mode, device.size, "white")]
    wall = []
    for i in range(count):
        start = time.perf_counter_ns()
        device.display(images[i % 2])
        wall.append((time.perf_counter_ns() - start) / 1e6)
    return wall


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def figures(iterations: int) -> dict[str, tuple[float, float, float, float]]:
    """counter → (median ms, p99 ms, CPU median ms, luma's bare display() median ms)."""
    models = states(iterations + 100)
    out = {}
    for name, settings in COUNTERS:
        wall, cpu = (t[100:] for t in measure(settings, models))   # the first 100 warm caches up
        floor = bare(settings, iterations + 100)[100:]
        out[name] = (statistics.median(wall), p99(wall), statistics.median(cpu), statistics.median(floor))
    return out


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iterations", nargs="?", type=int, default=2000)
    pi_class.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    print(f"python {platform.python_version()} on {platform.machine()}, {args.iterations} state changes each, "
          f"load {os.getloadavg()[0]:.2f} at start")
    runs = {}
    if not args.pi_class:
        runs["this machine"] = figures(args.iterations)
    else:
        before = pi_class.pin(pi_class.bench_cpu())
        try:
            runs["baseline"] = figures(args.iterations)
            with pi_class.slowed_core(args) as (_, calibration):
                runs["slowed core"] = figures(max(200, args.iterations // 10))
        finally:
            os.sched_setaffinity(0, before)
        print(calibration)
    base = next(iter(runs.values()))
    for label, run in runs.items():
        print(f"{label}:")
        print(f"{'counter':22} {'median ms':>10} {'p99 ms':>8} {'CPU median':>11} {'bare display()':>15}"
              f" {'/ bare':>7} {'/ baseline':>11}")
        for name, (median, tail, cpu, floor) in run.items():
            print(f"{name:22} {median:10.3f} {tail:8.3f} {cpu:11.3f} {floor:15.3f} {median / floor:7.1f}"
                  f" {pi_class.ratio(median, base[name][0]):>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
