"""The match night on the SD card: the night journal, one record file per partie, the archive.

``journal/night.jsonl`` holds the night's events (rules.night); each partie is its own record
``journal/<partie id>.jsonl`` (header line, then one line per command), so ``pocitadlo replay``
reads it as is. Every line is fsync'd before it counts. After a power cut the store folds the
night journal back and reopens the partie in play; a partie file whose header this version
refuses is set aside as ``.unreadable``. A closed match's files move to
``archive/<time>-<n>/`` so the next match starts with an empty journal.
"""
import os

from delivery.fsync import sync_directory
from delivery.logs import Logger
from firmware_host.journal import Journal
from rules import night as rules_night
from rules.board import Board
from rules.errors import RuleError
from rules.record import encode_line, strip_meta

log = Logger("pocitadlo.night")


# Zeros kept ahead of a partie's lines (about 120 strokes): a stroke then overwrites blocks the
# file already has, so its fdatasync writes no metadata (firmware_host/journal.py).
PARTIE_ROOM = 16 * 1024


class OpenPartie:
    """The partie in play: its board and its record file, whose lines are kept at hand."""

    def __init__(self, board: Board, journal: Journal):
        self.board, self.journal = board, journal

    def append(self, line: dict) -> None:
        """Journal one record line (fsync'd); the caller pushes it after."""
        self.journal.append(line)

    def top_up(self) -> None:
        """Grow the record file's zero room if it runs low (after a frame: firmware_host.journal).
        A failure is only logged: the next stroke's own write meets it and is refused as it should."""
        try:
            self.journal.top_up()
        except OSError as exc:
            log.warning("%s: cannot grow the zero room ahead of the lines: %s", self.journal.path, exc)

    @property
    def text(self) -> str:
        """The record, one copy of each journalled line (no read back from the card); built when
        it is asked for — closing the partie — not on every stroke."""
        return "".join(encode_line(line, checksum=True) for line in self.journal.lines)

    @property
    def size(self) -> int:
        return self.journal.size


def night_event(line: dict) -> dict:
    """A night journal line as its event: without the sequence number and the checksum, but with
    its time — a captain's answer keeps when it was given (the match item carries it, issue 22)."""
    return {key: value for key, value in line.items() if key not in ("n", "crc")}


class NightStore:
    def __init__(self, data_dir, *, fsync: bool = True):
        self.data_dir = os.fspath(data_dir)
        self.dir = os.path.join(self.data_dir, "journal")
        self.fsync = fsync
        self.partie_room = PARTIE_ROOM      # a partie file's zero room (bench_service sets it)
        os.makedirs(self.dir, exist_ok=True)
        self.journal = Journal.open(os.path.join(self.dir, "night.jsonl"), fsync=fsync)

    # -- the night journal -----------------------------------------------------
    def fold(self) -> rules_night.NightState:
        """The night as its journal left it; an event that cannot be applied is logged and skipped."""
        state = rules_night.NightState()
        for line in self.journal.lines:
            try:
                state = rules_night.apply(state, night_event(line))
            except rules_night.UnknownEvent as exc:
                log.warning("night journal: %s ignored", exc)
            except rules_night.NightEventError as exc:
                log.error("night journal: %s; skipped", exc)
        return state

    def record(self, state: rules_night.NightState, event: dict) -> rules_night.NightState:
        """Journal ``event`` (fsync'd), then fold it in."""
        self.journal.append(event)
        return rules_night.apply(state, event)

    # -- partie files ------------------------------------------------------------
    def partie_path(self, partie_id: str) -> str:
        return os.path.join(self.dir, partie_id + ".jsonl")

    def start_partie(self, header: dict, at: str) -> OpenPartie:
        """A new partie: the header checked by the rule core, then journalled."""
        board = Board(header)
        partie = OpenPartie(board, Journal.open(self.partie_path(header["id"]), fsync=self.fsync,
                                                preallocate=self.partie_room))
        partie.append(dict(header, at=at))
        return partie

    def resume(self, partie_id: str) -> OpenPartie | None:
        """The partie in play after a restart, replayed from its file; None if it has not begun
        (or its header is refused: the file is set aside and the partie starts again)."""
        path = self.partie_path(partie_id)
        journal = Journal.open(path, fsync=self.fsync, preallocate=self.partie_room)
        if not journal.lines:
            journal.close()
            return None
        try:
            board = Board(strip_meta(journal.lines[0]))
        except RuleError as exc:            # e.g. written by a version whose header this one refuses
            journal.close()
            os.replace(path, path + ".unreadable")
            log.error("%s: header refused (%s); set aside as .unreadable, the partie starts again", path, exc)
            return None
        for line in journal.lines[1:]:
            try:
                board.push(strip_meta(line))
            except RuleError as exc:
                log.error("%s: a journalled command is refused on replay: %s", path, exc)
        return OpenPartie(board, journal)

    def closed_partie(self, partie_id: str) -> OpenPartie | None:
        """A closed partie read back from its file (its journal closed again), or None when the
        file is gone or holds nothing (logged: its record cannot be sent)."""
        if not os.path.exists(self.partie_path(partie_id)):
            log.error("%s: the closed partie's file is missing; its record cannot be sent", partie_id)
            return None
        partie = self.resume(partie_id)
        if partie is not None:
            partie.journal.close()
        return partie

    def partie_files(self) -> list[str]:
        """The ids of the partie files in the journal folder, oldest name first."""
        return sorted(name[:-len(".jsonl")] for name in os.listdir(self.dir)
                      if name.endswith(".jsonl") and name != "night.jsonl")

    def orphans(self, match: rules_night.Match | None) -> list[OpenPartie]:
        """Partie files no match of the night journal owns (its match line lost in both copies),
        read back, their journals closed again."""
        owned = f"{match.id}-p" if match is not None else None
        adopted = match.adopted if match is not None else None
        found = []
        for partie_id in self.partie_files():
            if owned and (partie_id.startswith(owned) or partie_id == adopted):
                continue
            partie = self.closed_partie(partie_id)
            if partie is not None:
                found.append(partie)
        return found

    def set_aside(self, partie_ids, stamp: str) -> None:
        """Move these partie files to a folder of the archive of their own."""
        target = self._new_archive_dir(stamp)
        for partie_id in partie_ids:
            os.replace(self.partie_path(partie_id), os.path.join(target, partie_id + ".jsonl"))
        if self.fsync:
            sync_directory(target)
            sync_directory(self.dir)

    def take_back(self, partie: OpenPartie) -> None:
        """A partie with nothing entered: its header-only file goes."""
        partie.journal.close()
        os.remove(partie.journal.path)
        if self.fsync:
            sync_directory(self.dir)

    def close_partie(self, partie: OpenPartie) -> None:
        log.info("partie %s closed; its journal holds %d bytes (SD wear)", partie.board.header["id"], partie.size)
        partie.journal.close()

    def replay_closed(self, match: rules_night.Match) -> list[tuple[dict, dict]]:
        """(header, summary) of each closed partie from its file: for a night journal written
        before the closed events carried them (the night keeps them in memory otherwise)."""
        out = []
        for number in range(1, len(match.closed) + 1):
            with Journal.open(self.partie_path(match.partie_id(number)), fsync=self.fsync) as journal:
                board = Board(strip_meta(journal.lines[0]))
                for line in journal.lines[1:]:
                    board.push(strip_meta(line))
            out.append((board.header, board.summary()))
        return out

    # -- the archive -------------------------------------------------------------
    def archive(self, stamp: str, keep=()) -> None:
        """Move the night's files aside (``stamp``: the time, e.g. 20261129-231500) so the next
        match starts with an empty journal; ``keep``: partie ids still waiting for the referee
        (orphans not yet played on or set aside) stay."""
        self.journal.close()
        target = self._new_archive_dir(stamp)
        kept = {partie_id + ".jsonl" for partie_id in keep}
        for name in sorted(set(os.listdir(self.dir)) - kept):
            os.replace(os.path.join(self.dir, name), os.path.join(target, name))
        if self.fsync:
            sync_directory(target)
            sync_directory(self.dir)
        self.journal = Journal.open(os.path.join(self.dir, "night.jsonl"), fsync=self.fsync)

    def _new_archive_dir(self, stamp: str) -> str:
        """A folder no archive used yet: ``<stamp>-1``, ``<stamp>-2``, … (two matches closed in
        the same second, or a clock set back, never mix their files)."""
        root = os.path.join(self.data_dir, "archive")
        os.makedirs(root, exist_ok=True)
        n = 1
        while True:
            target = os.path.join(root, f"{stamp}-{n}")
            try:
                os.mkdir(target)
                return target
            except FileExistsError:
                n += 1
