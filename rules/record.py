"""The partie record: JSON Lines, one format for the journal, replay, sync and the server.

Line 1 is the header (``{"game": "carom", "a": ..., "b": ...}``), every further line one
referee command (``{"cmd": "score", "value": 10}``). Two optional keys may stand on any line:
``"at"`` (when it was entered, ISO 8601; ignored by the rule cores) and ``"crc"`` (CRC-32 of the
line's canonical JSON without the ``crc`` key, 8 hex digits) which the reader verifies.
See docs/record-format.md.
"""
import json
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from rules.board import Board
from rules.core import JSONObject
from rules.errors import RecordError, RuleError

FORMAT_VERSION = 1
META_KEYS = ("at", "crc", "n")     # time, checksum, sequence number: not part of what a line says
MAX_RECORD = 16 << 20              # bytes of a record file at most (a long partie's is some 20 KiB)


def compact_encoder(*, ensure_ascii: bool) -> Callable[[object], str]:
    """What ``json.dumps(obj, ensure_ascii=..., separators=(",", ":"))`` writes (of JSON's own
    values), without building an encoder per call (a replay checks every line's checksum with it):
    the json module's own C encoder, kept; its pure-Python encoder where the C one is missing."""
    options = json.JSONEncoder(ensure_ascii=ensure_ascii, separators=(",", ":"))
    try:
        from _json import make_encoder  # json.encoder's c_make_encoder
    except ImportError:
        return options.encode
    strings = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    chunks = make_encoder(None, options.default, strings, None,
                                         options.key_separator, options.item_separator, options.sort_keys,
                                         options.skipkeys, options.allow_nan)
    return lambda obj: "".join(chunks(obj, 0))


canonical = compact_encoder(ensure_ascii=False)     # the one text form of a record line (no newline)
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
# a lone surrogate in a line spelled as a JSON escape ("\ud800"); one already in the text (a record
# read from a body whose own JSON spelled it) is what UTF-8 cannot encode (_may_spell_surrogate)
_SURROGATE_ESCAPE = re.compile("\\\\u[dD][89a-fA-F]")
JSON_SPACE = " \t\n\r"     # what json.loads skips around a value


def crc_of(obj: JSONObject) -> str:
    """The checksum a line's ``crc`` must hold: of the line's canonical JSON without ``crc``."""
    return _checksum(_without_crc(obj))


def _checksum(body: JSONObject) -> str:
    """The checksum of a line's object already without ``crc``."""
    return _text_checksum(canonical(body))


def _text_checksum(text: str) -> str:
    return "%08x" % zlib.crc32(text.encode("utf-8"))


def _without_crc(obj: JSONObject) -> JSONObject:
    """A copy without ``crc``, the other keys in their order (popped from a copy: cheaper than a
    comprehension, for every line of a replay)."""
    body = dict(obj)
    body.pop("crc", None)
    return body


def encode_line(obj: JSONObject, *, checksum: bool = False) -> str:
    """A record line, newline included; with ``checksum`` a ``crc`` key is appended — to the text
    the checksum was taken of, which is encoded once (a journal line on the way to its frame)."""
    text = canonical(_without_crc(obj))
    if not checksum:
        return text + "\n"
    item = f'"crc":"{_text_checksum(text)}"'
    return f"{text[:-1]}{',' if len(text) > 2 else ''}{item}}}\n"


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` for text from outside. JSON nested too deeply for the parser makes it raise
    RecursionError, which is not a ValueError and would pass for an internal error: here it is
    malformed input like any other."""
    try:
        if type(text) is str and text.startswith("{"):
            try:        # a record line as written: what json.loads gives, without its layers per call
                obj, end = _SCAN(text, 0)
                if end == len(text) or not text[end:].strip(JSON_SPACE):    # a journal's line ends "\n"
                    return obj
            except StopIteration:
                pass    # json.loads below says what is wrong
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def decode_line(text: str, line: int) -> JSONObject:
    """Parse one record line; raise RecordError naming the line when it cannot be read."""
    obj = _read_line(text, line)
    _without_checked_crc(obj, line)
    return obj


def _read_line(text: str, line: int) -> JSONObject:
    """``decode_line`` but for the checksum: the line's object, its text valid Unicode."""
    try:
        obj = parse_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(line, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:
        raise RecordError(line, f"not valid JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise RecordError(line, "a record line must be a JSON object")
    # a lone surrogate is spelled "\u..." or is a character beyond ASCII: a line of neither (a
    # command's, nearly every line) needs no search
    if (not text.isascii() or "\\u" in text) and _may_spell_surrogate(text) and not _unicode(obj):
        raise RecordError(line, "holds text that is not valid Unicode (a lone surrogate)")
    return obj


def _without_checked_crc(obj: JSONObject, line: int) -> JSONObject:
    """A copy of a line's object without ``crc`` (``_without_crc``), once its ``crc``, if it has
    one, holds the line's checksum (``crc_of``); RecordError naming the line when not."""
    body = dict(obj)
    crc = body.pop("crc", _NO_CRC)
    if crc is not _NO_CRC and crc != _checksum(body):
        raise RecordError(line, "checksum mismatch (the line was altered or torn)")
    return body


_NO_CRC = object()


def _may_spell_surrogate(text: str) -> bool:
    """The line's text spells a lone surrogate as an escape or holds one (text decoded from UTF-8
    bytes holds none). Encoding the text finds a raw one: a regular expression searching a header
    of names beyond ASCII for it costs a replay as much as the checksums of two lines."""
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _unicode(obj: JSONObject) -> bool:
    try:
        canonical(obj).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def strip_meta(obj: JSONObject) -> JSONObject:
    """What a line says, without its META_KEYS (a copy; the others keep their order)."""
    return _dropped_meta(dict(obj))


def _dropped_meta(command: JSONObject) -> JSONObject:
    """``command`` itself, its META_KEYS popped."""
    for key in META_KEYS:
        command.pop(key, None)
    return command


def check_header(header: JSONObject, line: int = 1) -> JSONObject:
    version = header.get("format", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise RecordError(line, f"record format {version!r} is not one this pocitadlo reads ({FORMAT_VERSION})")
    if "cmd" in header:
        raise RecordError(line, "the first line must be a header with \"game\", not a command")
    return strip_meta(header)


@dataclass
class Replay:
    """A record replayed: the board it built and the commands it refused."""
    board: Board
    rejected: list[JSONObject] = field(default_factory=list)

    def summary(self) -> JSONObject:
        out = self.board.summary()
        out["rejected"] = list(self.rejected)
        return out


def replay_lines(lines: Iterable[str]) -> Replay:
    """Fold a record (an iterable of text lines) into a Board.

    A refused command is listed in ``rejected`` and the replay carries on; a line that is not a
    readable record line, or a bad header, raises RecordError.
    """
    board: Board | None = None
    rejected: list[JSONObject] = []
    previous: JSONObject | None = None
    for number, text in enumerate(lines, start=1):
        if not text or text.isspace():      # a blank line (what ``not text.strip()`` says, no copy made)
            continue
        obj = _read_line(text, number)      # decode_line, its copy without "crc" kept for the command
        command = _without_checked_crc(obj, number)
        if _mirrors(obj, previous, number):
            continue
        previous = obj
        if board is None:
            try:
                board = Board(check_header(obj, number))
            except RecordError:
                raise
            except RuleError as exc:
                raise RecordError(number, f"bad header: {exc}") from None
            continue
        try:
            board.push_own(_dropped_meta(command))     # strip_meta(obj), on the copy already made
        except RuleError as exc:
            rejected.append({"line": number, "error": str(exc)})
    if board is None:
        raise RecordError(1, "empty record: no header line")
    return Replay(board, rejected)


def _mirrors(obj: JSONObject, previous: JSONObject | None, number: int) -> bool:
    """A device journal writes each line twice with its sequence number ``n``: the second copy is
    skipped; a line that repeats the number with other content is an error, never a second stroke."""
    if previous is None or "n" not in obj or obj.get("n") != previous.get("n"):
        return False
    if obj != previous:
        raise RecordError(number, f"line number {obj['n']} appears twice with different content")
    return True


def decode_lines(raw_lines: Iterable[bytes]) -> Iterator[str]:
    """Byte lines → text lines; a line that is not UTF-8 raises RecordError naming it."""
    for number, raw in enumerate(raw_lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(number, f"not UTF-8 text ({exc.reason})") from None


def read_bounded(fh: BinaryIO) -> bytes:
    """A record's bytes from a binary file, at most MAX_RECORD: a bigger one (a symlink to
    /dev/zero, a disk image) is no partie record and is refused before it fills the memory."""
    data = fh.read(MAX_RECORD + 1)
    if len(data) > MAX_RECORD:
        raise RuleError(f"larger than {MAX_RECORD >> 20} MiB: not a partie record", "bad_record")
    return data


def replay_data(data: bytes) -> Replay:
    """The replay of a record's bytes; zeros after the last line are a journal's unused room (the
    device keeps some ahead of a partie in play), not a line."""
    return replay_lines(decode_lines(data.rstrip(b"\0").splitlines(keepends=True)))


def replay_file(path: str | os.PathLike[str]) -> Replay:
    """The replay of a record file (at most MAX_RECORD bytes)."""
    with open(path, "rb") as fh:
        return replay_data(read_bounded(fh))
