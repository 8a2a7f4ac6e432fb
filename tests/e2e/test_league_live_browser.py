"""The league's /live page in a real browser (headless Chromium through Playwright): a key pressed
at the device (the emulator player) appears on it, names stay text, no console error (a CSP
violation is one). Skipped without Chromium, a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import pytest

from browser_helpers import WAIT_MS
from league_live_helpers import DEVICE, SECRET, START_PARTIE, VENUE, connect, post_snapshot, snap
from live_helpers import HOSTILE
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
