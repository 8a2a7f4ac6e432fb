"""``dataclasses`` imported without ``inspect`` (issue 27).

Python 3.11's ``dataclasses`` imports ``inspect`` at its top — and with it ``ast``, ``dis``,
``tokenize`` and ``linecache`` — for one call: ``inspect.signature`` of a dataclass without a
docstring, to write it one. That import is ~15 % of the instructions of `pocitadlo run` to
READY=1, and the dataclasses the start builds have docstrings. ``import_dataclasses()`` imports
``dataclasses`` with a stand-in for ``inspect`` that imports the real module at its first use; the
stand-in is in ``sys.modules`` only during that import, so any other ``import inspect`` gets the
real module.
"""
import sys
import types


class _Inspect(types.ModuleType):
    def __getattr__(self, name: str):
        import inspect  # the real module: the stand-in is out of sys.modules by now

        return getattr(inspect, name)


def import_dataclasses() -> types.ModuleType:
    """``dataclasses``; imported here without ``inspect`` unless either is imported already."""
    if "dataclasses" not in sys.modules and "inspect" not in sys.modules:
        sys.modules["inspect"] = _Inspect("inspect")
        try:
            import dataclasses
        finally:
            del sys.modules["inspect"]
    import dataclasses

    return dataclasses
