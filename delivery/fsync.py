"""fsync helpers shared by the outbox, the league cache and the device's journals."""
import contextlib
import os
from pathlib import Path


def sync_directory(path: str | os.PathLike[str]) -> None:
    """fsync a directory so a newly created or renamed entry survives a power cut."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_with(target: Path, data: bytes, tmp: Path) -> None:
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
            tmp.unlink(missing_ok=True)
        raise


def write_durably(target: str | os.PathLike[str], data: bytes) -> None:
    """``replace_with`` through ``<target>.tmp``, then fsync the folder: the new file survives a
    power cut once this returns, and a cut before leaves the old one whole."""
    path = Path(target)
    replace_with(path, data, path.with_name(path.name + ".tmp"))
    sync_directory(path.parent)
