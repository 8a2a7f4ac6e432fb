"""Working days in the Czech Republic (A.2.2: league matches are played on working days only):
Monday to Friday, not a public holiday. Pure: no clock, no I/O."""
import datetime
from functools import lru_cache

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")

# (month, day) of the fixed public holidays: New Year / Restoration Day, Labour Day, Victory Day,
# Cyril and Methodius, Jan Hus, Czech Statehood Day, Independence Day, Struggle for Freedom and
# Democracy Day, Christmas Eve, Christmas Day, St Stephen's Day.
FIXED_HOLIDAYS = ((1, 1), (5, 1), (5, 8), (7, 5), (7, 6), (9, 28), (10, 28), (11, 17),
                  (12, 24), (12, 25), (12, 26))


def easter_sunday(year: int) -> datetime.date:
    """Easter Sunday of the Gregorian calendar (the anonymous Gregorian algorithm, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * el) // 433
    month = (h + el - 7 * m + 90) // 25
    return datetime.date(year, month, (h + el - 7 * m + 33 * month + 19) % 32)


@lru_cache(maxsize=64)
def czech_holidays(year: int) -> frozenset[datetime.date]:
    """The Czech public holidays of `year`: the fixed ones, Good Friday and Easter Monday."""
    easter = easter_sunday(year)
    movable = {easter - datetime.timedelta(days=2), easter + datetime.timedelta(days=1)}
    return frozenset({datetime.date(year, month, day) for month, day in FIXED_HOLIDAYS} | movable)


def working_day(day: datetime.date, holidays: frozenset[datetime.date] = frozenset()) -> bool:
    """A.2.2: Monday to Friday, not a Czech public holiday and not one of the league's extra `holidays`."""
    return day.weekday() < 5 and day not in czech_holidays(day.year) and day not in holidays


def day_off_reason(day: datetime.date, holidays: frozenset[datetime.date] = frozenset()) -> str | None:
    """Why `day` is not a working day (A.2.2), or None when it is one."""
    if day.weekday() >= 5:
        return f"{long_date(day)} is a weekend day"
    if day in czech_holidays(day.year):
        return f"{long_date(day)} is a public holiday"
    if day in holidays:
        return f"{long_date(day)} is a day off of the league"
    return None


def long_date(day: datetime.date) -> str:
    """'Wednesday 14 October 2026' (English names, independent of the machine's locale)."""
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def weekday_list(days: frozenset[int]) -> str:
    """'Tuesday or Thursday' for {1, 3}."""
    names = [WEEKDAYS[d] for d in sorted(days)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
