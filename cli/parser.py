"""The command line's parser: argparse, one subparser per module in cli.commands (its own module,
so that `pocitadlo run` started through cli.launcher lights the counter and starts without it)."""
import argparse
from importlib import import_module

# Order is the order ``pocitadlo --help`` lists them.
COMMANDS = (
    "run",
    "emulate",
    "replay",
    "render",
    "keycard",
    "outbox",
    "serve",
    "server",
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (naming the option) like every other CLI error."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with ``argv`` naming one, of that one alone."""
    parser = Parser(prog="pocitadlo", description="Scoreboard controller for Czech billiard leagues.")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an internal error (a bug) instead of one line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=Parser)
    for name in _commands_for(argv):
        module = import_module(f"cli.commands.{name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.set_defaults(_run=module.run)
    return parser


def _commands_for(argv) -> tuple:
    """The subcommand ``argv`` names, when it names one: `pocitadlo run` imports and configures
    its own module only, not all eight (milliseconds at every start of the service on a Pi);
    --help, no command or a mistyped one: all of them, for the list and the error."""
    if argv is None:
        return COMMANDS
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return (first,) if first in COMMANDS else COMMANDS
