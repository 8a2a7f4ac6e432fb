"""The config's parse kept for the next start (cli/commands/boot.py, issue 27): under systemd the
start reads the raw tables it lights the counter from out of $STATE_DIRECTORY when the file is
byte for byte the one parsed before, and parses it (and keeps that) otherwise."""
import marshal
import tomllib

import pytest

from cli.commands import boot

CONFIG = '[device]\nvenue = "U Lva"\ntable = "3"\n[display]\ndriver = "max7219"\n'


@pytest.fixture
def state(tmp_path, monkeypatch):
    folder = tmp_path / "state"
    folder.mkdir()
    monkeypatch.setenv("STATE_DIRECTORY", str(folder))
    monkeypatch.setattr(boot, "_READ", {})
    return folder / boot.PARSED


def written(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    boot._READ.clear()              # a new start
    return path


def test_a_start_keeps_its_parse_and_the_next_takes_it_for_the_same_bytes(tmp_path, state):
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path) == {"screen": "ready", "venue": "U Lva", "table": "3"}
    data, doc = marshal.loads(state.read_bytes())
    assert data == path.read_bytes() and doc == tomllib.loads(CONFIG)
    state.write_bytes(marshal.dumps((data, {"device": {"venue": "kept", "table": "9"}})))
    written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "kept"         # taken, not parsed again


def test_a_changed_file_is_parsed_again_and_its_parse_kept(tmp_path, state):
    path = written(tmp_path, CONFIG)
    boot.boot_model(path)
    written(tmp_path, CONFIG.replace("U Lva", "U Bílé růže"))
    assert boot.boot_model(path)["venue"] == "U Bílé růže"
    assert marshal.loads(state.read_bytes())[0] == path.read_bytes()


# named: marshal's bytes of an object depend on its reference count, so they cannot name a test
# (pytest-xdist's workers must collect the same names)
@pytest.mark.parametrize("kept", [b"", b"not marshal", marshal.dumps("a text"), marshal.dumps((b"x",))],
                         ids=["empty", "not-marshal", "a-text", "a-tuple-of-one"])
def test_a_kept_file_that_is_not_a_parse_is_ignored_and_replaced(tmp_path, state, kept):
    state.write_bytes(kept)
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"
    assert marshal.loads(state.read_bytes())[0] == path.read_bytes()


def test_a_config_with_a_date_is_parsed_at_every_start(tmp_path, state):
    path = written(tmp_path, CONFIG + 'opened = 2026-12-01\n')
    assert boot.boot_model(path)["venue"] == "U Lva"
    assert not state.exists() and list(state.parent.iterdir()) == []     # nothing kept, nothing left


def test_outside_systemd_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.chdir(tmp_path)
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_a_state_directory_it_cannot_write_fails_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "missing"))
    path = written(tmp_path, CONFIG)
    assert boot.boot_model(path)["venue"] == "U Lva"
