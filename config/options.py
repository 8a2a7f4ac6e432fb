"""Typed option reading for one TOML section, in the manner of Klipper's config helpers.

Each subsystem reads its own section::

    sec = Section(doc.get("display", {}), "display", path)
    width = sec.int("width", 64, minimum=8)
    driver = sec.choice("driver", ("max7219", "sevensegment", "ws2812"), "max7219")
    sec.finish()          # unknown keys are errors, so typos do not pass silently

Every ConfigError reads like ``/etc/pocitadlo/config.toml: [display] width: expected a whole
number, got "wide"``.
"""
import difflib
import math
from typing import Any

_MISSING = object()


class ConfigError(Exception):
    def __init__(self, path, section: str, option: str | None, problem: str):
        self.path, self.section, self.option, self.problem = str(path), section, option, problem
        where = f"[{section}]" + (f" {option}" if option else "")
        super().__init__(f"{self.path}: {where}: {problem}")


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


class Section:
    def __init__(self, table: Any, name: str, path="config.toml"):
        self.name, self.path = name, path
        if not isinstance(table, dict):
            raise ConfigError(path, name, None, f"expected a table, got {_show(table)}")
        self.table = table
        self._seen: set[str] = set()

    def error(self, option: str | None, problem: str) -> ConfigError:
        return ConfigError(self.path, self.name, option, problem)

    def has(self, option: str) -> bool:
        return option in self.table

    def _get(self, option: str, default: Any) -> Any:
        self._seen.add(option)
        if option in self.table:
            return self.table[option]
        if default is _MISSING:
            raise self.error(option, "required option is missing")
        return default

    def int(self, option: str, default: Any = _MISSING, *, minimum=None, maximum=None):
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(option, f"expected a whole number, got {_show(value)}")
        if minimum is not None and value < minimum:
            raise self.error(option, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.error(option, f"must be at most {maximum}, got {value}")
        return value

    def float(self, option: str, default: Any = _MISSING, *, minimum=None, maximum=None):
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(option, f"expected a number, got {_show(value)}")
        if not math.isfinite(value):
            raise self.error(option, f"expected a finite number, got {_show(value)}")
        if minimum is not None and value < minimum:
            raise self.error(option, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.error(option, f"must be at most {maximum}, got {value}")
        return float(value)

    def bool(self, option: str, default: Any = _MISSING):
        value = self._get(option, default)
        if not isinstance(value, bool) and not (value is default and option not in self.table):
            raise self.error(option, f"expected true or false, got {_show(value)}")
        return value

    def str(self, option: str, default: Any = _MISSING, *, nonempty: bool = False):
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if not isinstance(value, str):
            raise self.error(option, f"expected a text in quotes, got {_show(value)}")
        if nonempty and not value.strip():
            raise self.error(option, "must not be empty")
        return value

    def choice(self, option: str, choices, default: Any = _MISSING):
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if value not in choices:
            listed = ", ".join(_show(c) for c in choices)
            raise self.error(option, f"must be one of {listed}, got {_show(value)}")
        return value

    def list(self, option: str, default: Any = _MISSING, *, item=None):
        """A TOML array; ``item(value, index)`` may convert or reject each element."""
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if not isinstance(value, list):
            raise self.error(option, f"expected a list [ ... ], got {_show(value)}")
        if item is None:
            return list(value)
        out = []
        for index, element in enumerate(value):
            try:
                out.append(item(element))
            except (TypeError, ValueError) as exc:
                raise self.error(option, f"item {index + 1}: {exc}") from None
        return out

    def mapping(self, option: str, default: Any = _MISSING) -> Any:
        """An inline table such as ``{ 1 = 4, 2 = 5 }``, returned as a dict (keys are texts)."""
        value = self._get(option, default)
        if value is default and option not in self.table:
            return value
        if not isinstance(value, dict):
            raise self.error(option, f"expected a table {{ key = value, ... }}, got {_show(value)}")
        return dict(value)

    def section(self, option: str, default: Any = _MISSING) -> "Section":
        """A nested table, e.g. ``[keypad.matrix]``."""
        value = self._get(option, {} if default is _MISSING else default)
        return Section(value, f"{self.name}.{option}", self.path)

    def finish(self) -> None:
        """Reject options nobody read: a typo must not silently fall back to a default."""
        unknown = sorted(set(self.table) - self._seen)
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(self._seen), n=1)
            raise self.error(unknown[0], "unknown option"
                             + (f" (did you mean {close[0]}?)" if close else "")
                             + (f" (also unknown: {', '.join(unknown[1:])})" if len(unknown) > 1 else ""))
