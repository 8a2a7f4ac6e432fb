"""How the league's pages write dates, times and numbers: the Czech way, in the league's time zone
(on an English page the English way: "Tue 13 Oct 2026", "3.500"; server/site/language.py).

A day is "út 13. 10." (with the year where a page lists more than one season: "út 13. 10. 2026");
a moment the receiver stored in UTC is shown in Europe/Prague ("út 13. 10. 2026 19:05"); a
decimal number has a comma ("3,500"). JSON and CSV keep the machine forms; only HTML uses these.
"""
import datetime as dt
from zoneinfo import ZoneInfo

from server.site import language

PRAGUE = ZoneInfo("Europe/Prague")
WEEKDAYS = ("po", "út", "st", "čt", "pá", "so", "ne")
WEEKDAY_NAMES = ("pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle")
EN_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DASH = "–"
EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _date(value) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def day(value, *, year: bool = False) -> str:
    """"út 13. 10." for 2026-10-13 (``year``: "út 13. 10. 2026"; English: "Tue 13 Oct 2026"); a
    date it cannot read as it is."""
    date = _date(value)
    if date is None:
        return DASH if value in (None, "") else str(value)
    if language.english():
        text = f"{EN_WEEKDAYS[date.weekday()]} {date.day} {EN_MONTHS[date.month - 1]}"
    else:
        text = f"{WEEKDAYS[date.weekday()]} {date.day}. {date.month}."
    return f"{text} {date.year}" if year else text


def local(value) -> dt.datetime | None:
    """A stored moment (ISO 8601; UTC when it names no zone) in Prague's time."""
    if isinstance(value, dt.datetime):
        moment = value
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value))
        except ValueError:
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return moment.astimezone(PRAGUE)


def moment(value) -> str:
    """"út 13. 10. 2026 19:05": a stored UTC moment in Prague's time."""
    when = local(value)
    if when is None:
        return DASH if value in (None, "") else str(value)
    return f"{day(when, year=True)} {when:%H:%M}"


def iso_local(value) -> str:
    """The moment in Prague's time as a ``<time datetime>`` attribute wants it."""
    when = local(value)
    return when.isoformat(timespec="minutes") if when else ""


def fixture_time(date, start) -> str:
    """"út 13. 10. 2026 17:00": a fixture's day and starting time (already Prague's)."""
    return f"{day(date, year=True)} {start}" if start else day(date, year=True)


def match_name(home, away, date) -> str:
    """"Sokol Dvůr – Jiskra Hořice, út 13. 10. 2026": a match as people name it."""
    teams = f"{home or DASH} – {away or DASH}"
    return f"{teams}, {day(date, year=True)}" if date else teams


def decimal(value) -> str:
    """"3,500" for "3.500" (or 3.5): the Czech decimal comma (English keeps the point); anything
    else unchanged."""
    if value is None:
        return DASH
    text = str(value)
    head, dot, tail = text.partition(".")
    if dot and tail.isdigit() and head.lstrip("+-").isdigit() and not language.english():
        return f"{head},{tail}"
    return text


def signed(number: int) -> str:
    """"+3", "0", "−2" (a real minus sign, as Czech typesetting writes it)."""
    return f"+{number}" if number > 0 else ("0" if number == 0 else f"−{-number}")


def weekday_names() -> tuple[str, ...]:
    """The weekdays' names, Monday first, in the reader's language."""
    return EN_WEEKDAY_NAMES if language.english() else WEEKDAY_NAMES


def weekdays(stored: str) -> str:
    """"pondělí, středa" for the stored "0,2"; "kterýkoli pracovní den" when none is named."""
    days = sorted(int(d) for d in str(stored).split(",") if d.strip().isdigit())
    return ", ".join(weekday_names()[d] for d in days) or language.say("kterýkoli pracovní den")


def today(clock) -> dt.date:
    """The league's date now (Prague), whatever the machine's zone."""
    return clock.utc().astimezone(PRAGUE).date()
