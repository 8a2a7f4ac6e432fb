"""fsync helpers shared by the outbox and the device's journals."""
import os


def sync_directory(path) -> None:
    """fsync a directory so a newly created or renamed entry survives a power cut."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
