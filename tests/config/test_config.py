"""Loading the one TOML config: every mistake names the file, the key and what is wrong."""
import textwrap

import pytest

from config import load as config_load
from config.load import ConfigFileError
from config.options import ConfigError
from firmware_host.league import load_league
from firmware_host.settings import load

GOOD = """
[device]
venue = "Hospoda U Lva"
table = "1"
data_dir = "data"
"""


def write(tmp_path, text, name="config.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(tmp_path, text) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message[len(str(path)) + 2:]


def test_a_good_file_loads_with_defaults_and_relative_data_dir(tmp_path):
    config = load(write(tmp_path, GOOD + "[rules.carom]\npoints_limit = 100\n"))
    assert config.device.venue == "Hospoda U Lva"
    assert config.device.data_dir == str(tmp_path / "data")
    assert config.carom.points_limit == 100 and config.carom.innings_limit == 15
    assert config.rules_header("carom") == {"points_limit": 100, "innings_limit": 15, "cap_points_at_limit": True,
                                            "win_points": 2, "draw_points": 1, "loss_points": 0}
    assert config.journal.fsync is True
    assert set(config.parts) == {"display", "keypad", "sync", "live"}


@pytest.mark.parametrize("name", ["config.toml", "emulator.toml", "emulator-8ball.toml"])
def test_the_bundled_examples_load(name):
    config = load(f"config/examples/{name}")
    assert config.device.venue


def test_the_example_league_loads():
    league = load_league("config/examples/league.toml")
    assert len(league.teams) >= 2 and all(len(t.players) >= 4 for t in league.teams)


@pytest.mark.parametrize("text, expected", [
    ("[rules.carom]\npoints_limit = 10\n", "[device]: required section is missing"),
    ("[device]\ntable = \"1\"\n", "[device] venue: required option is missing"),
    ("[device]\nvenue = \"\"\n", "[device] venue: must not be empty"),
], ids=["no device section", "no venue", "empty venue"])
def test_missing_keys(tmp_path, text, expected):
    assert error_of(tmp_path, text) == expected


@pytest.mark.parametrize("extra, expected", [
    ('[rules.carom]\npoints_limit = "dvěstě"\n', '[rules.carom] points_limit: expected a whole number, got "dvěstě"'),
    ("[rules.carom]\ninnings_limit = 0\n", "[rules.carom] innings_limit: must be at least 1, got 0"),
    ("[rules.carom]\nwin_points = 101\n", "[rules.carom] win_points: must be at most 100, got 101"),
    ("[rules.carom]\nloss_points = -1\n", "[rules.carom] loss_points: must be at least 0, got -1"),
    ("[rules.8ball]\nwin_points = 101\n", "[rules.8ball] win_points: must be at most 100, got 101"),
    ("[rules.carom]\ncap_points_at_limit = 1\n", "[rules.carom] cap_points_at_limit: expected true or false, got 1"),
    ("[rules.8ball]\ngames_to_win = 2.5\n", "[rules.8ball] games_to_win: expected a whole number, got 2.5"),
    ("[journal]\nfsync = \"yes\"\n", '[journal] fsync: expected true or false, got "yes"'),
    ("[display]\nwidth = \"wide\"\n", '[display] width: expected a whole number, got "wide"'),
], ids=["points text", "innings zero", "win points 101", "loss points -1", "8ball win points 101", "cap int",
        "games float", "fsync text", "display width"])
def test_wrong_types(tmp_path, extra, expected):
    assert error_of(tmp_path, GOOD + extra) == expected


@pytest.mark.parametrize("option", ["venue", "table", "name"])
@pytest.mark.parametrize("value, expected", [
    ("x" * 201, "must be a text of 1 to 200 characters (as the league's receiver takes), got 201"),
    (r"U Lva\u0007", r'must be printable text (no control characters), got "U Lva\x07"'),
    (r"U Lva\nstůl 2", r'must be printable text (no control characters), got "U Lva\nstůl 2"'),
    (r"U Lva\t", r'must be printable text (no control characters), got "U Lva\t"'),
])
def test_the_names_written_into_every_record_are_bounded_and_printable(tmp_path, option, value, expected):
    """[device] venue, table and name go into every record header (and on the counter): a name the
    league's receiver would refuse (server/league/item_fields.py) is refused here, naming it."""
    text = GOOD.replace('table = "1"', 'table = "1"\nname = "u-lva-1"')
    text = text.replace(f'{option} = "', f'{option} = "{value}" #', 1)
    assert error_of(tmp_path, text).startswith(f"[device] {option}: {expected}")


def test_the_config_bounds_names_as_the_receiver_does():
    from config.options import MAX_NAME
    from server.league.item_fields import MAX_TEXT

    assert MAX_NAME == MAX_TEXT


def test_device_language_must_be_known(tmp_path):
    text = GOOD.replace('table = "1"', 'table = "1"\nlanguage = "de"')
    assert error_of(tmp_path, text) == '[device] language: must be one of "cs", "en", got "de"'


@pytest.mark.parametrize("extra, option", [
    ('[keypad]\ndevices = ["matrix"]\n[keypad.matrix]\nrows = [5, 6, 13, 99]\n', "[keypad.matrix] rows"),
    ('[keypad]\ndevices = ["buttons"]\n[keypad.buttons.pins]\n"1" = 1\n', "[keypad.buttons.pins] 1"),
], ids=["matrix row 99", "button on pin 1"])
def test_unknown_pins(tmp_path, extra, option):
    message = error_of(tmp_path, GOOD + extra)
    assert message.startswith(option + ":") and "BCM pin" in message


@pytest.mark.parametrize("extra, option, problem", [
    ('[keypad]\ndevices = ["matrix"]\n[keypad.matrix]\nrows = [5, 6, 13, 19]\ncols = [26, 16, 20, 5]\n',
     "[keypad.matrix] cols", "BCM 5 is already used"),
    ('[keypad]\ndevices = ["matrix", "buttons"]\n[keypad.buttons.pins]\n"1" = 26\n',
     "[keypad.buttons.pins] 1", "BCM 26 is already used"),
    ('[keypad]\ndevices = ["buttons"]\n[keypad.buttons.pins]\n"1" = 10\n',
     "[keypad.buttons.pins] 1", "SPI MOSI"),
], ids=["row and column", "button on a matrix pin", "button on the display's SPI"])
def test_duplicate_pins(tmp_path, extra, option, problem):
    message = error_of(tmp_path, GOOD + extra)
    assert message.startswith(option + ":") and problem in message


@pytest.mark.parametrize("extra, expected", [
    ("[rules.carom]\npoints_limt = 100\n", "[rules.carom] points_limt: unknown option (did you mean points_limit?)"),
    ("[device.x]\n", "[device] x: unknown option"),              # nothing close: no guess
    ("[jornal]\nfsync = true\n", "[jornal]: unknown section (known: device, rules, journal, display, keypad, sync, live)"),
    ("[rules.snooker]\nreds = 15\n", "[rules] snooker: unknown option"),
    ("[sync]\ntransport = \"pigeon\"\n", '[sync] transport: must be one of "http", "serial", "none", got "pigeon"'),
], ids=["typo in option", "nothing like it", "typo in section", "unknown game rules", "unknown transport"])
def test_unknown_options(tmp_path, extra, expected):
    assert error_of(tmp_path, GOOD + extra) == expected


def test_syntax_error_names_file_line_and_column(tmp_path):
    path = write(tmp_path, "[device]\nvenue = U Lva\n")
    with pytest.raises(ConfigFileError, match=r"config.toml: not valid TOML: .*line 2, column 9"):
        load(path)


def test_a_deeply_nested_file_is_a_config_error_not_a_crash(tmp_path):
    """Issue 12: tomllib recurses; a hostile or broken file must still be one line naming the file."""
    path = write(tmp_path, '[device]\nvenue = "X"\nx = ' + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigFileError, match=r"config.toml: not valid TOML: arrays or tables nested too deeply"):
        load(path)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_number_that_is_not_finite_is_refused(tmp_path, value):
    assert error_of(tmp_path, GOOD + f"[sync]\ntimeout = {value}\n") == \
        f"[sync] timeout: expected a finite number, got {float(value)!r}"


def test_missing_file(tmp_path):
    with pytest.raises(ConfigFileError, match="nope.toml: file not found"):
        load(tmp_path / "nope.toml")


def test_parts_read_their_own_sections_through_injected_readers(tmp_path):
    seen = {}

    def reader(name):
        def read(section):
            seen[name] = (section.name, dict(section.table))
            section.int("x", 0)
            section.str("language", "")
            section.finish()
            return name
        return read

    config = config_load.load(write(tmp_path, GOOD + "[display]\nx = 1\n"),
                              readers={n: reader(n) for n in ("display", "keypad", "sync", "live")})
    assert config.parts == {"display": "display", "keypad": "keypad", "sync": "sync", "live": "live"}
    assert seen["display"] == ("display", {"x": 1, "language": "cs"}) and seen["keypad"] == ("keypad", {})


@pytest.mark.parametrize("text, expected", [
    ('[[teams]]\nname = "A"\nplayers = ["x"]\n[[teams]]\nname = "A"\nplayers = ["y"]\n',
     '[teams.2] name: team "A" is listed twice'),
    ('[[teams]]\nname = "A"\nplayers = ["x", "x"]\n', "[teams.1] players: a player is listed twice"),
    ('[[teams]]\nname = "A"\nplayers = ["x"]\n[[fixtures]]\ndate = 2026-11-29\nhome = "A"\naway = "B"\n',
     '[fixtures.1] away: no team "B" in [[teams]]'),
    ('[[teams]]\nname = "A"\nplayers = ["x"]\n[[fixtures]]\ndate = "sunday"\nhome = "A"\naway = "A"\n',
     "[fixtures.1] date: expected a TOML date like 2026-11-29, got 'sunday'"),
], ids=["team twice", "player twice", "unknown team", "date text"])
def test_league_file_errors_name_the_entry(tmp_path, text, expected):
    path = write(tmp_path, text, "league.toml")
    with pytest.raises(ConfigError) as info:
        load_league(path)
    assert str(info.value) == f"{path}: {expected}"


def test_the_counter_speaks_the_device_language_unless_display_says_otherwise(tmp_path):
    english = load(write(tmp_path, GOOD.replace('table = "1"', 'table = "1"\nlanguage = "en"')))
    assert english.parts["display"].language == "en"
    mixed = load(write(tmp_path, GOOD + '[display]\nlanguage = "cs"\n'))
    assert mixed.parts["display"].language == "cs"
    assert load(write(tmp_path, GOOD)).parts["display"].language == "cs"


def test_rule_defaults_are_the_rule_cores_own(tmp_path):
    """RULES 1.4 (200 points, 15 innings) and the 8-ball core's race defaults: one source of truth."""
    from rules.carom.state import Settings
    from rules.eightball.state import DEFAULT_GAMES_TO_WIN, DEFAULT_SETS_TO_WIN

    config = load(write(tmp_path, GOOD))
    assert (config.carom.points_limit, config.carom.innings_limit) == (Settings.points_limit, Settings.innings_limit) == (200, 15)
    assert config.rules_header("8ball") == {"games_to_win": DEFAULT_GAMES_TO_WIN, "sets_to_win": DEFAULT_SETS_TO_WIN,
                                            "win_points": 1}


def test_A_5_3_the_team_points_are_config_rules_of_play_a_league_document_replaces(tmp_path):
    """A.5.3-A.5.5, RULES 2.9: the counter's fallback team points (a league without rules of its
    own) are [rules.*] settings, spelled out like every rule so the league's replace them."""
    config = load(write(tmp_path, GOOD + "[rules.carom]\nwin_points = 3\ndraw_points = 0\n"
                        "[rules.8ball]\nwin_points = 2\n"))
    assert {k: config.rules_header("carom")[k] for k in ("win_points", "draw_points", "loss_points")} == {
        "win_points": 3, "draw_points": 0, "loss_points": 0}
    assert config.rules_header("8ball")["win_points"] == 2


def test_the_opposite_pocket_map_is_config_and_reaches_the_header(tmp_path):
    """RULES 2.2 Decision (configurable map): a league may pair the corners along the long cushions."""
    config = load(write(tmp_path, GOOD + "[rules.8ball]\nopposite = { 1 = 3, 3 = 1, 4 = 6, 6 = 4, 2 = 5, 5 = 2 }\n"))
    header = config.rules_header("8ball")
    assert header["opposite"] == {"1": 3, "2": 5, "3": 1, "4": 6, "5": 2, "6": 4}
    from rules.board import Board
    board = Board({"game": "8ball", "a": "X", "b": "Y", **header})
    assert board.settings.opposite_of(1) == 3


@pytest.mark.parametrize("value, problem", [
    ('"diagonal"', 'expected a table { key = value, ... }, got "diagonal"'),
    ("{ 1 = 4, 4 = 1 }", "must map every pocket 1..6"),
    ("{ 1 = 1, 2 = 5, 3 = 6, 4 = 4, 5 = 2, 6 = 3 }", "bad entry '1': 1"),
])
def test_a_bad_opposite_pocket_map_names_the_option(tmp_path, value, problem):
    message = error_of(tmp_path, GOOD + f"[rules.8ball]\nopposite = {value}\n")
    assert message.startswith("[rules.8ball] opposite: ") and problem in message, message


@pytest.mark.parametrize("text", [
    "[device]\nvenue = U Lva\n",                                  # TOML syntax: tomllib's "(at line …)"
    GOOD + "[sync]\ntimeout = nan\n",
    GOOD + "[display]\ncontrast = 999\n",
    GOOD + '[keypad]\ndevices = ["matrix"]\n[keypad.matrix]\nrows = [10, 6, 13, 19]\n',
    GOOD + "[rules.carom]\npoints_limt = 100\n",
], ids=["syntax", "not finite", "out of range", "display pin", "misspelt"])
def test_no_config_error_says_a_word_twice(tmp_path, text):
    """Issue 12: "at at" in a config error. Each message reads as one sentence."""
    import re

    with pytest.raises(ConfigError) as info:
        load(write(tmp_path, text))
    assert not re.search(r"\b(\w+) \1\b", str(info.value), re.IGNORECASE), str(info.value)
