"""Pi Zero 2 W-class conditions for the benches: a slowed core and a slow SD card.

**The slowed core.** The bench process is pinned to one core; a "CPU stealer" process is pinned
to the same core at SCHED_FIFO priority and runs a duty cycle: busy for most of each period
(default 0.5 ms), asleep for the rest. A real-time task preempts every normal one, so everything the
bench runs on that core — the service loop, a key's handling, a child `pocitadlo run` — gets only
the idle slivers, even for a burst of a millisecond. (A CPU quota or competing busy loops do not
slow short bursts: the scheduler hands a woken task the core at once.) The slow-down is not
assumed but calibrated: a fixed piece of Python is timed with and without the stealer.

The stealer can never outlive the bench: it exits by itself after ``max_seconds``, it gets
SIGKILL when its parent dies (PR_SET_PDEATHSIG), the parent stops it in a ``finally``, and the
kernel's RT throttling (sched_rt_runtime_us, 95 %) leaves the core 5 % even if all that failed.

**The slow SD card.** ``SlowStorage`` wraps ``os.fsync`` and ``os.fdatasync`` in this process:
the real call, then a sleep drawn from a distribution (default uniform 2-20 ms, and a 150 ms stall
on 2 % of the calls). Only the bench process is affected; every wait is recorded, so a bench can
print "everything but the storage's own time".
"""
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time

STEALER = r"""
import ctypes, os, signal, sys, time
cpu, busy_ns, idle_s, max_seconds, parent = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG: die with the bench
if os.getppid() != parent:
    sys.exit(0)
os.sched_setaffinity(0, {cpu})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
sys.stdout.write("on\n")
sys.stdout.flush()
end = time.monotonic() + max_seconds
clock = time.perf_counter_ns
while time.monotonic() < end:
    until = clock() + busy_ns
    while clock() < until:
        pass
    time.sleep(idle_s)
"""


TUNING_ROUNDS = 4


def bench_cpu() -> int:
    """The core the bench runs on: the last one (the first tends to take the interrupts)."""
    return max(os.sched_getaffinity(0))


def pin(cpu: int) -> set:
    """Pin this process (and the threads and children it starts from now on) to ``cpu``."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    return before


class Stealer:
    """The SCHED_FIFO duty cycle on one core; a context manager, stopped on exit."""

    def __init__(self, cpu: int, slowdown: float = 12.0, *, period_ms: float = 0.5, max_seconds: float = 600.0):
        if slowdown <= 1:
            raise ValueError("slowdown must be above 1")
        self.cpu, self.slowdown, self.max_seconds = cpu, slowdown, max_seconds
        self.period_ms = period_ms
        idle = period_ms / slowdown
        self.busy_ns, self.idle_s = int((period_ms - idle) * 1e6), idle / 1000
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Stealer":
        self.proc = subprocess.Popen(
            [sys.executable, "-c", STEALER, str(self.cpu), str(self.busy_ns), repr(self.idle_s),
             repr(self.max_seconds), str(os.getpid())], stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "on":
            self.stop()
            raise SystemExit("the CPU stealer did not start (SCHED_FIFO needs root or CAP_SYS_NICE)")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait(10)
            self.proc.stdout.close()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _work(n: int = 6000) -> int:
    """A fixed piece of pure Python (dicts, strings, ints), about a keypress's worth on a fast core."""
    total = 0
    for i in range(n):
        d = {"cmd": "score", "value": i % 7}
        total += len(str(d)) + d["value"]
    return total


def burst_ms(rounds: int = 60) -> float:
    """Median wall-clock milliseconds of ``_work`` on this core."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        _work()
        times.append(time.perf_counter() - start)
        time.sleep(0.002)               # bursts after a sleep, like a key's handling
    return statistics.median(times) * 1000


def calibrate(stealer: Stealer, baseline_ms: float | None = None) -> tuple[float, float, float]:
    """(baseline ms, slowed ms, factor) of the fixed burst, the stealer running from here on."""
    baseline_ms = baseline_ms if baseline_ms is not None else burst_ms()
    if stealer.proc is None:
        stealer.start()
    slowed = burst_ms()
    return baseline_ms, slowed, slowed / baseline_ms


class SlowStorage:
    """fsync/fdatasync of this process delayed as on an SD card; a context manager."""

    def __init__(self, low_ms: float = 2.0, high_ms: float = 20.0, stall_ms: float = 150.0,
                 stall_share: float = 0.02, seed: int = 14):
        self.low, self.high, self.stall, self.share = low_ms / 1000, high_ms / 1000, stall_ms / 1000, stall_share
        self.rng = random.Random(seed)
        self.waits: list[float] = []        # seconds of each sync call, the real one included
        self._saved = None

    @classmethod
    def parse(cls, text: str) -> "SlowStorage":
        """``LOW:HIGH:STALL:SHARE`` in ms, ms, ms and a fraction, e.g. ``2:20:150:0.02``."""
        try:
            low, high, stall, share = (float(x) for x in text.split(":"))
        except ValueError:
            raise SystemExit(f"--storage: expected LOW:HIGH:STALL:SHARE (e.g. 2:20:150:0.02), got {text!r}") from None
        return cls(low, high, stall, share)

    def describe(self) -> str:
        return (f"fsync +{self.low * 1000:g}-{self.high * 1000:g} ms uniform, "
                f"{self.share * 100:g} % stalls of {self.stall * 1000:g} ms")

    def delay(self) -> float:
        if self.rng.random() < self.share:
            return self.stall
        return self.rng.uniform(self.low, self.high)

    def _slow(self, real):
        def sync(fd):
            start = time.perf_counter()
            real(fd)
            time.sleep(self.delay())
            self.waits.append(time.perf_counter() - start)
        return sync

    def __enter__(self):
        self._saved = os.fsync, os.fdatasync
        os.fsync, os.fdatasync = self._slow(os.fsync), self._slow(os.fdatasync)
        return self

    def __exit__(self, *exc):
        os.fsync, os.fdatasync = self._saved


def add_arguments(parser) -> None:
    """The options every bench takes for its Pi-class mode."""
    parser.add_argument("--pi-class", action="store_true",
                        help="also run on a slowed core (and slow storage where a bench syncs), with ratios")
    parser.add_argument("--slowdown", type=float, default=12.0, help="the core's target slow-down (default 12)")
    parser.add_argument("--period", type=float, default=0.5,
                        help="the stealer's duty-cycle period in ms (default 0.5)")
    parser.add_argument("--storage", default="2:20:150:0.02",
                        help="SD card model LOW:HIGH:STALL:SHARE (ms, ms, ms, fraction; default 2:20:150:0.02)")
    parser.add_argument("--no-nice", action="store_true",
                        help="leave the bench at its niceness (default: nice -20 where allowed, see favour)")
    parser.add_argument("--max-seconds", type=float, default=600.0,
                        help="the CPU stealer stops by itself after this long (default 600)")


@contextlib.contextmanager
def slowed_core(args):
    """Pin to the bench core, start the stealer, calibrate; yields (stealer, calibration line)."""
    cpu = bench_cpu()
    before = pin(cpu)
    stealer = None
    try:
        base = burst_ms()
        setting = args.slowdown
        for attempt in range(TUNING_ROUNDS):    # the switches cost too: tune the duty cycle to the target
            stealer = Stealer(cpu, setting, period_ms=args.period, max_seconds=args.max_seconds)
            _, slowed, factor = calibrate(stealer, base)
            if abs(factor / args.slowdown - 1) < 0.1 or attempt == TUNING_ROUNDS - 1:
                break
            stealer.stop()
            setting = max(1.5, setting * args.slowdown / factor)
        yield stealer, (f"slowed core: CPU {cpu}, SCHED_FIFO duty cycle {args.period:g} ms, target "
                        f"{args.slowdown:g}x, calibrated {factor:.1f}x (a fixed burst {base:.2f} ms -> "
                        f"{slowed:.2f} ms)")
    finally:
        if stealer is not None:
            stealer.stop()
        os.sched_setaffinity(0, before)


def cpu_ticks(cpu: int) -> tuple[int, int]:
    """(stolen, all) clock ticks of ``cpu`` since boot (/proc/stat; (0, 0) where there is none):
    stolen is the time the hypervisor ran something else while this virtual CPU had work. No
    stealer of ours can slow a core evenly while the host takes it away unevenly: a figure
    measured while it did is not this machine's."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(f"cpu{cpu} "):
                    ticks = [int(v) for v in line.split()[1:9]]
                    return ticks[7], sum(ticks)
    except OSError:
        pass
    return 0, 0


def stolen_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of a CPU's time the hypervisor took between two ``cpu_ticks`` readings."""
    elapsed = after[1] - before[1]
    return (after[0] - before[0]) / elapsed if elapsed > 0 else 0.0


def ratio(value: float, base: float) -> str:
    return f"×{value / base:.1f}" if base > 0 else "-"


def favour(args=None) -> int:
    """The bench (and the children it starts from now on) at nice -20 where it may (root): the
    machine's other work — a test suite, a build — then takes the slivers the stealer leaves only
    when the bench does not want them, and weighs less on the figures (docs/performance.md). The
    niceness in force; ``args.no_nice``: left as it is (to compare)."""
    if args is not None and args.no_nice:
        return os.getpriority(os.PRIO_PROCESS, 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -20)
    except PermissionError:
        pass
    return os.getpriority(os.PRIO_PROCESS, 0)
