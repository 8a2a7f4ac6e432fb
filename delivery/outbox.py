"""The durable outbox: finished partie and matches waiting for the league's receiver.

One file per item, named by its id, holding exactly the bytes that are sent (the body)::

    outbox/pending/<name>.json     waiting (oldest first, by the time it was added)
    outbox/delivered/<name>.json   acknowledged by the receiver
    outbox/held/<name>.json        refused for good by the receiver (409, 422...): kept, not retried
    outbox/held/<name>.why         the receiver's answer, for `pocitadlo outbox`
    outbox/last-delivery           ISO time of the last acknowledged delivery
    outbox/last-error              the delivery's last error, while it lasts (the Syncer's, for `pocitadlo outbox`)

``add`` writes a temp file, fsyncs it, renames it into pending/ and fsyncs the directory, so an
item is on disk before ``add`` returns, and it is idempotent by id: the service treats a partie as
closed exactly when its item exists, and re-adds missing ones after a restart. A crash between a
delivery and ``mark_delivered`` only causes a resend, which the receiver answers "already have it".
"""
import contextlib
import itertools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from clock import SystemClock
from delivery.fsync import replace_with, sync_directory
from delivery.logs import Logger

if TYPE_CHECKING:
    from pathlib import Path

    from wire.signing import Signer

log = Logger(__name__)

KINDS = ("partie", "match")
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
PENDING, DELIVERED, HELD = "pending", "delivered", "held"
MATCH_HEAD = b',"kind":"match",'     # item_body writes the id, then the kind: a match item's first bytes
LAST_ERROR, ERROR_CHARS = "last-error", 500     # an error's text is kept this long at most
HEAD_BYTES = 1024                     # an id is at most a few hundred bytes


def item_body(item_id: str, kind: str, record_text: str, summary: dict[str, Any]) -> bytes:
    """The bytes that are stored and sent for one item (canonical JSON, UTF-8)."""
    obj = {"id": item_id, "kind": kind, "record": record_text, "summary": summary}
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode("utf-8")


def file_name(item_id: str) -> str:
    if _SAFE_NAME.fullmatch(item_id):
        return item_id + ".json"
    import hashlib  # for an odd id only: not at the device's start (wire.signing.mac)

    return "x-" + hashlib.sha256(item_id.encode("utf-8")).hexdigest()[:40] + ".json"


@dataclass(frozen=True)
class Item:
    """One outbox item: the bytes sent for it and where it stands."""
    id: str
    kind: str
    body: bytes
    state: str = PENDING
    why: str | None = None     # the receiver's refusal, for a held item

    @classmethod
    def from_body(cls, body: bytes, state: str = PENDING, why: str | None = None) -> "Item":
        obj = json.loads(body)
        return cls(obj["id"], obj["kind"], body, state, why)

    @property
    def content(self) -> dict[str, Any]:
        content: dict[str, Any] = json.loads(self.body)
        return content


class Outbox:
    """The outbox in ``directory``. Its files are named with os.path, not pathlib: the service opens
    its outbox before READY, and pathlib (with urllib.parse) is not imported for it at every start."""

    def __init__(self, directory: str | os.PathLike[str]):
        self._dir = os.fspath(directory)
        for sub in (PENDING, DELIVERED, HELD, "tmp"):
            os.makedirs(self._path(sub), exist_ok=True)
        for stale in self._names("tmp", ".tmp"):        # left by a power cut mid-add
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._path("tmp", stale))

    @property
    def directory(self) -> "Path":
        from pathlib import Path

        return Path(self._dir)

    def _path(self, *parts: str) -> str:
        return os.path.join(self._dir, *parts)

    def _names(self, sub: str, suffix: str) -> list[str]:
        """The names in ``sub`` ending in ``suffix``, as glob's ``*suffix`` gives them (no dot files)."""
        with os.scandir(self._path(sub)) as entries:
            return [e.name for e in entries if e.name.endswith(suffix) and not e.name.startswith(".")]

    # -- adding ----------------------------------------------------------
    def add(self, item_id: str, kind: str, record_text: str, summary: dict[str, Any]) -> bool:
        """Make the item durable; False when an item with this id is already there (kept as is)."""
        if not isinstance(item_id, str) or not item_id:
            raise ValueError("an outbox item needs a non-empty text id")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        body = item_body(item_id, kind, record_text, summary)
        existing = self._find(item_id)
        if existing is not None:
            if _read_bytes(existing) != body:
                log.warning("outbox: item %s is already queued with different content; keeping the first", item_id)
            return False
        self._write_durably(self._path(PENDING, file_name(item_id)), body)
        return True

    def _find(self, item_id: str) -> str | None:
        name = file_name(item_id)
        for sub in (PENDING, DELIVERED, HELD):
            path = self._path(sub, name)
            if os.path.exists(path):
                return path
        return None

    def _write_durably(self, target: str, data: bytes) -> None:
        replace_with(target, data, self._path("tmp", f"{os.path.basename(target)}.{os.getpid()}.tmp"))
        sync_directory(os.path.dirname(target))

    # -- reading ---------------------------------------------------------
    def pending(self) -> list[Item]:
        """Waiting items, oldest first."""
        return self._items(PENDING)

    def next_pending(self) -> Item | None:
        """The oldest waiting item (what the Syncer sends next), reading only its file."""
        return next(self._read(PENDING), None)

    def oldest_pending(self, count: int) -> list[Item]:
        """The ``count`` oldest waiting items (a backlog the Syncer sends in one request), reading
        only their files."""
        return list(itertools.islice(self._read(PENDING), count))

    def held(self) -> list[Item]:
        return self._items(HELD)

    def delivered_ids(self) -> list[str]:
        return [item.id for item in self._items(DELIVERED)]

    def match_fixtures(self) -> set[str]:
        """The league fixtures this outbox holds a match item of, waiting, delivered or held: the
        fixtures closed at this table. Only match items are read whole (an item's kind is in the
        first bytes of its file)."""
        found = set()
        for sub in (PENDING, DELIVERED, HELD):
            for path in self._files(sub):
                try:
                    with open(path, "rb") as fh:
                        if MATCH_HEAD not in fh.read(HEAD_BYTES):
                            continue
                    fixture = json.loads(_read_bytes(path))["summary"].get("fixture")
                except (OSError, ValueError, KeyError, TypeError, AttributeError):
                    continue                # moved meanwhile, or damaged: _read says so when it is sent
                if isinstance(fixture, str):
                    found.add(fixture)
        return found

    def _items(self, sub: str) -> list[Item]:
        return list(self._read(sub))

    def _read(self, sub: str) -> Iterator[Item]:
        """The readable items of one state, oldest first (read one by one, as they are asked for)."""
        for _, item in self._scan(sub):
            if item is not None:
                yield item

    def _scan(self, sub: str) -> Iterator[tuple[str, Item | None]]:
        """Each file of one state, oldest first, with its item (None: the file is damaged)."""
        for path in self._files(sub):
            try:
                yield path, Item.from_body(_read_bytes(path), sub, self._why(path) if sub == HELD else None)
            except FileNotFoundError:      # moved meanwhile (a delivery in another thread or process)
                continue
            except (ValueError, KeyError, TypeError) as exc:
                # files are fsync'd before they are renamed in, so this is disk damage: keep the file
                log.error("outbox: %s is unreadable (%s); left in place, not sent", path, exc)
                yield path, None

    def unsent(self) -> int:
        """What is not delivered: the item files waiting or held, a damaged one too (it is a partie
        the receiver has not got). Counted by the files, nothing read: the counter asks often."""
        return len(self._files(PENDING)) + self.held_count()

    def backlog(self) -> tuple[list[Item], list[str]]:
        """All that ``unsent`` counts, read in one pass: the readable items (waiting, then held)
        and the paths of the damaged files."""
        scanned = [*self._scan(PENDING), *self._scan(HELD)]
        return [item for _, item in scanned if item is not None], [path for path, item in scanned if item is None]

    def held_count(self) -> int:
        """Items set aside after a final refusal, counted by their files (nothing is read)."""
        return len(self._files(HELD))

    def _files(self, sub: str) -> list[str]:
        """The item files of one state, oldest first (by the time each entered it)."""
        paths = []
        for name in self._names(sub, ".json"):
            path = self._path(sub, name)
            try:
                paths.append((os.stat(path).st_mtime_ns, name, path))
            except FileNotFoundError:   # moved by another thread meanwhile
                continue
        return [p for _, _, p in sorted(paths)]

    @staticmethod
    def _why(path: str) -> str | None:
        try:
            return _read_bytes(_why_path(path)).decode("utf-8")
        except FileNotFoundError:
            return None

    def last_delivery(self) -> str | None:
        try:
            return _read_bytes(self._path("last-delivery")).decode("utf-8").strip() or None
        except FileNotFoundError:
            return None

    def keep_error(self, error: str | None) -> None:
        """Keep the delivery's last error (None: delivery works again) for `pocitadlo outbox list`."""
        path = self._path(LAST_ERROR)
        if error is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            return
        self._write_durably(path, error[:ERROR_CHARS].encode("utf-8"))

    def last_error(self) -> str | None:
        try:
            return _read_bytes(self._path(LAST_ERROR)).decode("utf-8", "replace") or None
        except FileNotFoundError:
            return None

    # -- moving ----------------------------------------------------------
    def mark_delivered(self, item_id: str, when: datetime | str | None = None) -> None:
        self._move(item_id, DELIVERED)
        stamp = when if isinstance(when, str) else (when or SystemClock().utc()).isoformat(timespec="seconds")
        self._write_durably(self._path("last-delivery"), stamp.encode("utf-8"))

    def hold(self, item_id: str, why: str) -> None:
        """Set an item aside after a final refusal; ``retry_held`` puts it back in the queue."""
        self._write_durably(_why_path(self._path(HELD, file_name(item_id))), why.encode("utf-8"))
        self._move(item_id, HELD)

    def retry_held(self) -> int:
        items = self.held()
        for item in items:
            self._move(item.id, PENDING)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(_why_path(self._path(HELD, file_name(item.id))))
        return len(items)

    def _move(self, item_id: str, to: str) -> None:
        source = self._find(item_id)
        if source is None:
            raise KeyError(f"no outbox item {item_id!r}")
        target = self._path(to, os.path.basename(source))
        if source == target:
            return
        os.replace(source, target)
        os.utime(target)   # its place in the queue is when it entered this state
        sync_directory(os.path.dirname(target))
        sync_directory(os.path.dirname(source))

    # -- carrying it away --------------------------------------------------
    def export(self, path: str | os.PathLike[str], signer: "Signer | None" = None, *,
               include_held: bool = True) -> int:
        """Write the backlog as JSON Lines (for a USB stick); with a signer each line is signed.

        ``pocitadlo server import FILE`` reads it. Returns the number of items written.
        """
        items = self.pending() + (self.held() if include_held else [])
        lines = []
        for item in items:
            if signer is not None:
                lines.append(json.dumps(signer.sign(item.body).to_json(), ensure_ascii=False))
            else:
                lines.append(item.body.decode("utf-8"))
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        target = os.fspath(path)
        replace_with(target, data, target + ".tmp")
        return len(items)


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _why_path(item_path: str) -> str:
    """The .why file beside a held item's .json."""
    return os.path.splitext(item_path)[0] + ".why"
