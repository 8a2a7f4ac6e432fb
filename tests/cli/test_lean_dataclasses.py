"""dataclasses imported without inspect (cli/lean_dataclasses.py): the same dataclasses, a class
without a docstring still gets its signature as one, and inspect is the real module to everyone."""
import json
import os
import subprocess
import sys

PROBE = """
import json, sys
from cli.lean_dataclasses import import_dataclasses

dataclasses = import_dataclasses()
before = "inspect" in sys.modules

@dataclasses.dataclass(frozen=True)
class Documented:
    \"\"\"A shot.\"\"\"
    player: str
    points: int = 0

after_documented = "inspect" in sys.modules

@dataclasses.dataclass
class Undocumented:
    player: str
    points: int = 0

import inspect
print(json.dumps({"before": before, "after_documented": after_documented, "doc": Undocumented.__doc__,
                  "real": type(inspect) is type(sys) and hasattr(inspect, "getsource") and inspect.__file__ is not None,
                  "same": Documented("a", 2) == Documented("a", 2), "repr": repr(Documented("a", 2)),
                  "signature": str(inspect.signature(Documented))}))
"""


def test_inspect_is_imported_at_its_first_use_and_dataclasses_behave_the_same():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=os.getcwd()))
    seen = json.loads(out.stdout)
    assert seen["before"] is False and seen["after_documented"] is False
    assert seen["doc"] == "Undocumented(player: str, points: int = 0)"
    assert seen["real"] and seen["same"]
    assert seen["repr"] == "Documented(player='a', points=2)"
    assert seen["signature"] == "(player: str, points: int = 0) -> None"


def test_where_dataclasses_is_imported_already_it_is_that_module():
    import dataclasses

    from cli.lean_dataclasses import import_dataclasses

    assert import_dataclasses() is dataclasses
