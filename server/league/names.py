"""Names as identities (issue 22): a venue, a team or a player is one name however it is typed.

Two names are the same when they are after Unicode NFC, trimmed, with every run of inner
whitespace one space, and case folded (Czech letters fold like any other: "Ř" is "ř"):
``na  růžku`` is the venue ``Na Růžku``, ``  jan  novák `` is Jan Novák. A name is stored in its
cleaned spelling (``cleaned``); a new name that is the same as a stored one but spelled otherwise
is refused naming the stored one (``server.storage.league``). A player's name is also taken as
another player's when it differs only in its accents (``unaccented``: "Jiří Kral" is Jiří Král on
the roster, A.3.4, as on the site's player search), while a venue or team keeps them in its identity.
A match record's player goes by the name his team's roster has for him (``on_roster``).
"""
import functools
import unicodedata
from collections.abc import Callable, Iterable


def cleaned(name: str) -> str:
    """The spelling kept: NFC, trimmed, inner whitespace one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def identity(name: str) -> str:
    """What two names are compared by: the cleaned name, case folded (and composed again: a
    folded letter may decompose)."""
    return unicodedata.normalize("NFC", cleaned(name).casefold())


def unaccented(name: str) -> str:
    """The identity without accents: what the site's player search and the rosters' one-team-a-season
    check (A.3.4) compare ("jan novak" is Jan Novák)."""
    return "".join(c for c in unicodedata.normalize("NFD", identity(name)) if not unicodedata.combining(c))


def same(a: str | None, b: str | None) -> bool:
    """Both names given and the same name (one spelling twice, the usual case, is not cleaned)."""
    return a is not None and b is not None and (a == b or identity(a) == identity(b))


def find(name: str, names: Iterable[str], *, by: Callable[[str], str] = identity) -> str | None:
    """The one of ``names`` that is ``name`` (its stored spelling), or None; ``by``: what they are
    compared by (``unaccented`` for a player on the rosters)."""
    wanted = by(name)
    return next((known for known in names if by(known) == wanted), None)


# a match record's every player is compared with each name of his team's roster, match after match:
# the players' names (bounded, as the records' and the rosters' are) kept unaccented
_player_key = functools.lru_cache(maxsize=4096)(unaccented)


def on_roster(name: str, roster: Iterable[str], renamed: dict[str, str]) -> str:
    """The name a team's match record's player goes by in its season (A.3.4): the organiser's
    correction of the recorded name (``renamed``: old -> new), then the roster's spelling of a
    name differing from it only in case, spacing or accents; else the name as recorded."""
    wanted = _player_key(name)
    corrected = next((new for old, new in renamed.items() if _player_key(old) == wanted), name)
    return find(corrected, roster, by=_player_key) or corrected


def duplicates(names: Iterable[str]) -> dict[str, list[str]]:
    """Identity -> the spellings of the names that share it, for the identities with more than one
    (in the order given)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(identity(name), []).append(name)
    return {key: spellings for key, spellings in groups.items() if len(spellings) > 1}
