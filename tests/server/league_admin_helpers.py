"""A league set up in a store for the league administration's tests: a season, two venues (those of
the store fixture's devices and of samples.match), four carom teams with captains and rosters."""
import datetime as dt

from clock import ManualClock, SystemClock

LVA, KOULE = "Hostinec U Lva", "Hospoda U Koule"
SEASON = "2026/27"
TEAMS = {   # name: (venue, requested weekdays, roster); Lvi and Orli are samples.match's teams
    "Lvi": (LVA, "po,út,st", ("Novák", "Dvořák", "Svoboda", "Černý")),
    "Orli": (KOULE, "", ("Procházka", "Kučera", "Veselý", "Horák")),
    "Sokoli": (LVA, "", ("Němec", "Marek", "Pokorný", "Král")),
    "Jiskra": (KOULE, "čt,pá", ("Růžička", "Beneš", "Fiala", "Sedláček")),
}


BEFORE_THE_SEASON = dt.datetime(2026, 9, 1, 12, 0)      # the league's "today" in these tests: A.3.3 refuses the past


def before_the_season(store):
    """The store's clock (its "today") on 1 September 2026, before SEASON begins: a match can be
    moved to any day of the season (A.3.3 refuses a day in the past) whatever day the tests run."""
    store.clock = ManualClock(BEFORE_THE_SEASON)
    return store


def device_receiver(store):
    """A receiver whose freshness window runs on the wall clock the tests' signers sign by,
    whatever the store's clock says (``before_the_season``); each item arrives as a counter sends
    it, on its match's evening: the store's clock is moved on to it for the item when it is before
    (the receiver refuses a match dated after its today), and put back after."""
    from server.ingest.receiver import Receiver

    class OnTheEvening(Receiver):
        def handle(self, signed, **options):
            kept = self.store.clock
            day = match_day(signed.body)
            if day is not None and day > kept.today():
                self.store.clock = ManualClock(dt.datetime.combine(day, dt.time(21, 0)))
            try:
                return super().handle(signed, **options)
            finally:
                self.store.clock = kept

    return OnTheEvening(store, clock=SystemClock().time)


def match_day(body: bytes) -> dt.date | None:
    """The date of the match an item's body is of (None: no match, no date, not an item)."""
    from server.league.errors import Refused
    from server.league.verify import check, parse_body

    try:
        day = (check(parse_body(body)).match or {}).get("date")
        return dt.date.fromisoformat(day) if isinstance(day, str) else None
    except (Refused, ValueError):
        return None


SAMPLE_RULES = {"carom": {"points_limit": 20, "innings_limit": 3}}     # conftest.match_items' partie (issue 22)


def set_up_league(store, competition: str = "carom", season: str = SEASON, teams=TEAMS, rules=SAMPLE_RULES) -> None:
    """The league above; its competition plays by the rules the tests' sample matches were played
    by (``rules``: None keeps the defaults)."""
    if season not in [s["name"] for s in store.league.seasons()]:
        store.league.add_season(season)
    if rules and competition in rules:
        store.league.set_rules(season, competition, rules[competition])
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
    receiver = device_receiver(store)
    match_id = f"{fixture['id']}-a1b2c3"
    for body in match_items(match_id, date=fixture["date"], fixture=fixture["id"]):
        status, answer = receiver.handle(sign(device).sign(body), via="test")
        assert status == 200, answer
    return match_id


def lineup_items(match_id: str, fixture: dict, home_names, away_names, **summary) -> list[bytes]:
    """The item bodies of the fixture's carom match as a counter would send them (a fixture whose
    ``id`` is None: a match off the schedule, "Jiné utkání"), with partie n
    played by ``home_names[n - 1]`` and ``away_names[n - 1]`` (whoever the lot would have drawn) and
    ``summary`` added to the match item's (captains, signatures…)."""
    import carom_samples
    from delivery.outbox import item_body

    info = {"id": match_id, "home": fixture["home"], "away": fixture["away"], "venue": fixture["venue"],
            "date": fixture["date"], "seed": 1, **({"fixture": fixture["id"]} if fixture["id"] else {})}
    played = []
    for n, (home, away) in enumerate(zip(home_names, away_names), start=1):
        side = "a" if n % 2 else "b"            # the home player breaks in partie 1, 3
        a, b = (home, away) if side == "a" else (away, home)
        text, partie_summary = carom_samples.partie(f"{match_id}-p{n}", a, b, seed=n, match=info, number=n,
                                                    home=side, date=fixture["date"], **SAMPLE_RULES["carom"])
        played.append((f"{match_id}-p{n}", text, partie_summary))
    _, text, match_summary = carom_samples.closing(info, played)
    return ([item_body(pid, "partie", t, s) for pid, t, s in played]
            + [item_body(match_id, "match", text, {**match_summary, **summary})])


def on_the_day(store, fixture_id: str):
    """The store's clock on the fixture's evening (a no-show is recorded on or after the match's
    day, A.3.7); the store."""
    day = dt.date.fromisoformat(store.fixtures.get(fixture_id)["date"])
    store.clock = ManualClock(dt.datetime.combine(day, dt.time(20, 0)))
    return store


def no_show(store, fixture_id: str, team: str, **options) -> dict:
    """The organiser's no-show (A.3.7) recorded on the match's evening, the store's clock then put back."""
    kept = store.clock
    try:
        return on_the_day(store, fixture_id).departures.no_show(fixture_id, team, **options)
    finally:
        store.clock = kept
