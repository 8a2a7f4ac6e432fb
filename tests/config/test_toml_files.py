"""The TOML files' parses kept for the next start (config/toml_files.py, issue 27): under systemd
the start reads the config's and the league file's tables out of $STATE_DIRECTORY when a file is
byte for byte the one parsed before, and parses it (and keeps that) otherwise."""
import datetime
import marshal
import sys
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli.commands import boot
from config import toml_files
from config.load import ConfigFileError, read_toml

CONFIG = '[device]\nvenue = "U Lva"\ntable = "3"\n[display]\ndriver = "max7219"\n'
LEAGUE = '[league]\nname = "Královédvorská liga"\n'


@pytest.fixture(autouse=True)
def new_process(monkeypatch):
    """Each test a process of its own: nothing read yet, nothing kept."""
    monkeypatch.setattr(toml_files, "_folder", None)
    monkeypatch.setattr(toml_files, "_parsed", None)


@pytest.fixture
def state(tmp_path):
    folder = tmp_path / "state"
    folder.mkdir()
    toml_files.keep_parses_in(str(folder))
    return folder / toml_files.KEPT


def written(tmp_path, text: str, name="config.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def a_new_start(folder) -> None:
    toml_files.keep_parses_in(str(folder))


def kept(state) -> dict:
    return marshal.loads(state.read_bytes())


def test_a_start_keeps_its_parses_and_the_next_takes_them_for_the_same_bytes(tmp_path, state):
    config, league = written(tmp_path, CONFIG), written(tmp_path, LEAGUE, "league.toml")
    assert boot.boot_model(config) == {"screen": "ready", "venue": "U Lva", "table": "3"}
    assert read_toml(league) == tomllib.loads(LEAGUE)
    assert kept(state) == {str(config): (config.read_bytes(), tomllib.loads(CONFIG), False),
                           str(league): (league.read_bytes(), tomllib.loads(LEAGUE), False)}
    state.write_bytes(marshal.dumps({str(config): (config.read_bytes(), {"device": {"venue": "kept", "table": "9"}}, False),
                                     str(league): (league.read_bytes(), {"league": {"name": "kept"}}, False)}))
    a_new_start(state.parent)
    assert boot.boot_model(config)["venue"] == "kept"         # taken, not parsed again
    assert read_toml(league) == {"league": {"name": "kept"}}


def test_a_file_is_parsed_once_for_the_same_bytes_and_again_for_others(tmp_path, monkeypatch):
    """Its bytes say it is unchanged, not its time stamps: a rewrite within one tick of the file
    system's clock, of the same size, is parsed again."""
    import os

    config = written(tmp_path, CONFIG)
    first = read_toml(config)
    assert read_toml(config) is first
    stat = os.stat(config)
    written(tmp_path, CONFIG.replace("3", "4"))
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert read_toml(config)["device"]["table"] == "4"


def test_this_process_keeps_the_parses_of_a_few_files_at_most(tmp_path):
    paths = [written(tmp_path, CONFIG, f"c{i}.toml") for i in range(toml_files.KEEP_AT_MOST + 5)]
    for path in paths:
        read_toml(path)
    assert list(toml_files._parsed) == [str(p) for p in paths[-toml_files.KEEP_AT_MOST:]]


def test_a_changed_file_is_parsed_again_and_its_parse_kept_beside_the_others(tmp_path, state):
    config, league = written(tmp_path, CONFIG), written(tmp_path, LEAGUE, "league.toml")
    boot.boot_model(config), read_toml(league)
    a_new_start(state.parent)
    written(tmp_path, CONFIG.replace("U Lva", "U Bílé růže"))
    assert boot.boot_model(config)["venue"] == "U Bílé růže"
    assert kept(state)[str(config)][0] == config.read_bytes()
    assert kept(state)[str(league)][0] == league.read_bytes()


def test_the_parse_of_a_file_that_is_gone_is_not_kept_on(tmp_path, state):
    old = written(tmp_path, CONFIG, "old.toml")
    read_toml(old)
    old.unlink()
    a_new_start(state.parent)
    read_toml(written(tmp_path, LEAGUE, "league.toml"))
    assert list(kept(state)) == [str(tmp_path / "league.toml")]


# named: marshal's bytes of an object depend on its reference count, so they cannot name a test
# (pytest-xdist's workers must collect the same names)
@pytest.mark.parametrize("kept_bytes", [b"", b"not marshal", marshal.dumps("a text"), marshal.dumps((b"x",)),
                                        marshal.dumps({"config.toml": "not a triple"}), marshal.dumps({1: (b"", {}, False)}),
                                        marshal.dumps({"config.toml": (b"", {"a": ("century", "21st")}, True)})],
                         ids=["empty", "not-marshal", "a-text", "a-tuple-of-one", "not-a-triple", "not-a-path",
                              "not-a-date"])
def test_a_kept_file_that_is_not_ours_is_ignored_and_replaced(tmp_path, state, kept_bytes):
    state.write_bytes(kept_bytes)
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"
    assert kept(state)[str(path)][0] == path.read_bytes()


DATED = LEAGUE + """
[[fixtures]]
date = 2026-12-01
starts = 18:30:00
opened = 2026-11-30T08:00:00.250
sent = 2026-11-30T08:00:00+01:00
closed = 2026-11-30T07:00:00Z
"""


def test_a_file_with_dates_is_kept_and_taken_with_its_dates_made_again(tmp_path, state, monkeypatch):
    """A league's fixtures have TOML dates, which marshal cannot hold: kept as pairs, made again."""
    path = written(tmp_path, DATED, "league.toml")
    assert read_toml(path) == tomllib.loads(DATED)
    assert kept(state)[str(path)][2] is True
    a_new_start(state.parent)
    monkeypatch.setitem(sys.modules, "tomllib", None)       # importing it would fail: not parsed again
    assert read_toml(path) == tomllib.loads(DATED)


OFFSETS = st.integers(min_value=-23 * 60 + 1, max_value=23 * 60 - 1).map(
    lambda minutes: datetime.timezone(datetime.timedelta(minutes=minutes)))
VALUES = st.recursive(
    st.one_of(st.text(max_size=5), st.integers(), st.floats(allow_nan=False), st.booleans(), st.dates(), st.times(),
              st.datetimes(), st.datetimes(timezones=OFFSETS)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@given(st.dictionaries(st.text(max_size=3), VALUES, max_size=4))
def test_any_tables_come_back_from_the_kept_file_as_they_were_kept(doc):
    data, held, _ = toml_files._keepable(b"", doc)
    assert toml_files._dated_tables(marshal.loads(marshal.dumps(held))) == doc


def test_outside_systemd_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_a_state_directory_it_cannot_write_fails_nothing(tmp_path):
    toml_files.keep_parses_in(str(tmp_path / "missing"))
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"


@pytest.mark.parametrize("text, why", [("[device\n", "not valid TOML"), (b"\xff", "not UTF-8 text")],
                         ids=["not-toml", "not-utf8"])
def test_a_file_that_does_not_read_is_said_so_and_nothing_kept(tmp_path, state, text, why):
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(ConfigFileError, match=why):
        read_toml(path)
    assert boot.boot_model(path) == {"screen": "ready", "table": "1"}
    assert not state.exists()
