"""ruff's stated rule set (pyproject.toml, [tool.ruff]) holds over the whole checkout: pyflakes,
import order, bugbear, blind excepts, and no ``noqa`` that suppresses nothing."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_noqa_says_why_unless_its_rule_says_it():
    """A blind except is allowed only with the reason beside it (``# noqa: BLE001 — why``)."""
    bare = [f"{path.relative_to(ROOT)}:{n}" for path in ROOT.rglob("*.py") if ".venv" not in path.parts
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if "noqa: BLE001" in line and "—" not in line.split("noqa: BLE001", 1)[1]]
    assert bare == []
