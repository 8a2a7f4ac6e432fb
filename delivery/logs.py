"""Loggers that import ``logging`` at their first use, not when their module is imported (issue 27:
``logging``, with traceback, tokenize and textwrap, is ~7 % of the instructions of `pocitadlo run`
to READY=1, and a start that goes well logs nothing before it but the lit counter's line, which
cli.commands.run writes itself).

``Logger(name)`` stands for ``logging.getLogger(name)``. ``set_up(setup)`` names what configures
logging (cli.commands.run: the level and the format); ``ensure()`` runs it once — at the first use
of any of these loggers, or before a library that logs through ``logging`` itself (luma, Pillow) is
imported — and returns ``logging``.
"""
import threading
import types
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()
_setup: Callable[[], None] | None = None


def set_up(setup: Callable[[], None]) -> None:
    global _setup
    with _lock:
        _setup = setup


def ensure() -> types.ModuleType:
    """``logging``, set up (once) by what ``set_up`` named."""
    global _setup
    with _lock:                     # a second thread logs only once the first has set it up
        setup, _setup = _setup, None
        if setup is not None:
            setup()
    import logging

    return logging


class Logger:
    """``logging.getLogger(name)``: its methods, with ``logging`` imported and set up at the first call."""

    def __init__(self, name: str):
        self.name = name

    def __getattr__(self, attr: str) -> Any:
        logger = self.__dict__.get("_logger")
        if logger is None:
            logger = self._logger = ensure().getLogger(self.name)
        return getattr(logger, attr)
