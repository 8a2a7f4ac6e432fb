"""The benches' interpreter: a venv holding only what a Pi installs — pocitadlo's dependencies and
its [pi] extra — made once (under /var/tmp, kept) and run with the checkout's code on PYTHONPATH.

Why not the development venv: it holds the test, server and emulator extras and pocitadlo as an
*editable* install, whose import hook (a .pth file setuptools writes) runs at every interpreter
start and imports pathlib, re, enum, urllib.parse, ipaddress … before the first line of ours:
about 20 ms on this machine, a quarter of a second on the Pi-class core, added to every start
figure and not to a Pi's (docs/performance.md, "Why the figures moved").
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("POCITADLO_BENCH_VENV", "/var/tmp/pocitadlo-bench-venv"))
STAMP = ".pocitadlo-requirements"


def requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["pi"]]


def ensure(venv: Path = VENV) -> Path:
    """The venv's python, made (or remade when pyproject's requirements changed)."""
    wanted = "\n".join(requirements())
    stamp = venv / STAMP
    if not (stamp.exists() and stamp.read_text(encoding="utf-8") == wanted):
        print(f"making the bench venv {venv} (pocitadlo's dependencies and [pi] only)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                        *requirements()], check=True)
        stamp.write_text(wanted, encoding="utf-8")
    return venv / "bin" / "python"


def inside(venv: Path = VENV) -> bool:
    return Path(sys.prefix).resolve() == venv.resolve()


def reexec(argv: list[str]) -> None:
    """Run this bench again in the bench venv (unless it runs there already); never returns then."""
    if inside():
        return
    python = ensure()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    os.execve(str(python), [str(python), *argv], env)
