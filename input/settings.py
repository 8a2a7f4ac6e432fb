"""The [keypad] config section: which devices, their pins or paths, timing and key maps.

    [keypad]
    devices = ["evdev", "matrix"]     # any of evdev, matrix, buttons, terminal
    debounce = 0.03                   # seconds a GPIO contact must settle
    long_press = 0.8                  # seconds a key is held for destructive actions
    [keypad.evdev]
    paths = ["/dev/input/by-id/usb-Keypad-event-kbd"]   # empty: every *-event-kbd found
    [keypad.matrix]
    rows = [5, 6, 13, 19]             # BCM pins
    cols = [26, 16, 20, 21]
    [keypad.buttons]
    pins = { "1" = 17, "0" = 22 }     # key name = BCM pin
    [keypad.carom]                    # key = action, overriding the defaults ("none" unbinds)
    "5" = "score1"
    [keypad.carom.hold]
    "9" = "forfeit"

``read(section)`` returns ``KeypadSettings``; every error names the section and option.
"""
from dataclasses import dataclass, field

from config.options import ConfigError, Section
from input.debounce import BOUNCE, LONG_PRESS
from input.keymap import KEY_NAMES, UNBOUND, KeyMap, actions_for, default_keymap, needs_hold
from rules.games import game_names

DEVICE_KINDS = ("evdev", "matrix", "buttons", "terminal")
GPIO_PINS = range(2, 28)                       # BCM numbers on the 40-pin header
DISPLAY_SPI = {7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI", 11: "SPI SCLK"}
MATRIX_KEYS = ("1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C", "*", "0", "#", "D")
DEFAULT_ROWS = (5, 6, 13, 19)
DEFAULT_COLS = (26, 16, 20, 21)
DEFAULT_BUTTONS = {"1": 17, "2": 27, "0": 22, "dot": 23, "-": 24, "enter": 25}


@dataclass(frozen=True)
class EvdevSettings:
    """[keypad.evdev]: USB or wireless keypads read through evdev."""
    paths: tuple[str, ...] = ()
    grab: bool = True
    burst: float = 0.03            # a "000" key sends its three zeros closer together than this
    retry: float = 1.0             # seconds between reconnect attempts


@dataclass(frozen=True)
class MatrixSettings:
    """[keypad.matrix]: a membrane keypad scanned on GPIO rows and columns."""
    rows: tuple[int, ...] = DEFAULT_ROWS
    cols: tuple[int, ...] = DEFAULT_COLS
    keys: tuple[str, ...] = MATRIX_KEYS   # row by row
    scan_interval: float = 0.005          # sleep between rows


@dataclass(frozen=True)
class ButtonsSettings:
    """[keypad.buttons]: single buttons, each on its own GPIO pin."""
    pins: tuple[tuple[str, int], ...] = tuple(DEFAULT_BUTTONS.items())   # (key, BCM pin)
    pull_up: bool = True


@dataclass(frozen=True)
class KeypadSettings:
    """[keypad]: which keypads are read, and the timing of their keys."""
    devices: tuple[str, ...] = ("evdev",)
    debounce: float = BOUNCE
    long_press: float = LONG_PRESS
    evdev: EvdevSettings = EvdevSettings()
    matrix: MatrixSettings = MatrixSettings()
    buttons: ButtonsSettings = ButtonsSettings()
    keymaps: dict = field(default_factory=dict)     # game -> its KeyMap as the config changed it

    def keymap(self, game: str) -> KeyMap:
        """The key map of ``game``: the config's, or the game's defaults."""
        return self.keymaps.get(game) or default_keymap(game)


def read(section: Section) -> KeypadSettings:
    devices = tuple(section.list("devices", ["evdev"], item=_device_kind))
    if len(set(devices)) != len(devices):
        raise section.error("devices", "a device kind is listed twice")
    settings = KeypadSettings(
        devices=devices,
        debounce=section.float("debounce", BOUNCE, minimum=0.0, maximum=0.5),
        long_press=section.float("long_press", LONG_PRESS, minimum=0.3, maximum=5.0),
        evdev=_read_evdev(section.section("evdev")),
        matrix=_read_matrix(section.section("matrix")),
        buttons=_read_buttons(section.section("buttons")),
        keymaps={game: _read_keymap(section.section(game), game) for game in game_names()},
    )
    _check_pins(section, settings)
    section.finish()
    return settings


def _device_kind(value):
    if value not in DEVICE_KINDS:
        raise ValueError(f"unknown device {value!r} (known: {', '.join(DEVICE_KINDS)})")
    return value


def _read_evdev(sec: Section) -> EvdevSettings:
    paths = sec.list("paths", [], item=_device_path)
    out = EvdevSettings(
        paths=tuple(paths),
        grab=sec.bool("grab", True),
        burst=sec.float("burst", 0.03, minimum=0.0, maximum=0.2),
        retry=sec.float("retry", 1.0, minimum=0.1, maximum=60.0),
    )
    sec.finish()
    return out


def _device_path(value):
    if not isinstance(value, str) or not value.startswith("/dev/input/"):
        raise ValueError(f"expected a path under /dev/input/, got {value!r}")
    return value


def _pin(value):
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise ValueError(f"expected a BCM pin number 2..27, got {value!r}")
    return value


def _key_name(value):
    if value not in KEY_NAMES:
        raise ValueError(f"unknown key {value!r}")
    return value


def _read_matrix(sec: Section) -> MatrixSettings:
    rows = tuple(sec.list("rows", list(DEFAULT_ROWS), item=_pin))
    cols = tuple(sec.list("cols", list(DEFAULT_COLS), item=_pin))
    keys = tuple(sec.list("keys", list(MATRIX_KEYS), item=_key_name))
    if not rows:
        raise sec.error("rows", "at least one row pin is needed")
    if not cols:
        raise sec.error("cols", "at least one column pin is needed")
    if len(keys) != len(rows) * len(cols):
        raise sec.error("keys", f"expected {len(rows) * len(cols)} key names "
                                f"({len(rows)} rows x {len(cols)} columns), got {len(keys)}")
    out = MatrixSettings(rows, cols, keys, sec.float("scan_interval", 0.005, minimum=0.001,
                                                     maximum=0.1))
    sec.finish()
    return out


def _read_buttons(sec: Section) -> ButtonsSettings:
    table = sec.section("pins", DEFAULT_BUTTONS)
    pins = []
    for key in list(table.table):
        try:
            _key_name(key)
            pins.append((key, _pin(table.table[key])))
        except ValueError as exc:
            raise table.error(key, str(exc)) from None
        table.int(key)          # marks the option as read
    table.finish()
    out = ButtonsSettings(tuple(pins), sec.bool("pull_up", True))
    sec.finish()
    return out


def _check_pins(section: Section, settings: KeypadSettings) -> None:
    """Every GPIO pin in use once, and none of the display's SPI pins."""
    used: dict[int, str] = {}
    claims = []
    if "matrix" in settings.devices:
        claims += [(p, "matrix", "rows") for p in settings.matrix.rows]
        claims += [(p, "matrix", "cols") for p in settings.matrix.cols]
    if "buttons" in settings.devices:
        claims += [(p, "buttons.pins", key) for key, p in settings.buttons.pins]
    for pin, sub, option in claims:
        where = f"{section.name}.{sub}"
        if pin in DISPLAY_SPI:
            raise ConfigError(section.path, where, option,
                              f"BCM {pin} is the display's {DISPLAY_SPI[pin]} pin; pick another")
        if pin in used:
            raise ConfigError(section.path, where, option, f"BCM {pin} is already used by {used[pin]}")
        used[pin] = f"[{where}] {option}"


def _read_keymap(sec: Section, game: str) -> KeyMap:
    hold_sec = sec.section("hold")
    tap = _read_bindings(sec, game, hold=False, skip=("hold",))
    hold = _read_bindings(hold_sec, game, hold=True)
    hold_sec.finish()
    sec.finish()
    return default_keymap(game).with_overrides(tap, hold)


def _read_bindings(sec: Section, game: str, *, hold: bool, skip=()) -> dict:
    known = actions_for(game)
    out = {}
    for key in list(sec.table):
        if key in skip:
            continue
        action = sec.str(key)
        if key not in KEY_NAMES:
            raise sec.error(key, f"unknown key (known: {', '.join(sorted(KEY_NAMES))})")
        if action != UNBOUND and action not in known:
            raise sec.error(key, f"unknown action \"{action}\" for {game} "
                                 f"(known: {', '.join(known)}, or \"none\")")
        if not hold and needs_hold(game, action):
            raise sec.error(key, f"\"{action}\" needs a long press: bind it under "
                                 f"[{sec.name}.hold]")
        out[key] = action
    return out
