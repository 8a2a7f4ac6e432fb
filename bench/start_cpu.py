"""CPU time of `pocitadlo run` to the lit counter and to READY=1: robust against a loaded machine,
where the wall-clock figures of bench_service are not (a start waiting for the CPU is not counted).

    python bench/start_cpu.py [--runs 15] [--before DIR] [--venue]

The MAX7219 start of bench_service (its first frame saved, a file standing in for /dev/spidev0.0),
started as the unit starts it (bench/startup.py: service_command); the time is the child's own CPU
time when its sd_notify message arrives (/proc/PID/schedstat), the median of ``--runs`` starts;
with --before, the same of another source tree (e.g. `git archive` of main) beside it, the starts
alternating; with --venue, the config of a venue's device (a league file, delivery over HTTPS).
Runs in the bench venv (bench/pi_venv.py).
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


VENUE_SYNC = ('[sync]\noutbox = "outbox"\ntransport = "http"\nurl = "https://liga.example.invalid/api/v1/records"\n'
              'device_id = "bench-1"\nsecret = "0123456789abcdef0123"\n')


def venue_config(directory: Path) -> Path:
    """bench_service's MAX7219 start as a venue's device has it: the example league file (its
    fixtures' dates and all) and delivery to the league's receiver over HTTPS (unreachable here:
    nothing is sent before READY)."""
    config = bench_service.max7219_start_config(directory)
    (directory / "league.toml").write_bytes((ROOT / "config" / "examples" / "league.toml").read_bytes())
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("[device]\n", '[device]\nleague = "league.toml"\n')
                      .replace('[sync]\noutbox = "outbox"\n', VENUE_SYNC), encoding="utf-8")
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--before", help="another source tree to time beside this one")
    parser.add_argument("--venue", action="store_true", help="a venue's config: a league file, delivery over HTTPS")
    args = parser.parse_args()
    pi_venv.reexec([str(Path(__file__).resolve()), *sys.argv[1:]])
    trees = [("before", Path(args.before))] if args.before else []
    trees.append(("now", ROOT))
    make_config = venue_config if args.venue else bench_service.max7219_start_config
    with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
        # a config (and state directory) per tree: each keeps its own parse of it
        configs = {name: make_config(Path(tmp) / name) for name, _ in trees}
        starts: dict[str, list[dict]] = {name: [] for name, _ in trees}
        for _, root in trees:
            startup.compile_tree(root)
        for _ in range(args.runs):              # alternating: the machine's speed drifts within minutes
            for name, root in trees:
                starts[name].append(one_start(root, configs[name]))
        for name, _ in trees:
            for stage in ("lit", "ready"):
                values = [s[stage] for s in starts[name] if stage in s]
                print(f"{name}: CPU time to {stage}: median {statistics.median(values):.1f} ms "
                      f"(min {min(values):.1f}, max {max(values):.1f}; {len(values)} starts)")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
