"""``pocitadlo``: one console script, one subcommand per module in firmware_host.commands."""
import argparse
import sys
from importlib import import_module

from config.options import ConfigError
from rules.errors import RuleError

# Order is the order ``pocitadlo --help`` lists them.
COMMANDS = (
    "run",
    "emulate",
    "replay",
    "render",
    "keycard",
    "outbox",
    "serve",
)


class UserError(Exception):
    """A problem the user can fix, reported as one line without a traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pocitadlo", description="Scoreboard controller for Czech billiard leagues.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = import_module(f"firmware_host.commands.{name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args._run(args)
    except (UserError, ConfigError, RuleError, OSError) as exc:
        print(f"pocitadlo {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
