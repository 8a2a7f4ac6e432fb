"""Placing one leg of the schedule on the working days of its half (A.2.1, A.2.2, A.2.4).

Each round of a leg aims at a day of the half (`aims`): one round a week, in the fullest weeks evenly
spread, when the half has as many weeks as the leg has rounds, else evenly spread working days;
its matches take days of that day's week. A team plays at most one match a day and a venue hosts
at most one a day (hard); among the free days a match prefers, in this order: a day its venue is
open, its own week (else the nearest), the home team's requested weekdays, the away team's, a day
after both teams' earlier matches, the day nearest the round's aim, the earlier day. A match with
no free working day in the whole half is placed on the first free working day after it (and
reported). Last, a match whose home team's wish is not met gets a second chance in the week before
or after (`_for_the_home_team`). Entrants are duck-typed: `.team`, `.venue`, `.days`."""
import datetime
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from server.league.workdays import working_day

ONE_DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Leg:
    """What every placement needs: the venues' opening days, the league's days off, the start."""
    opening: dict[str, frozenset[int]]
    holidays: frozenset[datetime.date]
    start: datetime.time


@dataclass
class Placed:
    """A placed leg: (round, date, home entrant, away entrant) for each match; the (round, home, away)
    of the matches placed after the half; who is busy on which days (teams and venues, this leg and
    the ones before it)."""
    matches: list[tuple[int, datetime.date, Any, Any]] = field(default_factory=list)
    unplaced: set[tuple[int, str, str]] = field(default_factory=set)
    busy: dict[tuple[str, str], set[datetime.date]] = field(default_factory=dict)


def dishonoured(leg: Leg, day: datetime.date, home, away) -> list[tuple[str, str, frozenset[int]]]:
    """The wishes a match of `home` against `away` on `day` does not honour (A.2.4), as
    (kind, who, asked): ("venue", venue, open days), ("home", team, days), ("away", team, days)."""
    found = []
    open_days = leg.opening.get(home.venue)
    if open_days and day.weekday() not in open_days:
        found.append(("venue", home.venue, frozenset(open_days)))
    for kind, entrant in (("home", home), ("away", away)):
        if entrant.days and day.weekday() not in entrant.days:
            found.append((kind, entrant.team, frozenset(entrant.days)))
    return found


def place_leg(leg: Leg, table, half, first_round: int, busy=None) -> Placed:
    """Place the rounds of `table` (lists of (home, away) entrants) in `half`, numbered from `first_round`."""
    placed = Placed(busy={key: set(days) for key, days in (busy or {}).items()})
    days = [d for d in _dates(half.first, half.last) if working_day(d, leg.holidays)]
    targets = aims(days, len(table))
    for k, (pairs, aim) in enumerate(zip(table, targets)):
        for home, away in sorted(pairs, key=lambda pair: _freedom(leg, days, aim, *pair)):
            day = _best_day(leg, placed, days, aim, home, away) if days and aim is not None else None
            if day is None:
                day = _after(placed, half.last, leg.holidays, home, away)
                placed.unplaced.add((first_round + k, home.team, away.team))
            for key in _keys(home, away):
                placed.busy.setdefault(key, set()).add(day)
            placed.matches.append((first_round + k, day, home, away))
    rounds_in = Counter(_monday(days[aim]) for aim in targets if aim is not None)
    placed.matches = [_for_the_home_team(leg, placed, days, rounds_in, match) for match in placed.matches]
    return placed


def _for_the_home_team(leg: Leg, placed: Placed, days, rounds_in: Counter, match):
    """`match`, moved to a day of the week before or after its own when that meets its home team's
    wish (and its venue's opening days) where its own week could not: on a day both teams and the
    venue are free, and neither team then plays more than one match beyond the week's rounds."""
    r, day, home, away = match
    if day not in days or "home" not in {kind for kind, _, _ in dishonoured(leg, day, home, away)}:
        return match
    keys = _keys(home, away)
    near = [d for d in days if abs((_monday(d) - _monday(day)).days) == 7
            and not {"venue", "home"} & {kind for kind, _, _ in dishonoured(leg, d, home, away)}
            and not any(d in placed.busy.get(key, ()) for key in keys)
            and not _crowded(placed, keys[:2], _monday(d), max(2, rounds_in[_monday(d)]))]
    if not near:
        return match
    better = min(near, key=lambda d: (bool(dishonoured(leg, d, home, away)), abs((d - day).days), d))
    for key in keys:
        placed.busy[key].discard(day)
        placed.busy[key].add(better)
    return r, better, home, away


def _crowded(placed: Placed, teams, monday: datetime.date, most: int) -> bool:
    """A team of `teams` already plays `most` matches in the week of `monday`."""
    return any(sum(1 for d in placed.busy.get(key, ()) if _monday(d) == monday) >= most for key in teams)


def aims(days: list[datetime.date], count: int) -> list[int | None]:
    """For each of `count` rounds, the index in `days` it aims at (None: the half has no working day).

    With no more rounds than weeks, each round has a week of its own: the weeks with the most working
    days, evenly spread among those with as many days as the last one needed, and the round aims at
    the middle of its week. With more rounds than weeks, round k aims at working day (k + ½) of
    `count` along the half, so some weeks hold two rounds or more."""
    if not days:
        return [None] * count
    weeks: dict[datetime.date, list[int]] = {}
    for index, day in enumerate(days):
        weeks.setdefault(_monday(day), []).append(index)
    if count > len(weeks):
        return [int((k + 0.5) * len(days) / count) for k in range(count)]
    sizes = sorted((len(indices) for indices in weeks.values()), reverse=True)
    least = sizes[count - 1]
    fuller = [w for w, indices in weeks.items() if len(indices) > least]
    tied = [w for w, indices in weeks.items() if len(indices) == least]
    wanted = count - len(fuller)
    chosen = sorted(fuller + [tied[int((k + 0.5) * len(tied) / wanted)] for k in range(wanted)])
    return [weeks[w][len(weeks[w]) // 2] for w in chosen]


def _freedom(leg: Leg, days, aim, home, away) -> int:
    """How many days of the round's week honour every wish of the match (fewest first)."""
    if aim is None:
        return 0
    week = _monday(days[aim])
    return sum(1 for d in days if _monday(d) == week and not dishonoured(leg, d, home, away))


def _best_day(leg: Leg, placed: Placed, days, aim: int, home, away) -> datetime.date | None:
    """The free day of `days` the match prefers (the module's order), None when no day is free."""
    keys = _keys(home, away)
    latest = max((d for key in keys[:2] for d in placed.busy.get(key, ())), default=None)
    week = _monday(days[aim])

    def cost(indexed):
        index, day = indexed
        kinds = {kind for kind, _, _ in dishonoured(leg, day, home, away)}
        return ("venue" in kinds, abs((_monday(day) - week).days), "home" in kinds, "away" in kinds,
                latest is not None and day < latest, abs(index - aim), day)

    free = [(i, d) for i, d in enumerate(days) if not any(d in placed.busy.get(key, ()) for key in keys)]
    return min(free, key=cost)[1] if free else None


def _after(placed: Placed, last: datetime.date, holidays, home, away) -> datetime.date:
    """The first working day after `last` on which both teams and the venue are free."""
    keys = _keys(home, away)
    day = last + ONE_DAY
    while not working_day(day, holidays) or any(day in placed.busy.get(key, ()) for key in keys):
        day += ONE_DAY
    return day


def _keys(home, away) -> tuple[tuple[str, str], ...]:
    return (("team", home.team), ("team", away.team), ("venue", home.venue))


def _monday(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


def _dates(first: datetime.date, last: datetime.date):
    day = first
    while day <= last:
        yield day
        day += ONE_DAY
