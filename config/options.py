"""Typed option reading for one TOML section, in the manner of Klipper's config helpers.

Each subsystem reads its own section::

    sec = Section(doc.get("display", {}), "display", path)
    width = sec.int("width", 64, minimum=8)
    driver = sec.choice("driver", ("max7219", "sevensegment", "ws2812"), "max7219")
    sec.finish()          # unknown keys are errors, so typos do not pass silently

Every ConfigError reads like ``/etc/pocitadlo/config.toml: [display] width: expected a whole
number, got "wide"``.
"""
import builtins
import enum
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar


class _Missing(enum.Enum):
    MISSING = enum.auto()


_MISSING: Final = _Missing.MISSING     # no default: the option is required
_T = TypeVar("_T")          # a default's type: what an option not given reads as
_C = TypeVar("_C")          # a choice's type


class ConfigError(Exception):
    def __init__(self, path: str | os.PathLike[str], section: str, option: str | None, problem: str):
        self.path, self.section, self.option, self.problem = str(path), section, option, problem
        where = f"[{section}]" + (f" {option}" if option else "")
        super().__init__(f"{self.path}: {where}: {problem}")


MAX_NAME = 200       # characters of a name written into records: what the league's receiver takes


def _show(value: Any) -> str:
    if isinstance(value, str):
        return '"' + "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in value) + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


class Section:
    """One table of the file. Its readers are named for what they return, so within the class
    ``builtins.str`` and the like name the types."""

    def __init__(self, table: Any, name: str, path: str | os.PathLike[str] = "config.toml"):
        self.name, self.path = name, path
        if not isinstance(table, dict):
            raise ConfigError(path, name, None, f"expected a table, got {_show(table)}")
        self.table = table
        self._seen: set[str] = set()

    def error(self, option: builtins.str | None, problem: builtins.str) -> ConfigError:
        return ConfigError(self.path, self.name, option, problem)

    def has(self, option: builtins.str) -> builtins.bool:
        return option in self.table

    def _given(self, option: builtins.str) -> builtins.bool:
        """Whether the file gives ``option`` (which counts as read from now on)."""
        self._seen.add(option)
        return option in self.table

    def raw(self, option: builtins.str, default: Any = None) -> Any:
        """The value as the file gives it, unchecked (the caller checks it: a TOML date, a time),
        or ``default``."""
        return self.table[option] if self._given(option) else default

    def _default(self, option: builtins.str, default: _T | _Missing) -> _T:
        """What an option the file does not give reads as; an error when it is required."""
        if isinstance(default, _Missing):
            raise self.error(option, "required option is missing")
        return default

    def int(self, option: builtins.str, default: _T | _Missing = _MISSING, *,
            minimum: builtins.int | None = None, maximum: builtins.int | None = None) -> builtins.int | _T:
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if isinstance(value, builtins.bool) or not isinstance(value, builtins.int):
            raise self.error(option, f"expected a whole number, got {_show(value)}")
        if minimum is not None and value < minimum:
            raise self.error(option, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.error(option, f"must be at most {maximum}, got {value}")
        return value

    def float(self, option: builtins.str, default: _T | _Missing = _MISSING, *,
              minimum: builtins.float | None = None,
              maximum: builtins.float | None = None) -> builtins.float | _T:
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if isinstance(value, builtins.bool) or not isinstance(value, (builtins.int, builtins.float)):
            raise self.error(option, f"expected a number, got {_show(value)}")
        if not math.isfinite(value):
            raise self.error(option, f"expected a finite number, got {_show(value)}")
        if minimum is not None and value < minimum:
            raise self.error(option, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.error(option, f"must be at most {maximum}, got {value}")
        return builtins.float(value)

    def bool(self, option: builtins.str, default: _T | _Missing = _MISSING) -> builtins.bool | _T:
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if not isinstance(value, builtins.bool):
            raise self.error(option, f"expected true or false, got {_show(value)}")
        return value

    def str(self, option: builtins.str, default: _T | _Missing = _MISSING, *,
            nonempty: builtins.bool = False) -> builtins.str | _T:
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if not isinstance(value, builtins.str):
            raise self.error(option, f"expected a text in quotes, got {_show(value)}")
        if nonempty and not value.strip():
            raise self.error(option, "must not be empty")
        return value

    def recorded(self, option: builtins.str, default: _T | _Missing = _MISSING) -> builtins.str | _T:
        """A name written into every record and shown on the counter (a venue, a table, a device):
        1 to MAX_NAME printable characters, as the league's receiver takes them."""
        if not self._given(option):
            return self._default(option, default)
        value = self.str(option, nonempty=True)        # a text, not empty
        if len(value) > MAX_NAME:
            raise self.error(option, f"must be a text of 1 to {MAX_NAME} characters (as the league's receiver "
                                     f"takes), got {len(value)}")
        if not value.isprintable():
            raise self.error(option, f"must be printable text (no control characters), got {_show(value)}")
        return value

    def choice(self, option: builtins.str, choices: Sequence[_C], default: _T | _Missing = _MISSING) -> _C | _T:
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if value not in choices:
            listed = ", ".join(_show(c) for c in choices)
            raise self.error(option, f"must be one of {listed}, got {_show(value)}")
        chosen: _C = value
        return chosen

    def list(self, option: builtins.str, default: _T | _Missing = _MISSING, *,
             item: Callable[[Any], Any] | None = None) -> builtins.list[Any] | _T:
        """A TOML array; ``item(value, index)`` may convert or reject each element."""
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if not isinstance(value, builtins.list):
            raise self.error(option, f"expected a list [ ... ], got {_show(value)}")
        if item is None:
            return builtins.list(value)
        out = []
        for index, element in enumerate(value):
            try:
                out.append(item(element))
            except (TypeError, ValueError) as exc:
                raise self.error(option, f"item {index + 1}: {exc}") from None
        return out

    def mapping(self, option: builtins.str, default: _T | _Missing = _MISSING) -> dict[builtins.str, Any] | _T:
        """An inline table such as ``{ 1 = 4, 2 = 5 }``, returned as a dict (keys are texts)."""
        if not self._given(option):
            return self._default(option, default)
        value = self.table[option]
        if not isinstance(value, dict):
            raise self.error(option, f"expected a table {{ key = value, ... }}, got {_show(value)}")
        return dict(value)

    def section(self, option: builtins.str, default: object = _MISSING) -> "Section":
        """A nested table, e.g. ``[keypad.matrix]``."""
        return Section(self.raw(option, {} if default is _MISSING else default), f"{self.name}.{option}", self.path)

    def finish(self) -> None:
        """Reject options nobody read: a typo must not silently fall back to a default."""
        unknown = sorted(set(self.table) - self._seen)
        if unknown:
            import difflib  # for the error only: not at every start

            close = difflib.get_close_matches(unknown[0], sorted(self._seen), n=1)
            raise self.error(unknown[0], "unknown option"
                             + (f" (did you mean {close[0]}?)" if close else "")
                             + (f" (also unknown: {', '.join(unknown[1:])})" if len(unknown) > 1 else ""))
