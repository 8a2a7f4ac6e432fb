"""fsync helpers shared by the outbox, the league cache and the device's journals (os.path, not
pathlib: the service imports this before READY, and pathlib is not needed for it)."""
import contextlib
import os


def sync_directory(path: str | os.PathLike[str]) -> None:
    """fsync a directory so a newly created or renamed entry survives a power cut."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_with(target: str | os.PathLike[str], data: bytes, tmp: str | os.PathLike[str]) -> None:
    """Write ``data`` to ``tmp``, fsync it and rename it over ``target``: the target is either the old
    file or the whole new one. The temp file does not outlive a failure (a full stick, a folder in the
    way, Ctrl-C)."""
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):     # the original error is the one to report
            os.unlink(tmp)
        raise


def write_durably(target: str | os.PathLike[str], data: bytes) -> None:
    """``replace_with`` through ``<target>.tmp``, then fsync the folder: the new file survives a
    power cut once this returns, and a cut before leaves the old one whole."""
    path = os.fspath(target)
    replace_with(path, data, path + ".tmp")
    sync_directory(os.path.dirname(path) or ".")
