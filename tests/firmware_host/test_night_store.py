"""The match night's files (firmware_host/night_store.py) and what the night sends from memory."""
import datetime as dt
import json
import os

import pytest

from clock import ManualClock
from delivery.outbox import Outbox
from firmware_host.match_night import TAKE_BACK_SECONDS, Night
from firmware_host.night_store import NightStore
from firmware_host.settings import load

CONFIG = ('[device]\nvenue = "U Lva"\ntable = "2"\nname = "lev-2"\ndata_dir = "data"\n'
          '[rules.carom]\npoints_limit = 20\ninnings_limit = 2\n')


@pytest.fixture
def night_of(tmp_path):
    (tmp_path / "config.toml").write_text(CONFIG, encoding="utf-8")

    def make():
        outbox = Outbox(tmp_path / "outbox")
        return Night(load(tmp_path / "config.toml"), outbox=outbox,
                     clock=ManualClock(dt.datetime(2026, 11, 29, 19, 30))), outbox
    return make


def single_partie_finished(night):
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")
    for cmd in ({"cmd": "score", "value": 10}, {"cmd": "score", "value": 10}, {"cmd": "miss"}):
        night.command(cmd)
    assert night.board.finished


def lines_of(path) -> str:
    """A partie file's record: one copy of each line (the journal writes two), without the zero
    room an open journal keeps ahead of them."""
    lines = open(path, "rb").read().rstrip(b"\0").decode("utf-8").splitlines(keepends=True)
    assert lines[0::2] == lines[1::2]
    return "".join(lines[0::2])


def test_the_record_text_at_hand_is_the_file(tmp_path):
    store = NightStore(tmp_path, fsync=False)
    partie = store.start_partie({"game": "carom", "a": "A", "b": "B", "id": "m-p1"}, "2026-11-29T19:30:00")
    partie.append({"cmd": "score", "value": 2})
    path = store.partie_path("m-p1")
    assert partie.text == lines_of(path)
    store.close_partie(partie)
    assert not open(path, "rb").read().endswith(b"\0")                  # closed: the room is cut off
    again = store.resume("m-p1")
    assert again.text == lines_of(path) and again.board.summary()["counter"]["series"] == 2


def test_a_closed_partie_is_sent_from_memory_not_read_back(night_of):
    """The record in the outbox is the text journalled, even if the file could not be read again."""
    night, outbox = night_of()
    single_partie_finished(night)
    path = night.partie_journal.path
    text = lines_of(path)
    os.remove(path)                                       # reading it back would fail now
    night.ui("confirm"), night.ui(1), night.ui("menu")    # close the partie: yes (the long press)
    night.clock.advance(TAKE_BACK_SECONDS)                # not taken back: final
    night.tick()
    [item] = outbox.pending()
    assert item.content["record"] == text


def test_archives_of_the_same_second_never_mix(tmp_path):
    store = NightStore(tmp_path, fsync=False)
    for n in range(3):
        store.journal.append({"ev": "end", "k": n})
        store.archive("20261129-231500")
    folders = sorted(os.listdir(tmp_path / "archive"))
    assert folders == ["20261129-231500-1", "20261129-231500-2", "20261129-231500-3"]
    firsts = [(tmp_path / "archive" / f / "night.jsonl").read_text().splitlines()[0] for f in folders]
    assert [json.loads(line)["k"] for line in firsts] == [0, 1, 2]


def test_an_unknown_night_event_is_skipped_with_a_warning(tmp_path, caplog):
    store = NightStore(tmp_path, fsync=False)
    store.journal.append({"ev": "tea_break"})
    assert NightStore(tmp_path, fsync=False).fold().match is None and "unknown event" in caplog.text
