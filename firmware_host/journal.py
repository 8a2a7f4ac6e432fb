"""An append-only journal of record lines, durable line by line.

Every line is ``rules.record.encode_line(obj, checksum=True)``, written with one ``pwrite`` at the
end of the good lines and ``fdatasync``'d before ``append`` returns — the service shows a command
only after that.

``preallocate=N`` keeps N bytes of zeros, written and synced once, ahead of the lines: a stroke
then overwrites blocks the file already has and leaves its size alone, so ``fdatasync`` writes
the data block and no metadata (no inode, no filesystem-journal commit per stroke — on an SD card
that halves the writes). The room is grown by ``top_up`` after a frame, before it runs out, so a
stroke waits for that write and its fsync only if it came first. ``close`` cuts the room off again, so a closed journal is exactly its lines.
While it is open the file holds the zeros: read it through ``text()``, not by path.

Every line carries its sequence number ``n`` (1, 2, …) and is written twice, both copies in the
one ``pwrite``: a damaged byte anywhere (an SD card fault) spoils at most two adjacent copies of
two different lines — never both copies of one — so the journal reads back whole. On open:

* a copy that does not decode (bad checksum, not JSON, not UTF-8) is *damage*: skipped, counted,
  logged; when the other copy of its line is good the line is *repaired*, when no copy of a
  number survives (damage to both) that line is *in doubt* (``doubts``: its number) and the lines
  after it are still read;
* a good copy of a number already read is the mirror (or a duplicated line): it is never read as
  one more line; a copy that disagrees with the first is logged and ignored;
* what follows the last good copy is the *tail*. A tail of zeros only is the end — preallocated
  room, or a filesystem's NUL fill after a cut — and not damage; any other tail (a torn write) is
  cut off the file and kept beside it in ``<name>.cut`` for the audit, and logged. A tail that is
  the last line's second copy with a damaged byte (its length, all but a few of its bytes) is cut
  the same way and also counted as a damaged copy, so the counter says the journal was repaired.

A file of lines without ``n`` (written before sequence numbers) is read as before: its first
damaged line starts the tail. docs/record-format.md states the guarantee.

A journal file of a partie is that partie's record (header line + command lines), so
``pocitadlo replay`` reads it as is.
"""
import json
import os
from dataclasses import dataclass, field

from delivery.fsync import sync_directory
from delivery.logs import Logger
from rules.errors import RecordError
from rules.record import decode_line, encode_line

log = Logger("pocitadlo.journal")

MIRROR_DAMAGE = 4       # bytes a damaged last copy may differ by and still be read as that copy's mirror


class Journal:
    """One journal file, opened for appending. Use ``Journal.open(path)``."""

    def __init__(self, path, lines: list[dict], size: int, *, fsync: bool = True, preallocate: int = 0,
                 end: int | None = None, damage: "Damage | None" = None):
        self.path = os.fspath(path)
        self._lines = lines             # decoded lines (meta keys kept), in file order ...
        self._undecoded: list[str] = []     # ... then the texts appended since, decoded when read
        self._last = last_number(lines)
        self.damage = damage or Damage()    # what reading it back found (nothing, in a healthy file)
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
        read = read_lines(data, path)
        lines, good = read.lines, read.good
        tail = data[good:].rstrip(b"\0")
        journal = cls(path, lines, good, fsync=fsync, preallocate=preallocate, end=len(data), damage=read.damage)
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

    def top_up(self) -> bool:
        """Grow the zero room now when less than a quarter of ``preallocate`` is left, so that no
        stroke has to (the service calls this after a frame, not between a key and its frame).
        True when it grew."""
        if not self.preallocate or self._fd is None or self._end - self.size >= self.preallocate // 4:
            return False
        self._make_room(self._fd, self.preallocate // 4 + 1)
        return True

    @property
    def lines(self) -> list[dict]:
        """The decoded lines (meta keys kept), in file order. A line appended is decoded here, when
        it is first read — not in ``append``, which is on the way from a key to its frame."""
        if self._undecoded:
            self._lines.extend(json.loads(text) for text in self._undecoded)
            self._undecoded.clear()
        return self._lines

    @property
    def next_number(self) -> int:
        return self._last + 1

    def append(self, obj: dict) -> int:
        """Write one line (sequence number and checksum added), twice, and make it durable; return
        the bytes written."""
        number = self.next_number
        text = encode_line({**obj, "n": number}, checksum=True)
        data = (text + text).encode("utf-8")
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
        self._undecoded.append(text)       # what was just encoded: no checksum to verify
        self._last = number
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


@dataclass
class Damage:
    """What reading a journal back found besides its good lines."""
    copies: int = 0                                   # copies that did not decode
    doubts: list[int] = field(default_factory=list)   # line numbers no good copy of survives
    duplicates: list[int] = field(default_factory=list)   # numbers written again beyond the mirror

    @property
    def repaired(self) -> bool:
        """Damage was found and every line still read whole from its other copy."""
        return bool(self.copies) and not self.doubts


@dataclass
class Read:
    """A journal file read back: its good lines, where they end and any damage after them."""
    lines: list[dict]
    good: int               # bytes up to the end of the last good copy: what follows is the tail
    damage: Damage


def _decoded(raw: bytes, number: int, name: str) -> dict | None:
    try:
        obj = decode_line(raw.decode("utf-8"), number)
    except (UnicodeDecodeError, RecordError) as exc:
        log.debug("%s: copy near line %d unreadable: %s", name, number, exc)
        return None
    return obj if "crc" in obj else None      # a line without a checksum is not trusted


def last_number(lines: list[dict]) -> int:
    """The sequence number of the last line read (its place, for lines written before numbers)."""
    return (lines[-1].get("n") or len(lines)) if lines else 0


def _split(raw: bytes, number: int, name: str) -> list[dict]:
    """A damaged newline joins two copies into one line (``…}X{…``): read each side on its own."""
    for i in range(1, len(raw) - 1):
        if raw[i - 1:i] == b"}" and raw[i + 1:i + 2] == b"{":
            halves = [_decoded(raw[:i], number, name), _decoded(raw[i + 1:], number, name)]
            if any(halves):
                return [half for half in halves if half is not None]
    return []


def read_lines(data: bytes, name: str = "journal") -> Read:
    """Decode the good lines of a journal (module docstring: copies, damage, doubts, the tail)."""
    lines: list[dict] = []
    damage, good, pos, unread = Damage(), 0, 0, 0
    numbered = None                         # None until the first good line says which format
    last_copy, copy_end = b"", 0            # the last copy read whole (newline included), its end
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break
        raw, pos = data[pos:end], end + 1
        if not raw.strip(b"\0 \t\r"):
            if not unread:
                good = pos
            continue
        last = last_number(lines)
        obj = _decoded(raw, last + 1, name)
        objs = [obj] if obj is not None else ([] if numbered is False else _split(raw, last + 1, name))
        if obj is None:
            if numbered is False:           # the old format: its first damaged line starts the tail
                break
            unread += 1
        else:
            last_copy, copy_end = data[pos - len(raw) - 1:pos], pos
        for obj in objs:
            last = last_number(lines)
            numbered = "n" in obj if numbered is None else numbered
            number = obj.get("n") if numbered else last + 1
            if not isinstance(number, int) or number < 1:
                continue
            if number <= last:
                _duplicate(lines, obj, number, damage, name)
            else:
                damage.doubts += range(last + 1, number)
                lines.append(obj)
        if objs:
            damage.copies += unread
            unread, good = 0, pos
            if obj is None:                 # read from a joined line: no whole copy to compare with
                last_copy = b""
    if numbered and _damaged_mirror(data[copy_end:].rstrip(b"\0"), last_copy):
        damage.copies += 1
    _log(damage, name)
    return Read(lines, good, damage)


def _damaged_mirror(tail: bytes, last_copy: bytes) -> bool:
    """The tail is the last line's second copy with a damaged byte or a few (its length, and its
    bytes but for at most MIRROR_DAMAGE): damage the other copy made good, not a torn write."""
    return (bool(tail) and len(tail) == len(last_copy)
            and sum(a != b for a, b in zip(tail, last_copy)) <= MIRROR_DAMAGE)


def _duplicate(lines: list[dict], obj: dict, number: int, damage: Damage, name: str) -> None:
    first = next((line for line in lines if line.get("n") == number), None)
    if first is not None and first != obj:
        log.error("%s: two different copies of line %d; the first is kept", name, number)
    elif (first is None or lines[-1] is not first) and number not in damage.duplicates:
        damage.duplicates.append(number)                # not the mirror right after its line


def _log(damage: Damage, name: str) -> None:
    if damage.doubts:
        log.error("%s: line(s) %s unreadable in both copies: in doubt", name, ", ".join(map(str, damage.doubts)))
    elif damage.copies:
        log.warning("%s: %d damaged cop%s read from the other copy", name, damage.copies,
                    "y" if damage.copies == 1 else "ies")
    if damage.duplicates:
        log.warning("%s: duplicated line(s) %s skipped", name, ", ".join(map(str, damage.duplicates)))
