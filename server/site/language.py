"""The language a reader reads the league's site in (the public pages and the organiser's web
admin): Czech, unless the reader chose English (the ``lang`` cookie, set by ``/language``,
server/site/language_web.py); any other value is Czech.

The site's texts are Czech literals in the code and the templates, and they are the msgids of the
English catalog ``server/site/locale/en/LC_MESSAGES/pages.po`` (compiled to ``pages.mo`` beside
it: ``msgfmt -o pages.mo pages.po``): Czech, the default, is the text as written, so no Czech page
changes, and English is a look-up. A text with values is a template with ``{names}`` (Python) or
``%(names)s`` (Jinja2's i18n extension). A text missing from the catalog is shown in Czech here and
is a test failure (tests/server/site/test_english.py).

The language of the request being answered is a context variable (``reading``), set where a page
is answered (server/site/routes.py): the page builders and the templates ask for it when they
speak, so no builder carries it. A text fixed at import (a column's heading, a status word) is a
``Msg``: the templates translate it as they show it (the environment's ``finalize``), ``say``
translates it in a sentence.

A text ``say`` and ``plural`` say is ``Said``: it can say itself again in another language
(``in_language``), its values that are ``Said`` too said again in it; so the admin's "done" text
is told in the organiser's language and kept in the audit log in the league's, Czech. A value
a function words in the reader's language (a date, the weekdays) is ``Said`` through ``speaks``,
texts said one after another through ``joined``.
"""
import contextvars
import functools
import gettext as gettext_module
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from starlette.requests import cookie_parser

CZECH, ENGLISH = "cs", "en"
LANGUAGES = (CZECH, ENGLISH)
COOKIE = "lang"
DOMAIN = "pages"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")
LONGEST_COOKIES = 4096          # a longer Cookie header is not read (its choice: Czech)
_language = contextvars.ContextVar("site_language", default=CZECH)
_address = contextvars.ContextVar("site_address", default="/")


class Msg(str):
    """A Czech text of the site fixed at import: shown in the reader's language."""
    __slots__ = ()


def N_(text: str) -> Msg:
    """``text`` marked for translation where it is shown (gettext's own name for it)."""
    return Msg(text)


def chosen(scope) -> str:
    """The language a request's ``lang`` cookie chooses: English only when it says exactly so."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie" and len(value) <= LONGEST_COOKIES:
            if cookie_parser(value.decode("latin-1")).get(COOKIE) == ENGLISH:
                return ENGLISH
    return CZECH


@contextmanager
def reading(language: str, address: str = "/"):
    """Speak ``language`` (the page at ``address``: where the language switch leads back) within."""
    tokens = _language.set(language if language in LANGUAGES else CZECH), _address.set(address)
    try:
        yield
    finally:
        _language.reset(tokens[0])
        _address.reset(tokens[1])


def current() -> str:
    return _language.get()


def address() -> str:
    return _address.get()


def english() -> bool:
    return current() == ENGLISH


@functools.cache
def catalog(language: str) -> gettext_module.NullTranslations:
    if language == CZECH:
        return gettext_module.NullTranslations()
    return gettext_module.translation(DOMAIN, LOCALE_DIR, languages=[language])


def gettext(text: str) -> str:
    return catalog(current()).gettext(text) if text else text        # "" is the catalog's header


def ngettext(few: str, many: str, n: int) -> str:
    """A count's text: Czech as the code writes it (``few`` for 1 to 4: "1 partie", "4 partie";
    ``many`` from 5 and for 0: "5 partií"), other languages by their catalog's plural forms."""
    if current() == CZECH:
        return few if n in (1, 2, 3, 4) else many
    return catalog(current()).ngettext(few, many, n)


def shown(value):
    """A value as a template shows it: a ``Msg`` in the reader's language."""
    return gettext(value) if isinstance(value, Msg) else value


class Said(str):
    """A text said in the reader's language that can say itself again in another (``again``
    speaks it in the language being read)."""
    language: str
    _again: Callable[[], str]

    def __new__(cls, again: Callable[[], str]):
        said = super().__new__(cls, again())
        said.language, said._again = current(), again
        return said

    def __reduce__(self):
        return str, (str(self),)            # a copy (or a pickle) is the text as said: it cannot say again

    def in_language(self, language: str) -> str:
        if language == self.language:
            return str(self)
        with reading(language, address()):
            return str(self._again())


def _now(value):
    """A value as said in the language being read: a ``Msg`` translated, a ``Said`` said again."""
    return value.in_language(current()) if isinstance(value, Said) else shown(value)


def _filled(values: dict) -> dict:
    return {name: _now(value) for name, value in values.items()}


def say(text: str, **values) -> str:
    """``text`` in the reader's language, its ``{names}`` filled with ``values`` (a ``Msg`` or a
    ``Said`` among them said too)."""
    return Said(lambda: gettext(text).format(**_filled(values)))


def plural(few: str, many: str, n: int, **values) -> str:
    """``ngettext``'s text, its ``{n}`` and ``{names}`` filled."""
    return Said(lambda: ngettext(few, many, n).format(n=n, **_filled(values)))


def speaks(words: Callable[..., str]) -> Callable[..., str]:
    """``words`` (a function that words a value in the reader's language) giving a ``Said``."""
    @functools.wraps(words)
    def said(*args, **kwargs) -> str:
        return Said(lambda: words(*args, **kwargs))
    return said


def joined(texts: Iterable, separator: str = "") -> str:
    """Texts (``Said`` or not) said one after another, as one ``Said``."""
    texts = tuple(texts)
    return Said(lambda: separator.join(_now(text) for text in texts))


def in_language(text: str, language: str) -> str:
    """``text`` in ``language`` if it is ``Said``; any other text as it is."""
    return text.in_language(language) if isinstance(text, Said) else text


SWITCH = {CZECH: (ENGLISH, "English"), ENGLISH: (CZECH, "Česky")}       # each in its own language


def switch() -> dict:
    """The link to the page being answered in the other language (the page chrome's switch)."""
    other, label = SWITCH[current()]
    return {"label": label, "lang": other, "href": "/language?" + urlencode({"to": other, "back": address()})}
