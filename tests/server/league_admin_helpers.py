"""A league set up in a store for the league administration's tests: a season, two venues (those of
the store fixture's devices and of samples.match), four carom teams with captains and rosters."""
import datetime as dt

LVA, KOULE = "Hostinec U Lva", "Hospoda U Koule"
SEASON = "2026/27"
TEAMS = {   # name: (venue, requested weekdays, roster); Lvi and Orli are samples.match's teams
    "Lvi": (LVA, "po,út,st", ("Novák", "Dvořák", "Svoboda", "Černý")),
    "Orli": (KOULE, "", ("Procházka", "Kučera", "Veselý", "Horák")),
    "Sokoli": (LVA, "", ("Němec", "Marek", "Pokorný", "Král")),
    "Jiskra": (KOULE, "čt,pá", ("Růžička", "Beneš", "Fiala", "Sedláček")),
}


def set_up_league(store, competition: str = "carom", season: str = SEASON, teams=TEAMS) -> None:
    if season not in [s["name"] for s in store.league.seasons()]:
        store.league.add_season(season)
    store.league.add_venue(LVA, "po,út,st,čt")
    store.league.add_venue(KOULE)
    for name, (venue, days, roster) in teams.items():
        store.league.add_team(season, competition, name, venue=venue, captain=roster[0], phone="+420 777 123 456",
                       days=days)
        for player in roster:
            store.league.add_player(season, competition, name, player)


def fixture_between(store, home: str, away: str, competition: str = "carom") -> dict:
    [fixture] = [f for f in store.fixtures.of(SEASON, competition) if (f["home"], f["away"]) == (home, away)]
    return fixture


def free_working_day(store, fixture: dict) -> dt.date:
    """A day in the fixture's half on which neither team nor the venue plays (a Tuesday to Thursday
    that is no Czech holiday)."""
    from server.league.schedule import working_day

    busy = {f["date"] for f in store.fixtures.of(fixture["season"], fixture["competition"])
            if {f["home"], f["away"], f["venue"]} & {fixture["home"], fixture["away"], fixture["venue"]}}
    day = dt.date.fromisoformat(fixture["date"]).replace(day=1)
    while day.isoformat() in busy or not working_day(day) or day.weekday() not in (1, 2):
        day += dt.timedelta(days=1)
    return day


def play_as_device(store, match_items, sign, fixture, device: str = "u-lva-1") -> str:
    """The device's record of a fixture's match, through the receiver: its own match id (the
    fixture's and a suffix, as firmware_host sets a match up) naming the fixture (issue 16)."""
    from server.ingest.receiver import Receiver

    receiver = Receiver(store)
    match_id = f"{fixture['id']}-a1b2c3"
    for body in match_items(match_id, date=fixture["date"], fixture=fixture["id"]):
        status, answer = receiver.handle(sign(device).sign(body), via="test")
        assert status == 200, answer
    return match_id
