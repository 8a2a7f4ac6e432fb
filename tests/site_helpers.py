"""A league in the middle of its autumn, for the site's browser tests and its pictures
(docs/make_site_images.py): a season of carom and of 8-ball set up as the organiser sets it up,
the schedules drawn, the matches before "today" played by the venues' devices (real records through
the receiver), a postponement and a no-show, on a clock standing still at ``TODAY`` evening.

Everything is fixed (names, seeds, the clock), so the pages and their pictures are the same on
every run."""
import datetime as dt
import json
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

import carom_samples
from delivery.outbox import item_body
from rules.eightball.match import team_score
from server.ingest.receiver import Receiver
from server.site.links import match_href, player_href, team_href
from sync_helpers import post_json
from wire.live import snapshot
from wire.signing import Signer

SEASON = "2026/27"
PRAGUE = ZoneInfo("Europe/Prague")
TODAY = dt.date(2026, 11, 11)          # a Wednesday with three carom matches
NOW = dt.datetime(2026, 11, 11, 16, 30, tzinfo=PRAGUE)
VENUES = {"Hostinec U Lva": "po,út,st,čt", "Na Růžku": "", "Sport bar Most": "út,čt", "Hospoda U Koule": ""}
CAROM = {   # team: (venue, roster: the captain first)
    "Sokol Dvůr": ("Hostinec U Lva", ("Jan Novák", "Petr Dvořák", "Karel Svoboda", "Tomáš Černý", "Jiří Procházka")),
    "Jiskra Hořice": ("Na Růžku", ("Pavel Kučera", "Martin Veselý", "Josef Horák", "Luboš Němec")),
    "Slavoj Bílá Třemešná": ("Sport bar Most", ("Milan Marek", "Zdeněk Pospíšil", "Radek Hájek", "Ivan Jelínek")),
    "Lvi Dvůr Králové": ("Hospoda U Koule", ("Aleš Růžička", "Filip Beneš", "Ondřej Fiala", "Vít Šedivý")),
    "Baník Žacléř": ("Hostinec U Lva", ("Stanislav Doležal", "Vladimír Král", "Jaroslav Hruška", "Igor Vávra")),
    "Orel Choustníkovo Hradiště": ("Na Růžku", ("Oldřich Bureš", "Emil Zelenka", "Bohumil Holub", "Šimon Kadlec")),
}
EIGHTBALL = {
    "Koule Most": ("Sport bar Most", ("Roman Chalupa", "David Kříž", "Lukáš Zeman", "Michal Šťastný")),
    "Tágo Litvínov": ("Hospoda U Koule", ("Jakub Dušek", "Adam Bartoš", "Vojtěch Čermák", "Štěpán Říha")),
    "Osmička Záluží": ("Na Růžku", ("Patrik Vlček", "Daniel Kolář", "Marek Urban", "Robert Bláha")),
    "Černá koule Jirkov": ("Hostinec U Lva", ("Libor Matějka", "Hynek Tichý", "Erik Vondra", "Karel Žižka")),
}
# the competitions' rules of play (A.1.2, issue 22): those the matches below are played by
RULES = {"carom": {"points_limit": 60, "innings_limit": 15}, "8ball": {"games_to_win": 2, "sets_to_win": 1}}
SECRET = b"site-demo-secret-0123456789abcdef"
CZECH = {"locale": "cs-CZ", "timezone_id": "Europe/Prague"}        # a Czech player's browser
SIZES = {"phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, **CZECH},
         "desktop": {"viewport": {"width": 1280, "height": 900}, **CZECH}}


def device_of(venue: str) -> str:
    return "u-" + "-".join(venue.lower().split())[:40]


def set_up(store) -> None:
    """The season, venues, teams with rosters, a device at each venue, both schedules drawn."""
    store.league.add_season(SEASON)
    for venue, days in VENUES.items():
        store.league.add_venue(venue, days)
        store.devices.add(device_of(venue), SECRET, venue=venue)
    for competition, teams in (("carom", CAROM), ("8ball", EIGHTBALL)):
        store.league.set_rules(SEASON, competition, RULES[competition])
        for name, (venue, roster) in teams.items():
            store.league.add_team(SEASON, competition, name, venue=venue, captain=roster[0], phone="+420 777 123 456")
            for player in roster:
                store.league.add_player(SEASON, competition, name, player)
        store.fixtures.generate(SEASON, competition)


def _carom_items(fixture: dict, seed: int) -> list[bytes]:
    home, away = CAROM[fixture["home"]][1], CAROM[fixture["away"]][1]
    info = {"id": f"{fixture['id']}-{seed:06x}", "home": fixture["home"], "away": fixture["away"],
            "venue": fixture["venue"], "date": fixture["date"], "seed": seed, "fixture": fixture["id"]}
    played = []
    for number in range(1, 5):
        pid = f"{info['id']}-p{number}"
        side = "a" if number % 2 else "b"
        ours, theirs = home[number - 1], away[(number + seed) % len(away)]
        a, b = (ours, theirs) if side == "a" else (theirs, ours)
        text, summary = carom_samples.partie(pid, a, b, seed=seed * 10 + number, match=info, number=number, home=side,
                                       date=fixture["date"], points_limit=60, innings_limit=15)
        played.append((pid, text, summary))
    mid, text, summary = carom_samples.closing(info, played)
    return [item_body(pid, "partie", text, summary) for pid, text, summary in played] + \
        [item_body(mid, "match", text, summary)]


def _eightball_items(fixture: dict, seed: int) -> list[bytes]:
    home, away = EIGHTBALL[fixture["home"]][1], EIGHTBALL[fixture["away"]][1]
    info = {"id": f"{fixture['id']}-{seed:06x}", "home": fixture["home"], "away": fixture["away"],
            "venue": fixture["venue"], "date": fixture["date"], "fixture": fixture["id"]}
    bodies, played = [], []
    for number in range(1, 5):
        side = "a" if number % 2 else "b"
        other = "b" if side == "a" else "a"
        pattern = ("hwh", "ww", "whh", "hh", "hww")[(seed + number) % 5]
        games = "".join(side if r == "h" else other for r in pattern)
        names = {side: home[number - 1], other: away[number - 1]}
        pid = f"{info['id']}-m{number}"
        text, summary = carom_samples.eightball(pid, names["a"], names["b"], games, match=info, number=number, home=side,
                                          date=fixture["date"], games_to_win=2, sets_to_win=1)
        bodies.append(item_body(pid, "partie", text, summary))
        played.append((pid, text, summary))
    score = team_score([summary for _, _, summary in played])
    closing = {**info, "game": "8ball", "table": "1", "points": {"home": score["home"], "away": score["away"]},
               "partie": [{"id": pid} for pid, _, _ in played]}
    bodies.append(item_body(info["id"], "match", json.dumps(info, ensure_ascii=False) + "\n", closing))
    return bodies


def play_until(store, clock, today: dt.date = TODAY) -> None:
    """Every fixture before ``today`` played by its venue's device (the clock set to each match's
    evening), but for one postponed and one no-show."""
    fixtures = sorted(store.fixtures.of(SEASON, "carom") + store.fixtures.of(SEASON, "8ball"),
                      key=lambda f: (f["date"], f["id"]))
    before = [f for f in fixtures if f["date"] < today.isoformat()]
    receiver = Receiver(store)
    for n, fixture in enumerate(before):
        clock.set(dt.datetime.combine(dt.date.fromisoformat(fixture["date"]), dt.time(21, 40 + n % 15), PRAGUE))
        if n == 2:
            store.fixtures.postpone(fixture["id"], fixture["away"], reason="nemoc dvou hráčů")
            continue
        if n == 5 and fixture["competition"] == "carom":
            store.departures.no_show(fixture["id"], fixture["away"])
            continue
        signer = Signer(device_of(fixture["venue"]), SECRET, clock=clock.time)
        items = _carom_items(fixture, n + 1) if fixture["competition"] == "carom" else _eightball_items(fixture, n + 1)
        for body in items:
            status, answer = receiver.handle(signer.sign(body), via="test")
            assert status == 200, answer
    receiver.settle()
    clock.set(NOW)


def demo_league(store, clock) -> None:
    """The league as the pages show it: set up, and played until ``TODAY``."""
    clock.set(dt.datetime(2026, 9, 20, 10, 0, tzinfo=PRAGUE))
    set_up(store)
    play_until(store, clock)


ADMIN_TOKEN = "organiser-admin-token-0123456789"


@dataclass
class Site:
    """The demo league served on 127.0.0.1: its address, store and clock."""
    url: str
    store: object
    clock: object
    shown: int = 0              # live snapshots posted

    def public_pages(self) -> list[tuple[str, str]]:
        """(name, path) of every kind of public page, the demo's own names and matches in them."""
        carom = next(f for f in self.store.fixtures.of(SEASON, "carom") if f["status"] == "played")
        eightball = next(f for f in self.store.fixtures.of(SEASON, "8ball") if f["status"] == "played")
        return [("home", "/"), ("schedule", "/schedule"), ("schedule-8ball", "/schedule?competition=8ball"),
                ("table", "/table.html"), ("table-8ball", "/table-8ball.html"), ("players", "/players.html"),
                ("players-search", "/players.html?q=nov"), ("players-8ball", "/players.html?game=8ball"),
                ("player", player_href("Jan Novák", "carom", SEASON)), ("rankings", "/rankings.html"),
                ("rankings-8ball", "/rankings.html?game=8ball"), ("team", team_href("Sokol Dvůr", "carom", SEASON)),
                ("team-8ball", team_href("Koule Most", "8ball", SEASON)), ("match", match_href(carom["match"])),
                ("match-8ball", match_href(eightball["match"])), ("rules", "/rules.html"), ("live", "/live"),
                ("not-found", "/no/such/page")]

    def admin_pages(self) -> list[tuple[str, str]]:
        """(name, path) of the admin's pages, once logged in."""
        fixtures = self.store.fixtures.of(SEASON, "carom") + self.store.fixtures.of(SEASON, "8ball")
        fixture = next(f for f in fixtures if f["date"] == TODAY.isoformat())
        postponed = next(f for f in fixtures if f["status"] == "postponed")
        team = "?" + urlencode({"season": SEASON, "competition": "carom", "team": "Sokol Dvůr"})
        return [("admin", "/admin"), ("admin-fixture", "/admin/fixture?id=" + quote(fixture["id"])),
                ("admin-postponed", "/admin/fixture?id=" + quote(postponed["id"])), ("admin-team", "/admin/team" + team),
                ("admin-audit", "/admin/audit"), ("admin-venue", "/admin/venue?name=" + quote("Hostinec U Lva")),
                ("admin-not-found", "/admin/venue?name=Nikde")]

    def show_a_table_live(self) -> None:
        """A partie at Hostinec U Lva's table 1 on the live board (shown for three minutes)."""
        venue = "Hostinec U Lva"
        view = {"view": "carom", "match": {"home": "Sokol Dvůr", "away": "Jiskra Hořice", "points": {"home": 2, "away": 0}},
                "summary": {"game": "carom", "finished": False, "result": None, "forfeit": None, "innings_limit": 15,
                            "players": {"a": {"name": "Jan Novák", "points": 37, "best_series": 9},
                                        "b": {"name": "Pavel Kučera", "points": 21, "best_series": 6}},
                            "counter": {"at_table": "a", "inning": 9, "series": 4, "points_left": {"a": 1, "b": 1}}}}
        self.shown += 1               # the clock stands still: a later snapshot is one with a higher number
        body = snapshot(venue=venue, table="1", seq=self.shown, view=view, record=None)
        signed = Signer(device_of(venue), SECRET, clock=self.clock.time).sign(body)
        status, answer = post_json(int(self.url.rsplit(":", 1)[1]), "/api/v1/live", body, signed.headers())
        assert status == 200, answer


@contextmanager
def serve_demo(folder):
    """The demo league in ``folder`` served with the web admin on; yields a Site."""
    from clock import ManualClock
    from server.http_server import ReceiverServer
    from server.storage.store import Store

    clock = ManualClock(NOW, zone=PRAGUE)
    store = Store(str(folder / "league.sqlite"), clock=clock)
    try:
        demo_league(store, clock)
        server = ReceiverServer(("127.0.0.1", 0), Receiver(store), admin_token=ADMIN_TOKEN)
        server.start()
        try:
            yield Site(f"http://127.0.0.1:{server.port}", store, clock)
        finally:
            server.shutdown()
            server.server_close()
    finally:
        store.close()


def log_in(page, url: str) -> None:
    """The organiser logs in to the web admin in ``page``'s browser context."""
    page.goto(url + "/admin/login")
    page.fill('input[name="token"]', ADMIN_TOKEN)
    with page.expect_navigation():
        page.click('button[type="submit"]')
