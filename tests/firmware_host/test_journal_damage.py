"""Issue 12: the journal never drops good strokes in silence. One damaged byte anywhere loses no
line (each line is written twice, with its sequence number); a line lost in both copies is named
on the counter at start and the strokes after it are kept; a duplicated line is never replayed as
one more stroke (firmware_host/journal.py, docs/record-format.md)."""
import datetime as dt
import random

import pytest

from clock import ManualClock
from firmware_host.display_link import DisplayLink
from firmware_host.journal import Damage, Journal, read_lines
from firmware_host.match_night import Night
from firmware_host.night_screens import journal_notice
from firmware_host.service import Service
from firmware_host.settings import load
from input.messages import Texts
from rules.record import encode_line, strip_meta

HEADER = {"game": "carom", "a": "Novák", "b": "Dvořák", "points_limit": 200, "innings_limit": 15}
STROKES = [{"cmd": "score", "value": v} if v else {"cmd": "miss"} for v in (1, 2, 0, 10, 1, 0, 20, 0) * 3]


def journal_bytes(tmp_path, objs) -> bytes:
    path = tmp_path / "j.jsonl"
    with Journal.open(path, fsync=False) as journal:
        for obj in objs:
            journal.append(obj)
    return path.read_bytes()


@pytest.mark.slow
def test_every_damaged_byte_of_a_journal_loses_no_line(tmp_path):
    """Each position of a 25-line journal, changed to another byte and to a line break."""
    data = journal_bytes(tmp_path, [HEADER] + STROKES)
    expected = [HEADER] + STROKES
    for position in range(len(data)):
        for byte in {data[position] ^ 0xFF, ord("\n")} - {data[position]}:
            damaged = data[:position] + bytes([byte]) + data[position + 1:]
            read = read_lines(damaged)
            assert [strip_meta(line) for line in read.lines] == expected, position
            assert read.damage.doubts == [], position


def test_a_duplicated_line_at_any_place_is_detected_never_replayed(tmp_path):
    data = journal_bytes(tmp_path, [HEADER] + STROKES[:8])
    physical = data.splitlines(keepends=True)
    for source in range(0, len(physical), 2):
        for place in range(source + 2, len(physical) + 1):
            copied = physical[:place] + physical[source:source + 2] + physical[place:]
            read = read_lines(b"".join(copied))
            assert [strip_meta(line) for line in read.lines] == [HEADER] + STROKES[:8]
            mirror_right_after = place == source + 2
            assert read.damage.duplicates == ([] if mirror_right_after else [source // 2 + 1])


CONFIG = ('[device]\nvenue = "U Lva"\ndata_dir = "data"\n[journal]\nfsync = false\n'
          '[rules.carom]\npoints_limit = 10000\ninnings_limit = 1000\n')   # room for 300 strokes


@pytest.fixture
def partie_file(tmp_path):
    """A single partie of 300 strokes journalled by the night; the path of its file."""
    (tmp_path / "config.toml").write_text(CONFIG, encoding="utf-8")
    night = Night(load(tmp_path / "config.toml"), clock=ManualClock(dt.datetime(2026, 3, 4, 19, 30)))
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")
    strokes = [{"cmd": "score", "value": 1} if i % 3 else {"cmd": "miss"} for i in range(300)]
    for stroke in strokes:
        night.command(stroke)
    path = night.partie_journal.path
    night.partie_journal.close()
    return tmp_path, path, strokes


def reopened(tmp_path):
    night = Night(load(tmp_path / "config.toml"), clock=ManualClock(dt.datetime(2026, 3, 4, 21, 0)))
    return night, Service(night, DisplayLink(None)).screen()


@pytest.mark.slow
def test_a_damaged_byte_in_a_300_stroke_partie_loses_nothing_and_the_counter_says_so(partie_file):
    tmp_path, path, strokes = partie_file
    data = open(path, "rb").read()
    end = len(data.rstrip(b"\0"))
    for position in random.Random(12).sample(range(end), 40):
        with open(path, "wb") as fh:
            fh.write(data[:position] + bytes([data[position] ^ 0x5A]) + data[position + 1:])
        night, screen = reopened(tmp_path)
        assert night.board.history == strokes, position
        assert screen["message"]["text"] == "Záznam opraven z kopie", position
        night.partie_journal.close()


def test_a_stroke_lost_in_both_copies_is_named_and_the_strokes_after_it_are_kept(partie_file):
    tmp_path, path, strokes = partie_file
    lines = open(path, "rb").read().rstrip(b"\0").splitlines(keepends=True)
    stroke = 200                                       # line n = 201: physical lines 400 and 401
    lines[2 * stroke] = lines[2 * stroke + 1] = b"?" + lines[2 * stroke][1:]
    open(path, "wb").write(b"".join(lines))
    night, screen = reopened(tmp_path)
    assert screen["message"] == {"text": "Úder 200 nečitelný: zkontrolujte zápis", "level": "warn",
                                 "n": screen["message"]["n"]}
    assert night.board.history == strokes[:199] + strokes[200:]      # only that one stroke is missing


def said_at_start(damage: Damage):
    """What the counter says at start about a partie journal read back with ``damage``."""
    return journal_notice(Texts("cs"), Damage(), damage)


def damaged(data: bytes, positions, byte=None) -> bytes:
    """``data`` with each of ``positions`` flipped (XOR 0xFF), or replaced by ``byte``."""
    out = bytearray(data)
    for position in positions:
        out[position] = out[position] ^ 0xFF if byte is None else byte
    return bytes(out)


@pytest.mark.slow
@pytest.mark.parametrize("byte", [None, ord("\n")], ids=["flipped", "line-break"])
def test_a_damaged_byte_at_every_position_of_a_300_stroke_partie_loses_no_stroke_and_is_said(partie_file, byte):
    """Issue 12's sweep: every byte of the night's 300-stroke partie journal (48 kB), flipped and
    made a line break: every stroke is read, none is in doubt (the guarantee allows one), and the
    counter says at start that the journal was repaired ("Záznam opraven z kopie").

    The reader decides about each copy from the copies before it: a damaged byte spoils its own copy
    and at most splits it from, or joins it to, the next. So one read damages the same byte of every
    first copy (or every second copy) at once: each is a single damaged byte between good copies,
    and the sweep is 2 x (longest stroke line) reads, not 48,000. A header copy, longer than a
    stroke line, takes its bytes past that length in the same reads (its other copy stays good)."""
    tmp_path, path, strokes = partie_file
    data = open(path, "rb").read()
    starts, offset = [], 0
    for line in data.splitlines(keepends=True):
        starts.append((offset, len(line)))
        offset += len(line)
    width = max(length for _, length in starts[2:])          # the longest stroke line, newline included
    covered = set()
    for copy in (0, 1):
        for column in range(width):
            positions = [start + at for start, length in starts[copy::2]
                         for at in range(column, length, width)]
            covered.update(positions)
            read = read_lines(damaged(data, positions, byte))
            assert read.damage.doubts == [], (copy, column)
            assert [strip_meta(line) for line in read.lines[1:]] == strokes, (copy, column)
            assert said_at_start(read.damage) == ("Záznam opraven z kopie", "info"), (copy, column)
    assert covered == set(range(len(data)))


@pytest.mark.parametrize("byte", [None, ord("\n")], ids=["flipped", "line-break"])
def test_a_damaged_byte_in_the_last_copy_is_said_on_the_counter_too(partie_file, byte):
    """The last line's second copy ends the file: damaged, it is cut like a torn write, yet the
    counter says the journal was repaired from its first copy — one at a time, every byte of it."""
    tmp_path, path, strokes = partie_file
    data = open(path, "rb").read()
    last = len(data) - len(data.splitlines(keepends=True)[-1])
    for position in range(last, len(data)):
        if data[position] == byte:
            continue                                             # the line break itself: no damage
        read = read_lines(damaged(data, [position], byte))
        assert [strip_meta(line) for line in read.lines[1:]] == strokes, position
        assert said_at_start(read.damage) == ("Záznam opraven z kopie", "info"), position
    with open(path, "wb") as fh:
        fh.write(damaged(data, [last + 5], byte))
    night, screen = reopened(tmp_path)
    assert night.board.history == strokes and screen["message"]["text"] == "Záznam opraven z kopie"
    night.partie_journal.close()


def test_a_torn_write_after_the_last_line_is_not_said_to_be_damage(partie_file):
    """A power cut in the middle of a stroke's write leaves part of a new line: cut as before,
    nothing repaired, nothing to say (the stroke was never shown)."""
    tmp_path, path, strokes = partie_file
    data = open(path, "rb").read()
    line = encode_line({"cmd": "score", "value": 1, "at": "2026-03-04T19:30:00+00:00", "n": 302}, checksum=True)
    both = (line + line).encode("utf-8")
    for cut in range(1, len(both)):
        read = read_lines(data + both[:cut])
        assert read.damage == Damage() and len(read.lines) == (301 if cut < len(line) else 302), cut


@pytest.mark.slow
def test_a_duplicated_line_at_every_place_of_a_300_stroke_partie_is_detected(partie_file):
    """Issue 12's sweep: a copy of an earlier line written again at each place of the journal
    is recognised by its sequence number and never replayed as one more stroke."""
    tmp_path, path, strokes = partie_file
    physical = open(path, "rb").read().splitlines(keepends=True)
    for place in range(3, len(physical) + 1):
        source = place - 3                                       # not the copy right beside it
        copied = physical[:place] + [physical[source]] + physical[place:]
        read = read_lines(b"".join(copied))
        assert [strip_meta(line) for line in read.lines[1:]] == strokes, place
        assert read.damage.duplicates == [source // 2 + 1], place
