"""The journal: durable append, torn-tail recovery, bytes counted (firmware_host/journal.py)."""
import logging
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.journal import Journal, read_lines
from rules.record import encode_line, replay_file, strip_meta

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
    assert [strip_meta(line) for line in journal.lines] == [HEADER] + COMMANDS
    assert all("crc" in line for line in journal.lines)
    assert [line["n"] for line in journal.lines] == list(range(1, 7))      # sequence numbers
    assert journal.cut_bytes == 0 and not journal.damage.copies


def test_each_line_is_written_twice_and_a_record_replay_reads_it_once(tmp_path):
    path = tmp_path / "p.jsonl"
    data = write_journal(path, [HEADER] + COMMANDS)
    physical = data.decode("utf-8").splitlines()
    assert len(physical) == 12 and physical[0::2] == physical[1::2]
    assert replay_file(path).board.history == COMMANDS


def test_bytes_written_counts_every_appended_byte(tmp_path):
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path)
    total = sum(journal.append(obj) for obj in [HEADER] + COMMANDS)
    journal.close()
    assert journal.bytes_written == total == os.path.getsize(path)
    assert total == sum(2 * len(encode_line({**o, "n": n}, checksum=True).encode())
                        for n, o in enumerate([HEADER] + COMMANDS, start=1))


def test_lines_appended_read_back_as_the_file_holds_them_between_appends(tmp_path):
    """append() leaves decoding its line to whoever reads ``lines`` (it is on the way from a key to
    its frame): read between appends or after, the lines and numbers are those of the file."""
    path = tmp_path / "p.jsonl"
    journal = Journal.open(path)
    journal.append(HEADER)
    assert [line["n"] for line in journal.lines] == [1]
    for command in COMMANDS:
        journal.append(command)
    assert journal.next_number == 7
    assert journal.lines == Journal.open(path).lines and len(journal.lines) == 6
    journal.close()


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
    whole_lines = (full[:cut].count(b"\n") + 1) // 2        # a line is whole once one copy is
    journal = Journal.open(path)
    assert len(journal.lines) == whole_lines
    # the file now ends at a line boundary, and appending goes on cleanly
    journal.append({"cmd": "miss"})
    journal.close()
    assert len(Journal.open(path).lines) == whole_lines + 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(position=st.integers(min_value=0, max_value=10_000), byte=st.integers(min_value=0, max_value=255))
def test_a_damaged_byte_anywhere_loses_no_line(tmp_path_factory, position, byte):
    """Issue 12: one damaged byte (an SD card fault) spoils one copy, or two adjacent copies of two
    lines: every line is still read, none is in doubt, and appending goes on."""
    path = tmp_path_factory.mktemp("j") / "p.jsonl"
    full = bytearray(write_journal(path, [HEADER] + COMMANDS))
    position %= len(full)
    if full[position] == byte:
        return
    full[position] = byte
    path.write_bytes(bytes(full))
    journal = Journal.open(path)
    assert [strip_meta(line) for line in journal.lines] == [HEADER] + COMMANDS
    assert journal.damage.doubts == [] and journal.damage.duplicates == []
    journal.append({"cmd": "miss"})
    journal.close()
    assert [strip_meta(line) for line in Journal.open(path).lines] == [HEADER] + COMMANDS + [{"cmd": "miss"}]


def test_a_line_lost_in_both_copies_is_in_doubt_and_the_lines_after_it_are_kept(tmp_path, caplog):
    path = tmp_path / "p.jsonl"
    physical = write_journal(path, [HEADER] + COMMANDS).splitlines(keepends=True)
    physical[4] = physical[5] = b"#" + physical[4][1:]          # line 3, both copies
    path.write_bytes(b"".join(physical))
    with caplog.at_level(logging.ERROR, logger="pocitadlo.journal"):
        journal = Journal.open(path)
    assert journal.damage.doubts == [3] and "line(s) 3 unreadable in both copies" in caplog.text
    assert [line["n"] for line in journal.lines] == [1, 2, 4, 5, 6]
    assert journal.append({"cmd": "miss"}) and journal.lines[-1]["n"] == 7


def test_a_duplicated_line_is_never_read_as_one_more(tmp_path):
    path = tmp_path / "p.jsonl"
    physical = write_journal(path, [HEADER] + COMMANDS).splitlines(keepends=True)
    path.write_bytes(b"".join(physical[:8] + physical[2:4] + physical[8:]))   # line 2 again after line 4
    journal = Journal.open(path)
    assert [line["n"] for line in journal.lines] == [1, 2, 3, 4, 5, 6] and journal.damage.duplicates == [2]


def test_an_old_journal_without_sequence_numbers_reads_as_before(tmp_path):
    path = tmp_path / "p.jsonl"
    old = [encode_line(o, checksum=True).encode() for o in [HEADER] + COMMANDS]
    path.write_bytes(b"".join(old[:3]) + b"#" + old[3][1:] + b"".join(old[4:]))
    journal = Journal.open(path)
    assert [strip_meta(line) for line in journal.lines] == [HEADER] + COMMANDS[:2]    # cut at the damage
    journal.append({"cmd": "miss"})
    assert journal.lines[-1]["n"] == 4


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
    read = read_lines(data)
    assert len(read.lines) == 1 and read.good == len(encode_line(HEADER, checksum=True).encode())


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
        assert journal.text() == "".join(2 * encode_line({**o, "n": n}, checksum=True)
                                         for n, o in enumerate([HEADER] + COMMANDS, start=1))
    assert path.read_bytes() == journal.text().encode()


def test_room_runs_out_and_grows(tmp_path):
    path = tmp_path / "p.jsonl"
    with Journal.open(path, preallocate=128) as journal:
        for i in range(40):
            journal.append({"cmd": "score", "value": i})
        assert os.path.getsize(path) >= journal.size
    assert len(Journal.open(path).lines) == 40


def test_top_up_grows_the_room_before_a_stroke_needs_it(tmp_path, monkeypatch):
    """Topped up after each frame, the room never runs out under a stroke: every stroke is one
    write and one fdatasync, no fsync of a grown file among them."""
    syncs = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: syncs.append(fd) or real_fsync(fd))
    with Journal.open(tmp_path / "p.jsonl", preallocate=1024) as journal:
        journal.append(HEADER)
        grown = 0
        for i in range(60):
            syncs.clear()
            journal.append({"cmd": "score", "value": i})
            assert syncs == []                                  # the stroke itself grew nothing
            grown += journal.top_up()
            assert journal._end - journal.size >= 1024 // 4
        assert grown >= 2 and not journal.top_up()
    assert [strip_meta(line) for line in Journal.open(tmp_path / "p.jsonl").lines][1:] == \
        [{"cmd": "score", "value": i} for i in range(60)]


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
    complete = full[:cut].count(b"\n")
    whole_lines = (complete + 1) // 2                      # a line is whole once one copy is
    journal = Journal.open(path, preallocate=4096)
    assert len(journal.lines) == whole_lines
    assert journal.cut_bytes == cut - len(b"".join(full[:cut].splitlines(keepends=True)[:complete]))
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
