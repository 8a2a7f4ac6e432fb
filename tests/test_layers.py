"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml) and no circles.

The contracts: top to bottom cli, firmware_host | server, input | display, delivery, wire, config,
clock, rules; the receiver (server) never imports the device; no circle between the modules of a
package. Below, a graph check of every module, since acyclic_siblings does not see a package's
``__init__`` importing a module that imports the package back.
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def test_the_import_linter_contracts_are_kept():
    # the lint-imports command, run by this interpreter whatever folder its scripts are in
    command = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    done = subprocess.run([sys.executable, "-c", command, "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Contracts: {len(CONTRACTS['contracts'])} kept, 0 broken." in done.stdout, done.stdout


def test_the_contracts_name_every_top_level_package():
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    assert set(CONTRACTS["root_packages"]) == packages
    layered = {name.strip() for layer in _contract("layers")["layers"] for name in layer.split("|")}
    assert layered == packages


def test_no_module_imports_itself_back_through_others():
    graph = grimp.build_graph(*CONTRACTS["root_packages"], cache_dir=None)
    for ignored in _contract("acyclic").get("ignore_imports", []):
        importer, imported = (name.strip() for name in ignored.split("->"))
        graph.remove_import(importer=importer, imported=imported)
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle():
    graph = grimp.ImportGraph()
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.d", "p.a")):
        graph.add_import(importer=importer, imported=imported)
    assert circles(graph) == [["p.a", "p.b", "p.c", "p.a"]]
    graph.remove_import(importer="p.c", imported="p.a")
    assert circles(graph) == []


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """One chain per import that the imported module imports back, each circle once."""
    found = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                chain = [importer, *back]
                found.setdefault(frozenset(chain), chain)
    return list(found.values())


def _contract(name: str) -> dict:
    return next(c for c in CONTRACTS["contracts"] if c["id"] == name)
