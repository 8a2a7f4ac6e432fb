"""Issue 22 "Done when": a season in which one venue's counter tries to write another venue's
fixture, a misconfigured counter sends a 1-inning league partie, a team does not turn up twice at
the table, and the organiser overrides a late postponement — the table, the players' figures and
the schedule come out as the rules say (RULES 1.6, 1.8; A.1.2, A.3.3, A.3.7)."""
import datetime as dt

import pytest
from league_admin_helpers import KOULE, SEASON, device_receiver, fixture_between

import carom_samples
from clock import ManualClock
from delivery.outbox import item_body
from server.league.admin_fields import LeagueError
from server.tables import exports, stats


def test_a_season_the_receiver_keeps_to_the_rules(carom_league, items, sign):
    store = carom_league

    def post(device: str, bodies) -> set[int]:
        receiver = device_receiver(store)
        return {receiver.handle(sign(device).sign(body), via="test")[0] for body in bodies}

    # Lvi – Orli at U Lva: U Koule's counter may not write it; U Lva's does
    lvi_orli = fixture_between(store, "Lvi", "Orli")
    assert post("u-koule-1", items("forged", venue=KOULE, date=lvi_orli["date"], fixture=lvi_orli["id"])) == {403}
    assert post("u-lva-1", items("m-lvi-orli", date=lvi_orli["date"], fixture=lvi_orli["id"])) == {200}

    # a counter configured with a 1-inning limit: its league partie is refused, nothing counts
    sokoli_jiskra = fixture_between(store, "Sokoli", "Jiskra")
    bad = items("m-bad", home="Sokoli", away="Jiskra", date=sokoli_jiskra["date"], fixture=sokoli_jiskra["id"],
                innings_limit=1)
    assert post("u-lva-1", bad[:1]) == {422}

    # Jiskra do not turn up, twice, at the table ("Tým nepřišel"): expelled, results annulled
    for fixture, device in ((sokoli_jiskra, "u-lva-1"), (fixture_between(store, "Orli", "Jiskra"), "u-koule-1")):
        match_id, text, summary = carom_samples.no_show(f"{fixture['id']}-t", fixture["home"], fixture["away"], "away",
                                                        date=fixture["date"], fixture=fixture["id"],
                                                        venue=fixture["venue"])
        assert post(device, [item_body(match_id, "match", text, summary)]) == {200}
    assert store.league.team(SEASON, "carom", "Jiskra")["expelled"] is not None

    # Orli postpone Orli – Lvi; the half is over before a date is found: only an override gives one
    orli_lvi = fixture_between(store, "Orli", "Lvi")
    store.fixtures.postpone(orli_lvi["id"], "Orli", reason="nemoc")
    store.clock = ManualClock(dt.datetime(2027, 5, 3, 12, 0))
    with pytest.raises(LeagueError, match=r"in the past .*override it with a reason"):
        store.fixtures.move(orli_lvi["id"], dt.date(2027, 4, 28))
    moved = store.fixtures.move(orli_lvi["id"], dt.date(2027, 5, 5), override="pozdní odklad, rozhodl svaz")
    assert moved["override"].startswith("pozdní odklad, rozhodl svaz (") and "half-season" in moved["override"]

    from server.tables import figures

    figures.settle(store)
    table = {r["team"]: (r["matches"], r["points"]) for r in exports.league_table(store, "carom", SEASON)["rows"]}
    record = exports.match_record(store, "m-lvi-orli")
    assert table == {"Lvi": (1, record["points"]["home"]), "Orli": (1, record["points"]["away"])}
    assert {r["team"] for r in stats.players(store, "carom", SEASON)["rows"]} == {"Lvi", "Orli"}
    schedule = {f["id"]: f for f in store.fixtures.of(SEASON, "carom")}
    assert schedule[lvi_orli["id"]]["status"] == "played" and schedule[lvi_orli["id"]]["match"] == "m-lvi-orli"
    assert schedule[sokoli_jiskra["id"]]["status"] == "forfeited"
    assert schedule[fixture_between(store, "Jiskra", "Lvi")["id"]]["status"] == "cancelled"
    assert (schedule[orli_lvi["id"]]["date"], schedule[orli_lvi["id"]]["status"]) == ("2027-05-05", "scheduled")
    assert not [row for row in store.items.all() if row["match_id"] in ("forged", "m-bad")]
