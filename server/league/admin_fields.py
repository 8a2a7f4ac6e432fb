"""The league's administrative input checked before it reaches the store: names, phones, weekdays,
dates and season halves (A.2.1). Every refusal is a LeagueError whose text says what is wrong;
the CLI prints it, the web admin shows it beside the form.
"""
import datetime as dt
import re
import unicodedata

from server.league import names

NAME_MAX = 100           # characters of a season, team, venue, player or captain name
PHONE_MAX = 30
REASON_MAX = 500
WEEKDAYS = ("po", "út", "st", "čt", "pá")       # A.2.2: matches on working days, Monday (0) to Friday (4)
COMPETITIONS = ("carom", "8ball")
SEASON = re.compile(r"(\d{4})/(\d{2})")
AUTUMN, SPRING = (10, 11), (3, 4)               # A.2.1: autumn October-November, spring March-April


class LeagueError(ValueError):
    """Administrative input the league refuses; the text is the reason, for the organiser."""


def text(value, what: str, *, limit: int = NAME_MAX, empty: bool = False) -> str:
    """A one-line text, trimmed: printable, at most ``limit`` characters (``empty``: may be blank)."""
    if not isinstance(value, str):
        raise LeagueError(f"{what} must be text")
    value = unicodedata.normalize("NFC", value.strip())
    if not value and not empty:
        raise LeagueError(f"{what} must not be empty")
    if len(value) > limit:
        raise LeagueError(f"{what} is {len(value)} characters long, at most {limit} allowed")
    if not value.isprintable():
        raise LeagueError(f"{what} must be one line of printable characters")
    return value


def name(value, what: str) -> str:
    """A venue, team, player or captain name: a one-line text kept in its cleaned spelling (NFC,
    trimmed, inner whitespace one space: server.league.names)."""
    return names.cleaned(text(value, what))


def near_duplicate(what: str, given: str, existing: str) -> "LeagueError":
    """The refusal of a name that is an existing one spelled otherwise (server.league.names)."""
    return LeagueError(f"{what} {given!r} is the {what} {existing!r} already there (names are compared "
                       f"without regard to case and spacing); write it as {existing!r}")


def phone(value) -> str:
    """A captain's phone number (A.3.2): digits, spaces and a leading +, at least 9 digits."""
    value = text(value, "the captain's phone", limit=PHONE_MAX)
    if not re.fullmatch(r"\+?[0-9 ]+", value) or sum(c.isdigit() for c in value) < 9:
        raise LeagueError(f"the captain's phone must be digits (at least 9), spaces and a leading +, got {value!r}")
    return value


def competition(value) -> str:
    if value not in COMPETITIONS:
        raise LeagueError(f"the competition must be one of {', '.join(COMPETITIONS)}, got {value!r}")
    return value


def season_name(value) -> str:
    """"2026/27": the second year follows the first."""
    found = SEASON.fullmatch(str(value).strip())
    if not found or (int(found[1]) + 1) % 100 != int(found[2]):
        raise LeagueError(f"a season is written like 2026/27 (two years that follow), got {value!r}")
    return found[0]


def season_containing(day: dt.date) -> str:
    """"2026/27" for a day from 2026-07-01 to 2027-06-30 (as server.tables.sums names a match's season)."""
    start = day.year if day.month >= 7 else day.year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def date(value, what: str = "the date") -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise LeagueError(f"{what} must be a date like 2026-10-05, got {str(value)[:40]!r}") from None


def start(value, what: str = "the start") -> dt.time:
    """A match's start, "17:00" (A.2.2: from 17:00 unless the organiser sets another)."""
    found = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", str(value).strip())
    if not found:
        raise LeagueError(f"{what} must be a time like 17:00, got {str(value)[:20]!r}")
    return dt.time(int(found[1]), int(found[2]))


def days(value) -> frozenset[int]:
    """Weekdays as "po,st" or "0,2" (Monday 0 … Friday 4); empty: any working day."""
    if isinstance(value, (set, frozenset, list, tuple)):
        parts = [str(v) for v in value]
    else:
        parts = [p for p in re.split(r"[,\s]+", str(value).strip().casefold()) if p]
    out = set()
    for part in parts:
        if part in WEEKDAYS:
            out.add(WEEKDAYS.index(part))
        elif part.isdigit() and int(part) < len(WEEKDAYS):
            out.add(int(part))
        else:
            raise LeagueError(f"weekdays are {', '.join(WEEKDAYS)} or 0-4 (Monday to Friday, A.2.2), got {part!r}")
    return frozenset(out)


def days_text(value: frozenset[int] | str) -> str:
    """The stored form of weekdays: "0,2" (empty: any)."""
    return ",".join(str(d) for d in sorted(days(value)))


def days_label(stored: str) -> str:
    """"po, st" for the stored "0,2" ("any working day" when empty)."""
    return ", ".join(WEEKDAYS[d] for d in sorted(days(stored))) or "any working day"


def halves(season: str, autumn=None, spring=None) -> tuple[tuple[dt.date, dt.date], tuple[dt.date, dt.date]]:
    """The season's two halves (A.2.1): autumn within October-November of its first year, spring
    within March-April of its second; each given as (first, last) or "FIRST..LAST"; default: the
    whole months."""
    start = int(season_name(season)[:4])
    return (_half(autumn, start, AUTUMN, "the autumn half"), _half(spring, start + 1, SPRING, "the spring half"))


def _half(value, year: int, months: tuple[int, int], what: str) -> tuple[dt.date, dt.date]:
    if value in (None, ""):
        return dt.date(year, months[0], 1), dt.date(year, months[1] + 1, 1) - dt.timedelta(days=1)
    if isinstance(value, str):
        if ".." not in value:
            raise LeagueError(f"{what} is written FIRST..LAST, e.g. {year}-{months[0]:02d}-01..{year}-"
                              f"{months[1]:02d}-30, got {value[:40]!r}")
        value = value.split("..", 1)
    first, last = (date(v, what) for v in value)
    if first > last:
        raise LeagueError(f"{what} ends ({last}) before it begins ({first})")
    for day in (first, last):
        if day.year != year or not months[0] <= day.month <= months[1]:
            raise LeagueError(f"{what} must lie within {MONTHS[months[0]]}-{MONTHS[months[1]]} {year} "
                              f"(A.2.1), {day} does not")
    return first, last


MONTHS = ("", "January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def slug(value: str) -> str:
    """An ASCII id part: "Sokol Dvůr" -> "sokol-dvur"."""
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", folded)) or "x"
