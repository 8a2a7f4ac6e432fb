"""What the site says when it refuses: Czech, from a gettext catalog (as the counter's texts come
from theirs, input/messages.py), while the command line and the JSON answers keep English.

The catalog is ``server/site/locale/cs/LC_MESSAGES/site.po`` compiled to ``site.mo`` beside it
(``msgfmt -o site.mo site.po``). A msgid is the English text of a refusal: the whole text, or a
template with ``{placeholders}`` where the text carries values. A ``Said`` (server.league.said)
brings its template and values; a plain text (a LeagueError's f-string) is matched against the
templates, the values read back from it and said in Czech in turn (a reason within a reason, an
English date or weekday). A refusal missing from the catalog is a test failure
(tests/server/site/test_words.py), and here its English text rather than an error.
"""
import datetime as dt
import functools
import gettext
import re
from pathlib import Path

from server.site import czech as czech_forms
from server.site import language

DOMAIN = "site"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
DEPTH = 3               # reasons within reasons said in Czech
EN_WEEKDAYS = czech_forms.EN_WEEKDAY_NAMES
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")
LONG_DATE = re.compile(rf"\b({'|'.join(EN_WEEKDAYS)}) (\d{{1,2}}) ({'|'.join(EN_MONTHS)}) (\d{{4}})\b")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
WEEKDAY_LIST = re.compile(rf"(?:{'|'.join(EN_WEEKDAYS)})(?:(?:, | or )(?:{'|'.join(EN_WEEKDAYS)}))*")


@functools.cache
def catalog(language: str = "cs") -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


@functools.cache
def _templates(language: str = "cs") -> tuple[tuple[re.Pattern, tuple[str, ...], str], ...]:
    """(the English text as a pattern, its placeholders, the Czech template) of every template of
    the catalog, the longest fixed text first (the most particular template wins)."""
    # msgid → msgstr: GNUTranslations' table of the .mo (not in its typed interface, there since Python 2)
    entries = catalog(language)._catalog         # type: ignore[attr-defined]
    found = []
    for msgid, msgstr in entries.items():
        if not isinstance(msgid, str) or not PLACEHOLDER.search(msgid):
            continue
        pattern = "(.+?)".join(re.escape(part) for part in PLACEHOLDER.split(msgid))
        found.append((len(PLACEHOLDER.sub("", msgid)), re.compile(pattern, re.S), tuple(PLACEHOLDER.findall(msgid)),
                      msgstr))
    found.sort(key=lambda entry: -entry[0])
    return tuple(entry[1:] for entry in found)


def czech(said) -> str:
    """A refusal in Czech: a ``Said`` (its template and values) or a text."""
    template = getattr(said, "template", None)
    if template is None:
        return _say(str(said), DEPTH)
    return catalog().gettext(template).format(**getattr(said, "site_values", said.values))


def _say(text: str, depth: int) -> str:
    if not text:
        return text
    whole = catalog().gettext(text)
    if whole != text or depth == 0:
        return _forms(whole)
    for pattern, names, template in _templates():
        found = pattern.fullmatch(text)
        if found:
            return _fill(template, {name: _say(value, depth - 1) for name, value in zip(names, found.groups())})
    return _forms(text)


def _fill(template: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(0), m.group(0)), template)


def _forms(text: str) -> str:
    """English dates and weekdays of a reason (server.league.workdays) the Czech way."""
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":       # a name as Python quotes it
        return f"„{text[1:-1]}“"
    if ISO_DATE.fullmatch(text):
        return czech_forms.day(text, year=True)
    if WEEKDAY_LIST.fullmatch(text):
        return " nebo ".join(", ".join(czech_forms.WEEKDAY_NAMES[EN_WEEKDAYS.index(d)] for d in part.split(", "))
                             for part in text.split(" or "))
    return LONG_DATE.sub(lambda m: czech_forms.day(dt.date(int(m[4]), EN_MONTHS.index(m[3]) + 1, int(m[2])),
                                                   year=True), text)


def said(refusal) -> str:
    """A refusal in the reader's language (server/site/language.py): Czech, or its English text, a
    value the site says otherwise (a rule's label for its key) in English where pages.po has it."""
    if not language.english():
        return czech(refusal)
    template = getattr(refusal, "template", None)
    if template is None:
        return str(refusal)
    english = {name: language.gettext(value) for name, value in refusal.site_values.items()
               if value != refusal.values.get(name) and isinstance(value, str) and language.gettext(value) != value}
    return template.format(**{**refusal.values, **english})


def has(msgid: str) -> bool:
    return catalog().gettext(msgid) != msgid
