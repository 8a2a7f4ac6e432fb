"""The league's web admin and public schedule in a real browser (headless Chromium) at a phone's
width: the organiser logs in, sets a season up through the forms (the session cookie and the CSRF
tokens work as a browser sends them), and the schedule fits the screen. Skipped without Chromium,
a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import pytest

from admin_http_helpers import TOKEN
from browser_helpers import WAIT_MS
from server.ingest.receiver import Receiver
from server.storage.store import Store

pytestmark = pytest.mark.browser
PHONE = {"width": 375, "height": 740}


@pytest.fixture
def site(tmp_path, serving):
    store = Store(tmp_path / "league.sqlite")
    try:
        with serving(Receiver(store), admin_token=TOKEN) as server:
            yield f"http://127.0.0.1:{server.port}"
    finally:
        store.close()


def _submit(page, action: str, fields: dict, boxes=()):
    form = page.locator(f'form[action="/admin/{action}"]')
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    for box in boxes:
        form.locator(f'[name="{box}"]').check()
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state("load", timeout=WAIT_MS)
    assert "Odmítnuto" not in page.content(), page.locator(".error").all_inner_texts()


def _fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_the_organiser_sets_up_a_season_on_a_phone_and_the_schedule_fits_it(site, open_page):
    page = open_page(f"{site}/admin")
    page.set_viewport_size(PHONE)
    assert page.url.endswith("/admin/login")
    page.fill('input[name="token"]', TOKEN)
    page.click('button[type="submit"]')
    page.wait_for_selector("text=Odhlásit", timeout=WAIT_MS)
    _submit(page, "season", {"name": "2026/27"})
    for venue in ("Hostinec U Lva", "Hospoda U Koule"):
        _submit(page, "venue", {"name": venue}, boxes=("day1", "day3"))
    for team, venue in (("Sokol Dvůr", "Hostinec U Lva"), ("Jiskra Hořice", "Hospoda U Koule"),
                        ("Lvi", "Hostinec U Lva")):
        _submit(page, "team", {"name": team, "venue": venue, "captain": f"Kapitán {team}",
                               "phone": "+420 777 123 456"})
    _submit(page, "player-add", {"name": "Jan Novák", "team": "Sokol Dvůr"})
    _submit(page, "generate", {})
    assert "Rozlosováno 6 utkání" in page.locator(".done").inner_text() and _fits(page)
    schedule = open_page(f"{site}/schedule")
    schedule.set_viewport_size(PHONE)
    assert schedule.locator("h2").first.inner_text() == "1. kolo"
    assert "Sokol Dvůr" in schedule.content() and _fits(schedule)
