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
from cli.parser import build_parser

DEFAULTS = ("/etc/pocitadlo/config.toml", "INFO")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@pytest.mark.parametrize("argv, parsed", [
    ([], DEFAULTS),
    (["--config", "a.toml"], ("a.toml", "INFO")),
    (["--config=a.toml"], ("a.toml", "INFO")),
    (["--config", "a.toml", "--config", "b.toml"], ("b.toml", "INFO")),
    (["--log-level", "DEBUG", "--config", "a.toml"], ("a.toml", "DEBUG")),
    (["--log-level=ERROR"], (DEFAULTS[0], "ERROR")),
    (["--log-level", "LOUD"], None),           # argparse names the choices
    (["--help"], None),
    (["--conf", "a.toml"], None),             # argparse's abbreviation: left to it
    (["--config"], None),
    (["--config="], None),
    (["--config", "-h"], None),
    (["stray"], None),
])
def test_the_arguments_of_run_are_read_as_argparse_reads_them(argv, parsed):
    assert launcher.run_arguments(argv, DEFAULTS, LEVELS) == parsed


TOKENS = st.sampled_from(["--config", "--config=x.toml", "--config=", "--log-level", "--log-level=INFO", "DEBUG",
                          "LOUD", "a.toml", "b.toml", "-h", "--conf", "--log", "--", "-", "--config=-"])


@given(st.lists(TOKENS, max_size=6))
def test_what_it_reads_is_what_argparse_gives_run(argv):
    """Never a counter lit from another file than the one argparse would name, nor another log level."""
    parsed = launcher.run_arguments(argv, (run.DEFAULT_CONFIG, run.DEFAULT_LOG_LEVEL), run.LOG_LEVELS)
    if parsed is None:
        return
    args = build_parser(["run"]).parse_args(["run", *argv])     # never refused where it reads a line
    assert (args.config, args.log_level) == parsed


@pytest.fixture
def handed(monkeypatch):
    """What cli.main.main is handed by the launcher: (argv, lit, args)."""
    seen = []
    monkeypatch.setattr("cli.main.main", lambda argv, lit=None, args=None: seen.append((argv, lit, args)) or 0)
    return seen


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[device]\n", encoding="utf-8")
    return str(path)


def test_run_is_handed_over_with_its_arguments_and_the_counter_it_lit(config, monkeypatch, handed):
    monkeypatch.setattr(run, "light", lambda path: ("lit", path))
    assert launcher.main(["run", "--config", config, "--log-level", "ERROR"]) == 0
    [(argv, lit, args)] = handed
    assert argv == ["run", "--config", config, "--log-level", "ERROR"] and lit == ("lit", config)
    assert (args.command, args.config, args.log_level, args.debug, args._run) == ("run", config, "ERROR", False, run.run)


@pytest.mark.parametrize("argv, order", [(["run"], ["lit", "site", "cli.main"]), (["replay", "x.jsonl"], ["site", "cli.main"])])
def test_a_deferred_site_runs_once_the_counter_is_lit_and_before_the_command(config, monkeypatch, argv, order):
    """bin/pocitadlo's interpreter starts without site (-S): the launcher runs it after the frame,
    and before cli.main, so the command starts as it would have with it."""
    import site

    seen = []
    monkeypatch.setattr(run, "light", lambda path: seen.append("lit"))
    monkeypatch.setattr(site, "main", lambda: seen.append("site"))
    monkeypatch.setattr("cli.main.main", lambda argv, lit=None, args=None: seen.append("cli.main") or 0)
    argv = argv + ["--config", config] if argv == ["run"] else argv
    assert launcher.main(argv, deferred_site=True) == 0 and seen == order
    seen.clear()
    launcher.main(argv)
    assert "site" not in seen


def test_a_first_step_that_fails_leaves_the_lighting_to_run(config, monkeypatch, handed):
    def broken(path):
        raise RuntimeError("a bug in the first step")

    monkeypatch.setattr(run, "light", broken)
    assert launcher.main(["run", "--config", config]) == 0
    assert handed[0][1] is None and handed[0][2].config == config


@pytest.mark.parametrize("argv", [["run", "--config", "/nonexistent/config.toml"], ["run", "--conf", "x.toml"],
                                  ["replay", "x.jsonl"], ["--help"]])
def test_nothing_is_lit_for_a_missing_config_or_a_line_left_to_argparse(monkeypatch, handed, argv):
    monkeypatch.setattr(run, "light", lambda path: pytest.fail("lit"))
    launcher.main(argv)
    assert handed[0][:2] == (argv, None)
    assert (handed[0][2] is None) == (argv[1:2] != ["--config"])


def test_run_without_argparse_reports_as_with_it(tmp_path, capsys):
    """A missing config through the launcher's reading: the same one line and exit 2 as argparse's."""
    missing = str(tmp_path / "missing.toml")
    assert launcher.main(["run", "--config", missing]) == 2
    assert capsys.readouterr().err == f"pocitadlo run: {missing}: No such file or directory\n"


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
