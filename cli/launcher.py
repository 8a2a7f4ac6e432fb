"""``bin/pocitadlo`` of an installed version: pip's console script, but the service's counter lit
before the command line is even parsed (docs/install.md, "Boot ordering").

install.sh writes each version's ``/opt/pocitadlo/VERSION/bin/pocitadlo`` (the unit's ExecStart,
and what /usr/local/bin/pocitadlo runs for staff) over the one pip made, as four lines calling
``main`` here. pip's own imports ``re`` first, and argparse builds the parsers (with ``shutil``):
on a Pi Zero 2 W-class core that is about half of a bare interpreter's start, spent before the
counter could be lit. For `pocitadlo run` with the unit's arguments (--config, --log-level) this
reads them as argparse would, lights the counter (cli.commands.run.light: os, fcntl and marshal
only) and hands both to cli.main, which then runs `run` without argparse; any other argument
line is left to argparse there (after the counter is lit, for `run`), and every error is reported
as for any other command. Anything unexpected in the first step leaves the lighting to `run`.

The interpreter starts without ``site`` (``-S`` in the script's first line; the script puts the
version's site-packages on the path itself): ``site`` — finding the venv, reading its .pth files,
``sitecustomize`` — is a fifth of a bare interpreter's start, and here it runs once the counter is
lit (``deferred_site``), so that everything after the frame starts as it would have with it.
"""
import os
import sys


def run_arguments(argv: list[str], defaults: tuple[str, str], levels: tuple[str, ...]) -> tuple[str, str] | None:
    """(config, log level) of `run`'s arguments ``argv`` as argparse takes them (the last of each
    wins; ``defaults`` for one not given); None for anything else, left to argparse: --help, an
    abbreviation, a missing or odd value, a level it does not know."""
    found = dict(zip(("--config", "--log-level"), defaults))
    args = iter(argv)
    for arg in args:
        name, equals, value = arg.partition("=")
        if name not in found:
            return None
        if not equals:
            value = next(args, "")
        if not value or value.startswith("-") or (name == "--log-level" and value not in levels):
            return None
        found[name] = value
    return found["--config"], found["--log-level"]


def main(argv: list[str] | None = None, *, deferred_site: bool = False) -> int:
    """``deferred_site``: the interpreter was started with -S; ``site.main()`` runs once the
    counter is lit (before anything else for a command other than `run`)."""
    argv = sys.argv[1:] if argv is None else argv
    lit = args = None
    if argv[:1] == ["run"]:
        try:
            import types

            from cli.commands import run

            parsed = run_arguments(argv[1:], (run.DEFAULT_CONFIG, run.DEFAULT_LOG_LEVEL), run.LOG_LEVELS)
            if parsed is not None:
                config, level = parsed
                args = types.SimpleNamespace(command="run", debug=False, config=config, log_level=level,
                                             _run=run.run)
                if os.access(config, os.R_OK):
                    lit = run.light(config)
        except Exception:   # noqa: BLE001 — `run` lights the counter itself and reports what failed
            lit = None
    if deferred_site:
        import site

        site.main()
    from cli.main import main as command_line

    return command_line(argv, lit=lit, args=args)


if __name__ == "__main__":         # python [-S] cli/launcher.py … from a checkout (the benches)
    if sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        sys.path[0] = os.path.dirname(sys.path[0])     # the folder holding cli/, not cli/ itself
    sys.exit(main(deferred_site=bool(sys.flags.no_site)))
