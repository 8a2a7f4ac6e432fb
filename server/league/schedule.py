"""The league's schedule (A.2): a double round robin, home and away (A.2.5), the first leg in the
autumn half and the return leg in the spring half (A.2.1), on working days from 17:00 (A.2.2),
honouring the teams' requested weekdays and the venues' opening days as far as possible and
reporting what could not be honoured (A.2.4). Pure: no database, no clock, no I/O; the same input
gives the same plan. docs/league.md "Schedule" describes the algorithm and its decisions."""
import datetime
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from server.league import berger
from server.league.schedule_days import Leg, dishonoured, place_leg
from server.league.workdays import czech_holidays, day_off_reason, long_date, weekday_list, working_day

__all__ = ["Entrant", "Half", "Planned", "Unmet", "Plan", "generate", "working_day", "czech_holidays",
           "move_refusal", "season_halves", "draw", "seat"]


@dataclass(frozen=True)
class Entrant:
    team: str
    venue: str
    days: frozenset[int] = frozenset()     # weekdays the team asked for (0 = Monday … 4 = Friday); empty: any (A.2.4)


@dataclass(frozen=True)
class Half:
    """One half-season (A.2.1): autumn October–November, spring March–April."""
    first: datetime.date
    last: datetime.date

    def __post_init__(self):
        if self.first > self.last:
            raise ValueError(f"a half-season cannot end ({self.last}) before it starts ({self.first})")

    def __contains__(self, day: datetime.date) -> bool:
        return self.first <= day <= self.last

    def text(self) -> str:
        return f"{long_date(self.first)} – {long_date(self.last)}"


def season_halves(year: int) -> tuple[Half, Half]:
    """A.2.1: the autumn half (October, November) of `year` and the spring half (March, April) after it."""
    return (Half(datetime.date(year, 10, 1), datetime.date(year, 11, 30)),
            Half(datetime.date(year + 1, 3, 1), datetime.date(year + 1, 4, 30)))


@dataclass(frozen=True)
class Planned:
    round: int                               # 1-based round of the double round robin
    date: datetime.date
    start: datetime.time                     # 17:00 (A.2.2)
    home: str
    away: str
    venue: str

    def text(self) -> str:
        return f"round {self.round}, {self.home} – {self.away}"


@dataclass(frozen=True)
class Unmet:
    """One wish the plan does not honour (A.2.4): `kind` is "home" or "away" (the team `who` asked
    for the weekdays `asked`), "venue" (the venue `who` is open on `asked` only) or "half" (no free
    working day in the match's half: it is placed after the half)."""
    match: Planned
    kind: str
    who: str
    asked: frozenset[int]
    text: str


@dataclass(frozen=True)
class Plan:
    matches: tuple[Planned, ...]             # by date, then round, then home team
    unmet: tuple[str, ...]                   # what could not be honoured, one English sentence each (A.2.4)
    details: tuple[Unmet, ...] = ()          # the same, as data
    halves: tuple[Half, ...] = ()            # the autumn and spring halves it was made for


def draw(entrants: Sequence[Entrant], lot: str) -> list[Entrant]:
    """The draw (A.2.3 "rozlosovaný"): `entrants` in an order decided by `lot`, the same order for
    the same lot (the organiser publishes the lot, so anyone can repeat the draw)."""
    ordered = sorted(entrants, key=lambda e: e.team)
    random.Random(lot).shuffle(ordered)
    return ordered


def generate(entrants: Sequence[Entrant], autumn: Half, spring: Half, *,
             opening: Mapping[str, frozenset[int]] = {},
             holidays: frozenset[datetime.date] = frozenset(),
             start: datetime.time = datetime.time(17, 0)) -> Plan:
    """The double round robin of `entrants` (their order is the draw) over the two halves.

    `opening`: venue -> the weekdays it is open (missing or empty: any day); `holidays`: the league's
    extra days off. Raises ValueError for input no schedule can be made from."""
    entrants = _checked(entrants, autumn, spring)
    seated = seat(entrants)
    table = [[(seated[h], seated[a]) for h, a in pairs] for pairs in berger.rounds(len(seated))]
    back = [[(away, home) for home, away in pairs] for pairs in table]
    leg = Leg(opening=dict(opening), holidays=frozenset(holidays), start=start)
    first = place_leg(leg, table, autumn, first_round=1)
    second = place_leg(leg, back, spring, first_round=len(table) + 1, busy=first.busy)
    placed = sorted(first.matches + second.matches, key=lambda m: (m[1], m[0], m[2].team))
    matches = tuple(Planned(r, day, start, home.team, away.team, home.venue) for r, day, home, away in placed)
    details = tuple(_unmet(placed, first.unplaced | second.unplaced, leg, autumn, spring))
    return Plan(matches, tuple(u.text for u in details), details, (autumn, spring))


def _checked(entrants: Sequence[Entrant], autumn: Half, spring: Half) -> list[Entrant]:
    entrants = list(entrants)
    if len(entrants) < 2:
        raise ValueError("a schedule needs at least two teams")
    teams = [e.team for e in entrants]
    if len(set(teams)) != len(teams):
        raise ValueError("every team may enter only once")
    for e in entrants:
        if not e.team.strip() or not e.venue.strip():
            raise ValueError("every team needs a name and a venue")
        if not set(e.days) <= {0, 1, 2, 3, 4}:
            raise ValueError(f"{e.team}: requested days must be working days, 0 (Monday) to 4 (Friday)")
    if autumn.last >= spring.first:
        raise ValueError("the autumn half must end before the spring half starts")
    return entrants


def seat(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants in their Berger positions: the draw order, except that teams sharing a venue
    take couples of complementary positions (never both at home in one round), so that the venue's
    one table is free for each of them; with no shared venue the positions are the draw order."""
    by_venue: dict[str, list[Entrant]] = {}
    for e in entrants:
        by_venue.setdefault(e.venue, []).append(e)
    sharing = [group[i:i + 2] for group in by_venue.values() for i in range(0, len(group) - 1, 2)]
    seats: list[Entrant | None] = [None] * len(entrants)
    for (p, q), (a, b) in zip(berger.couples(len(entrants)), sharing):
        seats[p], seats[q] = a, b
    seated = {id(e) for e in seats if e is not None}
    rest = iter(e for e in entrants if id(e) not in seated)
    return [e if e is not None else next(rest) for e in seats]


def _unmet(placed, unplaced, leg: Leg, autumn: Half, spring: Half) -> Iterable[Unmet]:
    """Every wish the placed matches do not honour, by round (A.2.4)."""
    for r, day, home, away in sorted(placed, key=lambda m: (m[0], m[1], m[2].team)):
        match = Planned(r, day, leg.start, home.team, away.team, home.venue)
        if (r, home.team, away.team) in unplaced:
            name, half = ("autumn", autumn) if day < spring.first else ("spring", spring)
            yield Unmet(match, "half", home.venue, frozenset(),
                        f"{match.text()}: no free working day in the {name} half ({half.text()}); "
                        f"placed after it on {long_date(day)}")
        for kind, who, asked in dishonoured(leg, day, home, away):
            yield Unmet(match, kind, who, asked, _wish_text(match, kind, who, asked))


def _wish_text(match: Planned, kind: str, who: str, asked: frozenset[int]) -> str:
    given = long_date(match.date)
    if kind == "venue":
        return f"{match.text()}: {who} is open on {weekday_list(asked)} only; given {given}"
    return f"{match.text()}: {who} ({kind}) asked for {weekday_list(asked)}; given {given}"


def move_refusal(plan_or_matches: Plan | Iterable[Planned], match: Planned, day: datetime.date,
                 holidays: frozenset[datetime.date] = frozenset(), *,
                 halves: Sequence[Half] = (), opening: Mapping[str, frozenset[int]] = {},
                 today: datetime.date | None = None, postponed: bool = False) -> str | None:
    """None when the organiser may move `match` to `day`; else the reason, one English sentence.

    The match's half is the one of `halves` (or of the plan's halves, or by default of A.2.1's months)
    that holds its current date, or the nearest one; a `postponed` match (A.3.3) may also take a day
    of a later half of the season. `opening` (optional) refuses days the venue is closed; `today`
    (optional) a day before it (A.3.3: a postponed match is played later, not earlier)."""
    if isinstance(plan_or_matches, Plan):
        plan, matches = plan_or_matches, plan_or_matches.matches
    else:
        plan, matches = None, tuple(plan_or_matches)
    key = (match.round, match.home, match.away)
    others = [m for m in matches if (m.round, m.home, m.away) != key]
    if len(others) == len(matches):
        return f"{match.text()} is not in this schedule"
    if today is not None and day < today:
        return f"{long_date(day)} is in the past (today is {long_date(today)})"
    off = day_off_reason(day, frozenset(holidays))
    if off:
        return f"{off}: matches are played on working days only (A.2.2)"
    season = _season_of(match.date, halves or (plan.halves if plan is not None else ()))
    half = _half_of(match.date, season)
    later = [h for h in season if h.first > half.last] if postponed else []
    if not any(day in h for h in (half, *later)):
        if later:
            return (f"{long_date(day)} is outside the half-seasons a postponed {match.text()} may take "
                    f"({', '.join(h.text() for h in (half, *later))}, A.2.1, A.3.3)")
        return f"{long_date(day)} is outside the half-season of {match.text()} ({half.text()}, A.2.1)"
    clash = _clash(others, match, day)
    if clash:
        return clash
    open_days = opening.get(match.venue)
    if open_days and day.weekday() not in open_days:
        return f"{match.venue} is not open on {long_date(day)}"
    return None


def _clash(others: Iterable[Planned], match: Planned, day: datetime.date) -> str | None:
    """A team of `match` or its venue already busy on `day`: one match a day per team and per venue."""
    for other in others:
        if other.date != day:
            continue
        both = {match.home, match.away} & {other.home, other.away}
        if both:
            return f"{sorted(both)[0]} already plays {other.text()} on {long_date(day)}"
        if other.venue == match.venue:
            return f"{match.venue} already hosts {other.text()} on {long_date(day)}"
    return None


def _season_of(day: datetime.date, halves: Sequence[Half]) -> Sequence[Half]:
    """`halves`, or by default A.2.1's months of the season around `day`."""
    return halves or season_halves(day.year if day.month >= 7 else day.year - 1)


def _half_of(day: datetime.date, halves: Sequence[Half]) -> Half:
    """The half of `halves` that holds `day`, or the nearest."""
    return min(halves, key=lambda h: (0 if day in h else min(abs((day - h.first).days),
                                                                abs((day - h.last).days))))
