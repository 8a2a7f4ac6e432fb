"""Process start → first frame of `pocitadlo run`, its idle CPU and memory, and where the start goes.

* ``start_and_idle``: `pocitadlo run` started until the counter is lit (STATUS=counter lit, sent
  once the venue and table are on the display) and until READY=1 (the service's first screen is
  shown, scoring can start), then idle CPU and resident memory with nothing pressed;
* ``import_profile``: the same start under ``python -X importtime``, before and after the counter
  is lit, the modules that took longest;
* ``bare_start``: the floors — an interpreter that does nothing, one that only imports luma's
  MAX7219 driver.
"""
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# What pip's console script runs: what an installed version's bin/pocitadlo (the unit's ExecStart)
# was before install.sh wrote cli/launcher.py's in its place, and what a tree without it runs.
CONSOLE_SCRIPT = ("import re, sys\nfrom cli.main import main\n"
                  "sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\nsys.exit(main())")


def service_command(config: Path, *flags: str, root: Path = ROOT, log_level: str = "WARNING") -> list[str]:
    """`pocitadlo run --config config` as the unit starts it from the source tree ``root``: through
    cli/launcher.py, which install.sh makes bin/pocitadlo (not `python -m cli`, whose runpy the
    installed service never imports), without site where it runs site itself; ``flags``: the
    interpreter's."""
    launcher = root / "cli" / "launcher.py"
    script = [str(launcher)] if launcher.exists() else ["-c", CONSOLE_SCRIPT]
    if launcher.exists() and "deferred_site" in launcher.read_text(encoding="utf-8"):
        flags = ("-S", *flags)      # as bin/pocitadlo's first line: site runs once the counter is lit
    return [sys.executable, *flags, *script, "run", "--config", str(config), "--log-level", log_level]


def compile_tree(root: Path = ROOT) -> None:
    """Bytecode for a source tree, as systemd/install.sh makes it (the venv is left alone)."""
    import compileall
    import re

    compileall.compile_dir(str(root), quiet=1, rx=re.compile(r"/\.(venv|git)/"))
    if (root / "cli" / "dataclass_bytecode.py").exists():      # and the dataclasses' code, in its own process
        subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(root)!r}); "
                        "from cli.dataclass_bytecode import build; build()"], check=True, cwd=root)


def start_and_idle(directory: Path, config: Path, idle_seconds: float, root: Path = ROOT, *,
                   bytecode: bool = True) -> dict:
    """``root``: the source tree to run (an older one says READY=1 without STATUS=counter lit:
    then "lit" is None); ``bytecode=False``: a copy of it without __pycache__, so pocitadlo's own
    modules are compiled at every start (the venv's, compiled by pip, are not)."""
    if not bytecode:
        root = _copy_sources(root, directory / "no-bytecode")
    with running(config, directory, root) as (child, stamps):
        idle = idle_cpu(child.pid, idle_seconds)
        rss = _rss_kib(child.pid)
    return {"lit": stamps.get("lit"), "first_frame": stamps["ready"], "idle_cpu": idle, "rss_mib": rss / 1024}


def unit_env(config: Path, address: str, root: Path = ROOT) -> dict:
    """The environment systemd gives `pocitadlo run` (systemd/pocitadlo.service): the notify
    socket, the watchdog, and the state directory (StateDirectory=, the default data_dir: here the
    config's own data_dir), with the source tree ``root`` on the path."""
    state = config.parent / "data"
    state.mkdir(exist_ok=True)
    return dict(os.environ, **unit_environment(root), NOTIFY_SOCKET=address, WATCHDOG_USEC="60000000",
                STATE_DIRECTORY=str(state), PYTHONPATH=str(root))


def unit_environment(root: Path = ROOT) -> dict:
    """The unit's own Environment= settings (systemd/pocitadlo.service of the tree ``root``)."""
    unit = root / "systemd" / "pocitadlo.service"
    pairs = [word.split("=", 1) for line in unit.read_text(encoding="utf-8").splitlines()
             if line.startswith("Environment=") for word in line.removeprefix("Environment=").split()]
    return dict(pairs)


@contextmanager
def running(config: Path, directory: Path, root: Path = ROOT):
    """`pocitadlo run --config config` until READY=1: (the process, {"lit"/"ready": seconds from
    the start}); ended after the block."""
    address = str(directory / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(60)
        env = unit_env(config, address, root)
        start = time.perf_counter()
        child = subprocess.Popen(service_command(config, root=root), stdin=subprocess.PIPE, env=env, cwd=root)
        try:
            built = "counter built" in (root / "cli" / "commands" / "run.py").read_text(encoding="utf-8")
            stamps = {name: at - start for name, at in _stamps_until_ready(server, built).items()}
            yield child, stamps
        finally:
            child.terminate()
            child.wait(20)
            os.unlink(address)


def idle_cpu(pid: int, seconds: float) -> float:
    """The share of one core process ``pid`` used over the next ``seconds``."""
    if not seconds:
        return 0.0
    cpu0 = _cpu(pid)
    time.sleep(seconds)
    return (_cpu(pid) - cpu0) / os.sysconf("SC_CLK_TCK") / seconds


def _copy_sources(root: Path, target: Path) -> Path:
    import shutil

    if not target.exists():
        shutil.copytree(root, target, ignore=shutil.ignore_patterns("__pycache__", ".venv", ".git", "*.egg-info", ".lgd-nfy*"))
    return target


def _stamps_until_ready(server: socket.socket, built: bool = False) -> dict:
    """The times of STATUS=counter lit and READY=1; with ``built`` (a tree whose counter may be
    built after READY), also of STATUS=… counter built, if it comes: idle is measured after it."""
    stamps = {}
    for _ in range(10):
        message = server.recv(200).decode()
        now = time.perf_counter()
        if message.startswith("STATUS=counter lit"):
            stamps["lit"] = now
        elif message.startswith("READY=1"):
            stamps["ready"] = now
            if not built or "counter built" in message:
                return stamps
        elif message.startswith("STATUS=") and "counter built" in message:
            stamps["built"] = now
            return stamps
    raise SystemExit("pocitadlo run never said READY=1")


def _wait_for(server: socket.socket, prefix: str) -> float:
    """The perf_counter time the service's sd_notify message starting with ``prefix`` came."""
    for _ in range(10):
        message = server.recv(200).decode()
        if message.startswith(prefix):
            return time.perf_counter()
    raise SystemExit(f"pocitadlo run never said {prefix}")


def import_profile(directory: Path, config: Path, top: int = 6) -> dict:
    """The start under -X importtime, split where the counter is lit: for "lit" and "ready",
    (seconds of top-level imports in that part, [(module, cumulative seconds)] longest first)."""
    log = directory / "importtime.txt"
    address = str(directory / "notify-importtime.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server, open(log, "w") as err:
        server.bind(address)
        server.settimeout(60)
        env = unit_env(config, address)
        child = subprocess.Popen(service_command(config, "-X", "importtime"), stdin=subprocess.PIPE,
                                 stderr=err, env=env)
        try:
            _wait_for(server, "STATUS=counter lit")
            at_lit = log.stat().st_size          # the child's stderr is line-buffered: all written
            _wait_for(server, "READY=1")
        finally:
            child.terminate()
            child.wait(20)
        os.unlink(address)
    text = log.read_text()
    return {"lit": _top_imports(text[:at_lit], top), "ready": _top_imports(text[at_lit:], top)}


def _top_imports(text: str, top: int) -> tuple[float, list[tuple[str, float]]]:
    tops = []
    for line in text.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit() and not name.startswith("  "):     # a top-level import
            tops.append((name.strip(), int(cumulative) / 1e6))
    return sum(t for _, t in tops), sorted(tops, key=lambda t: -t[1])[:top]


def bare_start(code: str) -> float:
    """Seconds for an interpreter (this venv's, its site included) that runs ``code`` and exits."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def _cpu(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])        # utime + stime


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
