"""A league match's players go by their team's roster's names (A.3.4, server/tables/roster_names.py):
a name the organiser corrected on the roster is the player's over the whole season, in the records
stored before and after, without rewriting them; a name written without its accents is the
rostered player's; the zápis and the admin's list flag the same names after a roster edit. On
SQLite and PostgreSQL."""
import pytest
from league_admin_helpers import SEASON, device_receiver, fixture_between, lineup_items

from conftest import signer
from server.tables import exports, figures, stats

LVI = ["Novák", "Dvořák", "Svoboda", "Černý"]
ORLI = ["Procházka", "Kučera", "Veselý", "Horák"]


@pytest.fixture
def league(carom_league):
    return carom_league


def _send(store, bodies, device: str = "u-lva-1") -> None:
    receiver = device_receiver(store)
    for body in bodies:
        status, answer = receiver.handle(signer(device).sign(body), via="test")
        assert status == 200, answer


def _lvi_partie(store) -> dict:
    """Lvi's players' partie in the season's statistics, after the organiser's change (as the CLI
    and the web admin settle the figures before showing them)."""
    figures.settle(store)
    return {r["player"]: r["partie"] for r in stats.players(store, "carom", SEASON)["rows"] if r["team"] == "Lvi"}


def _flagged(store) -> list:
    """The admin's list of names off the roster (A.3.4), match by match."""
    figures.settle(store)
    return [(m["match"], m["unrostered"]) for m in store.figures.flagged("carom", SEASON) if m.get("unrostered")]


def test_A_3_4_a_corrected_name_is_the_players_over_the_whole_season(league):
    """Audit report 9: "Dvořák" corrected to "Dvořáček" on Lvi's roster after a match. One player
    with every partie, the earlier match's and a later one's from a device still sending the old
    name; the zápis names him (and his captaincy) as the roster does and says what the record
    carries; nothing flagged off the roster; the stored records unchanged."""
    answers = {"captains": {"home": "Dvořák", "away": "Kučera"},
               "signatures": [{"side": "home", "captain": "Dvořák", "at": "2026-10-06T21:00:00+02:00"}]}
    _send(league, lineup_items("m-1", fixture_between(league, "Lvi", "Orli"), LVI, ORLI, **answers))
    assert _lvi_partie(league)["Dvořák"] == 1
    stored = [row["body"] for row in league.items.all(match_id="m-1")]
    league.league.rename_player(SEASON, "carom", "Lvi", "dvořák", "Dvořáček")
    _send(league, lineup_items("m-2", fixture_between(league, "Orli", "Lvi"), ORLI, LVI), "u-koule-1")
    partie = _lvi_partie(league)
    assert partie["Dvořáček"] == 2 and "Dvořák" not in partie
    assert [r["match"] for r in stats.player(league, "Dvořáček", "carom", SEASON)["partie"]] == ["m-1", "m-2"]
    record = exports.match_record(league, "m-1")
    assert [p["home"]["name"] for p in record["partie"]] == ["Novák", "Dvořáček", "Svoboda", "Černý"]
    assert record["renamed"] == [{"side": "home", "name": "Dvořáček", "recorded": "Dvořák"}]
    assert record["captains"] == {"home": "Dvořáček", "away": "Kučera"}
    assert record["signatures"][0]["captain"] == "Dvořáček"
    assert (record["unrostered"], record["irregular"], record["standing"]) == ([], [], "counted")
    assert exports.match_record(league, "m-2")["renamed"] == [{"side": "away", "name": "Dvořáček", "recorded": "Dvořák"}]
    assert _flagged(league) == []
    assert [row["body"] for row in league.items.all(match_id="m-1")] == stored


def test_A_3_4_the_zapis_and_the_admins_list_flag_the_same_names_after_a_roster_edit(league):
    """The zápis and the admin's list are one computation (the match record): a name put on the
    roster after the match leaves both, taken off it again is in both."""
    _send(league, lineup_items("m-1", fixture_between(league, "Lvi", "Orli"), ["Novák", "Dvořák", "Svoboda", "Zeman"],
                               ORLI))
    assert _flagged(league) == [("m-1", ["Zeman"])] and exports.match_record(league, "m-1")["unrostered"] == ["Zeman"]
    league.league.add_player(SEASON, "carom", "Lvi", "Zeman")
    assert _flagged(league) == [] and exports.match_record(league, "m-1")["unrostered"] == []
    league.league.remove_player(SEASON, "carom", "Lvi", "Zeman")
    assert _flagged(league) == [("m-1", ["Zeman"])] and exports.match_record(league, "m-1")["unrostered"] == ["Zeman"]


def test_A_3_4_a_name_written_without_its_accents_is_the_rostered_player(league):
    """Decision (docs/league.md): A.3.4 is about who is on the roster, not how a device spelled
    him: "Novak" and "DVOŘÁK" are the roster's Novák and Dvořák, counted as one player each and
    named so, the zápis saying what the record carries."""
    _send(league, lineup_items("m-1", fixture_between(league, "Lvi", "Orli"), ["Novak", "DVOŘÁK", "Svoboda", "Černý"],
                               ORLI))
    _send(league, lineup_items("m-2", fixture_between(league, "Orli", "Lvi"), ORLI, LVI), "u-koule-1")
    record = exports.match_record(league, "m-1")
    assert record["unrostered"] == [] and _flagged(league) == []
    assert record["renamed"] == [{"side": "home", "name": "Dvořák", "recorded": "DVOŘÁK"},
                                 {"side": "home", "name": "Novák", "recorded": "Novak"}]
    partie = _lvi_partie(league)
    assert (partie["Novák"], partie["Dvořák"]) == (2, 2) and not {"Novak", "DVOŘÁK"} & set(partie)
