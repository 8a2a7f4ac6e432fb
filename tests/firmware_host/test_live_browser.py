"""The live page and the overlay in a real browser (headless Chromium through Playwright).

A key pressed at the device (the emulator player: referee → rule core → journal → counter)
must appear on the page and the overlay; a page whose stream drops catches up when the device
is back; no page logs a console error (a CSP violation is one). Without Chromium these skip with
one line naming the package; with POCITADLO_REQUIRE_BROWSER=1 (CI) that skip is a failure."""
import pytest

from browser_helpers import WAIT_MS
from firmware_host.live.server import LiveServer
from firmware_host.live.settings import LiveSettings
from live_helpers import HOSTILE, MATCH, START_PARTIE, hostile_home_team, serve, serving

pytestmark = pytest.mark.browser


def caught_up(page, live) -> None:
    """Wait until ``page`` shows the newest state the device's live part has."""
    assert live.flush()
    page.wait_for_function("seq => Number(document.body.dataset.seq) >= seq", arg=live.hub.seq, timeout=WAIT_MS)


def text(page, selector: str) -> str:
    return page.locator(selector).first.inner_text()


def test_a_key_at_the_device_appears_on_the_page_and_the_overlay(emulator, open_page):
    player = emulator()
    with serving(player) as live:
        url = "http://%s:%s" % live.address
        page, bug = open_page(url + "/"), open_page(url + "/overlay?x=40&y=900&w=1000")
        caught_up(page, live), caught_up(bug, live)
        assert "Připraveno" in text(page, "main")
        player.play(START_PARTIE + "127")
        for shown in (page, bug):
            caught_up(shown, live)
            assert text(shown, ".player.a .points") == "13" and text(shown, ".player.b .points") == "0"
            assert "Hráč 1" in text(shown, ".player.at .name")
        assert "série 13" in text(page, ".series") and "1 / 15" in text(page, ".inning")
        box = bug.locator("main").bounding_box()
        assert (round(box["x"]), round(box["y"]), round(box["width"])) == (40, 900, 1000)
        for element in ("document.documentElement", "document.body"):
            assert bug.evaluate(f"getComputedStyle({element}).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert bug.evaluate("getComputedStyle(document.documentElement).colorScheme") == "normal"


def test_a_page_whose_stream_dropped_catches_up(emulator, open_page):
    player = emulator()
    live = serve(player)
    port = live.address[1]
    try:
        page = open_page("http://127.0.0.1:%s/" % port, offline_expected=True)
        player.play(START_PARTIE + "1")
        caught_up(page, live)
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
        page.wait_for_selector(".player.b.at", timeout=WAIT_MS)
        assert text(page, ".player.a .points") == "13"
    finally:
        live.stop()


def test_hostile_names_are_shown_as_text(emulator, open_page):
    player = emulator()
    hostile_home_team(player)
    with serving(player, identity={"venue": HOSTILE, "table": "1", "language": "en"}) as live:
        page = open_page("http://%s:%s/" % live.address)
        player.play(MATCH)
        caught_up(page, live)
        assert HOSTILE in text(page, "header .place")
        assert text(page, ".player.a .name").startswith(HOSTILE)
        assert page.locator("main img, main script, main b").count() == 0
        assert "inning" in text(page, ".mid")           # [device] language = en


def test_an_eightball_table_shows_games_sets_and_the_shooter(emulator, open_page):
    player = emulator(game="8ball")
    with serving(player) as live:
        page = open_page("http://%s:%s/" % live.address)
        player.play(START_PARTIE)
        caught_up(page, live)
        assert text(page, ".player.a .points") == "0" and "sety 0" in text(page, ".player.a .facts")
        assert "rozstřel" in text(page, ".lines")
        assert page.locator(".player.at").count() == 1
        player.play("70" + "*0")                       # a solid on the break, then a scratch
        caught_up(page, live)
        assert "plné · zbývá koulí 6" in text(page, ".player.a .chips")
        assert "půlené · zbývá koulí 7" in text(page, ".player.b .chips")
        assert "koule v ruce" in text(page, ".lines") and page.locator(".player.b.at").count() == 1


def test_a_match_night_partie_to_its_end_with_averages_and_highest_series(emulator, open_page):
    player = emulator(points_limit=3, innings_limit=5)
    with serving(player) as live:
        page = open_page("http://%s:%s/" % live.address)
        player.play(MATCH[:-2])                        # tonight's fixture, everybody present: the lot
        caught_up(page, live)
        assert "Los dvojic" in text(page, "main") and page.locator(".partie-list li").count() == 4
        player.play("\n\n")                           # the first pair, A starts
        caught_up(page, live)
        header = text(page, "header")
        assert "Sokol Dvůr" in header and "Jiskra Hořice" in header and "partie 1 z 4" in header
        assert "0 : 0" in text(page, ".team-score")
        player.play("1" + "0" + "20" + "2")            # A 1, B 2, A +2 reaches 3: B's equalising inning
        caught_up(page, live)
        assert "dohrávka" in text(page, ".lines")
        player.play("0")                               # B misses: A wins 3 : 2 in 2 innings
        caught_up(page, live)
        assert text(page, ".result") == "konec · vyhrál " + text(page, ".player.a .name").rstrip(" ●")
        assert "průměr 1.500 · nejvyšší série 2" in text(page, ".player.a .facts")
        assert "průměr 1.000 · nejvyšší série 2" in text(page, ".player.b .facts")
        assert page.locator(".player.a.winner").count() == 1
