"""The journal: durable append, torn-tail recovery, bytes counted (firmware_host/journal.py)."""
import logging
import os

from hypothesis import given, settings, strategies as st

from firmware_host.journal import Journal, read_lines
from rules.record import encode_line

HEADER = {"game": "carom", "a": "Novák", "b": "Dvořák", "points_limit": 200, "innings_limit": 15}
COMMANDS = [{"cmd": "score", "value": 1}, {"cmd": "score", "value": 10}, {"cmd": "miss"},
            {"cmd": "foul"}, {"cmd": "undo"}]


def write_journal(path, objs):
    with Journal.open(path) as journal:
        for obj in objs:
            journal.append(obj)
    return path.read_bytes()


def test_lines_come_back_in_order_with_checksums(tmp_path):
    path = tmp_path / "p.jsonl"
    write_journal(path, [HEADER] + COMMANDS)
    journal = Journal.open(path)
    assert [{k: v for k, v in line.items() if k != "crc"} for line in journal.lines] == [HEADER] + COMMANDS
    assert all("crc" in line for line in journal.lines)
    assert journal.cut_bytes == 0


def test_bytes_written_counts_every_appended_byte(tmp_path):
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path)
    total = sum(journal.append(obj) for obj in [HEADER] + COMMANDS)
    journal.close()
    assert journal.bytes_written == total == os.path.getsize(path)
    assert total == sum(len(encode_line(o, checksum=True).encode()) for o in [HEADER] + COMMANDS)


def test_reopened_journal_appends_after_the_old_lines(tmp_path):
    path = tmp_path / "p.jsonl"
    write_journal(path, [HEADER])
    write_journal(path, COMMANDS[:2])
    assert len(Journal.open(path).lines) == 3


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_a_torn_last_line_is_cut_and_earlier_lines_survive(tmp_path_factory, cut):
    """Power cut in the middle of a write: any prefix of the file recovers to whole lines."""
    path = tmp_path_factory.mktemp("j") / "p.jsonl"
    full = write_journal(path, [HEADER] + COMMANDS)
    cut %= len(full) + 1
    path.write_bytes(full[:cut])
    whole_lines = full[:cut].count(b"\n")
    journal = Journal.open(path)
    assert len(journal.lines) == whole_lines
    # the file now ends at a line boundary, and appending goes on cleanly
    journal.append({"cmd": "miss"})
    journal.close()
    assert len(Journal.open(path).lines) == whole_lines + 1


@settings(max_examples=150, deadline=None)
@given(position=st.integers(min_value=0, max_value=10_000), byte=st.integers(min_value=0, max_value=255))
def test_a_corrupted_byte_cuts_from_its_line_and_keeps_the_lines_before(tmp_path_factory, position, byte):
    path = tmp_path_factory.mktemp("j") / "p.jsonl"
    full = bytearray(write_journal(path, [HEADER] + COMMANDS))
    position %= len(full)
    if full[position] == byte:
        return
    full[position] = byte
    path.write_bytes(bytes(full))
    line_of_damage = bytes(full[:position]).count(b"\n")
    journal = Journal.open(path)
    assert len(journal.lines) == line_of_damage
    assert path.read_bytes() == bytes(full[:journal.size])


def test_cut_tail_is_logged_and_kept_beside_the_journal(tmp_path, caplog):
    path = tmp_path / "p.jsonl"
    full = write_journal(path, [HEADER, COMMANDS[0]])
    path.write_bytes(full + b'{"cmd":"sco')
    with caplog.at_level(logging.WARNING, logger="pocitadlo.journal"):
        journal = Journal.open(path)
    assert len(journal.lines) == 2
    assert path.read_bytes() == full
    assert (tmp_path / "p.jsonl.cut").read_bytes() == b'{"cmd":"sco'
    assert "cut a torn or corrupt tail of 11 bytes after line 2" in caplog.text


def test_nul_filled_tail_after_a_power_cut_is_cut(tmp_path):
    path = tmp_path / "p.jsonl"
    full = write_journal(path, [HEADER, COMMANDS[0]])
    path.write_bytes(full + b"\0" * 512)
    assert len(Journal.open(path).lines) == 2
    assert path.read_bytes() == full


def test_a_line_without_checksum_is_not_trusted():
    data = encode_line(HEADER, checksum=True).encode() + b'{"cmd":"miss"}\n'
    lines, good = read_lines(data)
    assert len(lines) == 1 and good == len(encode_line(HEADER, checksum=True).encode())


def test_missing_file_opens_empty_and_is_created_on_first_append(tmp_path):
    path = tmp_path / "new.jsonl"
    journal = Journal.open(path)
    assert journal.lines == [] and not path.exists()
    journal.append(HEADER)
    journal.close()
    assert path.exists()


def test_a_failed_write_is_taken_back_and_raised(tmp_path, monkeypatch):
    """A full SD card: the line is not durable, so it must not be in the file either."""
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path)
    journal.append(HEADER)
    size = journal.size

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    try:
        journal.append(COMMANDS[0])
    except OSError as exc:
        assert exc.errno == 28
    else:
        raise AssertionError("the failed append did not raise")
    monkeypatch.undo()
    journal.close()
    assert os.path.getsize(path) == size and len(Journal.open(path).lines) == 1
