"""``bin/pocitadlo`` of an installed version: pip's console script, but the service's counter lit
before the command line is even parsed (docs/install.md, "Boot ordering").

install.sh writes each version's ``/opt/pocitadlo/VERSION/bin/pocitadlo`` (the unit's ExecStart,
and what /usr/local/bin/pocitadlo runs for staff) over the one pip made, as three lines calling
``main`` here. pip's own imports ``re`` first, and cli.main builds argparse's parsers: on a Pi Zero
2 W-class core that is about half of a bare interpreter's start, spent before the counter could be
lit. For `pocitadlo run` this lights the counter first (cli.commands.run.light: os, fcntl and
marshal only), then hands over to cli.main with it — argparse parses the arguments there, and
every error is reported as for any other command; anything unexpected in that first step leaves
the lighting to `run` itself. Every other command goes to cli.main as it is.
"""
import os
import sys


def config_of(argv: list[str], default: str) -> str | None:
    """The config file `run`'s arguments ``argv`` give (the last --config, as argparse takes it),
    ``default`` without one; None for arguments only argparse should read (--help, an
    abbreviation, a typo)."""
    path: str | None = default
    args = iter(argv)
    for arg in args:
        if arg == "--config":
            path = next(args, None)
        elif arg.startswith("--config="):
            path = arg.partition("=")[2]
        elif arg == "--log-level":
            next(args, None)
        elif not arg.startswith("--log-level="):
            return None
        if not path:
            return None
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    lit = None
    if argv[:1] == ["run"]:
        try:
            from cli.commands.run import DEFAULT_CONFIG, light

            path = config_of(argv[1:], DEFAULT_CONFIG)
            if path is not None and os.access(path, os.R_OK):
                lit = light(path)
        except Exception:   # noqa: BLE001 — `run` lights the counter itself and reports what failed
            lit = None
    from cli.main import main as command_line

    return command_line(argv, lit=lit)


if __name__ == "__main__":         # python cli/launcher.py … from a checkout (the benches)
    if sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        sys.path[0] = os.path.dirname(sys.path[0])     # the folder holding cli/, not cli/ itself
    sys.exit(main())
