"""systemd/install.sh's logic, without root: what --dry-run says, and the switching of
/opt/pocitadlo/current and previous on an upgrade, a failed upgrade and --rollback, against a
temporary root (``--root``) with stand-ins for systemctl and logger on PATH. The whole install on
Debian arm64 is deploy/pi-chroot-test.sh's (minutes under qemu: not in the suite)."""
import hashlib
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"

# systemctl as the tests want it: every call logged; `restart` of a version holding a file BROKEN
# never says READY (it sleeps past the timeout); is-active: the file ACTIVE in the root.
SYSTEMCTL = """#!/bin/sh
echo "$*" >> "$FAKE_ROOT/../systemctl.log"
case "$1" in
    restart)
        if [ -e "$FAKE_ROOT/opt/pocitadlo/current/BROKEN" ]; then sleep 5; exit 1; fi ;;
    is-active)
        [ -e "$FAKE_ROOT/ACTIVE" ] || exit 3 ;;
esac
exit 0
"""


@pytest.fixture
def fake_root(tmp_path):
    """A root folder with two installed versions, A current, systemd "running", the unit active."""
    root = tmp_path / "root"
    for name in ("0.1.0-aaaaaaaa", "0.1.0-bbbbbbbb"):
        (root / "opt/pocitadlo" / name / "bin").mkdir(parents=True)
        (root / "opt/pocitadlo" / name / ".installed").write_text(name)
    (root / "opt/pocitadlo/current").symlink_to("0.1.0-aaaaaaaa")
    (root / "run/systemd/system").mkdir(parents=True)
    (root / "ACTIVE").touch()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("systemctl", SYSTEMCTL), ("logger", "#!/bin/sh\nexit 0\n")):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return root


def bash(fake_root, script: str, timeout=60) -> subprocess.CompletedProcess:
    """``script`` run with install.sh's functions, for the root ``fake_root``."""
    env = dict(os.environ, FAKE_ROOT=str(fake_root), POCITADLO_READY_TIMEOUT="1",
               PATH=f"{fake_root.parent / 'bin'}:{os.environ['PATH']}")
    return subprocess.run(["bash", "-c", f"set -euo pipefail; source {INSTALL}; parse --root {fake_root}; {script}"],
                          capture_output=True, text=True, env=env, timeout=timeout)


def systemctl_log(root: Path) -> str:
    path = root.parent / "systemctl.log"
    return path.read_text() if path.exists() else ""


def links(root: Path) -> tuple:
    folder = root / "opt/pocitadlo"
    return tuple(os.readlink(folder / name) if (folder / name).is_symlink() else None
                 for name in ("current", "previous"))


def test_an_upgrade_switches_current_and_keeps_the_old_version_as_previous(fake_root):
    done = bash(fake_root, "activate 0.1.0-bbbbbbbb")
    assert done.returncode == 0, done.stderr
    assert links(fake_root) == ("0.1.0-bbbbbbbb", "0.1.0-aaaaaaaa")
    assert "restart pocitadlo.service" in systemctl_log(fake_root)
    assert not (fake_root / "opt/pocitadlo/rollback.txt").exists()
    assert [p.name for p in (fake_root / "opt/pocitadlo").iterdir() if p.name.startswith(".")] == []


def test_an_upgrade_without_ready_in_the_watchdog_time_goes_back_and_says_so(fake_root):
    (fake_root / "opt/pocitadlo/0.1.0-bbbbbbbb/BROKEN").touch()
    done = bash(fake_root, "activate 0.1.0-bbbbbbbb")
    assert done.returncode == 1
    assert "did not report READY on 0.1.0-bbbbbbbb within 1 s: back to 0.1.0-aaaaaaaa" in done.stderr
    assert links(fake_root) == ("0.1.0-aaaaaaaa", "0.1.0-bbbbbbbb")     # the failed one kept to look at
    restarts = systemctl_log(fake_root).count("restart pocitadlo.service")
    assert restarts == 2                                                  # onto the new, back onto the old
    notice = (fake_root / "opt/pocitadlo/rollback.txt").read_text()
    assert notice == "failed=0.1.0-bbbbbbbb\nback_on=0.1.0-aaaaaaaa\nseconds=1\n"


def test_a_stopped_service_is_switched_but_not_started(fake_root):
    (fake_root / "ACTIVE").unlink()
    done = bash(fake_root, "activate 0.1.0-bbbbbbbb")
    assert done.returncode == 0 and "is not running: it starts on 0.1.0-bbbbbbbb" in done.stdout
    assert links(fake_root) == ("0.1.0-bbbbbbbb", "0.1.0-aaaaaaaa")
    assert "restart" not in systemctl_log(fake_root)


def test_rollback_by_hand_swaps_current_and_previous_and_clears_the_notice(fake_root):
    assert bash(fake_root, "activate 0.1.0-bbbbbbbb").returncode == 0
    (fake_root / "opt/pocitadlo/rollback.txt").write_text("failed=x\n")
    env = dict(os.environ, FAKE_ROOT=str(fake_root), POCITADLO_READY_TIMEOUT="1",
               PATH=f"{fake_root.parent / 'bin'}:{os.environ['PATH']}")
    done = subprocess.run(["bash", str(INSTALL), "--root", str(fake_root), "--rollback"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert links(fake_root) == ("0.1.0-aaaaaaaa", "0.1.0-bbbbbbbb")
    assert not (fake_root / "opt/pocitadlo/rollback.txt").exists()
    assert "runs 0.1.0-aaaaaaaa" in done.stdout


def test_rollback_without_a_previous_version_refuses(fake_root):
    done = bash(fake_root, "rollback")
    assert done.returncode == 1 and "no previous version to go back to" in done.stderr
    assert links(fake_root) == ("0.1.0-aaaaaaaa", None)


def test_prune_keeps_current_and_previous_and_removes_the_rest(fake_root):
    (fake_root / "opt/pocitadlo/0.0.9-cccccccc").mkdir()
    (fake_root / "opt/pocitadlo/.venv/bin").mkdir(parents=True)         # the layout before versions
    assert bash(fake_root, "activate 0.1.0-bbbbbbbb && prune 0.1.0-bbbbbbbb 0.1.0-aaaaaaaa").returncode == 0
    assert sorted(p.name for p in (fake_root / "opt/pocitadlo").iterdir()) == [
        "0.1.0-aaaaaaaa", "0.1.0-bbbbbbbb", "current", "previous"]


def test_the_dry_run_changes_nothing_and_says_what_it_would_do(fake_root):
    before = sorted(str(p) for p in fake_root.rglob("*"))
    done = bash(fake_root, "DRY=1; activate 0.1.0-bbbbbbbb; ENABLE_SPI=1; spi")
    assert done.returncode == 0, done.stderr
    assert sorted(str(p) for p in fake_root.rglob("*")) == before and links(fake_root)[0] == "0.1.0-aaaaaaaa"
    assert "+ ln -sfn 0.1.0-bbbbbbbb" in done.stdout and "would wait up to 1 s for READY=1" in done.stdout


def wheel(folder: Path, version="0.1.0", content=b"x = 1\n") -> Path:
    """A small wheel with a RECORD, named as pip names pocitadlo's."""
    path = folder / f"pocitadlo-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("cli/__init__.py", content)
        zf.writestr(f"pocitadlo-{version}.dist-info/RECORD", f"cli/__init__.py,sha256={len(content)},\n")
    return path


def test_the_version_folder_is_named_by_the_wheels_contents_not_its_timestamps(tmp_path, fake_root):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    names = [bash(fake_root, f"version_name {wheel(one)}").stdout.strip(),
             bash(fake_root, f"version_name {wheel(two)}").stdout.strip(),
             bash(fake_root, f"version_name {wheel(tmp_path, content=b'x = 2  # edited!!')}").stdout.strip()]
    with zipfile.ZipFile(wheel(one)) as zf:
        record = zf.read("pocitadlo-0.1.0.dist-info/RECORD")
    assert names[0] == names[1] == f"0.1.0-{hashlib.sha256(record).hexdigest()[:8]}"
    assert names[2] != names[0] and names[2].startswith("0.1.0-")


def dry_run(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60)


def test_dry_run_from_a_checkout_lists_every_step_and_writes_nothing_into_it():
    done = dry_run()
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for step in ("would build the wheel of", "nothing is written into the checkout",
                 "build-essential", "python3-dev", "compiled here",
                 "gpio,spi,input,dialout", "install -d -m 0750 -o root -g pocitadlo /etc/pocitadlo",
                 "/usr/local/bin/pocitadlo", "systemctl enable pocitadlo.service",
                 "-m compileall -q -j 0 /opt/pocitadlo/0.1.0-ID/lib", "/opt/pocitadlo/0.1.0-ID/bin/python -I -m cli.dataclass_bytecode",
                 "/opt/pocitadlo/0.1.0-ID/bin/pocitadlo: cli/launcher.py's",
                 "/opt/pocitadlo/current",
                 "install -q --disable-pip-version-check --use-pep517"):   # built into a cached wheel, not `setup.py install`
        assert step in out, step
    assert "switched on" not in out
    assert "nothing was changed" in out


def test_dry_run_with_a_wheelhouse_installs_from_it_alone_with_no_apt_step(tmp_path):
    house = tmp_path / "wheelhouse"
    house.mkdir()
    (house / "pip-24.0-py3-none-any.whl").write_bytes(b"")
    made = wheel(house)
    done = dry_run("--wheelhouse", str(house), "--wheel", str(made))
    assert done.returncode == 0, done.stderr
    assert "apt-get" not in done.stdout and "build-essential" not in done.stdout
    assert f"--no-index --find-links {house} --only-binary :all: {made}[pi]" in done.stdout
    assert "python3 -m venv --without-pip /opt/pocitadlo/0.1.0-" in done.stdout
    assert f"{house}/pip-24.0-py3-none-any.whl/pip install" in done.stdout


def test_enable_spi_without_raspi_config_edits_the_boot_config_and_says_a_reboot_is_due(fake_root):
    boot = fake_root / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("[all]\narm_64bit=1\n")
    done = bash(fake_root, "ENABLE_SPI=1; command() { [ \"$2\" != raspi-config ] && builtin command \"$@\"; }; spi")
    assert done.returncode == 0, done.stderr
    assert boot.read_text().endswith("[all]\ndtparam=spi=on\n")
    assert "next reboot" in done.stdout
    again = bash(fake_root, "ENABLE_SPI=1; command() { [ \"$2\" != raspi-config ] && builtin command \"$@\"; }; spi")
    assert boot.read_text().count("dtparam=spi=on") == 1 and "already" in again.stdout


def test_install_script_refuses_unknown_options():
    result = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option --frobnicate" in result.stderr


def test_pyproject_license_is_an_spdx_expression():
    """PEP 639: the license table is deprecated (pip warned three times per install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"


def test_the_rollback_notice_is_said_on_the_counter_in_its_language(tmp_path):
    from cli.commands.run import rollback_notice

    venvs = tmp_path / "opt"
    (venvs / "0.1.0-aaaaaaaa").mkdir(parents=True)
    prefix = str(venvs / "0.1.0-aaaaaaaa")
    assert rollback_notice("cs", prefix) is None
    (venvs / "rollback.txt").write_text("failed=0.1.0-bbbbbbbb\nback_on=0.1.0-aaaaaaaa\nseconds=30\n")
    assert rollback_notice("cs", prefix) == "Nová verze nenaběhla: zpět na 0.1.0-aaaaaaaa"
    assert rollback_notice("en", prefix) == "The new version did not start: back on 0.1.0-aaaaaaaa"


def test_a_versions_bin_pocitadlo_is_the_launcher_and_runs_every_command(tmp_path, fake_root):
    """install.sh writes bin/pocitadlo over pip's console script: the unit's ExecStart and the staff's
    commands go through cli/launcher.py, with the version's own interpreter."""
    version = fake_root / "opt/pocitadlo/0.1.0-aaaaaaaa"
    (version / "bin/python").symlink_to(sys.executable)
    (version / "bin/pocitadlo").write_text("#!/bin/sh\necho pip's\n")
    done = bash(fake_root, f"launcher {version}")
    assert done.returncode == 0, done.stderr
    script = version / "bin/pocitadlo"
    lines = script.read_text().splitlines()
    assert lines[0] == f"#!{version}/bin/python -S" and os.access(script, os.X_OK)
    packages = subprocess.run([str(version / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    assert lines[1:] == ["import sys", f"sys.path.append({packages!r})", "from cli.launcher import main",
                         "sys.exit(main(deferred_site=True))"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    helped = subprocess.run([str(script), "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert helped.returncode == 0 and "run the scoreboard service" in helped.stdout
    missing = subprocess.run([str(script), "run", "--config", str(tmp_path / "none.toml")], capture_output=True,
                             text=True, env=env, timeout=60)
    assert missing.returncode == 2 and missing.stderr.startswith("pocitadlo run: ")
    assert len(missing.stderr.splitlines()) == 1
