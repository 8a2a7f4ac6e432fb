"""The live page and the overlay in a real browser (headless Chromium through Playwright).

A key pressed at the device (the emulator player: referee → rule core → journal → counter)
must appear on the page and the overlay; a page whose stream drops catches up when the device
is back; no page logs a console error (a CSP violation is one). Without Chromium these skip with
one line naming the package; with POCITADLO_REQUIRE_BROWSER=1 (CI) that skip is a failure."""
import os

import pytest

from browser_helpers import chromium, missing
from firmware_host.live.server import LiveServer
from firmware_host.live.settings import LiveSettings
from live_helpers import START_PARTIE, serve

pytestmark = pytest.mark.browser
WAIT_MS = 10_000                  # a hang bound for each wait in the browser


@pytest.fixture(scope="module")
def browser():
    why = missing()
    if why:
        if os.environ.get("POCITADLO_REQUIRE_BROWSER") == "1":
            pytest.fail(f"POCITADLO_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    with chromium(viewport={"width": 1280, "height": 720}) as context:
        yield context


@pytest.fixture
def open_page(browser):
    """open_page(url) → a page whose console errors and page errors are collected; after the test
    there must be none."""
    pages, errors = [], []

    def open_(url):
        page = browser.new_page()
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}") or dialog.dismiss())
        page.goto(url)
        pages.append(page)
        return page
    yield open_
    for page in pages:
        page.close()
    assert errors == []


def at_seq(page, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=WAIT_MS)


def text(page, selector: str) -> str:
    return page.locator(selector).first.inner_text()


def test_a_key_at_the_device_appears_on_the_page_and_the_overlay(emulator, open_page):
    player = emulator()
    live = serve(player)
    try:
        url = "http://%s:%s" % live.address
        page, bug = open_page(url + "/"), open_page(url + "/overlay?x=40&y=900&w=1000")
        at_seq(page, live.hub.seq), at_seq(bug, live.hub.seq)
        assert "Připraveno" in text(page, "main")
        player.play(START_PARTIE + "127")
        for shown in (page, bug):
            at_seq(shown, live.hub.seq)
            assert text(shown, ".player.a .points") == "13" and text(shown, ".player.b .points") == "0"
            assert "Hráč 1" in text(shown, ".player.at .name")
        assert "série 13" in text(page, ".series") and "1 / 15" in text(page, ".inning")
        box = bug.locator("main").bounding_box()
        assert (round(box["x"]), round(box["y"]), round(box["width"])) == (40, 900, 1000)
        assert bug.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    finally:
        live.stop()


def test_a_page_whose_stream_dropped_catches_up(emulator, open_page):
    player = emulator()
    live = serve(player)
    port = live.address[1]
    try:
        page = open_page("http://127.0.0.1:%s/" % port)
        player.play(START_PARTIE + "1")
        at_seq(page, live.hub.seq)
        live.stop()                                    # the device's web part goes away ...
        page.wait_for_selector("#offline", timeout=WAIT_MS)
        player.play("270")                             # ... keys go on meanwhile ...
        player.service.observers.remove(live.observe)
        live = LiveServer(LiveSettings(True, "127.0.0.1", port, 8), live.hub.identity,
                          context=live.context)        # ... and it is back on the same port
        player.service.observers.append(live.observe)
        live.observe(player.service.display.model)
        assert live.listening(10), live.error
        page.wait_for_selector("#offline", state="detached", timeout=WAIT_MS)
        page.wait_for_function("document.querySelector('.player.b.at') !== null", timeout=WAIT_MS)
        assert text(page, ".player.a .points") == "13"
    finally:
        live.stop()


def test_a_hostile_name_is_shown_as_text(emulator, open_page):
    hostile = '<img src=x onerror=alert(1)></script><script>alert(2)</script>'
    player = emulator()
    live = serve(player, identity={"venue": hostile, "table": "1", "language": "en"})
    try:
        page = open_page("http://%s:%s/" % live.address)
        player.play(START_PARTIE)
        at_seq(page, live.hub.seq)
        assert hostile in text(page, "header .place")
        assert page.locator("main img, main script").count() == 0
        assert "inning" in text(page, ".mid")           # [device] language = en
    finally:
        live.stop()


def test_an_eightball_table_shows_games_sets_and_the_shooter(emulator, open_page):
    player = emulator(game="8ball")
    live = serve(player)
    try:
        page = open_page("http://%s:%s/" % live.address)
        player.play(START_PARTIE)
        at_seq(page, live.hub.seq)
        assert text(page, ".player.a .points") == "0" and "sety 0" in text(page, ".player.a .facts")
        assert "rozstřel" in text(page, ".lines")
        assert page.locator(".player.at").count() == 1
    finally:
        live.stop()
