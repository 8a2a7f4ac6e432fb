"""Process start → first frame of `pocitadlo run`, its idle CPU and memory, and where the start goes.

* ``start_and_idle``: `pocitadlo run` started until its READY=1 (sent right after the first frame
  is handed to the display), then idle CPU and resident memory with nothing pressed;
* ``import_profile``: the same start under ``python -X importtime``, the modules that took longest;
* ``bare_import``: the floor — an interpreter that only imports luma's MAX7219 driver.
"""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_command(config: Path, *flags: str) -> list[str]:
    return [sys.executable, *flags, "-m", "cli", "run", "--config", str(config), "--log-level", "WARNING"]


def start_and_idle(directory: Path, config: Path, idle_seconds: float) -> dict:
    address = str(directory / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="60000000", PYTHONPATH=str(ROOT))
        start = time.perf_counter()
        child = subprocess.Popen(_run_command(config), stdin=subprocess.PIPE, env=env)
        try:
            message = server.recv(200).decode()
            first_frame = time.perf_counter() - start
            if not message.startswith("READY=1"):
                raise SystemExit(f"pocitadlo run said {message!r} instead of READY=1")
            ticks = os.sysconf("SC_CLK_TCK")
            cpu0 = _cpu(child.pid)
            time.sleep(idle_seconds)
            cpu1 = _cpu(child.pid)
            rss = _rss_kib(child.pid)
        finally:
            child.terminate()
            child.wait(20)
        os.unlink(address)
    idle = (cpu1 - cpu0) / ticks / idle_seconds if idle_seconds else 0.0
    return {"first_frame": first_frame, "idle_cpu": idle, "rss_mib": rss / 1024}


def import_profile(directory: Path, config: Path, top: int = 8) -> tuple[float, list[tuple[str, float]]]:
    """(seconds of all imports until READY, [(top-level module, cumulative seconds)] longest first)."""
    log = directory / "importtime.txt"
    address = str(directory / "notify-importtime.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server, open(log, "w") as err:
        server.bind(address)
        server.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=address, PYTHONPATH=str(ROOT))
        child = subprocess.Popen(_run_command(config, "-X", "importtime"), stdin=subprocess.PIPE,
                                 stderr=err, env=env)
        try:
            server.recv(200)
        finally:
            child.terminate()
            child.wait(20)
        os.unlink(address)
    tops = []
    for line in log.read_text().splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit() and not name.startswith("  "):     # a top-level import
            tops.append((name.strip(), int(cumulative) / 1e6))
    total = sum(t for _, t in tops)
    return total, sorted(tops, key=lambda t: -t[1])[:top]


def bare_import() -> float:
    """Seconds for an interpreter that imports luma's MAX7219 driver and exits (the floor)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import luma.led_matrix.device"], check=True)
    return time.perf_counter() - start


def _cpu(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])        # utime + stime


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
