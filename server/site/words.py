"""What the site says when it refuses: Czech, from a gettext catalog (as the counter's texts come
from theirs, input/messages.py), while the command line and the JSON answers keep English.

The catalog is ``server/site/locale/cs/LC_MESSAGES/site.po`` compiled to ``site.mo`` beside it
(``msgfmt -o site.mo site.po``). A msgid is the English text of a refusal: a template with
``{placeholders}`` where the refusal carries values (``server.league.said.Said``), else the whole
text. A refusal missing from the catalog is a test failure (tests/server/site/test_words.py),
and here its English text rather than an error.
"""
import functools
import gettext
from pathlib import Path

DOMAIN = "site"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")


@functools.cache
def catalog(language: str = "cs") -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def czech(said) -> str:
    """A refusal in Czech: a ``Said`` (its template and values) or a text."""
    template = getattr(said, "template", None)
    if template is None:
        return catalog().gettext(str(said))
    return catalog().gettext(template).format(**said.values)


def has(msgid: str) -> bool:
    return catalog().gettext(msgid) != msgid
