"""What the league-fetch tests share (issue 16): a league document relative to a test's "tonight",
and a league source for the receiver that records what it was asked.

Import it from a test module (``from league_fetch_helpers import ...``; tests/ is on sys.path).
"""
import datetime as dt
from contextlib import contextmanager

LVA = "Hostinec U Lva"          # sync_helpers.VENUE, the venue the test device is registered for
ROSTERS = {"Sokol Dvůr": ("Novák", "Dvořák", "Svoboda", "Černý"),
           "Jiskra Hořice": ("Kučera", "Veselý", "Horák", "Němec"),
           "Slavoj Bílá Třemešná": ("Marek", "Pospíšil", "Hájek", "Jelínek")}


def league_document(tonight: dt.date, fixtures=((0, "Sokol Dvůr", "Jiskra Hořice"),), venue: str = LVA,
                    rosters=None) -> dict:
    """A league document (wire.league): three teams, ``fixtures`` (days from ``tonight``, home,
    away) at ``venue`` from 17:00."""
    rosters = rosters or ROSTERS
    return {"league": {"name": "Královédvorská kulečníková liga", "season": "2025/26", "competition": "carom"},
            "teams": [{"name": name, "venue": venue if i == 0 else "Na Růžku", "players": list(players),
                       "captain": players[0]} for i, (name, players) in enumerate(rosters.items())],
            "fixtures": [{"id": f"{(tonight + dt.timedelta(days=days)).isoformat()}-{i}",
                          "date": (tonight + dt.timedelta(days=days)).isoformat(), "start": "17:00",
                          "home": home, "away": away, "venue": venue}
                         for i, (days, home, away) in enumerate(fixtures)]}


class LeagueSource:
    """``league_source(venue, today)`` for create_app: ``documents[venue]`` (None: no data); it
    keeps the (venue, today) of every call, and (venue, today, competition) of a call for a
    device's game."""

    def __init__(self, documents: dict):
        self.documents, self.asked = documents, []

    def __call__(self, venue: str, today: dt.date, **competition):
        self.asked.append((venue, today, *competition.values()))
        return self.documents.get(venue)


@contextmanager
def league_receiver(path, clock, documents: dict):
    """A receiver on 127.0.0.1 whose store runs on ``clock``, with sync_helpers.DEVICE registered
    for LVA and ``documents`` (venue -> league document) as its league source; yields
    (server, source, store)."""
    from server.http_server import ReceiverServer
    from server.ingest.receiver import Receiver
    from server.storage.store import Store
    from sync_helpers import DEVICE, SECRET

    store = Store(path, clock=clock)
    store.devices.add(DEVICE, SECRET, venue=LVA)
    source = LeagueSource(documents)
    server = ReceiverServer(("127.0.0.1", 0), Receiver(store), league_source=source)
    server.start(poll_interval=0.02)
    try:
        yield server, source, store
    finally:
        server.shutdown()
        server.server_close()
        store.close()


def fetcher_for(port: int, clock, secret=None, device=None, game=None):
    """A device's LeagueFetcher for the receiver on ``port`` (plain HTTP), signing on ``clock``,
    asking for the league of ``game`` when given."""
    from delivery.league_fetch import LeagueFetcher, league_url
    from delivery.transport_http import HttpTransport
    from sync_helpers import DEVICE, SECRET
    from wire.signing import Signer

    signer = Signer(device or DEVICE, SECRET, clock=clock.time)
    return LeagueFetcher(HttpTransport(league_url(f"http://127.0.0.1:{port}/api/v1/records", game), signer, timeout=5),
                         secret or SECRET)
