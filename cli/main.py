"""``pocitadlo``: one console script, one subcommand per module in cli.commands.

Errors, one mechanism for every subcommand (main below):
* a problem the user can fix (UserError, ConfigError, RuleError, OSError, DisplayFault, a bad
  option) is one line on stderr — ``pocitadlo COMMAND: what: why`` — and exit status 2;
* Ctrl-C is exit status 130, silently; a closed stdout pipe (``| head``) ends quietly;
* anything else is a bug: one line on stderr saying so and where the traceback was written
  (``crash.log`` in $STATE_DIRECTORY under systemd, else $XDG_STATE_HOME/pocitadlo or
  ~/.local/state/pocitadlo), exit status 1. ``pocitadlo --debug COMMAND`` (or POCITADLO_DEBUG=1)
  lets the exception through with its traceback, for developers.

A command that ran as asked but left part of its work undone (``outbox retry`` with items not
delivered, ``server import`` with lines refused) returns NOT_ALL_DONE, so a venue's script can
tell "the receiver is down" from a bug.
"""
import os
import sys

from cli.state_dir import state_directory

NOT_ALL_DONE = 3        # the command worked, but not everything went (see the docstring)


class UserError(Exception):
    """A problem the user can fix, reported as one line without a traceback."""


def user_errors() -> tuple:
    """The exception types that are the user's to fix (imported late: importing rules.errors
    imports the rule cores' package, which `pocitadlo run` loads only after the counter is lit)."""
    from config.options import ConfigError
    from display.devices import DisplayFault
    from rules.errors import RuleError

    return UserError, ConfigError, RuleError, OSError, DisplayFault


def describe(exc: BaseException) -> str:
    """One line for a user error: an OSError names its file(s) and the fault, not an errno."""
    if isinstance(exc, OSError) and exc.strerror:
        files = " -> ".join(os.fspath(f) for f in (exc.filename, exc.filename2) if f is not None)
        return f"{files}: {exc.strerror}" if files else exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def crash_log_path() -> str:
    state = state_directory()
    if not state:
        base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        state = os.path.join(base, "pocitadlo")
    return os.path.join(state, "crash.log")


def report_bug(command: str, exc: BaseException) -> str:
    """Append the traceback to the crash log; the one line that tells the user where it is."""
    import traceback

    from clock import SystemClock

    path = crash_log_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"--- {SystemClock().now():%Y-%m-%d %H:%M:%S} pocitadlo {' '.join(sys.argv[1:])}\n")
            fh.write("".join(traceback.format_exception(exc)))
        where = f"the traceback is in {path}"
    except OSError:
        where = "run it again with --debug to see the traceback"
    return f"internal error ({type(exc).__name__}: {describe(exc)}); this is a bug, please report it — {where}"


def main(argv=None, *, lit: tuple | None = None, args=None) -> int:
    """``lit``: `run`'s first step, taken before this was imported; ``args``: the arguments of
    ``argv`` as argparse would give them, read without it (both: cli.launcher)."""
    command, debug = "?", bool(os.environ.get("POCITADLO_DEBUG"))
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")   # a console without "ř" gets \u0159, not a crash
    try:
        argv = sys.argv[1:] if argv is None else argv
        if args is None:
            from cli.parser import build_parser

            args = build_parser(argv).parse_args(argv)
        command, debug = args.command, debug or args.debug
        status = args._run(args) if lit is None else args._run(args, lit)
        sys.stdout.flush()              # a closed pipe shows here, not in the interpreter's exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`pocitadlo server records | head`): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        if isinstance(exc, user_errors()):
            print(f"pocitadlo {command}: {describe(exc)}", file=sys.stderr)
            return 2
        if debug:
            raise
        print(f"pocitadlo {command}: {report_bug(command, exc)}", file=sys.stderr)
        return 1

