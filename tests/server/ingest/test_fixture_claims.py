"""Issue 22: a league fixture is written only by a device of its own venue, only for its two teams,
and only once; a match off the schedule counts nowhere until the organiser assigns it (RULES 1.6:
the zápis is the home venue's counter's; A.2.5: the schedule says who plays whom where)."""
import pytest
from league_admin_helpers import KOULE, SEASON, device_receiver, fixture_between, no_show

from server.league.admin_fields import LeagueError
from server.tables import exports


@pytest.fixture
def league(carom_league):
    return carom_league


def _post(store, bodies, device: str) -> list[tuple[int, dict]]:
    from conftest import signer

    receiver = device_receiver(store)
    return [receiver.handle(signer(device).sign(body), via="test") for body in bodies]


def _table(store) -> dict:
    """The teams the table counts anything for (every team is listed from the first day, zeros
    before its first match)."""
    return {r["team"]: (r["matches"], r["points"]) for r in exports.league_table(store, "carom", SEASON)["rows"]
            if r["matches"] or r["points"]}


def _naming(items, fixture: dict, how: str, **options) -> list[bytes]:
    """A match of the fixture's teams on its date naming it by its ``fixture`` field, by being
    recorded under its id, or by its teams and date alone."""
    match_id = {"field": "m-koule-1", "id": fixture["id"], "teams": "m-koule-2"}[how]
    return items(match_id, date=fixture["date"], fixture=fixture["id"] if how == "field" else None, **options)


@pytest.mark.parametrize("how", ["field", "id", "teams"])
def test_a_device_of_another_venue_cannot_write_a_fixture_and_nothing_is_stored(league, items, how):
    """Lvi – Orli is played at U Lva: U Koule's counter, naming its own venue, is refused (403) with
    the reason, whichever way its items name the fixture; the fixture stays to be played."""
    fixture = fixture_between(league, "Lvi", "Orli")
    answers = _post(league, _naming(items, fixture, how, venue=KOULE), "u-koule-1")
    assert {status for status, _ in answers} == {403}
    assert ("registered for 'Hospoda U Koule'" in answers[0][1]["reason"]
            and "only a device of its venue writes it" in answers[0][1]["reason"])
    assert league.items.count() == 0 and league.refusals.latest()[-1]["status"] == 403
    after = league.fixtures.get(fixture["id"])
    assert (after["status"], after["match"], after["points_home"]) == ("scheduled", None, None)
    assert _table(league) == {}


def test_a_fixture_is_written_only_for_its_two_teams(league, items):
    """U Lva's counter naming Lvi – Orli's fixture for a match of Lvi and Sokoli is refused."""
    fixture = fixture_between(league, "Lvi", "Orli")
    bodies = items("m-lva-1", date=fixture["date"], fixture=fixture["id"], away="Sokoli")
    status, answer = _post(league, bodies[:1], "u-lva-1")[0]
    assert status == 403 and "is played by its two teams; the item names 'Lvi' – 'Sokoli'" in answer["reason"]
    assert league.items.count() == 0 and league.fixtures.get(fixture["id"])["match"] is None


def test_a_standing_result_is_never_replaced_by_a_later_match(league, items):
    """The first match accepted for a fixture is its result; a second one, even from its own venue,
    is refused (403) item by item and the table and the fixture keep the first."""
    fixture = fixture_between(league, "Lvi", "Orli")
    assert {s for s, _ in _post(league, items("m-first", date=fixture["date"], fixture=fixture["id"]),
                                "u-lva-1")} == {200}
    before = (league.fixtures.get(fixture["id"]), _table(league))
    assert before[0]["status"] == "played" and before[0]["match"] == "m-first"
    answers = _post(league, items("m-second", seed=7, date=fixture["date"], fixture=fixture["id"]), "u-lva-1")
    assert {status for status, _ in answers} == {403}
    assert "already has its result (match m-first)" in answers[0][1]["reason"]
    assert (league.fixtures.get(fixture["id"]), _table(league)) == before
    assert not [row for row in league.items.all() if row["match_id"] == "m-second"]


def test_a_match_off_the_schedule_counts_only_once_the_organiser_assigns_it(league, items, store_place, capsys):
    """Lvi – Orli played on a day of no fixture of theirs: stored, listed as unassigned, counting
    nowhere; the organiser assigns it to the fixture (`pocitadlo server assign`) and it is the
    fixture's result."""
    from cli.main import main

    fixture = fixture_between(league, "Lvi", "Orli")
    assert {s for s, _ in _post(league, items("m-off", date="2026-09-30"), "u-lva-1")} == {200}
    assert [m["match"] for m in league.results.unassigned(SEASON, "carom")] == ["m-off"]
    assert exports.match_record(league, "m-off")["standing"] == "unassigned"
    assert _table(league) == {} and league.fixtures.get(fixture["id"])["match"] is None
    assert main(["server", "unassigned", "--season", SEASON, "--db", store_place]) == 0
    assert capsys.readouterr().out.startswith("m-off\t2026-09-30\tLvi\tOrli\t")
    assert main(["server", "assign", "m-off", fixture["id"], "--db", store_place]) == 0
    assert f"m-off is the result of {fixture['id']}" in capsys.readouterr().out
    assert league.fixtures.get(fixture["id"])["match"] == "m-off"
    assert _table(league)["Lvi"][0] == 1 and league.results.unassigned(SEASON, "carom") == []
    with pytest.raises(LeagueError, match="is Lvi – Orli .* fixture .* is Orli – Lvi"):
        league.results.assign("m-off", fixture_between(league, "Orli", "Lvi")["id"])


def test_A_3_7_a_match_is_assigned_to_a_forfeited_fixture_only_once_the_no_show_is_withdrawn(league, items):
    """The audit's case: a match Orli won assigned to the fixture forfeited to Lvi left it
    "kontumováno ve prospěch Lvi" and Orli's no-show counting towards its expulsion."""
    fixture = fixture_between(league, "Lvi", "Orli")
    no_show(league, fixture["id"], "Orli")
    assert {s for s, _ in _post(league, items("m-off", date="2026-09-30"), "u-lva-1")} == {200}
    with pytest.raises(LeagueError, match=r"is forfeited \(Orli did not turn up, A.3.7\); if it was played after all, "
                                          "withdraw the no-show first"):
        league.results.assign("m-off", fixture["id"])
    assert league.fixtures.get(fixture["id"])["match"] == fixture["id"]         # the forfeit stands
    league.departures.withdraw_no_show(fixture["id"])
    league.results.assign("m-off", fixture["id"])
    assigned = league.fixtures.get(fixture["id"])
    assert (assigned["status"], assigned["match"], assigned["no_show"]) == ("played", "m-off", None)


def test_a_friendly_never_moves_the_table(league, items):
    """A match of teams the league does not know ("Jiné utkání") is stored and counts nowhere."""
    bodies = items("m-friendly", home="Hasiči", away="Myslivci")
    assert {s for s, _ in _post(league, bodies, "u-lva-1")} == {200}
    assert _table(league) == {} and league.results.unassigned(SEASON, "carom") == []


def test_a_gateway_writes_a_fixture_only_with_the_signature_of_a_device_of_its_venue(league, items):
    """A gateway relays a device's own signature (RelaySigner): relaying U Koule's counter for Lvi –
    Orli, played at U Lva, is refused like that counter itself; relaying U Lva's is the fixture's result."""
    from conftest import SECRETS, signer
    from wire.signing import RelaySigner

    fixture = fixture_between(league, "Lvi", "Orli")
    receiver = device_receiver(league)

    def relayed(body: bytes, device: str) -> tuple[int, dict]:
        origin = signer(device).sign(body)
        return receiver.handle(RelaySigner("gw-lva", SECRETS["gw-lva"], lambda _: origin).sign(body), via="http")

    foreign = _naming(items, fixture, "field", venue=KOULE)
    assert {relayed(body, "u-koule-1")[0] for body in foreign} == {403}
    assert league.items.count() == 0 and league.fixtures.get(fixture["id"])["match"] is None
    own = items("m-lva-9", date=fixture["date"], fixture=fixture["id"])
    assert {relayed(body, "u-lva-1")[0] for body in own} == {200}
    assert league.fixtures.get(fixture["id"])["match"] == "m-lva-9"
