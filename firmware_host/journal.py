"""An append-only journal of record lines, durable line by line.

Every line is ``rules.record.encode_line(obj, checksum=True)``, written with one ``pwrite`` at the
end of the good lines and ``fdatasync``'d before ``append`` returns — the service shows a command
only after that.

``preallocate=N`` keeps N bytes of zeros, written and synced once, ahead of the lines: a stroke
then overwrites blocks the file already has and leaves its size alone, so ``fdatasync`` writes
the data block and no metadata (no inode, no filesystem-journal commit per stroke — on an SD card
that halves the writes). ``close`` cuts the room off again, so a closed journal is exactly its lines.
While it is open the file holds the zeros: read it through ``text()``, not by path.

Power may be cut at any instant, so on open the file is read back line by line: the first line
that is torn (no newline, bad checksum, not JSON) starts the *tail*. A tail of zeros only is the
end — preallocated room, or a filesystem's NUL fill after a cut — and is not damage. Any other
tail is cut off the file and kept beside it in ``<name>.cut`` for the audit, and logged. Lines
before it are never touched.

A journal file of a partie is that partie's record (header line + command lines), so
``pocitadlo replay`` reads it as is.
"""
import json
import logging
import os

from rules.errors import RecordError
from delivery.fsync import sync_directory
from rules.record import decode_line, encode_line

log = logging.getLogger("pocitadlo.journal")


class Journal:
    """One journal file, opened for appending. Use ``Journal.open(path)``."""

    def __init__(self, path, lines: list[dict], size: int, *, fsync: bool = True, preallocate: int = 0,
                 end: int | None = None):
        self.path = os.fspath(path)
        self.lines = lines              # decoded lines (meta keys kept), in file order
        self.size = size                # bytes of lines in the file, all of it durable
        self.bytes_written = 0          # bytes appended by this process (SD wear)
        self.cut_bytes = 0              # bytes of a torn tail cut on open
        self.preallocate = preallocate
        self._end = size if end is None else end     # the file's length: lines + zero room
        self._fsync = fsync
        self._fd: int | None = None

    @classmethod
    def open(cls, path, *, fsync: bool = True, preallocate: int = 0) -> "Journal":
        """Open (creating on the first append) and recover: a torn or corrupt tail is cut and logged."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            data = b""
        lines, good = read_lines(data, path)
        tail = data[good:].rstrip(b"\0")
        journal = cls(path, lines, good, fsync=fsync, preallocate=preallocate, end=len(data))
        if tail:
            journal._cut_tail(tail)
        elif len(data) > good and not preallocate:
            journal._truncate()         # zeros only: the end, and this journal keeps no room
        return journal

    def _cut_tail(self, tail: bytes) -> None:
        self.cut_bytes = len(tail)
        with open(self.path + ".cut", "ab") as side:
            side.write(tail)
            side.flush()
            os.fsync(side.fileno())
        if self.preallocate:            # the damage becomes room again; the blocks stay allocated
            with open(self.path, "r+b") as fh:
                os.pwrite(fh.fileno(), bytes(len(tail)), self.size)
                os.fsync(fh.fileno())
        else:
            self._truncate()
        log.warning("%s: cut a torn or corrupt tail of %d bytes after line %d (kept in %s.cut)",
                    self.path, len(tail), len(self.lines), os.path.basename(self.path))

    def _truncate(self) -> None:
        with open(self.path, "r+b") as fh:
            fh.truncate(self.size)
            os.fsync(fh.fileno())
        self._end = self.size

    def _handle(self) -> int:
        if self._fd is None:
            created = not os.path.exists(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            if created and self._fsync:
                sync_directory(os.path.dirname(self.path) or ".")
        return self._fd

    def _make_room(self, fd: int, needed: int) -> None:
        """Grow the zero room (written, then fsync'd with the new size) to hold ``needed`` more bytes."""
        if self.size + needed <= self._end:
            return
        new_end = self.size + needed + self.preallocate
        os.pwrite(fd, bytes(new_end - self._end), self._end)
        if self._fsync:
            os.fsync(fd)
        self._end = new_end

    def append(self, obj: dict) -> int:
        """Write one line (checksum added) and make it durable; return the bytes written."""
        text = encode_line(obj, checksum=True)
        data = text.encode("utf-8")
        fd = self._handle()
        try:
            if self.preallocate:
                self._make_room(fd, len(data))
            written = 0
            while written < len(data):
                written += os.pwrite(fd, data[written:], self.size + written)
            if self._fsync:
                os.fdatasync(fd)
        except OSError:
            self._take_back(fd, len(data))
            raise
        self.size += len(data)
        self._end = max(self._end, self.size)
        self.bytes_written += len(data)
        self.lines.append(json.loads(text))     # what was just encoded: no checksum to verify
        return len(data)

    def _take_back(self, fd: int, length: int) -> None:
        """Not durable, so not accepted: whatever part of the line reached the file goes again."""
        try:
            if self._end > self.size:
                os.pwrite(fd, bytes(min(length, self._end - self.size)), self.size)
            else:
                os.ftruncate(fd, self.size)
        except OSError:
            pass

    def text(self) -> str:
        """The lines as the file holds them (the record), without the zero room."""
        with open(self.path, "rb") as fh:
            return fh.read(self.size).decode("utf-8")

    def close(self) -> None:
        if self._fd is not None:
            if self._end > self.size:
                os.ftruncate(self._fd, self.size)
                if self._fsync:
                    os.fsync(self._fd)
                self._end = self.size
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_lines(data: bytes, name: str = "journal") -> tuple[list[dict], int]:
    """Decode the good lines of a journal; return them and the byte length they span.

    Reading stops at the first line without a newline or that does not decode with a valid
    checksum: appends are sequential, so everything from there on is the tail (zero room or damage).
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
