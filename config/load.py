"""Load and validate the one TOML configuration file of a device.

The service's own sections are read here — ``[device]``, ``[rules.carom]``, ``[rules.8ball]``,
``[journal]`` — and ``[display]``, ``[keypad]``, ``[sync]`` and ``[live]`` are handed to the ``read(section)``
of the part that owns them, so every error names the file, the section, the option and the fault.
A syntax error names the file, the line and the column.

Those parts sit above config in the layers, so config never imports them: the caller passes
their readers (the device's set is ``firmware_host.settings.PART_READERS``).
"""
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from config import toml_files
from config.options import ConfigError, Section
from rules.carom.state import Settings as CaromSettings
from rules.core import JSONObject
from rules.eightball.match import INDIVIDUAL_MATCHES
from rules.eightball.state import (
    DEFAULT_GAMES_TO_WIN,
    DEFAULT_OPPOSITE,
    DEFAULT_SETS_TO_WIN,
    DEFAULT_WIN_POINTS,
    read_opposite,
)
from rules.errors import HeaderError
from rules.game import MAX_TEAM_POINTS
from rules.games import game_names

LANGUAGES = ("cs", "en")
PARTS = ("display", "keypad", "sync", "live")     # sections read by the part that owns them
SECTIONS = ("device", "rules", "journal") + PARTS


class ConfigFileError(ConfigError):
    """The file itself cannot be read (missing, not TOML)."""

    def __init__(self, path: str | os.PathLike[str], problem: str):
        Exception.__init__(self, f"{path}: {problem}")
        self.path, self.section, self.option, self.problem = str(path), "", None, problem


@dataclass(frozen=True)
class DeviceSettings:
    """[device]: where the counter stands and what it writes into its records."""
    venue: str
    table: str
    language: str = "cs"
    data_dir: str = "/var/lib/pocitadlo"
    league: str | None = None        # path of the league file (teams, players, fixtures)
    game: str = "carom"              # the game played at this table
    name: str = "pocitadlo"          # device id written into records


@dataclass(frozen=True)
class CaromRules:
    """[rules.carom]: the league's carom limits (RULES 1.4)."""
    points_limit: int = CaromSettings.points_limit          # league defaults live in the rule core
    innings_limit: int = CaromSettings.innings_limit
    cap_points_at_limit: bool = CaromSettings.cap_points_at_limit
    win_points: int = CaromSettings.win_points              # team points, A.5.3-A.5.5
    draw_points: int = CaromSettings.draw_points
    loss_points: int = CaromSettings.loss_points

    def header(self) -> JSONObject:
        """Every rule of play; the team points a league's competition sets replace these
        (firmware_host.league), and the partie header keeps them only where not the default
        (rules.night.partie_header)."""
        return {"points_limit": self.points_limit, "innings_limit": self.innings_limit,
                "cap_points_at_limit": self.cap_points_at_limit, "win_points": self.win_points,
                "draw_points": self.draw_points, "loss_points": self.loss_points}


@dataclass(frozen=True)
class EightBallRules:
    """[rules.8ball]: the league's race and team match (RULES 2.9)."""
    games_to_win: int = DEFAULT_GAMES_TO_WIN
    sets_to_win: int = DEFAULT_SETS_TO_WIN
    individual_matches: int = INDIVIDUAL_MATCHES     # in a team game (RULES 2.9)
    opposite: tuple[int, ...] = DEFAULT_OPPOSITE   # RULES 2.2 Decision: the pocket opposite each pocket 1..6
    win_points: int = DEFAULT_WIN_POINTS            # team points per individual match won (RULES 2.9)

    def header(self) -> JSONObject:
        """The rules of play (as CaromRules.header)."""
        header: JSONObject = {"games_to_win": self.games_to_win, "sets_to_win": self.sets_to_win,
                              "win_points": self.win_points}
        if self.opposite != DEFAULT_OPPOSITE:
            header["opposite"] = {str(p): q for p, q in enumerate(self.opposite, start=1)}
        return header


@dataclass(frozen=True)
class JournalSettings:
    """[journal]: how the referee's commands are made durable."""
    fsync: bool = True


@dataclass(frozen=True)
class Config:
    """The whole config file, checked: its sections' settings and the parts' (PARTS)."""
    path: str
    device: DeviceSettings
    carom: CaromRules
    eightball: EightBallRules
    journal: JournalSettings
    parts: dict[str, Any] = field(default_factory=dict)   # "display"/"keypad"/"sync" -> the part's settings

    def rules_header(self, game: str) -> JSONObject:
        """Every rule setting of ``game`` spelled out, for a record header (a game without a
        [rules.*] section of its own: none, its rule core's defaults)."""
        sections: dict[str, CaromRules | EightBallRules] = {"carom": self.carom, "8ball": self.eightball}
        rules = sections.get(game)
        return rules.header() if rules is not None else {}

    def partie_count(self, game: str) -> int | None:
        """Partie in a team match where [rules.*] sets it (8-ball's individual matches); None: the game's own."""
        counts: dict[str, int] = {"8ball": self.eightball.individual_matches}
        return counts.get(game)


def read_toml(path: str | os.PathLike[str]) -> JSONObject:
    """The file's tables (config.toml_files: parsed once, kept parsed under systemd); a file that
    does not read is a ConfigFileError saying why."""
    path = os.fspath(path)
    try:
        return toml_files.read(path)
    except FileNotFoundError:
        raise ConfigFileError(path, "file not found") from None
    except UnicodeDecodeError as exc:
        raise ConfigFileError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except ValueError as exc:           # tomllib.TOMLDecodeError: tomllib is not imported for a kept parse
        raise ConfigFileError(path, f"not valid TOML: {exc}") from None
    except RecursionError:      # tomllib parses nested arrays and tables recursively
        raise ConfigFileError(path, "not valid TOML: arrays or tables nested too deeply") from None
    except OSError as exc:
        raise ConfigFileError(path, f"cannot read: {exc.strerror}") from None


def load(path: str | os.PathLike[str], *, readers: Mapping[str, Callable[[Section], Any]],
         base_dir: str | None = None) -> Config:
    """Read and validate ``path``; raise ConfigError naming file, section and option.

    ``readers`` maps each of PARTS to its part's ``read(section)``. Relative paths in [device]
    resolve against ``base_dir`` (default: the config file's folder).
    """
    missing = sorted(set(PARTS) - set(readers))
    if missing:
        raise TypeError("load() needs a reader for every part; missing: " + ", ".join(missing))
    path = os.fspath(path)
    doc = read_toml(path)
    base_dir = base_dir or os.path.dirname(os.path.abspath(path))
    unknown = sorted(set(doc) - set(SECTIONS))
    if unknown:
        raise ConfigError(path, unknown[0], None, "unknown section (known: " + ", ".join(SECTIONS) + ")")
    if "device" not in doc:
        raise ConfigError(path, "device", None, "required section is missing")

    def section(name: str) -> Section:
        return Section(doc.get(name, {}), name, path)

    device = read_device(section("device"), base_dir)
    rules = section("rules")
    carom = read_carom(rules.section("carom"))
    eightball = read_eightball(rules.section("8ball"))
    rules.finish()
    journal = read_journal(section("journal"))
    tables = dict(doc)
    if isinstance(tables.get("display", {}), dict):    # the counter speaks [device] language by default
        tables["display"] = {"language": device.language, **tables.get("display", {})}
    parts = {name: readers[name](Section(tables.get(name, {}), name, path)) for name in PARTS}
    return Config(path, device, carom, eightball, journal, parts)


def read_device(sec: Section, base_dir: str) -> DeviceSettings:
    venue = sec.recorded("venue")
    table = sec.recorded("table", "1")
    language = sec.choice("language", LANGUAGES, "cs")
    data_dir = _resolve(sec.str("data_dir", DeviceSettings.data_dir, nonempty=True), base_dir)
    league = sec.str("league", None, nonempty=True)
    game = sec.choice("game", game_names(), "carom")
    name = sec.recorded("name", "pocitadlo")
    sec.finish()
    return DeviceSettings(venue, table, language, data_dir,
                          _resolve(league, base_dir) if league else None, game, name)


def _resolve(value: str, base_dir: str) -> str:
    return os.path.normpath(os.path.join(base_dir, os.path.expanduser(value)))


def read_carom(sec: Section) -> CaromRules:
    rules = CaromRules(
        points_limit=sec.int("points_limit", CaromRules.points_limit, minimum=1, maximum=10_000),
        innings_limit=sec.int("innings_limit", CaromRules.innings_limit, minimum=1, maximum=1_000),
        cap_points_at_limit=sec.bool("cap_points_at_limit", CaromRules.cap_points_at_limit),
        win_points=sec.int("win_points", CaromRules.win_points, minimum=0, maximum=MAX_TEAM_POINTS),
        draw_points=sec.int("draw_points", CaromRules.draw_points, minimum=0, maximum=MAX_TEAM_POINTS),
        loss_points=sec.int("loss_points", CaromRules.loss_points, minimum=0, maximum=MAX_TEAM_POINTS))
    sec.finish()
    return rules


def read_eightball(sec: Section) -> EightBallRules:
    rules = EightBallRules(
        games_to_win=sec.int("games_to_win", EightBallRules.games_to_win, minimum=1, maximum=99),
        sets_to_win=sec.int("sets_to_win", EightBallRules.sets_to_win, minimum=1, maximum=99),
        individual_matches=sec.int("individual_matches", EightBallRules.individual_matches,
                                   minimum=1, maximum=32),
        opposite=_read_opposite(sec),
        win_points=sec.int("win_points", EightBallRules.win_points, minimum=0, maximum=MAX_TEAM_POINTS))
    sec.finish()
    return rules


def _read_opposite(sec: Section) -> tuple[int, ...]:
    value = sec.mapping("opposite", None)
    if value is None:
        return DEFAULT_OPPOSITE
    try:
        return read_opposite(value)
    except HeaderError as exc:
        raise sec.error("opposite", str(exc)) from None


def read_journal(sec: Section) -> JournalSettings:
    settings = JournalSettings(fsync=sec.bool("fsync", True))
    sec.finish()
    return settings
