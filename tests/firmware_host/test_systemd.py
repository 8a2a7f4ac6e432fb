"""systemd/pocitadlo.service; `pocitadlo run` speaking sd_notify as the unit expects (install.sh:
tests/systemd/test_install_sh.py)."""
import configparser
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path("systemd/pocitadlo.service")
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def unit() -> dict:
    """The unit's settings; repeated keys are joined with newlines."""
    parser = configparser.RawConfigParser(strict=False, delimiters=("=",), comment_prefixes=("#",))
    parser.optionxform = str
    sections, current = {}, None
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current[key] = (current[key] + "\n" + value) if key in current else value
    return sections


@needs_analyze
def test_security_exposure_is_2_0_or_lower():
    out = subprocess.run([ANALYZE, "security", "--offline=yes", str(UNIT)], capture_output=True,
                         text=True, check=True).stdout
    level = float(re.search(r"Overall exposure level for pocitadlo.service: (\d+\.\d+)", out).group(1))
    assert level <= 2.0, out


@needs_analyze
def test_verify_is_clean(tmp_path):
    """verify checks that ExecStart exists: check a copy whose binary is a real executable here."""
    binary = tmp_path / "pocitadlo"
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    text = UNIT.read_text()
    assert "ExecStart=/opt/pocitadlo/current/bin/pocitadlo run --config /etc/pocitadlo/config.toml" in text
    copy = tmp_path / "pocitadlo.service"
    copy.write_text(text.replace("/opt/pocitadlo/current/bin/pocitadlo", str(binary)))
    result = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


@needs_analyze
def test_verify_notices_a_broken_unit(tmp_path):
    """The check above can fail: a unit with a typo is reported."""
    copy = tmp_path / "pocitadlo.service"
    copy.write_text(UNIT.read_text().replace("Type=notify", "Type=notfy").replace(
        "/opt/pocitadlo/current/bin/pocitadlo", "/bin/true"))
    result = subprocess.run([ANALYZE, "verify", str(copy)], capture_output=True, text=True)
    assert "notfy" in result.stderr


def test_unit_is_notify_with_watchdog_restart_and_unprivileged_groups():
    service = unit()["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["User"] == "pocitadlo" and service["User"] != "root"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "input", "dialout"}
    assert service["NoNewPrivileges"] == "yes" and service["CapabilityBoundingSet"] == ""


def test_unit_waits_for_time_sync_but_never_for_the_network():
    section = unit()["Unit"]
    assert "time-sync.target" in section["After"] and "time-sync.target" in section["Wants"]
    assert "network" not in section["After"] + section.get("Wants", "") + section.get("Requires", "")


@contextlib.contextmanager
def notify_socket(tmp_path):
    """The socket systemd would listen on for sd_notify messages."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(tmp_path / "n.sock"))
        server.settimeout(20)
        yield server


def pocitadlo_run(config, server) -> subprocess.Popen:
    """`pocitadlo run` as the unit starts it: NOTIFY_SOCKET set, a watchdog of 0.2 s."""
    env = dict(os.environ, NOTIFY_SOCKET=server.getsockname(), WATCHDOG_USEC="200000", PYTHONPATH=os.getcwd())
    return subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config)],
                            stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)


def test_run_sends_ready_and_watchdog_and_stops_cleanly_on_sigterm(tmp_path):
    """What systemd sees of `pocitadlo run`: READY=1, WATCHDOG=1 pings, exit 0 on SIGTERM."""
    config = tmp_path / "config.toml"
    config.write_text('[device]\nvenue = "Test"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
                      '[keypad]\ndevices = ["terminal"]\n[sync]\noutbox = "outbox"\n', encoding="utf-8")
    with notify_socket(tmp_path) as server:
        child = pocitadlo_run(config, server)
        try:
            messages = [server.recv(200).decode() for _ in range(5)]
        finally:
            child.send_signal(signal.SIGTERM)
            status = child.wait(20)
    assert messages[0] == "STATUS=counter lit, starting"     # the counter is lit before the rest is built
    assert messages[1] == "READY=1\nSTATUS=scoring"
    assert messages[2] == "STATUS=scoring, counter built"    # (on a MAX7219 lit at start: built after READY)
    assert messages[3:] == ["WATCHDOG=1", "WATCHDOG=1"]
    assert status == 0, child.stderr.read()


def test_run_with_a_broken_config_reports_ready_and_waits(tmp_path):
    """No crash loop: the service says READY with the error as STATUS, and keeps pinging."""
    config = tmp_path / "config.toml"
    config.write_text('[device]\nvenue = "Test"\n[display]\ndriver = "dummy"\ncontrast = 999\n', encoding="utf-8")
    with notify_socket(tmp_path) as server:
        child = pocitadlo_run(config, server)
        try:
            lit, ready = server.recv(500).decode(), server.recv(500).decode()
        finally:
            child.kill()
            child.wait(20)
    # the default counter (a MAX7219 on /dev/spidev0.0): lit where SPI is on, else said dark
    assert lit.startswith("STATUS=counter lit" if os.path.exists("/dev/spidev0.0")
                          else "STATUS=counter dark, starting: no SPI device /dev/spidev0.0")
    assert ready.startswith("READY=1\nSTATUS=config error: ")
    assert "[display] contrast: must be at most 255, got 999" in ready
    assert "config error, waiting for a fixed file" in child.stderr.read()


def test_run_without_the_spi_device_says_counter_dark_naming_the_device_and_the_fix(tmp_path):
    """Not "counter lit" when no frame reached a display (issue 24, 27): a check that greps the log
    for it must not report a lit counter on a Pi whose SPI is off. spidev6.3: on no machine here."""
    config = tmp_path / "config.toml"
    config.write_text('[device]\nvenue = "Test"\ndata_dir = "data"\n[display]\ndriver = "max7219"\n'
                      'spi_port = 6\nspi_device = 3\n[keypad]\ndevices = ["terminal"]\n[sync]\noutbox = "outbox"\n',
                      encoding="utf-8")
    with notify_socket(tmp_path) as server:
        child = pocitadlo_run(config, server)
        try:
            first, ready = server.recv(1000).decode(), server.recv(1000).decode()
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(20)
    assert first.startswith("STATUS=counter dark, starting: no SPI device /dev/spidev6.3")
    assert "raspi-config nonint do_spi 0" in first and "dtparam=spi=on" in first
    assert ready.startswith("READY=1")                      # it scores all the same
    log = child.stderr.read()
    assert "counter lit" not in log
    assert "counter dark, starting: no SPI device /dev/spidev6.3" in log


def test_the_unit_lets_the_service_listen_on_the_live_port_only():
    from firmware_host.live.settings import DEFAULT_PORT

    service = unit()["Service"]
    assert service["SocketBindAllow"] == f"tcp:{DEFAULT_PORT}" and service["SocketBindDeny"] == "any"


def test_the_units_environment_keeps_setuptools_shim_out_of_the_start():
    """A venv made by `python3 -m venv` (Python 3.11) holds setuptools, whose .pth imports its
    distutils shim at every interpreter start unless SETUPTOOLS_USE_DISTUTILS says otherwise."""
    environment = dict(word.split("=", 1) for word in unit()["Service"]["Environment"].split())
    assert environment["SETUPTOOLS_USE_DISTUTILS"] == "stdlib"
    probe = [sys.executable, "-c", "import sys; print('_distutils_hack' in sys.modules)"]
    plain = dict(os.environ)
    plain.pop("SETUPTOOLS_USE_DISTUTILS", None)
    import site

    shim = any((Path(folder) / "distutils-precedence.pth").exists() for folder in site.getsitepackages())
    assert subprocess.run(probe, capture_output=True, text=True, env=plain).stdout.strip() == str(shim)
    assert subprocess.run(probe, capture_output=True, text=True,
                          env={**plain, **environment}).stdout.strip() == "False"
