"""A team's fixtures as an iCalendar feed (RFC 5545, written by the ``icalendar`` library), for a
player's phone: ``/teams/<team>.ics?game=&season=``.

Each fixture is an event in Europe/Prague time (the zone's definition included) from its start
(17:00, A.2.2) for ``LENGTH`` (**Decision**: four hours, what a league evening takes), at its venue,
with the result once played and what became of it as the schedule says it (a forfeit, a result
held or awarded); a postponed one is tentative, a cancelled one cancelled. A team only
the devices' records name (no league fixtures) gets its played matches as all-day events. The event
ids are the fixture's id, so a moved match moves in the phone's calendar rather than doubling.
"""
import datetime as dt

from icalendar import Calendar, Event
from starlette.responses import Response

from server.league.admin_fields import slug
from server.site import language
from server.site.czech import PRAGUE
from server.site.schedule_web import status_text

LENGTH = dt.timedelta(hours=4)
STATUS = {"postponed": "TENTATIVE", "cancelled": "CANCELLED"}


def feed(data: dict, league: str, now: dt.datetime) -> bytes:
    """The calendar of a team's season (``data``: server.tables.stats.team)."""
    name = data["team"]
    calendar = Calendar()
    calendar.add("prodid", "-//pocitadlo//league site//CS")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", f"{name}: {league}".strip(": "))
    calendar.add("x-wr-timezone", PRAGUE.key)
    league_data = data.get("league")
    if league_data:
        for f in league_data["fixtures"]:
            calendar.add_component(_fixture(f, now))
    else:
        for m in data["matches"]:
            if m["date"]:
                calendar.add_component(_match(m, now))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _fixture(f: dict, now: dt.datetime) -> Event:
    start = dt.datetime.combine(dt.date.fromisoformat(f["date"]), dt.time.fromisoformat(f["start"]), PRAGUE)
    event = _event(f"{f['id']}@pocitadlo", f"{f['home']} – {f['away']}", now)
    event.add("dtstart", start)
    event.add("dtend", start + LENGTH)
    event.add("location", f["venue"])
    said = []
    if f["points_home"] is not None:
        said.append(f"Výsledek {f['points_home']} : {f['points_away']}.")
    with language.reading(language.CZECH):      # an export: Czech, whichever language the reader chose
        status = status_text(f)     # as the schedule says it: a ruling, a forfeit's winner, a match held
    if status:
        said.append(f"{status[0].upper()}{status[1:]}.")
    if said:
        event.add("description", " ".join(said))
    event.add("status", STATUS.get(f["status"], "CONFIRMED"))
    return event


def _match(m: dict, now: dt.datetime) -> Event:
    event = _event(f"{m['match']}@pocitadlo", f"{m['home']} – {m['away']}", now)
    event.add("dtstart", dt.date.fromisoformat(m["date"][:10]))
    event.add("description", f"Výsledek {m['points']['home']} : {m['points']['away']}.")
    return event


def _event(uid: str, summary: str, now: dt.datetime) -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", now)
    event.add("summary", summary)
    return event


def answer(data: dict, league: str, request) -> Response:
    now = request.app.state.receiver.store.clock.utc()
    return Response(feed(data, league, now), media_type="text/calendar; charset=utf-8",
                    headers={"Content-Disposition": f'inline; filename="{slug(data["team"])}.ics"'})
