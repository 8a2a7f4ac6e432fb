"""What the league-fetch tests share (issue 16): a league document relative to a test's "tonight",
and a league source for the receiver that records what it was asked.

Import it from a test module (``from league_fetch_helpers import ...``; tests/ is on sys.path).
"""
import datetime as dt

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
    keeps the (venue, today) of every call."""

    def __init__(self, documents: dict):
        self.documents, self.asked = documents, []

    def __call__(self, venue: str, today: dt.date):
        self.asked.append((venue, today))
        return self.documents.get(venue)
