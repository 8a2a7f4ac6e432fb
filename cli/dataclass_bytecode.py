"""The compiled code of the methods ``@dataclass`` writes, made once at install (docs/performance.md,
"What the start was cut by").

``dataclasses`` (Python 3.11) makes each ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and a
frozen class's ``__setattr__``/``__delattr__`` by formatting its source and ``exec``-ing it: about 300
sources parsed and compiled at every start of `pocitadlo run`, a quarter of its instructions to
READY=1. ``build`` (systemd/install.sh runs it as root after compileall) imports the device's packages
and keeps, for each source ``dataclasses`` formatted, its code marshalled; ``install`` gives
``dataclasses`` an ``exec`` that runs the kept code of a source it knows and compiles any other one
as before.

Why it is safe: the key is the whole source text, and the same text compiles to the same code on
the same interpreter — a dataclass changed since the build formats another text and is compiled
afresh; the names the code uses are looked up in the namespace ``dataclasses`` passes at each call,
not kept. The file is valid for one interpreter build (``sys.version``, the bytecode's cache tag and
the optimisation level); one made by another, damaged or missing changes nothing but the speed. It
lives beside the package's own bytecode (``cli/__pycache__`` of the installed version, read-only to
the service like the ``.pyc`` files, trusted as they are), never in the data directory.
"""
import builtins
import marshal
import os
import sys
import types

FORMAT = "pocitadlo dataclass bytecode 1"
DEVICE_PACKAGES = ("rules", "clock", "config", "wire", "delivery", "input", "display", "firmware_host", "cli")


def default_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__",
                        f"dataclasses.{sys.implementation.cache_tag}.marshal")


def interpreter() -> str:
    """What kept code is valid for: marshal's code objects are one interpreter build's."""
    return f"{sys.version} {sys.implementation.cache_tag} -O{sys.flags.optimize}"


class Bytecode:
    """The ``exec`` given to ``dataclasses``: the kept code of a known source, compiled otherwise
    (``made``: the sources compiled here, which ``build`` keeps; ``hits``: sources not compiled)."""

    def __init__(self, kept: dict[str, bytes]):
        self.kept = kept
        self.made: dict[str, types.CodeType] = {}
        self.hits = 0

    def exec(self, source, globals=None, locals=None):
        builtins.exec(self.code(source) if isinstance(source, str) else source, globals, locals)

    def code(self, source: str):
        kept = self.kept.get(source)
        if kept is not None:
            try:
                code = marshal.loads(kept)
            except (ValueError, EOFError, TypeError):
                pass
            else:
                self.hits += 1
                return code
        # as dataclasses' exec(source) compiles it: no __future__ flags (it has no such imports)
        code = self.made[source] = compile(source, "<string>", "exec", dont_inherit=True)
        return code

    def made_code(self) -> dict[str, bytes]:
        """What ``write`` keeps: the code compiled here, marshalled."""
        return {source: marshal.dumps(code) for source, code in self.made.items()}


def read(path: str) -> dict[str, bytes]:
    """The kept code of the file; {} when it is missing, damaged or made by another interpreter."""
    try:
        with open(path, "rb") as fh:
            doc = marshal.load(fh)
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not (isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("python") == interpreter()
            and isinstance(doc.get("code"), dict)):
        return {}
    return doc["code"]


def write(path: str, code: dict[str, bytes]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.new"
    with open(temporary, "wb") as fh:
        marshal.dump({"format": FORMAT, "python": interpreter(), "code": code}, fh)
    os.replace(temporary, path)


def install(path: str | None = None) -> Bytecode | None:
    """Give ``dataclasses`` the kept code of ``path`` (the installed file by default); None, and
    nothing changed, when there is none."""
    kept = read(path or default_path())
    if not kept:
        return None
    return _give(Bytecode(kept))


def _give(bytecode: Bytecode) -> Bytecode:
    import dataclasses

    dataclasses.exec = bytecode.exec     # type: ignore[attr-defined]  # a module global shadows the builtin
    return bytecode


def uninstall() -> None:
    import dataclasses

    vars(dataclasses).pop("exec", None)


def build(path: str | None = None, packages=DEVICE_PACKAGES) -> tuple[int, list[str]]:
    """Import every module of ``packages`` (those needing what is not installed are skipped) and
    write the code of every source ``dataclasses`` formatted meanwhile (what an earlier file kept
    is not carried over); (sources kept, modules skipped)."""
    import importlib
    import pkgutil

    path = path or default_path()
    bytecode = _give(Bytecode({}))
    skipped: list[str] = []
    try:
        for package in packages:
            module = importlib.import_module(package)
            for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}.", onerror=skipped.append):
                if info.name.rsplit(".", 1)[-1] == "__main__":
                    continue            # runs the command line when imported
                try:
                    importlib.import_module(info.name)
                except Exception:       # noqa: BLE001 — an extra not installed here, e.g. the emulator's
                    skipped.append(info.name)
    finally:
        uninstall()
    code = bytecode.made_code()
    write(path, code)
    return len(code), skipped


def main() -> int:
    """install.sh's step: a failure costs the start its speed-up, never the install."""
    try:
        kept, skipped = build()
    except Exception as exc:       # noqa: BLE001 — the service starts without the file, only slower
        print(f"{default_path()}: not made ({exc}); the service compiles its dataclasses at start", file=sys.stderr)
        return 0
    print(f"{default_path()}: the code of {kept} dataclass methods"
          + (f" ({len(skipped)} modules skipped: {', '.join(skipped)})" if skipped else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
