"""bench/pi_class.py and bench/stages.py: the Pi-class bench's own parts (issue 14).

The CPU stealer runs at SCHED_FIFO; whatever happens to the bench, it must not outlive it. Its
speed is not asserted here (bench figures go in bench/), only that it stops: by itself after
max_seconds, and with its parent when the parent is killed. Waits are hang bounds, not timings.
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import pi_class
from stages import STAGES, Stages, breakdown


def _fifo_allowed() -> bool:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except PermissionError:
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


def _gone(pid: int, bound: float = 30.0) -> bool:
    end = time.monotonic() + bound
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_the_stealer_stops_by_itself_after_max_seconds():
    stealer = pi_class.Stealer(pi_class.bench_cpu(), 2.0, max_seconds=0.3)
    if not _fifo_allowed():
        with pytest.raises(SystemExit, match="SCHED_FIFO needs root"):
            stealer.start()
        return
    stealer.start()
    try:
        assert stealer.proc.wait(30) == 0          # ended on its own, no kill needed
    finally:
        stealer.stop()


PARENT = """
import sys, time
sys.path.insert(0, sys.argv[1])
import pi_class
stealer = pi_class.Stealer(pi_class.bench_cpu(), 2.0, max_seconds=600).start()
print(stealer.proc.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_the_stealer_dies_with_a_killed_bench():
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(BENCH)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        said = parent.stdout.readline()
    finally:
        parent.kill()
        parent.wait(30)
        parent.stdout.close()
        error = parent.stderr.read()
        parent.stderr.close()
    if not _fifo_allowed():             # no stealer at all: the bench stops with one line
        assert said == "" and "SCHED_FIFO needs root" in error
        return
    pid = int(said)
    outlived = not _gone(pid)
    if outlived:                        # not left running at SCHED_FIFO on a shared machine
        os.kill(pid, signal.SIGKILL)
    assert not outlived, "the stealer outlived its bench"


def test_the_stealer_refuses_a_slowdown_that_is_not_one():
    with pytest.raises(ValueError):
        pi_class.Stealer(0, 1.0)


def test_the_sd_card_model_delays_every_sync_within_its_distribution(tmp_path, monkeypatch):
    slept = []
    monkeypatch.setattr(pi_class.time, "sleep", slept.append)
    real = os.fsync, os.fdatasync
    storage = pi_class.SlowStorage.parse("2:20:150:0.25")
    with open(tmp_path / "f", "wb") as fh, storage:
        for _ in range(100):
            os.fdatasync(fh.fileno())
            os.fsync(fh.fileno())
    assert len(slept) == len(storage.waits) == 200
    assert all(0.002 <= s <= 0.020 or s == 0.150 for s in slept)
    assert 20 < slept.count(0.150) < 80                        # about a quarter, seeded
    assert (os.fsync, os.fdatasync) == real                    # the real calls are back


def test_a_malformed_storage_model_is_one_line():
    with pytest.raises(SystemExit, match="LOW:HIGH:STALL:SHARE"):
        pi_class.SlowStorage.parse("2-20")


def test_stages_add_up_to_the_press_and_nest():
    stages = breakdown({"key": 0.001, "command": 0.010, "append": 0.008, "storage": 0.005, "frame": 0.002}, 0.020)
    assert [round(stages[s], 6) for s in STAGES] == [0.001, 0.002, 0.003, 0.005, 0.002, 0.007]
    assert round(sum(stages[s] for s in STAGES), 9) == 0.020
    assert round(stages["but_storage"], 6) == 0.015


def test_stage_wrappers_time_calls_and_unwrap_cleanly():
    class Thing:
        def work(self):
            return 42

    thing = Thing()
    stages = Stages()
    stages.wrap(thing, "work", "key")
    stages.wrap(os, "getpid", "rest")
    stages.begin()
    assert thing.work() == 42 and os.getpid() > 0
    assert set(stages.current) == {"key", "rest"}
    stages.unwrap()
    assert "work" not in vars(thing) and os.getpid.__name__ == "getpid"


def test_the_hypervisors_steal_is_read_for_the_bench_cpu_and_given_as_a_share(tmp_path, monkeypatch):
    """Issue 27: runs that disagree by hundreds of per cent were runs whose virtual CPU the host
    took away; the bench says how much it took while each column ran."""
    stolen, total = pi_class.cpu_ticks(pi_class.bench_cpu())
    assert 0 <= stolen <= total and total > 0              # this machine's own /proc/stat
    assert pi_class.cpu_ticks(4096) == (0, 0)              # no such CPU: nothing read, nothing stolen
    assert pi_class.stolen_share((10, 1000), (60, 1200)) == 0.25
    assert pi_class.stolen_share((10, 1000), (10, 1000)) == 0.0     # no time passed


def test_the_table_says_the_steal_and_the_cores_speed_and_agree_leaves_them_out(tmp_path, monkeypatch):
    """Issue 27: the host's own doings (steal, a core's speed that varies with its neighbours) are
    printed beside the figures, and are not figures two sets must agree on."""
    import agree
    import readme_numbers
    burst, steal = [row for row in readme_numbers.ROWS if row[2] == readme_numbers.CONDITIONS]
    runs = {name: [{"steal": 1.0, "burst": 3.0, "lit": 0.5}, {"steal": 3.0, "burst": 5.5, "lit": 0.7}]
            for name in readme_numbers.CONFIGS}
    cell = readme_numbers.cells(runs, steal[1], steal[3], False)
    assert cell.startswith("2.0 % (1.0 %–3.0 %") and "×" not in cell
    assert readme_numbers.cells(runs, burst[1], burst[3], False).startswith("4.25 ms (3.00–5.50, ±29 %)")
    lit = ("lit", lambda r: r["lit"] * 1000, "bench_service.py", "{:.0f} ms")
    monkeypatch.setattr(readme_numbers, "ROWS", [lit, burst, steal])
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"runs": runs}), encoding="utf-8")
    assert {what for what, _ in agree.medians(str(path))} == {"lit"}      # steal differs, and is no figure


def test_the_keypress_instructions_are_a_row_and_a_figure_to_agree_on(tmp_path):
    """The one device figure that reproduces on any host: printed once a set, compared by agree."""
    import agree
    import readme_numbers
    runs = {name: [{"service": {"idle_cpu": 0.001, "rss_mib": 24.0}}] for name in readme_numbers.CONFIGS}
    wear = {"journal": 100, "commands": 5, "outbox": 10, "night": 20}
    [counted] = [line for line in readme_numbers.fixed_rows(runs, wear, 271_590.4) if "instructions" in line]
    assert "| 271,590 |" in counted and "stroke_cpu.py --instructions" in counted
    assert not any("instructions" in line for line in readme_numbers.fixed_rows(runs, wear, None))
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"runs": {}, "instructions": 271_590.4}), encoding="utf-8")
    assert agree.medians(str(path)) == {("instructions a keypress", "callgrind"): (271_590.4, "{:,.0f}")}


def test_stroke_cpu_counts_presses_from_the_pin_to_the_frame(tmp_path, monkeypatch):
    """bench/stroke_cpu.py's counted strokes (what --instructions counts under callgrind): each
    press reaches its frame, and only the counted presses run inside functools.reduce."""
    import functools

    import stroke_cpu

    reduced = []
    real = functools.reduce
    monkeypatch.setattr(functools, "reduce", lambda f, items, start: reduced.append(1) or real(f, items, start))
    frames = stroke_cpu.counted_strokes(tmp_path, 3, warm=2)
    assert len(reduced) == 3 and frames >= 5
