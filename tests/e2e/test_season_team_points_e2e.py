"""End to end: a competition's own team points (A.5.3-A.5.5) reach the counter, and the counter,
its zápis and the league's table agree.

The organiser sets the carom competition's ``win_points`` to 3 (docs/league.md, `competition set`);
the receiver sends it to the venue's counter in the signed league document; the counter writes it
into every partie's header, so the partie summaries, the match score on the counter and the zápis
the captains sign count 3 for a partie won — and the receiver, replaying each record, accepts them
and its table counts the same. The season is test_season_e2e's, its first night only.

Clauses: A.5.3 (team points of a partie won, as the competition sets them), A.5.4, A.5.5, A.1.2
(the organiser's rules), RULES 1.6 (the match result, the zápis), 1.8 (the league table).
"""
from datetime import datetime

import pytest

import device_table_helpers as device
from admin_http_helpers import AdminClient
from league_season_helpers import (
    CAROM_SEASON,
    LVA,
    LVA_DEVICE,
    LVA_SECRET,
    carom_season,
    fill_the_rosters,
    fixtures_of,
    linked_result,
    offered_tonight,
    organiser,
    set_up_the_season,
)
from sync_helpers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SEASON = CAROM_SEASON
LEAGUE = carom_season("points_limit=20", "innings_limit=3", "win_points=3")     # A.5.3: 3, not 2
FIRST_NIGHT = datetime(2026, 3, 11, 19, 30)      # the first spring match at Hospoda U Lva
# NIGHT: home wins, away wins, a draw, the home player forfeits: 2 + 0 + 1 + 0 : 0 + 2 + 1 + 2 = 3 : 5
# by the defaults; with 3 for a partie won:
POINTS = {"home": 3 + 0 + 1 + 0, "away": 0 + 3 + 1 + 3}


def test_A_5_3_a_competitions_win_points_are_what_the_counter_the_zapis_and_the_table_count(
        tmp_path, capsys, receiver_on, evening):
    db = str(tmp_path / "league.sqlite")
    run = organiser(db, capsys, clock=evening)
    set_up_the_season(run, LEAGUE, tmp_path)
    assert "win_points\t3\tA.5.3" in run("competition", "show", *LEAGUE.in_season)
    evening.set(FIRST_NIGHT)
    server = receiver_on(db, evening)
    fill_the_rosters(AdminClient(server.port), LEAGUE, twice=("Jiskra Hořice", "Novák"))
    run("schedule", "generate", *LEAGUE.in_season)
    (first,) = [f for f in fixtures_of(run, SEASON) if f["venue"] == LVA and f["date"] == "2026-03-11"]

    config = device.device_config(tmp_path / "device.toml", LVA_DEVICE, LVA_SECRET, device.http_sync(server.port))
    table = device.Table(config, evening)
    try:
        offered_tonight(table, first)
        assert table.service.night.league.rules["win_points"] == 3            # the league document's
        table.ui("confirm", "confirm", "confirm", "confirm", "confirm")   # the fixture, all present, captains
        assert table.screen["screen"] == "lotdraw"
        table.ui("confirm")
        for home_lag, cmds, _ in device.NIGHT:
            device.play_partie(table, home_lag, cmds)
            assert table.service.night.state.match.closed[-1]["team_points"] in (
                {"home": 3, "away": 0}, {"home": 0, "away": 3}, {"home": 1, "away": 1})
        assert table.screen["screen"] == "match" and table.screen["points"] == POINTS    # the zápis signed
        result = device.close_match(table)
        assert result["points"] == POINTS
        assert wait_for(table.sent, timeout=20)
        items = device.assert_arrived_once_and_intact(table, server.receiver.store)   # each partie replayed
    finally:
        table.close()

    partie = [item for item in items.values() if item["kind"] == "partie"]
    assert len(partie) == 4
    for item in partie:
        header = item["record"].splitlines()[0]
        assert '"win_points":3' in header.replace(" ", "")
        assert "draw_points" not in header and "loss_points" not in header       # the defaults left out
        counted = sorted(p["team_points"] for p in item["summary"]["players"].values())
        assert counted in ([0, 3], [1, 1])
    (match,) = [item for item in items.values() if item["kind"] == "match"]
    assert match["summary"]["points"] == POINTS

    record = linked_result(server.port, LEAGUE, first, POINTS)               # the league's zápis
    assert record["points"] == POINTS
    rows = {row["team"]: row["points"]
            for row in device.fetch(server.port, f"/table.json?season={SEASON}")["rows"]}
    assert (rows[first["home"]], rows[first["away"]]) == (POINTS["home"], POINTS["away"])     # RULES 1.8
