"""Who may write a league fixture's result (issue 22): the receiver's decision, on plain data.

A match item or partie names a fixture by its ``fixture`` field, by its match id (a match recorded
under the fixture's id), or by its teams and date. It is accepted for that fixture only from a
device registered at the fixture's venue (a gateway relays the device's own signature), only for
the fixture's two teams, and only once: the first match accepted for a fixture is its result, and a
later one is refused — a correction is the organiser's act (``pocitadlo server assign``). After the
organiser ruled that an interrupted match's rest be replayed (A.6.5) one more match is accepted: the
rest. Every refusal is 403 with the reason; nothing is stored and the fixture is unchanged.
"""
from server.league import names
from server.league.errors import Refused

RESULT, CONTINUATION = 1, 2


def named(match_id: str, facts: dict, *, assigned: str | None, exists, on_date) -> str | None:
    """The fixture an item names: its match's (``assigned``), its ``fixture`` field's, its match id
    when that is a fixture's id, else the fixture on its date between its teams (``exists(id)``,
    ``on_date(date)``: the store's). None: it names none (a friendly, or a league without fixtures)."""
    if assigned is not None:
        return assigned
    for candidate in (facts.get("fixture"), match_id):
        if isinstance(candidate, str) and exists(candidate):
            return candidate
    home, away, date = facts.get("home"), facts.get("away"), facts.get("date")
    if not (isinstance(home, str) and isinstance(away, str) and isinstance(date, str)):
        return None
    return next((f["id"] for f in on_date(date) if names.same(f["home"], home) and names.same(f["away"], away)), None)


def decide(fixture: dict, match_id: str, facts: dict, *, device: str, venue: str | None,
           assigned: str | None) -> int | None:
    """The part the match becomes of ``fixture`` (RESULT, or CONTINUATION after a replay ruling);
    None when it is that already (a further item of it); Refused (403) with the reason otherwise.
    ``venue``: the device's; ``assigned``: the fixture the match is already the result of."""
    where = f"fixture {fixture['id']} ({fixture['home']} – {fixture['away']}, {fixture['date']})"
    if venue is None or not names.same(venue, fixture["venue"]):
        raise Refused(403, f"device {device!r} is registered for {venue!r}; {where} is played at "
                           f"{fixture['venue']!r}: only a device of its venue writes it")
    if assigned is not None and assigned != fixture["id"]:
        raise Refused(403, f"match {match_id!r} is the result of fixture {assigned}; the item names {where}")
    if not (names.same(facts.get("home"), fixture["home"]) and names.same(facts.get("away"), fixture["away"])):
        raise Refused(403, f"{where} is played by its two teams; the item names "
                           f"{facts.get('home')!r} – {facts.get('away')!r}")
    if match_id in (fixture["match"], fixture["continuation"]):
        return None
    if fixture["status"] == "cancelled":
        raise Refused(403, f"{where} was cancelled: a team was expelled (A.3.7)")
    no_show = fixture["no_show"]
    if no_show is not None:
        absent = facts.get("forfeit")
        if absent not in ("home", "away") or not names.same(fixture[absent], no_show["team"]):
            raise Refused(403, f"{where} was forfeited: {no_show['team']} did not turn up (A.3.7, recorded by "
                               f"{'the organiser' if no_show['by'] == 'organiser' else 'the counter'}); a "
                               "correction is the organiser's act")
        if fixture["match"] == fixture["id"]:
            return RESULT           # the device's record of the no-show takes the forfeit's place
    if fixture["match"] is None:
        return RESULT
    ruling = fixture["ruling"]
    if ruling is not None and ruling["kind"] == "replay" and fixture["continuation"] is None:
        return CONTINUATION
    raise Refused(403, f"{where} already has its result (match {fixture['match']}); a fixture is written once, "
                       "a correction is the organiser's act (pocitadlo server assign, the web admin)")
