"""The receiver's layer (README, Standards): server/ may use rules, clock, config, wire, delivery —
never firmware_host, input, display or cli — and reads the time only through clock/."""
import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"
FORBIDDEN = {"firmware_host", "input", "display", "cli"}
WALL_CLOCK = {("time", "time"), ("datetime", "now"), ("date", "today"), ("time", "localtime"), ("time", "strftime")}


def modules():
    return sorted(SERVER.rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SERVER)))
def test_the_server_imports_no_upper_layer_and_reads_no_wall_clock(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN
    calls = {(n.func.value.id, n.func.attr) for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
    assert not calls & WALL_CLOCK


def test_every_server_module_is_checked():
    assert len(modules()) >= 20
