"""Names are identities (issue 22): venues, teams and players compared after NFC, trimming,
collapsing inner whitespace and case folding; near-duplicates refused naming the stored name; a
store's existing near-duplicates folded by migration 0008 and reported; on SQLite and PostgreSQL."""
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from league_admin_helpers import KOULE, LVA, SEASON, set_up_league
from sql_helpers import old_store

from server.ingest.receiver import Receiver
from server.league import names
from server.league.admin_fields import LeagueError
from server.storage.store import Store


def test_names_compare_after_nfc_trimming_spacing_and_case():
    assert names.same("na  růžku", "Na Růžku")
    assert names.same("  jan  novák ", "Jan Novák")
    assert names.same(unicodedata.normalize("NFD", "Řehoř Šťastný"), "ŘEHOŘ ŠŤASTNÝ")
    assert not names.same("Novák", "Novak")             # an accent is part of the name
    assert names.cleaned("  Na \t Růžku ") == "Na Růžku"
    assert names.find("HOSTINEC u lva", [KOULE, LVA]) == LVA


@given(st.text(min_size=1, max_size=20))
def test_a_name_is_the_same_as_any_respelling_of_its_case_and_spaces(text):
    respelled = "  " + "   ".join(text.upper().split()) + " "
    assert names.identity(text.lower()) == names.identity(respelled.lower())
    assert names.identity(names.cleaned(text)) == names.identity(text)


@given(st.text(" \tAaÁáŘřr\u030c\u00a0", max_size=6), st.text(" \tAaÁáŘřr\u030c\u00a0", max_size=6))
def test_same_is_the_identities_compared(a, b):
    """``same`` takes a name spelled alike as the same without cleaning it: what comparing the
    identities says too, for any two spellings (composed, decomposed, spaced, cased)."""
    assert names.same(a, b) == (names.identity(a) == names.identity(b))
    assert names.same(a, a) and not names.same(a, None) and not names.same(None, a)


def test_a_near_duplicate_venue_is_refused_naming_the_one_there(store):
    store.league.add_venue("Na Růžku", "po")
    with pytest.raises(LeagueError, match="venue 'na růžku' is the venue 'Na Růžku' already there"):
        store.league.add_venue("na  růžku ")
    store.league.add_venue(" Na Růžku ", "út")                 # the same spelling, cleaned: new opening days
    assert [(v["name"], v["days"]) for v in store.league.venues()] == [("Na Růžku", "1")]
    assert store.league.venue_named("NA RŮŽKU") == "Na Růžku"


def test_a_near_duplicate_team_or_player_is_refused_naming_the_existing_one(store):
    set_up_league(store)
    with pytest.raises(LeagueError, match="team 'LVI' is the team 'Lvi' already there"):
        store.league.add_team(SEASON, "carom", "LVI", venue="hostinec  u lva", captain="X", phone="777123456")
    with pytest.raises(LeagueError, match=r"novák already plays for this team as 'Novák' in 2026/27"):
        store.league.add_player(SEASON, "carom", "lvi", " novák")
    with pytest.raises(LeagueError, match=r"NOVÁK already plays for team 'Lvi' as 'Novák'.*\(A.3.4\)"):
        store.league.add_player(SEASON, "carom", "Orli", "NOVÁK")
    store.league.remove_player(SEASON, "carom", "LVI", "  novák")      # found however it is spelled
    assert "Novák" not in store.league.team(SEASON, "carom", "lvi")["players"]
    store.league.add_player(SEASON, "carom", "Orli", "Jan   Nový ")
    assert "Jan Nový" in store.league.team(SEASON, "carom", "Orli")["players"]


def test_A_3_4_a_player_name_differing_only_in_accents_is_the_player_already_there(store):
    """docs/league.md: a name is refused "however it is written": on the rosters a name that differs
    from a player's of the season only in its accents and case is that player (as the site's player
    search takes it), on his own team and on another one; his own name may be respelled."""
    set_up_league(store)
    assert names.unaccented("  JIŘÍ  Král ") == names.unaccented("jiri kral") == "jiri kral"
    with pytest.raises(LeagueError, match=r"^novak already plays for this team as 'Novák' in 2026/27"):
        store.league.add_player(SEASON, "carom", "Lvi", "novak")
    with pytest.raises(LeagueError, match=r"^Kral already plays for team 'Sokoli' as 'Král' in 2026/27; .*\(A.3.4\)"):
        store.league.add_player(SEASON, "carom", "Lvi", "Kral")
    with pytest.raises(LeagueError, match=r"^KRAL already plays for team 'Sokoli' as 'Král'"):
        store.league.rename_player(SEASON, "carom", "Lvi", "Dvořák", "KRAL")
    store.league.rename_player(SEASON, "carom", "Lvi", "Dvořák", "Dvorak")       # his own name, respelled
    assert "Dvorak" in store.league.team(SEASON, "carom", "Lvi")["players"]
    assert names.same("Novak", "novak") and not names.same("Novák", "Novak")   # venues and teams keep accents


def test_a_device_registered_with_another_spelling_of_its_venue_writes_its_matches(store, items, sign):
    """The "na  růžku" bug: registered so, it stored partie and had every match item refused."""
    set_up_league(store)
    store.devices.add("u-lva-1", b"lva-secret-0123456789abcdef", venue="hostinec  u LVA")
    receiver = Receiver(store)
    for body in items("KD-1"):                      # samples.match is played at "Hostinec U Lva"
        status, answer = receiver.handle(sign("u-lva-1").sign(body), via="test")
        assert status == 200, answer
    assert [v["devices"] for v in store.league.venues() if v["name"] == LVA] == [["u-lva-1"]]


def test_migration_0008_folds_the_near_duplicates_of_a_store_and_reports_them(empty_store_place, caplog):
    store_place = empty_store_place
    old_store(store_place, "0007", (
        "INSERT INTO seasons VALUES ('2026/27', '2026-10-01', '2026-11-30', '2027-03-01', '2027-04-30')",
        "INSERT INTO venues(name, days) VALUES ('Na Růžku', ''), ('na  růžku', '0'), ('U Lva', '')",
        "INSERT INTO devices(id, secret, added, role, venue) VALUES ('ruzek-1', 'x', '2026', 'device', 'na  růžku'),"
        " ('lva-1', 'x', '2026', 'device', 'u  LVA')",
        "INSERT INTO teams(id, season, competition, name, venue, captain, phone) VALUES "
        "(1, '2026/27', 'carom', 'Sokol Dvůr', 'Na Růžku', 'Novák', '777123456'), "
        "(2, '2026/27', 'carom', 'sokol  dvůr', 'na  růžku', 'Novák', '777123456'), "
        "(3, '2026/27', 'carom', 'Jiskra', 'U Lva', 'Kučera', '777123456')",
        "INSERT INTO players VALUES ('2026/27', 'carom', 'Novák', 1), ('2026/27', 'carom', 'Dvořák', 2), "
        "('2026/27', 'carom', 'novák ', 3), ('2026/27', 'carom', 'Kučera', 3)",
        "INSERT INTO fixtures VALUES ('f1', '2026/27', 'carom', 1, '2026-10-05', '17:00', 2, 3, 'na  růžku', "
        "'scheduled', '2026-10-05')",
    ))
    with caplog.at_level("WARNING"):
        store = Store(store_place)
    try:
        assert [v["name"] for v in store.league.venues()] == ["Na Růžku", "U Lva"]
        assert {d["id"]: d["venue"] for d in store.devices.all()} == {"ruzek-1": "Na Růžku", "lva-1": "U Lva"}
        [sokol, jiskra] = sorted(store.league.teams("2026/27", "carom"), key=lambda t: t["name"], reverse=True)
        assert (sokol["name"], sokol["venue"], sokol["players"]) == ("Sokol Dvůr", "Na Růžku", ["Dvořák", "Novák"])
        assert jiskra["players"] == ["Kučera"]         # "novák " was Novák, already on Sokol Dvůr's roster
        assert store.fixtures.get("f1")["home"] == "Sokol Dvůr" and store.fixtures.get("f1")["venue"] == "Na Růžku"
        folds = {(f["kind"], f["folded"], f["kept"]) for f in store.league.folded_names()}
        assert folds == {("venue", "na  růžku", "Na Růžku"), ("device venue", "u  LVA", "U Lva"),
                         ("team", "sokol  dvůr", "Sokol Dvůr"), ("player", "novák ", "Novák")}
        assert "'na  růžku' folded into 'Na Růžku'" in caplog.text
    finally:
        store.close()


def test_A_3_4_a_corrected_name_stays_the_players_and_is_undone_by_correcting_it_back(store):
    """The names a team's records carry for a player follow each correction of his name; a name
    corrected away is not another player's on that team (its records count for him); correcting
    the name back leaves no correction of a name to itself."""
    set_up_league(store)
    store.league.rename_player(SEASON, "carom", "Lvi", "Dvořák", "Dvořáček")
    store.league.rename_player(SEASON, "carom", "Lvi", "Dvořáček", "Pavel Dvořáček")
    assert store.league.team(SEASON, "carom", "Lvi")["renamed"] == {"Dvořák": "Pavel Dvořáček",
                                                                    "Dvořáček": "Pavel Dvořáček"}
    with pytest.raises(LeagueError, match=r"^dvorak is the name 'Dvořák' corrected to 'Pavel Dvořáček' on team 'Lvi' "
                                          r"in 2026/27: its records count for that player \(A.3.4\)$"):
        store.league.add_player(SEASON, "carom", "Lvi", "dvorak")
    with pytest.raises(LeagueError, match=r"^Dvořáček is the name 'Dvořáček' corrected to 'Pavel Dvořáček'"):
        store.league.rename_player(SEASON, "carom", "Lvi", "Novák", "Dvořáček")
    store.league.rename_player(SEASON, "carom", "Lvi", "Pavel Dvořáček", "Dvořák")          # his own, back
    assert store.league.team(SEASON, "carom", "Lvi")["renamed"] == {"Dvořáček": "Dvořák", "Pavel Dvořáček": "Dvořák"}
    assert store.league.team(SEASON, "carom", "Orli")["renamed"] == {}
