"""CPU time of `pocitadlo run` to the lit counter and to READY=1: robust against a loaded machine,
where the wall-clock figures of bench_service are not (a start waiting for the CPU is not counted).

    python bench/start_cpu.py [--runs 15] [--before DIR]

The MAX7219 start of bench_service (its first frame saved, a file standing in for /dev/spidev0.0),
started as the unit starts it (bench/startup.py: service_command); the time is the child's own CPU
time when its sd_notify message arrives (/proc/PID/schedstat), the median of ``--runs`` starts; with --before, the same of
another source tree (e.g. `git archive` of main) beside it. Runs in the bench venv (bench/pi_venv.py).
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_service
import pi_venv
import startup


def cpu_ms(pid: int) -> float:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6


def one_start(root: Path, config: Path) -> dict:
    """{"lit": ms, "ready": ms} of CPU time at the service's STATUS=counter … and READY=1."""
    with tempfile.TemporaryDirectory() as tmp, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        address = os.path.join(tmp, "notify.sock")
        server.bind(address)
        server.settimeout(120)
        env = startup.unit_env(config, address, root)
        child = subprocess.Popen(startup.service_command(config, root=root, log_level="ERROR"), env=env, cwd=root,
                                 stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
        seen: dict = {}
        try:
            while "ready" not in seen:
                message = server.recv(300).decode()
                if message.startswith("STATUS=counter"):
                    seen.setdefault("lit", cpu_ms(child.pid))
                elif message.startswith("READY=1"):
                    seen["ready"] = cpu_ms(child.pid)
        finally:
            child.terminate()
            child.wait(20)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--before", help="another source tree to time beside this one")
    args = parser.parse_args()
    pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    trees = [("before", Path(args.before))] if args.before else []
    trees.append(("now", ROOT))
    with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
        config = bench_service.max7219_start_config(Path(tmp))
        for name, root in trees:
            startup.compile_tree(root)
            starts = [one_start(root, config) for _ in range(args.runs)]
            for stage in ("lit", "ready"):
                values = [s[stage] for s in starts if stage in s]
                print(f"{name}: CPU time to {stage}: median {statistics.median(values):.1f} ms "
                      f"(min {min(values):.1f}, max {max(values):.1f}; {len(values)} starts)")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
