"""Headless Chromium (Debian's package `chromium`) driven by Playwright, for the browser tests
and bench/live_screenshots.py. Playwright cannot download its own browser here: it is pointed
at /usr/bin/chromium, with a fresh profile each time and nothing that calls home."""
import os
import shutil
import tempfile
from contextlib import contextmanager

import pytest

CHROMIUM = os.environ.get("POCITADLO_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
WAIT_MS = 10_000          # a hang bound for each wait in the browser
MISSING = "Chromium not installed: apt-get install chromium (Debian package `chromium`)"


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return MISSING
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright not installed: pip install -e '.[test]'"
    return None


def browser_env() -> dict:
    """This environment without libfaketime (CI's shifted-clock run preloads it): the browser's
    clock is not under test, and Chromium crawls with it."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("FAKETIME")}


@contextmanager
def chromium(**context):
    """A persistent browser context on a fresh, temporary profile; ``context``: viewport etc."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="pocitadlo-chromium-")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS, env=browser_env(), **context)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def chromium_browser():
    """One headless Chromium (no persistent profile) for a module that opens several contexts: a
    phone's and a desktop's, say (``browser.new_context(**PHONE)``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS, env=browser_env())
        try:
            yield browser
        finally:
            browser.close()


def browser_instance():
    """A generator for a module fixture: one Chromium, or the test skipped (failed with
    POCITADLO_REQUIRE_BROWSER=1) with the reason it cannot run here."""
    require_browser()
    with chromium_browser() as browser:
        yield browser


def require_browser() -> None:
    """Skip the test (fail it with POCITADLO_REQUIRE_BROWSER=1) where the browser tests cannot run."""
    why = missing()
    if why:
        if os.environ.get("POCITADLO_REQUIRE_BROWSER") == "1":
            pytest.fail(f"POCITADLO_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}


def browser_context(**context):
    """A generator for a module fixture: the Chromium context, or the test skipped (failed with
    POCITADLO_REQUIRE_BROWSER=1) with the reason it cannot run here."""
    require_browser()
    with chromium(**context) as browser:
        yield browser


@pytest.fixture(scope="module")
def browser():
    """The module's Chromium context (import it into a test module with ``open_page``); a module
    that needs a phone defines its own ``browser`` fixture with ``browser_context(**PHONE)``."""
    yield from browser_context(viewport={"width": 1280, "height": 720})


@pytest.fixture
def open_page(browser):
    """open_page(url) → a page whose console errors and page errors are collected; after the test
    there must be none. ``offline_expected``: the test takes the server away on purpose, so the
    browser's own report of a refused connection is no error of the page's."""
    pages, errors = [], []

    def open_(url, offline_expected=False):
        def console(msg):
            if msg.type == "error" and not (offline_expected and "net::ERR_CONNECTION_REFUSED" in msg.text):
                errors.append(msg.text)

        page = browser.new_page()
        page.on("console", console)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}") or dialog.dismiss())
        page.goto(url)
        pages.append(page)
        return page
    yield open_
    for page in pages:
        page.close()
    assert errors == [], errors
