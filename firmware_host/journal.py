"""An append-only journal of record lines, durable line by line.

Every line is ``rules.record.encode_line(obj, checksum=True)``, written with one ``write`` and
fsync'd before ``append`` returns — the service shows a command only after that. Power may be cut
at any instant, so on open the file is read back line by line: the first line that is torn (no
newline, bad checksum, not JSON, NUL fill) starts the *tail*, which is cut off the file (truncate)
and kept beside it in ``<name>.cut`` for the audit, and logged. Lines before it are never touched.

A journal file of a partie is that partie's record (header line + command lines), so
``pocitadlo replay`` reads it as is.
"""
import logging
import os

from rules.errors import RecordError
from delivery.fsync import sync_directory
from rules.record import decode_line, encode_line

log = logging.getLogger("pocitadlo.journal")


class Journal:
    """One journal file, opened for appending. Use ``Journal.open(path)``."""

    def __init__(self, path, lines: list[dict], size: int, *, fsync: bool = True):
        self.path = os.fspath(path)
        self.lines = lines              # decoded lines (meta keys kept), in file order
        self.size = size                # bytes in the file, all of it durable
        self.bytes_written = 0          # bytes appended by this process (SD wear)
        self.cut_bytes = 0              # bytes of a torn tail cut on open
        self._fsync = fsync
        self._fd: int | None = None

    @classmethod
    def open(cls, path, *, fsync: bool = True) -> "Journal":
        """Open (creating if needed) and recover: a torn or corrupt tail is cut and logged."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            data = b""
        lines, good = read_lines(data, path)
        journal = cls(path, lines, good, fsync=fsync)
        if good < len(data):
            journal._cut_tail(data[good:])
        return journal

    def _cut_tail(self, tail: bytes) -> None:
        self.cut_bytes = len(tail)
        with open(self.path + ".cut", "ab") as side:
            side.write(tail)
            side.flush()
            os.fsync(side.fileno())
        with open(self.path, "r+b") as fh:
            fh.truncate(self.size)
            fh.flush()
            os.fsync(fh.fileno())
        log.warning("%s: cut a torn or corrupt tail of %d bytes after line %d (kept in %s.cut)",
                    self.path, len(tail), len(self.lines), os.path.basename(self.path))

    def _handle(self) -> int:
        if self._fd is None:
            created = not os.path.exists(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            if created and self._fsync:
                sync_directory(os.path.dirname(self.path) or ".")
        return self._fd

    def append(self, obj: dict) -> int:
        """Write one line (checksum added) and make it durable; return the bytes written."""
        data = encode_line(obj, checksum=True).encode("utf-8")
        fd = self._handle()
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            if self._fsync:
                os.fsync(fd)
        except OSError:
            # not durable, so not accepted: take back whatever part of the line reached the file
            try:
                os.ftruncate(fd, self.size)
            except OSError:
                pass
            raise
        self.size += len(data)
        self.bytes_written += len(data)
        self.lines.append(decode_line(data.decode("utf-8"), len(self.lines) + 1))
        return len(data)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_lines(data: bytes, name: str = "journal") -> tuple[list[dict], int]:
    """Decode the good lines of a journal; return them and the byte length they span.

    Reading stops at the first line without a newline or that does not decode with a valid
    checksum: appends are sequential, so everything from there on is the torn tail.
    """
    lines: list[dict] = []
    good = 0
    while good < len(data):
        end = data.find(b"\n", good)
        if end < 0:
            break
        raw = data[good:end]
        if raw.strip():
            try:
                obj = decode_line(raw.decode("utf-8"), len(lines) + 1)
            except (UnicodeDecodeError, RecordError) as exc:
                log.debug("%s: line %d unreadable: %s", name, len(lines) + 1, exc)
                break
            if "crc" not in obj:
                break
            lines.append(obj)
        good = end + 1
    return lines, good
