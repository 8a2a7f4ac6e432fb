"""The journal: durable append, torn-tail recovery, bytes counted (firmware_host/journal.py)."""
import logging
import os

import pytest

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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.parametrize("room", [0, 4096], ids=["exact", "preallocated"])
def test_a_failed_write_is_taken_back_and_raised(tmp_path, monkeypatch, room):
    """A full SD card: the line is not durable, so it must not be in the file either."""
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path, preallocate=room)
    journal.append(HEADER)
    size = journal.size

    def failing_sync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fdatasync", failing_sync)
    with pytest.raises(OSError) as raised:
        journal.append(COMMANDS[0])
    assert raised.value.errno == 28
    monkeypatch.undo()
    assert len(Journal.open(path, preallocate=room).lines) == 1     # the file, still open: no trace of it
    journal.close()
    assert os.path.getsize(path) == size and len(Journal.open(path).lines) == 1


def test_a_stroke_into_preallocated_room_is_one_write_and_one_fdatasync(tmp_path, monkeypatch):
    """The file's size stays put while the room lasts, so fdatasync has no metadata to write;
    fsync (inode and all) is never called for a stroke."""
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path, preallocate=4096)
    journal.append(HEADER)                      # creates the file and its room
    length = os.path.getsize(path)
    calls = []
    monkeypatch.setattr(os, "pwrite", lambda fd, data, at, real=os.pwrite: calls.append("write") or real(fd, data, at))
    monkeypatch.setattr(os, "fdatasync", lambda fd, real=os.fdatasync: calls.append("fdatasync") or real(fd))
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync"))
    for obj in COMMANDS:
        journal.append(obj)
    assert calls == ["write", "fdatasync"] * len(COMMANDS)
    assert os.path.getsize(path) == length > journal.size
    monkeypatch.undo()
    journal.close()


def test_closed_preallocated_journal_is_exactly_its_lines(tmp_path):
    path = tmp_path / "p.jsonl"
    with Journal.open(path, preallocate=4096) as journal:
        for obj in [HEADER] + COMMANDS:
            journal.append(obj)
        assert path.read_bytes().endswith(b"\0")
        assert journal.text() == "".join(encode_line(o, checksum=True) for o in [HEADER] + COMMANDS)
    assert path.read_bytes() == journal.text().encode()


def test_room_runs_out_and_grows(tmp_path):
    path = tmp_path / "p.jsonl"
    with Journal.open(path, preallocate=128) as journal:
        for i in range(40):
            journal.append({"cmd": "score", "value": i})
        assert os.path.getsize(path) >= journal.size
    assert len(Journal.open(path).lines) == 40


@pytest.mark.parametrize("room", [0, 4096], ids=["not-preallocating", "preallocating"])
def test_zero_room_reads_as_the_end_never_as_damage(tmp_path, caplog, room):
    """A power cut with the room still there (or a filesystem's NUL fill): no cut, no warning."""
    path = tmp_path / "p.jsonl"
    full = write_journal(path, [HEADER, COMMANDS[0]])
    path.write_bytes(full + bytes(4096))
    with caplog.at_level(logging.WARNING, logger="pocitadlo.journal"):
        journal = Journal.open(path, preallocate=room)
    assert len(journal.lines) == 2 and journal.cut_bytes == 0 and caplog.text == ""
    assert not (tmp_path / "p.jsonl.cut").exists()
    assert path.read_bytes() == (full + bytes(4096) if room else full)
    journal.append({"cmd": "miss"})
    journal.close()
    assert len(Journal.open(path).lines) == 3


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_a_torn_line_in_the_room_is_cut_and_earlier_lines_survive(tmp_path_factory, cut):
    """Power cut mid-stroke on a preallocated journal: what reached the disk is a prefix of the lines,
    then zeros up to the room's end."""
    path = tmp_path_factory.mktemp("j") / "p.jsonl"
    full = write_journal(path, [HEADER] + COMMANDS)
    cut %= len(full) + 1
    path.write_bytes(full[:cut] + bytes(4096))
    whole_lines = full[:cut].count(b"\n")
    journal = Journal.open(path, preallocate=4096)
    assert len(journal.lines) == whole_lines
    assert journal.cut_bytes == cut - len(b"".join(full[:cut].splitlines(keepends=True)[:whole_lines]))
    journal.append({"cmd": "miss"})
    journal.close()
    assert len(Journal.open(path).lines) == whole_lines + 1


def _appender(path, commands_in: int, acks_out: int) -> None:
    """A child: append each line it is sent to a preallocated journal, say "ack" once it is durable."""
    journal = Journal.open(path, preallocate=512)         # small: the room grows under the kills too
    with os.fdopen(commands_in, encoding="utf-8") as lines, os.fdopen(acks_out, "w", buffering=1) as acks:
        acks.write(f"{len(journal.lines)}\n")
        for line in lines:
            journal.append({"cmd": "score", "value": int(line)})
            acks.write("ack\n")


@pytest.mark.slow
def test_killed_at_random_moments_a_preallocated_journal_loses_no_acknowledged_line(tmp_path):
    """SIGKILL mid-write, between the sync and the ack, or while idle, 60 times on one file:
    every acknowledged line is there on the next open, in order, and nothing else but perhaps
    the one being written."""
    import random
    import signal

    path = tmp_path / "p.jsonl"
    rng = random.Random(14)
    acked = 0
    for _ in range(60):
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                os.close(down_w), os.close(up_r)
                _appender(path, down_r, up_w)
                status = 0
            finally:
                os._exit(status)
        os.close(down_r), os.close(up_w)
        with os.fdopen(down_w, "w", buffering=1) as feed, os.fdopen(up_r, encoding="utf-8") as acks:
            resumed = int(acks.readline())
            assert acked <= resumed <= acked + 1           # all acknowledged, perhaps the one in flight
            acked = resumed
            for _ in range(rng.randint(0, 4)):
                feed.write(f"{acked}\n")
                assert acks.readline() == "ack\n"
                acked += 1
            feed.write(f"{acked}\n")                        # one more, killed at a random moment
            for _ in range(rng.randint(0, 3000)):
                pass
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            acked += acks.read().count("ack")
    lines = Journal.open(path).lines
    assert acked <= len(lines) <= acked + 1
    assert [line["value"] for line in lines] == list(range(len(lines)))
