"""Time from a state change to the frame handed to the device (a script, not a test).

For each counter: luma's real max7219 driver (its byte packing included) over luma's no-op
serial interface — everything but the SPI transfer itself — and the 7-segment board on the same
driver. Each iteration shows a new carom state (points and series change, as after a stroke), so
every call renders, compares and pushes one frame.

    .venv/bin/python bench/bench_display.py [ITERATIONS]
"""
import copy
import platform
import statistics
import sys
import time
import warnings

from luma.core.interface.serial import noop

from display.counter import Counter
from display.devices import open_device
from display.samples import sample
from display.settings import DisplaySettings

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
    for i, model in enumerate(models):
        now = float(i)              # whole seconds: the blink phase never changes between calls
        start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
        counter.show(model, now)
        cpu.append((time.thread_time_ns() - start_cpu) / 1e6)
        wall.append((time.perf_counter_ns() - start) / 1e6)
    assert counter.frames == len(models), "every state change must push exactly one frame"
    return wall, cpu


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def main(argv) -> int:
    iterations = int(argv[1]) if len(argv) > 1 else 2000
    models = states(iterations + 100)
    print(f"python {platform.python_version()} on {platform.machine()}, {iterations} state changes each")
    print(f"{'counter':22} {'median ms':>10} {'p99 ms':>8} {'CPU median':>11} {'CPU p99':>8}")
    for name, settings in COUNTERS:
        wall, cpu = (t[100:] for t in measure(settings, models))   # the first 100 warm caches up
        print(f"{name:22} {statistics.median(wall):10.3f} {p99(wall):8.3f}"
              f" {statistics.median(cpu):11.3f} {p99(cpu):8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
