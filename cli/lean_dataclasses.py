"""``dataclasses`` imported without ``inspect`` (issue 27).

Python 3.11's ``dataclasses`` imports ``inspect`` at its top — and with it ``ast``, ``dis``,
``tokenize`` and ``linecache`` — for one call: ``inspect.signature`` of a dataclass without a
docstring, to write it one. That import is ~15 % of the instructions of `pocitadlo run` to
READY=1, and the dataclasses the start builds have docstrings. ``import_dataclasses()`` imports
``dataclasses`` with a stand-in for ``inspect`` that imports the real module at its first use; the
stand-in is in ``sys.modules`` only during that import, so any other ``import inspect`` gets the
real module.
"""
import importlib
import sys
import types


class _Inspect(types.ModuleType):
    def __getattr__(self, name: str):
        return getattr(importlib.import_module("inspect"), name)


def import_dataclasses() -> types.ModuleType:
    """``dataclasses``; imported here without ``inspect`` unless either is imported already."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return importlib.import_module("dataclasses")
    sys.modules["inspect"] = _Inspect("inspect")
    try:
        return importlib.import_module("dataclasses")
    finally:
        del sys.modules["inspect"]
