"""The league's /live page in a real browser (headless Chromium through Playwright): a key pressed
at the device (the emulator player) appears on it, names stay text, no console error (a CSP
violation is one). Skipped without Chromium, a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import pytest

from browser_helpers import WAIT_MS
from league_live_helpers import (
    DEVICE,
    MISS,
    PLAYED,
    SECRET,
    START_PARTIE,
    VENUE,
    connect,
    forfeit,
    played,
    post_snapshot,
    score,
    snap,
)
from live_helpers import HOSTILE
from wire.live import snapshot
from wire.signing import Signer

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def row_text(page) -> str:
    return page.locator("#live-tables tbody tr").first.inner_text()


def test_a_key_at_the_device_appears_on_the_league_live_page(emulator, league, open_page):
    player = emulator(points_limit=30)
    page = open_page(f"http://127.0.0.1:{league.port}/live")
    page.wait_for_selector("#live-none", state="visible", timeout=WAIT_MS)
    pusher = connect(player, league.port)
    try:
        player.play(START_PARTIE + "127")
        page.wait_for_function("() => document.querySelector('#live-tables tbody').innerText.includes('13 : 0')",
                               timeout=WAIT_MS)
        assert VENUE in row_text(page) and page.locator("#live-none").is_hidden()
        player.play("0" + "1")                      # a miss, then B scores 1
        page.wait_for_function("() => document.querySelector('#live-tables tbody').innerText.includes('13 : 1')",
                               timeout=WAIT_MS)
        assert page.locator("#live-status").inner_text() == "Živě"
    finally:
        pusher.stop()


def test_a_hostile_name_stays_text_on_the_league_page(league, open_page):
    page = open_page(f"http://127.0.0.1:{league.port}/live")
    page.wait_for_function("() => document.getElementById('live-status').textContent === 'Živě'", timeout=WAIT_MS)
    body = snap(VENUE, a=HOSTILE)
    assert post_snapshot(league.port, body, Signer(DEVICE, SECRET).sign(body).headers())[0] == 200
    page.wait_for_selector("#live-tables tbody tr", timeout=WAIT_MS)
    for _ in range(2):                               # drawn from the event, then from the page itself
        assert HOSTILE in row_text(page) and page.locator("#live-tables img, #live-tables script").count() == 0
        page.reload()
        page.wait_for_selector("#live-tables tbody tr", timeout=WAIT_MS)


def cells(page) -> list[str]:
    return [text.strip() for text in page.locator("#live-tables tbody tr").first.locator("td").all_inner_texts()]


def show(league, page, view: dict, seq: int) -> list[str]:
    """``view`` posted as the device's snapshot number ``seq``; the row's cells once drawn from its event."""
    body = snapshot(venue=VENUE, table="1", seq=seq, view=view)
    assert post_snapshot(league.port, body, Signer(DEVICE, SECRET).sign(body).headers())[1]["status"] == "shown"
    page.wait_for_function("text => document.querySelector('#live-tables tbody').innerText.includes(text)",
                           arg=view["summary"]["players"]["a"]["name"] if view["view"] == "carom"
                           else view["summary"]["names"]["a"], timeout=WAIT_MS)
    return cells(page)


def test_the_row_says_what_the_wall_counter_says_and_how_the_partie_ended(league, open_page):
    """RULES 1.7 on the page: who is at the table on which series, each player's innings, the points
    left in the last 20, the last 2 innings and the equalising inning; at the end the winner, a draw,
    a forfeit (A forfeits leading 10:1: the row says B won); the partie's number in the match; an
    8-ball forfeit; a hostile winner's name stays text; an older device's snapshot without those
    facts is drawn as before."""
    page = open_page(f"http://127.0.0.1:{league.port}/live")
    page.wait_for_function("() => document.getElementById('live-status').textContent === 'Živě'", timeout=WAIT_MS)
    rows = {}
    for seq, (case, commands) in enumerate(PLAYED.items(), start=1):
        rows[case] = show(league, page, played(commands, a=f"Novák {case}"), seq)
    mid = rows["mid"]            # A 1 point in 1 inning; B at the table, 3 points on a series of 3
    assert mid[2:6] == ["Novák mid\nnáběhy 1 · do konce 19", "1 : 3", "Dvořák\nu stolu, série 3 · náběhy 0 · do konce 17",
                        "náběh 1 / 3"]
    assert rows["equalising"][2:6] == ["Novák equalising\nnáběhy 1", "20 : 0", "Dvořák\nu stolu, série 0 · náběhy 0 · do konce 20",
                                       "náběh 1 / 3\ndohrávka"]
    assert rows["forfeit"][2:6] == ["Novák forfeit\nskrečoval · náběhy 1", "10 : 1", "Dvořák\nvítěz · náběhy 1",
                                    "konec · vítěz Dvořák (skrečováno)"]
    assert rows["draw"][2:6] == ["Novák draw\nnáběhy 1", "20 : 20", "Dvořák\nnáběhy 1", "konec · remíza"]
    second = show(league, page, played([score(10), MISS, MISS], a="Novák second", points_limit=50), 5)
    assert second[2:6] == ["Novák second\nu stolu, série 0 · náběhy 1", "10 : 0", "Dvořák\nnáběhy 1",  # 40, 50 left
                           "náběh 2 / 3\nposlední 2 náběhy"]
    view = played([score(20), MISS], a="Novák won")
    view["match"] = {"home": "Lvi", "away": "Orli", "points": {"home": 2, "away": 0}, "partie": 2, "partie_count": 4,
                     "home_side": "a"}
    won = show(league, page, view, 6)
    assert won[2] == "Novák won\nvítěz · náběhy 1" and won[5:7] == ["konec · vítěz Novák won",
                                                                     "Lvi – Orli 2 : 0\npartie 2 / 4"]
    eightball = show(league, page, played([{"cmd": "game", "winner": "b"}, forfeit("b")], a="Kos", game="8ball"), 7)
    assert eightball[2:6] == ["Kos", "0 : 1 (sety 0 : 0)", "Dvořák", "konec · vítěz Kos (skrečováno)"]
    hostile = show(league, page, played(PLAYED["forfeit"], a="Novák hostile", b=HOSTILE), 8)
    assert hostile[5] == f"konec · vítěz {HOSTILE} (skrečováno)"
    assert page.locator("#live-tables img, #live-tables script").count() == 0
    old = played(PLAYED["mid"], a="Novák old")
    old["summary"] = {**old["summary"], "players": {side: {"name": p["name"], "points": p["points"]}
                                                    for side, p in old["summary"]["players"].items()}}
    old["summary"]["counter"] = {key: old["summary"]["counter"][key] for key in ("at_table", "inning", "series")}
    assert show(league, page, old, 9)[2:6] == ["Novák old", "1 : 3", "Dvořák\nu stolu, série 3", "náběh 1 / 3"]
    page.reload()                                    # drawn from the page's own list too
    page.wait_for_selector("#live-tables tbody tr", timeout=WAIT_MS)
    assert cells(page)[2:6] == ["Novák old", "1 : 3", "Dvořák\nu stolu, série 3", "náběh 1 / 3"]
