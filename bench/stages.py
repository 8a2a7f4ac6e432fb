"""Where a keypress's time goes: wrappers that add each stage's seconds to the press being timed.

``Stages.wrap(obj, "name", stage)`` replaces ``obj.name`` (an instance attribute or a module
function) with a timed call; nested stages are taken apart in ``breakdown``:

    key      the referee deciding what the key means and checking it against the rules (input.referee)
    rules    the rule core applying the checked command (night.enter minus the journal)
    journal  encoding and writing the line (the journal's append minus its sync)
    storage  fsync/fdatasync: the disk's (or the SD card model's) own time
    frame    the counter drawing the new state and handing it to the device
    rest     the whole key → frame minus the above: pin callback, queue, thread wake-ups, screen model

Beside them each press keeps ``cpu``: the process's CPU time from the press to its frame. Strokes
do about the same work, so a slow stroke's CPU beside the median stroke's tells one that waited
(little more CPU) from one whose core ran slower for a while (several times the CPU:
docs/performance.md, "The tails").
"""
import statistics
import time

STAGES = ("key", "rules", "journal", "storage", "frame", "rest")


class Stages:
    def __init__(self):
        self.current: dict[str, float] = {}
        self.presses: list[dict[str, float]] = []
        self._cpu = 0.0
        self._undo: list = []

    def wrap(self, obj, name: str, stage: str) -> None:
        real = getattr(obj, name)

        def timed(*args, **kw):
            start = time.perf_counter()
            try:
                return real(*args, **kw)
            finally:
                self.current[stage] = self.current.get(stage, 0.0) + time.perf_counter() - start

        had_own = name in getattr(obj, "__dict__", {})
        setattr(obj, name, timed)
        self._undo.append((obj, name, real, had_own))

    def unwrap(self) -> None:
        for obj, name, real, had_own in reversed(self._undo):
            if had_own:
                setattr(obj, name, real)
            else:
                delattr(obj, name)
        self._undo.clear()

    def begin(self) -> None:
        self.current = {}
        self._cpu = time.process_time()

    def end(self, total: float) -> None:
        self.presses.append({**breakdown(self.current, total), "cpu": time.process_time() - self._cpu})


def breakdown(raw: dict[str, float], total: float) -> dict[str, float]:
    """Nested wrapper times → disjoint stages (seconds) that sum to ``total``."""
    storage = raw.get("storage", 0.0)
    append = raw.get("append", 0.0)
    out = {"key": raw.get("key", 0.0), "rules": raw.get("command", 0.0) - append,
           "journal": append - storage, "storage": storage, "frame": raw.get("frame", 0.0)}
    out["rest"] = total - sum(out.values())
    out["total"] = total
    out["but_storage"] = total - storage
    return out


def percentile(values, p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(presses: list[dict[str, float]]) -> dict[str, tuple[float, float]]:
    """stage → (median ms, p99 ms)."""
    keys = STAGES + ("total", "but_storage", "cpu")
    return {k: (statistics.median(p[k] for p in presses) * 1000, percentile([p[k] for p in presses], 99) * 1000)
            for k in keys}
