"""The record format and the move-stack board, independent of any one game (docs/record-format.md)."""
import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RecordError
from rules.record import (
    META_KEYS,
    canonical,
    compact_encoder,
    crc_of,
    decode_line,
    encode_line,
    parse_json,
    replay_lines,
    strip_meta,
)

LINE_VALUES = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
LINES = st.dictionaries(st.sampled_from(["cmd", "value", "at", "crc", "n", "by", "é"]) | st.text(max_size=4),
                        LINE_VALUES, max_size=6)


def test_canonical_keeps_diacritics_and_order():
    assert canonical({"game": "carom", "a": "Novák"}) == '{"game":"carom","a":"Novák"}'


JSON_VALUES = st.recursive(LINE_VALUES | st.floats(allow_nan=False),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                        max_size=3), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_a_kept_compact_encoder_writes_what_json_dumps_writes(value, ensure_ascii):
    """canonical, and the receiver's stored signature fields, are json.dumps' compact text."""
    assert compact_encoder(ensure_ascii=ensure_ascii)(value) == \
        json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":"))


def test_checksum_round_trips():
    line = encode_line({"cmd": "score", "value": 10}, checksum=True)
    assert line.endswith("\n")
    obj = decode_line(line, 5)
    assert obj["crc"] == crc_of({"cmd": "score", "value": 10})


@settings(max_examples=200, deadline=None)
@given(LINES)
def test_checksum_and_command_of_any_line_keep_the_key_order(obj):
    """The checksum is of the line's canonical JSON without "crc" (docs/record-format.md), "crc"
    standing anywhere; what a line says is it without "at", "crc" and "n", in its order. Neither
    changes the line."""
    line = list(obj.items())
    without = json.dumps({k: v for k, v in obj.items() if k != "crc"}, ensure_ascii=False, separators=(",", ":"))
    assert crc_of(obj) == format(zlib.crc32(without.encode("utf-8")), "08x")
    assert list(strip_meta(obj).items()) == [(k, v) for k, v in obj.items() if k not in META_KEYS]
    assert list(obj.items()) == line


@settings(max_examples=200, deadline=None)
@given(LINES)
def test_a_checked_line_is_its_object_without_crc_and_the_crc_last(obj):
    """encode_line appends "crc" to the text it took the checksum of: the line is the canonical
    JSON of the object without "crc", with "crc" added as the last key (the empty object too)."""
    body = {k: v for k, v in obj.items() if k != "crc"}
    assert encode_line(obj, checksum=True) == canonical({**body, "crc": crc_of(body)}) + "\n"
    assert encode_line(obj) == canonical(body) + "\n"


def loaded(parse, text):
    try:
        return parse(text)
    except ValueError as exc:
        return type(exc)


@settings(max_examples=300, deadline=None)
@given(LINES, st.text(" \t\n\r\x0c\x0b\xa0\u2028}x,", max_size=3), st.text(" \t\n\r\x0c", max_size=2))
def test_a_line_reads_as_json_loads_reads_it(obj, after, before):
    """Whitespace around a line (a journal's line ends in "\\n"), and only JSON's, is what
    json.loads allows; anything else after the object is not valid JSON."""
    text = before + encode_line(obj).rstrip("\n") + after
    assert loaded(parse_json, text) == loaded(json.loads, text)


def test_altered_line_fails_its_checksum():
    line = encode_line({"cmd": "score", "value": 1}, checksum=True).replace('"value":1', '"value":2')
    with pytest.raises(RecordError, match="line 7: checksum mismatch"):
        decode_line(line, 7)


@pytest.mark.parametrize("text, fault", [
    ('{"cmd": "miss"', "not valid JSON"),
    ('[1, 2]', "a record line must be a JSON object"),
])
def test_unreadable_lines_name_the_line(text, fault):
    with pytest.raises(RecordError, match=f"line 3: {fault}"):
        decode_line(text, 3)


def test_unknown_game_is_a_header_error():
    with pytest.raises(RecordError, match="line 1: bad header: unknown game 'snooker'"):
        replay_lines([json.dumps({"game": "snooker", "a": "X", "b": "Y"})])


def test_newer_format_is_refused():
    with pytest.raises(RecordError, match="format 2"):
        replay_lines([json.dumps({"game": "carom", "a": "X", "b": "Y", "format": 2})])


def test_empty_record_is_refused():
    with pytest.raises(RecordError, match="empty record"):
        replay_lines(["", "  "])


def _folded(lines: list[str]):
    """The replay as the format defines it, line by line with the public readers: decode_line,
    a mirrored line skipped, the header, then Board.push(strip_meta(line)) — what replay_lines
    does on copies it owns (Board.push_own): the reference it must equal."""
    from rules.board import Board
    from rules.errors import RuleError
    from rules.record import check_header

    board, rejected, previous = None, [], None
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        obj = decode_line(text, number)
        if previous is not None and "n" in obj and obj.get("n") == previous.get("n"):
            if obj != previous:
                raise RecordError(number, f"line number {obj['n']} appears twice with different content")
            continue
        previous = obj
        if board is None:
            board = Board(check_header(obj, number))
            continue
        try:
            board.push(strip_meta(obj))
        except RuleError as exc:
            rejected.append({"line": number, "error": str(exc)})
    return board, rejected


COMMANDS = st.sampled_from([{"cmd": "score", "value": 1}, {"cmd": "score", "value": 10}, {"cmd": "miss"},
                            {"cmd": "foul"}, {"cmd": "frozen"}, {"cmd": "undo"}, {"cmd": "redo"},
                            {"cmd": "forfeit", "by": "b"}, {"cmd": "score", "value": 3}, {"cmd": "nope"},
                            {"cmd": "score"}, {"value": 1}, {"cmd": "miss", "at": "t", "n": 1}])
BLANKS = st.sampled_from(["", " ", "\t", "\x0b", "\u2028", "\xa0"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(COMMANDS.map(lambda c: encode_line(c, checksum=True).rstrip("\n")),
                          COMMANDS.map(lambda c: encode_line(c).rstrip("\n")), BLANKS), max_size=30),
       st.integers(0, 29))
def test_replay_lines_folds_as_the_line_by_line_reference(commands, mirrored):
    """Accepted, refused and rejected alike: the same board (state, history, stack) and the same
    rejections, or the same RecordError."""
    header = canonical({"game": "carom", "a": "A", "b": "B", "points_limit": 12, "innings_limit": 3})
    lines = [header] + commands
    if commands:
        lines.insert(1 + mirrored % len(commands), commands[mirrored % len(commands)])   # a mirror, maybe
    try:
        expected = _folded(lines)
    except RecordError as exc:
        with pytest.raises(RecordError) as raised:
            replay_lines(lines)
        assert str(raised.value) == str(exc)
        return
    replay = replay_lines(lines)
    board, rejected = expected
    assert (replay.board.state, replay.board.history, replay.board.move_stack) == \
        (board.state, board.history, board.move_stack)
    assert replay.rejected == rejected



ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=4)     # lone surrogates included


def _holds_surrogate(obj: dict) -> bool:
    texts = [*obj, *(value for value in obj.values() if isinstance(value, str))]
    return any(0xD800 <= ord(c) <= 0xDFFF for text in texts for c in text)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(ANY_TEXT, ANY_TEXT | st.integers(), max_size=3), st.booleans(), ANY_TEXT)
def test_a_line_is_refused_for_a_lone_surrogate_it_holds_raw_or_escaped(obj, escaped, overwritten):
    """Raw (a header's names beyond ASCII: found by encoding the text, not searched for) or
    escaped alike, a line is refused exactly when its object holds a lone surrogate, not for one
    in a value a repeated key overwrote."""
    obj.pop("x", None)
    obj.pop("crc", None)        # a crc is the checksum, checked apart (test_altered_line_fails_its_checksum)
    dumped = json.dumps({"x": 0, **obj}, ensure_ascii=escaped, separators=(",", ":"))
    text = f'{{"x":{json.dumps(overwritten, ensure_ascii=escaped)},{dumped[1:]}'
    try:
        decoded = decode_line(text, 1)
    except RecordError as exc:
        assert "holds text that is not valid Unicode (a lone surrogate)" in str(exc)
        assert _holds_surrogate(obj)
        return
    assert decoded == {"x": 0, **obj} and not _holds_surrogate(obj)
