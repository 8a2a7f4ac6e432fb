"""What ingestion demands of every field a page or a table reads (refused with 422 otherwise).

Texts are valid Unicode (no lone surrogates from a crafted JSON escape), printable and bounded;
ids are in a safe character set; partie numbers, points and seeds are whole numbers in range. A stored item therefore
always renders; the readers still survive one that does not (server/tables/items.py).
"""
import re

from rules.record import canonical
from server.league.errors import Refused

ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}")
SURROGATE_ESCAPE = re.compile(r"\\u[dD]")
MAX_TEXT = 200           # a team, player or venue name, a date
MAX_DEPTH = 12
MAX_PARTIE = 10_000
MAX_POINTS = 10_000      # a team's points in a match
MAX_SEED = 2 ** 53 - 1   # a match's lot: a number JSON readers all keep exact
SCALARS = frozenset({str, int, float, bool, type(None)})    # JSON's values that hold none


def safe_id(value, what: str) -> str:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise Refused(422, f"{what} must be 1 to 128 characters of A-Z a-z 0-9 . _ : @ + - "
                           f"(starting with a letter or digit), got {_shown(value)}")
    return value


def name(value, what: str, *, optional: bool = True):
    """A text shown on a page: a team, a player, a venue, a date."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise Refused(422, f"{what} must be a text of 1 to {MAX_TEXT} characters, got {_shown(value)}")
    if not _unicode(value) or not value.isprintable():
        raise Refused(422, f"{what} must be printable Unicode text, got {_shown(value)}")
    return value


def number(value, what: str, *, optional: bool = True):
    """A partie (individual match) number: a whole number 1 to 10,000."""
    return whole(value, what, 1, MAX_PARTIE, optional=optional)


def whole(value, what: str, least: int, most: int, *, optional: bool = False):
    """A whole number from ``least`` to ``most`` (JSON's true and false are no numbers)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise Refused(422, f"{what} must be a whole number {least} to {most:,}, got {_shown(value)}")
    return value


def all_unicode(value, what: str, *, escaped: bool = True) -> None:
    """Every text (keys too) anywhere in a summary or header is valid Unicode; nesting is bounded.
    (One pass of the JSON encoder finds a lone surrogate anywhere; the walk for the nesting only
    descends into objects and lists.) ``escaped=False``: the value was read from JSON text without
    a raw surrogate and without an escape that could spell one (``surrogate_escape``), so it holds
    none and the pass is saved."""
    _nested(value, what, 0)
    if not escaped:
        return
    try:
        canonical(value).encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(422, f"{what} holds text that is not valid Unicode") from None


def surrogate_escape(text: str) -> bool:
    """True when JSON text may spell a lone surrogate: JSON writes one only as a "\\ud…" or
    "\\uD…" escape (text read as UTF-8 holds none as such); a false alarm costs the full check.
    (A regular expression: ``in`` is slower here, a body's JSON being full of backslashes.)"""
    return SURROGATE_ESCAPE.search(text) is not None


def _nested(value, what: str, depth: int) -> None:
    """Nothing (a key, a value) deeper than MAX_DEPTH levels."""
    if not isinstance(value, (dict, list)) or not value:
        return
    if depth + 1 > MAX_DEPTH:
        raise Refused(422, f"{what} is nested too deeply")
    for item in value.values() if isinstance(value, dict) else value:
        # a summary's many numbers and texts cost no call each, nor an isinstance (which, when
        # false, looks up the value's __class__)
        if type(item) not in SCALARS and isinstance(item, (dict, list)):
            _nested(item, what, depth + 1)


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(value) -> str:
    return ascii(value)[:60]
