"""The statistics pages on a phone (390 px wide, headless Chromium through Playwright): index →
match → player → team → match by their links, no page wider than the screen (a wide table scrolls
in its own box), hostile names shown as text, no console error (a CSP violation is one).
Skipped without Chromium, a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import pytest
from stats_helpers import HOSTILE_PLAYER, HOSTILE_TEAM, hand_league, hostile_match

from browser_helpers import PHONE, WAIT_MS, browser_context
from conftest import KOULE, SECRETS, signer
from sync_helpers import league_store, running_server

pytestmark = pytest.mark.browser

OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def browser():
    yield from browser_context(**PHONE)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A receiver with the hand-computed league and a hostile match, served on 127.0.0.1."""
    with league_store(tmp_path_factory.mktemp("stats") / "league.sqlite", SECRETS["u-lva-1"]) as store:
        store.devices.add("u-koule-1", SECRETS["u-koule-1"], venue=KOULE)
        with running_server(store) as server:
            receiver = server.receiver
            hand_league(receiver, signer("u-lva-1"), signer("u-koule-1"))
            hostile_match(receiver, signer("u-lva-1"))
            yield f"http://127.0.0.1:{server.port}"


def fits(page) -> None:
    assert page.evaluate("() => window.innerWidth") == 390
    assert page.evaluate(OVERFLOW) <= 0, page.url


def follow(page, text: str) -> None:
    """Click the first link whose text is ``text`` and wait for the page it leads to."""
    with page.expect_navigation(timeout=WAIT_MS):
        page.get_by_role("link", name=text, exact=True).first.click()
    fits(page)


def test_a_1_3_from_the_index_to_a_match_a_player_a_team_and_back_on_a_phone(site, open_page):
    page = open_page(site + "/")
    fits(page)
    follow(page, "KD-2")
    assert "Zápis o utkání: Orli – Lvi" in page.locator("h1").inner_text()
    follow(page, "Novák")
    assert page.locator("h1").inner_text() == "Hráč: Novák"
    assert "3.500" in page.locator("body").inner_text()
    follow(page, "Lvi")
    assert page.locator("h1").inner_text().startswith("Družstvo: Lvi")
    follow(page, "KD-1")
    assert "Lvi – Orli" in page.locator("h1").inner_text()


@pytest.mark.parametrize("path", ["/players.html", "/players.html?game=8ball", "/rankings.html", "/rules.html",
                                  "/table.html", "/table-8ball.html", "/matches/8B-1.html", "/live",
                                  "/teams/Lvi.html"])
def test_every_statistics_page_fits_a_phone(site, open_page, path):
    page = open_page(site + path)
    fits(page)
    assert page.locator("nav.site a").count() >= 6


def test_a_wide_match_record_scrolls_in_its_box_not_the_page(site, open_page):
    page = open_page(site + "/matches/KD-1.html")
    fits(page)
    widths = page.evaluate("() => [...document.querySelectorAll('.scroll')].map(b => [b.scrollWidth, b.clientWidth])")
    assert all(client <= 390 for _, client in widths)


def test_a_hostile_name_is_shown_as_text_and_its_link_works_on_a_phone(site, open_page):
    page = open_page(site + "/players.html")
    fits(page)
    assert HOSTILE_PLAYER in page.locator("table").first.inner_text()
    assert page.locator("main img, table img, table script, b").count() == 0
    follow(page, HOSTILE_PLAYER)
    assert page.locator("h1").inner_text() == f"Hráč: {HOSTILE_PLAYER}"
    follow(page, HOSTILE_TEAM)
    assert page.locator("h1").inner_text().startswith(f"Družstvo: {HOSTILE_TEAM}")
    assert page.locator("b, img").count() == 0
