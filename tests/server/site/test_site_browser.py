"""The league's site in a real browser (headless Chromium through Playwright), a league in the middle
of its autumn (tests/site_helpers.py): every public and admin page on a phone (390×844) and a
desktop (1280×900) is no wider than the screen, has its header (the league, the season, the
competition switcher) and one <h1>, and is kept as a screenshot (out/screens/, or
$POCITADLO_ARTEFACTS; JPEG, which Chromium encodes in a fraction of a PNG's time); axe-core finds
no serious or critical violation on any page as a phone shows it (in the same visit); the tables
sort and the players' search filters with the script; /live shows Prague's time.
Skipped without Chromium, a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import os
from pathlib import Path

import pytest

from browser_helpers import WAIT_MS, browser_instance
from site_helpers import NOW, SEASON, SIZES, log_in, serve_demo

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
ARTEFACTS = Path(os.environ.get("POCITADLO_ARTEFACTS", ROOT / "out" / "screens"))
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
SERIOUS = ("serious", "critical")
NOT_FOUND = ("not-found", "admin-not-found")        # pages answered 404 on purpose


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with serve_demo(tmp_path_factory.mktemp("site")) as served:
        yield served


@pytest.fixture(scope="module")
def chromium():
    yield from browser_instance()


def _visit(context, url: str, name: str, errors: list):
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and not (name in NOT_FOUND and "404" in msg.text)
            and errors.append(f"{name}: {msg.text}"))
    page.goto(url, timeout=WAIT_MS)
    return page


class _Tab:
    """One tab that visits page after page (a new tab for each took longer than the visit), its
    errors in the browser's console kept with the page's name."""

    def __init__(self, context, errors: list):
        self.page, self.name = context.new_page(), ""
        self.page.on("pageerror", lambda exc: errors.append(f"{self.name}: {exc}"))
        self.page.on("console", lambda msg: msg.type == "error" and not (self.name in NOT_FOUND and "404" in msg.text)
                     and errors.append(f"{self.name}: {msg.text}"))

    def visit(self, url: str, name: str):
        self.name = name
        self.page.goto(url, timeout=WAIT_MS)
        return self.page


def _pages(site, context):
    """(name, path) of every page in turn: the public ones and the login, then, logged in, the admin's."""
    site.show_a_table_live()
    yield from site.public_pages() + [("admin-login", "/admin/login")]
    page = context.new_page()
    log_in(page, site.url)
    page.close()
    yield from site.admin_pages()


def _serious(axe, page) -> list:
    results = axe.run(page).response
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in results["violations"] if v["impact"] in SERIOUS]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits_the_screen_has_the_leagues_header_and_on_a_phone_passes_axe(site, chromium, size):
    """Each page as the size shows it, once: no wider than the screen, one <h1>, the header, a
    description of its own, a screenshot kept; on the phone, axe-core (axe-playwright-python) finds
    no violation of impact serious or critical (landmarks, names, contrast, scroll boxes reachable
    by keyboard …)."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe() if size == "phone" else None
    context = chromium.new_context(**SIZES[size])
    errors, descriptions, violations = [], {}, {}
    folder = ARTEFACTS / size
    folder.mkdir(parents=True, exist_ok=True)
    try:
        tab = _Tab(context, errors)
        for name, path in _pages(site, context):
            page = tab.visit(site.url + path, name)
            assert page.evaluate(OVERFLOW) <= 0, f"{name} ({path}) is wider than the {size}'s screen"
            assert page.locator("main h1").count() == 1 and page.locator("h1").count() == 1, name
            header = page.locator("header.top")
            assert header.locator(".league").inner_text().strip(), name
            if not name.startswith("admin"):
                assert header.locator("nav.games a, nav.games strong").count() == 2, name
                assert "sezóna" in header.inner_text() or name in ("rules", "live", "not-found"), name
            descriptions[name] = page.locator('meta[name="description"]').get_attribute("content")
            page.screenshot(path=str(folder / f"{name}.jpeg"), full_page=True, type="jpeg", quality=70)
            if axe is not None and (serious := _serious(axe, page)):
                violations[name] = serious
    finally:
        context.close()
    assert errors == []
    assert violations == {}
    assert {name: text for name, text in descriptions.items() if len(text) < 40} == {}
    public = [descriptions[name] for name, _ in site.public_pages()]
    assert len(set(public)) == len(public), "each page describes itself"


def test_a_table_sorts_by_a_column_and_the_players_search_filters_as_one_types(site, chromium):
    """Progressive enhancement: without the script the table is in the rules' order and the search
    is a form the server answers; with it, a heading sorts and typing filters."""
    context = chromium.new_context(**SIZES["desktop"])
    try:
        page = _visit(context, site.url + "/table.html", "table", [])
        column = page.locator("thead th").nth(9)                    # Skóre: sorted by the difference
        column.locator("button").click()
        assert column.get_attribute("aria-sort") == "descending"
        differences = [int(v) for v in page.locator("tbody tr td:nth-child(10)").evaluate_all(
            "cells => cells.map(c => c.dataset.sort)")]
        assert differences == sorted(differences, reverse=True) and differences != []
        column.locator("button").click()
        assert column.get_attribute("aria-sort") == "ascending"
        page = _visit(context, site.url + "/players.html", "players", [])
        everyone = page.locator("#players-table tbody tr").count()
        page.fill("#q", "novak")                                    # without the accent
        visible = page.locator("#players-table tbody tr:visible")
        assert visible.count() == 1 and "Jan Novák" in visible.inner_text()
        assert page.locator("#players-table-count").inner_text() == "1"
        page.fill("#q", "")
        assert page.locator("#players-table tbody tr:visible").count() == everyone > 20
    finally:
        context.close()


def test_the_live_page_shows_when_a_table_was_heard_in_prague_time(site, chromium):
    """/live received the snapshot at the receiver's 16:30 in Prague (15:30 UTC): it says
    "st 11. 11. 16:30", not an ISO time in UTC."""
    site.show_a_table_live()
    context = chromium.new_context(**SIZES["phone"])
    try:
        page = _visit(context, site.url + "/live", "live", [])
        page.wait_for_selector("#live-tables tbody tr", timeout=WAIT_MS)
        row = page.locator("#live-tables tbody tr").first.inner_text()
        assert "Jan Novák" in row and f"st 11. 11. {NOW:%H:%M}" in row and "T15:30" not in row
    finally:
        context.close()


def test_the_season_switcher_leads_to_an_earlier_season_and_the_competition_switcher_to_8ball(site, chromium):
    context = chromium.new_context(**SIZES["phone"])
    try:
        page = _visit(context, site.url + "/players.html", "players", [])
        with page.expect_navigation(timeout=WAIT_MS):
            page.locator("nav.games a", has_text="8-ball").click()
        assert page.url.endswith("/players.html?game=8ball&season=2026%2F27")
        assert page.locator("h1").inner_text() == f"Hráči: 8-ball, sezóna {SEASON}"
    finally:
        context.close()


def test_a_reader_switches_to_english_and_back_and_the_english_pages_pass_axe(site, chromium):
    """The switch in the header: the same page in English (its <html lang>, axe-core finds no serious
    violation on a phone), the live page's script writing English, and back to Czech."""
    from axe_playwright_python.sync_playwright import Axe

    site.show_a_table_live()
    context = chromium.new_context(**SIZES["phone"])
    errors: list = []
    try:
        page = _visit(context, site.url + "/table.html", "table", errors)
        with page.expect_navigation(timeout=WAIT_MS):
            page.locator("header.top a.language").click()
        assert page.url == site.url + "/table.html" and page.locator("html").get_attribute("lang") == "en"
        assert page.locator("h1").inner_text() == f"Table: carom, season {SEASON}"
        assert _serious(Axe(), page) == []
        page.goto(site.url + "/live", timeout=WAIT_MS)
        page.wait_for_selector("#live-tables tbody tr", timeout=WAIT_MS)
        row = page.locator("#live-tables tbody tr").first.inner_text()
        assert f"Wed 11 Nov {NOW:%H:%M}" in row and "inning 9 / 15" in row
        assert _serious(Axe(), page) == []
        with page.expect_navigation(timeout=WAIT_MS):
            page.locator("header.top a.language").click()
        assert page.url == site.url + "/live" and page.locator("html").get_attribute("lang") == "cs"
        assert "náběh 9 / 15" in page.locator("#live-tables tbody tr").first.inner_text()
    finally:
        context.close()
    assert errors == []
