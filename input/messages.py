"""What the counter and the referee's menus say: one gettext catalog per language.

The catalogs are ``input/locale/<language>/LC_MESSAGES/pocitadlo.po`` (the source a translator
edits) compiled to ``pocitadlo.mo`` beside it (``msgfmt -o pocitadlo.mo pocitadlo.po``); both
ship as package data. A msgid is the text's id in the code: a plain id for screens, menus and
prompts (``say``), ``refusal.<code>`` for the rule core's refusals by error code, ``label.<action>``
for the key card. Czech is the default and the language of anything not offered. A text missing
from a catalog is a test failure (tests/input/test_catalogs.py), never a runtime error.

Texts are short on purpose: the wall counter shows a message line of a few words.
"""
import functools
import gettext
import os

from rules.errors import IllegalCommand, RuleError

LANGUAGES = ("cs", "en")
DOMAIN = "pocitadlo"
# os.path, not pathlib: pathlib (and urllib.parse with it) is not imported before READY otherwise
LOCALE_DIR = os.path.join(os.path.dirname(os.path.realpath(__file__)), "locale")


class Said(IllegalCommand):
    """A refusal whose text is already the referee's words (a hint on a wrong key)."""


@functools.cache
def catalog(language: str) -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language if language in LANGUAGES else "cs"])


def has(msgid: str, language: str = "cs") -> bool:
    return catalog(language).gettext(msgid) != msgid


def say(text_id: str, language: str = "cs", **values) -> str:
    text = catalog(language).gettext(text_id)
    return text.format(**values) if values else text


def game_text(text_id: str, game: str, language: str = "cs", **values) -> str:
    """A text in the words of ``game``: its own ``<id>_<game>`` where the catalog has one (8-ball
    says "zápas" where carom says "partie"), else the plain id's."""
    own = f"{text_id}_{game}"
    return say(own if has(own, language) else text_id, language, **values)


def refusal(error: RuleError, language: str = "cs", names: dict | None = None) -> str:
    """The referee's short text for a refusal: by the error's code and reason (``why``: which
    limit a correction breaks, naming the player by ``names``, the record header), the words a
    ``Said`` carries, or "Teď nelze" for a code without a text of its own."""
    if isinstance(error, Said):
        return str(error)
    msgid = f"refusal.{getattr(error, 'code', None)}"
    why = getattr(error, "why", None)
    if why and has(f"{msgid}.{why}", language):
        values = dict(error.values)
        side = values.get("player")
        if side is not None:
            values["who"] = (names or {}).get(side) or side.upper()
        return say(f"{msgid}.{why}", language, **values)
    return say(msgid if has(msgid, language) else "refused", language)


def label(action: str, language: str = "cs") -> str:
    """The short label of a key's action (the key card, hints); the action's name if it has none."""
    msgid = f"label.{action}"
    return say(msgid, language) if has(msgid, language) else action


def keypad_fault_text(detail: str, language: str = "cs") -> str:
    """What the counter says of a keypad lost (``detail``: the device's own English words, which
    go to the log): what is wrong and what to do."""
    if detail in ("unplugged", "disconnected"):
        return say("keypad_unplugged", language)
    if detail.startswith("cannot open"):
        return say("keypad_cannot_open", language)
    return say("keypad_fault", language)


def storage_text(error: OSError, language: str = "cs") -> str:
    """What the counter says when the SD card refused a write: that nothing was written, and
    what to do (the path and the system's words go to the log)."""
    import errno

    kind = {errno.ENOSPC: "sd_full", errno.EDQUOT: "sd_full", errno.EROFS: "sd_read_only",
            errno.EIO: "sd_failing"}.get(error.errno or 0, "sd_write")
    return say(kind, language)


class Texts:
    """``say`` bound to one language: ``t("present", team=...)``."""

    def __init__(self, language: str):
        self.language = language

    def __call__(self, text_id: str, **values) -> str:
        return say(text_id, self.language, **values)

    def has(self, text_id: str) -> bool:
        return has(text_id, self.language)

    def game(self, text_id: str, game: str, **values) -> str:
        """``text_id`` in the words of ``game`` (game_text)."""
        return game_text(text_id, game, self.language, **values)
