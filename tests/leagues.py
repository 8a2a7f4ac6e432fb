"""League files for the tests, written once here: the bundled example league's teams (or teams of a
test's own) with fixtures relative to a test's "tonight".

The ``league_file`` fixture (tests/conftest.py) writes one next to a test; a helper that writes a
league into folders of its own (one per hypothesis example, one per power cut) imports
``league_text`` from here (tests/ is on sys.path, as for sync_helpers).
"""
import json
import re
from datetime import date, timedelta
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "config" / "examples"
# (days from tonight, home, away): the bundled league's teams, a match tonight at Hospoda U Lva
TONIGHTS = ((0, "Sokol Dvůr", "Jiskra Hořice"), (7, "Jiskra Hořice", "Slavoj Bílá Třemešná"))


def teams_text(teams) -> str:
    """``teams``: (name, venue or None, players) each, as [[teams]] tables."""
    return "".join(f"[[teams]]\nname = {json.dumps(name, ensure_ascii=False)}\n"
                   + (f"venue = {json.dumps(venue, ensure_ascii=False)}\n" if venue else "")
                   + f"players = {json.dumps(list(players), ensure_ascii=False)}\n\n"
                   for name, venue, players in teams)


def league_text(tonight: date, fixtures=TONIGHTS, teams=None) -> str:
    """The bundled example league's teams, or ``teams`` (see teams_text), with ``fixtures`` (days
    from ``tonight``, home, away)."""
    if teams is None:
        head = re.split(r"^\[\[fixtures\]\]", (EXAMPLES / "league.toml").read_text(encoding="utf-8"),
                        flags=re.M)[0]
    else:
        head = teams_text(teams)
    return head + "".join(f"[[fixtures]]\ndate = {(tonight + timedelta(days=days)).isoformat()}\n"
                          f"home = {json.dumps(home, ensure_ascii=False)}\n"
                          f"away = {json.dumps(away, ensure_ascii=False)}\n\n"
                          for days, home, away in fixtures)
