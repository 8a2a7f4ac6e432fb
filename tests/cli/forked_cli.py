"""The console script, once per case, each in a process forked from one that has imported it.

    python tests/cli/forked_cli.py CASES.json OUT_DIR

CASES.json holds ``[[name, argv, stdin file or null], …]``; each case runs ``main()`` as the
``pocitadlo`` script does (``sys.exit(main())``, its atexit handlers, an escaping exception's
traceback), in a child of its own whose standard input, output and error are files. Printed: a
JSON object, name → [exit status, stdout, stderr]. A fresh interpreter per case spends most of
its quarter second importing; a fork starts where the imports ended, from the same state each
time (tests/cli/test_cli_errors.py checks a few cases against the real script).
"""
import atexit
import json
import os
import sys
import traceback
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the subcommands import when they run (cli.parser imports the subcommands' modules themselves).
PRELOAD = ("server.http_server", "server.storage.store", "server.ingest.importer", "server.ingest.forward",
           "server.ingest.serial_listener", "server.tables.exports", "server.site.pages", "display.counter",
           "display.devices", "firmware_host.service", "firmware_host.settings", "rules.record", "PIL.Image")


def _status(code) -> int:
    """What the interpreter makes of ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _child(argv: list, stdin: str | None, out: Path) -> None:
    from cli.main import main

    for fd, path, flags in ((0, stdin or os.devnull, os.O_RDONLY),
                            (1, out / "stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, out / "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        os.dup2(os.open(path, flags), fd)
    sys.argv = ["pocitadlo", *argv]
    status = 1
    try:
        try:
            status = _status(main())
        except SystemExit as exit_:
            status = _status(exit_.code)
        except BaseException:  # noqa: BLE001 — the interpreter prints whatever escapes the script
            traceback.print_exc()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


def run(cases: list, folder: Path) -> dict:
    results = {}
    for number, (name, argv, stdin) in enumerate(cases):
        out = folder / str(number)
        out.mkdir()
        pid = os.fork()
        if pid == 0:
            _child(argv, stdin, out)
        _, wait_status = os.waitpid(pid, 0)
        results[name] = [os.waitstatus_to_exitcode(wait_status),
                         (out / "stdout").read_bytes().decode(errors="replace"),
                         (out / "stderr").read_bytes().decode(errors="replace")]
    return results


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from cli.parser import build_parser

    build_parser()                      # every subcommand's module
    for name in PRELOAD:
        try:
            import_module(name)
        except ImportError:             # an extra not installed: the case imports (and fails) as the script would
            pass
    cases = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    print(json.dumps(run(cases, Path(sys.argv[2]))))


if __name__ == "__main__":
    main()
