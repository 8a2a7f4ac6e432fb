"""One module per ``pocitadlo`` subcommand.

Each module defines ``HELP`` (one line), ``configure(parser)`` and ``run(args) -> int``.
Modules import only the standard library at the top: heavy imports (luma, gpiozero,
pyserial) go inside ``run`` so ``pocitadlo --help`` and the service start stay fast.
"""
import os


def user_error(message: str):
    from cli.main import UserError

    return UserError(message)


def read_record(path):
    """The replay of a record file ("-": standard input); a bad record names the file and the line."""
    import sys

    from rules.errors import RuleError
    from rules.record import read_bounded, replay_data, replay_file

    try:
        return replay_data(read_bounded(sys.stdin.buffer)) if path == "-" else replay_file(path)
    except RuleError as exc:
        raise user_error(f"{'standard input' if path == '-' else path}: {exc}") from None


def read_text(path, option: str) -> str:
    """A small UTF-8 text file given by ``option``; unreadable or not text is a user error."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise user_error(f"{option} {path}: cannot read ({exc.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise user_error(f"{option} {path}: not UTF-8 text (line {line}: {exc.reason})") from None


def output_file(path, option: str) -> None:
    """Refuse, before any work, a file that cannot be written: a folder, or in a folder that is not there."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise user_error(f"{option} {path}: is a folder, not a file")
    if not os.path.isdir(folder):
        raise user_error(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise user_error(f"{option} {path}: the folder {folder} is not writable")


def output_dir(path, option: str) -> None:
    """Make the folder ``option`` names (with its parents); a file in the way is a user error."""
    try:
        os.makedirs(path, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise user_error(f"{option} {path}: not a folder (a file is in the way)") from None
    except OSError as exc:
        raise user_error(f"{option} {path}: cannot create the folder ({exc.strerror})") from None
