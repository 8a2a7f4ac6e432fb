"""mypy (pyproject.toml, [tool.mypy]) finds nothing: strict for rules/, clock/, wire/, delivery/ and
config/, the default level for the device's packages."""
import hashlib
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRICT = ("rules", "clock", "wire", "delivery", "config")
# Kept outside the checkout, one per checkout: a clean checkout (CI) checks everything once (some
# seconds), a second run only what changed. mypy checks every cached file against its source.
CACHE = Path(tempfile.gettempdir()) / f"pocitadlo-mypy-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"


def test_mypy_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(CACHE)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_is_exempted_from_the_check():
    """Issue 25: the match night's modules were exempted (``ignore_errors``) while Night's mixins
    became objects it holds; no module is exempted now."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    exempted = [section["module"] for section in config.get("overrides", []) if section.get("ignore_errors")]
    assert exempted == []


def test_the_strict_packages_get_every_flag_of_strict(tmp_path, monkeypatch):
    """A per-module section cannot say ``strict = true``: pyproject lists the flags one by one, and a
    mypy that adds one to --strict makes this fail rather than leave the packages less strict."""
    from mypy.main import process_options
    from mypy.options import PER_MODULE_OPTIONS

    monkeypatch.setenv("MYPY_CONFIG_FILE_DIR", "")      # mypy sets it on reading a config: undone after
    neutral = tmp_path / "mypy.ini"
    neutral.write_text("[mypy]\n", encoding="utf-8")
    _, plain = process_options(["--config-file", str(neutral), "-c", "pass"])
    _, strict = process_options(["--config-file", str(neutral), "--strict", "-c", "pass"])
    monkeypatch.chdir(ROOT)         # where pyproject's `files` are
    _, ours = process_options(["--config-file", str(ROOT / "pyproject.toml")])
    flags = {name: getattr(strict, name) for name in dir(strict)
             if not name.startswith("_") and not callable(getattr(strict, name))
             and getattr(strict, name) != getattr(plain, name)}
    assert flags, "mypy --strict turned nothing on: this test no longer reads it right"
    for package in STRICT:
        module = ours.clone_for_module(f"{package}.anything")
        missing = {name: value for name, value in flags.items()
                   if getattr(module if name in PER_MODULE_OPTIONS else ours, name) != value}
        assert missing == {}, f"{package}: not as --strict sets it"
