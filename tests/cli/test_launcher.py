"""cli/launcher.py, an installed version's bin/pocitadlo (issue 27): `run` lights the counter before
the command line is parsed, from the config file argparse would then take; everything else is
cli.main's. (Its imports before the lit counter: tests/firmware_host/test_start_order.py; as
install.sh writes it: tests/systemd/test_install_sh.py.)"""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli import launcher
from cli.commands import run
from cli.commands.boot import ErrorCounter
from cli.main import build_parser

DEFAULT = "/etc/pocitadlo/config.toml"


@pytest.mark.parametrize("argv, path", [
    ([], DEFAULT),
    (["--config", "a.toml"], "a.toml"),
    (["--config=a.toml"], "a.toml"),
    (["--config", "a.toml", "--config", "b.toml"], "b.toml"),
    (["--log-level", "DEBUG", "--config", "a.toml"], "a.toml"),
    (["--log-level=ERROR"], DEFAULT),
    (["--help"], None),
    (["--conf", "a.toml"], None),          # argparse's abbreviation: left to it
    (["--config"], None),
    (["--config="], None),
    (["stray"], None),
])
def test_the_config_is_read_from_the_arguments_of_run(argv, path):
    assert launcher.config_of(argv, DEFAULT) == path


TOKENS = st.sampled_from(["--config", "--config=x.toml", "--config=", "--log-level", "--log-level=INFO", "DEBUG",
                          "a.toml", "b.toml", "-h", "--conf", "--", "-"])


@given(st.lists(TOKENS, max_size=6))
def test_a_config_it_finds_is_the_one_argparse_gives_run(argv):
    """Never a counter lit from another file than the one the service then loads."""
    path = launcher.config_of(argv, DEFAULT)
    if path is None:
        return
    try:
        args = build_parser(["run"]).parse_args(["run", *argv])
    except SystemExit:                  # argparse refuses the line: `run` never starts
        return
    assert args.config == path


@pytest.fixture
def handed(monkeypatch):
    """What cli.main.main is handed by the launcher: (argv, lit)."""
    seen = []
    monkeypatch.setattr("cli.main.main", lambda argv, lit=None: seen.append((argv, lit)) or 0)
    return seen


def test_run_is_handed_over_with_the_counter_it_lit(tmp_path, monkeypatch, handed):
    config = tmp_path / "config.toml"
    config.write_text("[device]\n", encoding="utf-8")
    monkeypatch.setattr(run, "light", lambda path: ("lit", path))
    assert launcher.main(["run", "--config", str(config)]) == 0
    assert handed == [(["run", "--config", str(config)], ("lit", str(config)))]


def test_a_first_step_that_fails_leaves_the_lighting_to_run(tmp_path, monkeypatch, handed):
    config = tmp_path / "config.toml"
    config.write_text("[device]\n", encoding="utf-8")

    def broken(path):
        raise RuntimeError("a bug in the first step")

    monkeypatch.setattr(run, "light", broken)
    assert launcher.main(["run", "--config", str(config)]) == 0
    assert handed == [(["run", "--config", str(config)], None)]


@pytest.mark.parametrize("argv", [["run", "--config", "/nonexistent/config.toml"], ["replay", "x.jsonl"], ["--help"]])
def test_nothing_is_lit_for_a_missing_config_or_another_command(monkeypatch, handed, argv):
    monkeypatch.setattr(run, "light", lambda path: pytest.fail("lit"))
    launcher.main(argv)
    assert handed == [(argv, None)]


class Lit(Exception):
    """Stops `run` once it lights the counter."""


def test_run_lights_again_when_handed_a_counter_lit_for_another_file(tmp_path, monkeypatch):
    """``run(args, lit)`` takes ``lit`` only for its own --config."""
    config = tmp_path / "config.toml"
    config.write_text("[device]\n", encoding="utf-8")

    def light(path):
        raise Lit(path)

    monkeypatch.setattr(run, "light", light)
    args = build_parser(["run"]).parse_args(["run", "--config", str(config)])
    with pytest.raises(Lit) as lit:
        run.run(args, lit=(None, ErrorCounter(tmp_path / "another.toml"), {}, False))
    assert lit.value.args == (str(config),)
