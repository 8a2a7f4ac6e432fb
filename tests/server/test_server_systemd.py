"""systemd/pocitadlo-server.service: a valid, unprivileged, hardened unit for the league's receiver."""
import configparser
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "pocitadlo-server.service"
INSTALLED = "/opt/pocitadlo/.venv/bin/pocitadlo"
THRESHOLD = 2.0

needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")


def service() -> dict[str, list[str]]:
    """[Service] of the unit, every value of a repeated key kept, continued lines joined."""
    values: dict[str, list[str]] = {}
    section = None
    text = UNIT.read_text(encoding="utf-8").replace("\\\n", " ")
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            values.setdefault(key, []).append(value)
    return values


def exec_start() -> list[str]:
    [command] = service()["ExecStart"]
    return shlex.split(command)


def test_the_unit_runs_unprivileged_with_its_store_in_the_state_directory():
    unit = service()
    assert unit["DynamicUser"] == ["yes"] and unit["User"] == ["pocitadlo-server"]   # a name, never root
    assert unit["StateDirectory"] == ["pocitadlo-server"]
    argv = exec_start()
    assert argv[0] == INSTALLED and argv[1] == "serve"
    assert argv[argv.index("--db") + 1] == "%S/pocitadlo-server/league.sqlite"
    port = int(argv[argv.index("--listen") + 1].rpartition(":")[2])
    assert port >= 1024 and unit["CapabilityBoundingSet"] == [""]      # no CAP_NET_BIND_SERVICE needed


def test_exec_start_is_a_command_line_pocitadlo_serve_accepts():
    args = build_parser().parse_args(exec_start()[1:])
    assert args.command == "serve" and args.cert == "%d/cert.pem" and args.key == "%d/key.pem"
    assert args.admin_token_file == "%d/admin.token"
    credentials = {value.partition(":")[0] for value in service()["LoadCredential"]}
    assert credentials == {"cert.pem", "key.pem", "admin.token"}


def test_the_unit_bounds_file_descriptors_and_tasks():
    """Room for the receiver's connection cap (server/guard.py), and a ceiling on what it may spawn."""
    from server.guard import MAX_CONNECTIONS

    unit = service()
    assert int(unit["LimitNOFILE"][0]) > MAX_CONNECTIONS and 0 < int(unit["TasksMax"][0]) <= 512


def test_the_unit_file_is_ini_clean():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    assert parser.sections() == ["Unit", "Service", "Install"]


@needs_systemd
def test_systemd_analyze_verify(tmp_path):
    """The unit as installed, with ExecStart pointing at this checkout's console script."""
    copy = tmp_path / UNIT.name
    script = Path(sys.executable).with_name("pocitadlo")
    assert script.exists(), "the pocitadlo console script is not installed in this environment"
    copy.write_text(UNIT.read_text(encoding="utf-8").replace(INSTALLED, str(script)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "pocitadlo-server.service" not in result.stderr, result.stderr     # no warning about our unit


@needs_systemd
def test_systemd_analyze_security_is_below_the_threshold():
    # systemd-analyze takes the threshold in tenths (the exposure it prints times 10)
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", f"--threshold={int(THRESHOLD * 10)}",
                             str(UNIT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    exposure = float(result.stdout.rsplit("exposure level for pocitadlo-server.service:", 1)[1].split()[0])
    assert exposure <= THRESHOLD
