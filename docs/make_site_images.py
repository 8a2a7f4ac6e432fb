"""Draw the league site's pictures that docs/league.md and README.md show: the demo league of
tests/site_helpers.py (a season in the middle of its autumn, its clock standing still) served on
127.0.0.1 and photographed by Debian's Chromium through Playwright, as a phone (390×844) and a
desktop (1280×900) show it.

    .venv/bin/python docs/make_site_images.py                     # all of them, into docs/img
    .venv/bin/python docs/make_site_images.py site-home-phone.png --out /tmp/pictures

Run it after any change to what the site shows, and look at the pictures.
tests/docs/test_make_site_images.py fails when a picture taken now differs from the committed one.
"""
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
# picture -> (the page's name in tests/site_helpers.Site, the size, logged in to the admin)
PICTURES = {
    "site-home-phone.png": ("home", "phone", False),
    "site-table-phone.png": ("table", "phone", False),
    "site-match-phone.png": ("match", "phone", False),
    "site-player-phone.png": ("player", "phone", False),
    "site-team-phone.png": ("team", "phone", False),
    "site-admin-fixture-phone.png": ("admin-fixture", "phone", True),
    "site-admin-team-phone.png": ("admin-team", "phone", True),
    "site-table-desktop.png": ("table", "desktop", False),
}
NAMES = tuple(PICTURES)


def make_all(names, folder: Path) -> list[Path]:
    """Take the pictures ``names`` into ``folder`` (one demo league, one browser); their paths."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from browser_helpers import chromium_browser
    from site_helpers import SIZES, log_in, serve_demo

    made = []
    with tempfile.TemporaryDirectory() as tmp, serve_demo(Path(tmp)) as site, chromium_browser() as browser:
        paths = dict(site.public_pages() + site.admin_pages())
        for size in SIZES:
            context = browser.new_context(**SIZES[size])
            try:
                if any(admin for _, s, admin in (PICTURES[n] for n in names) if s == size):
                    log_in(context.new_page(), site.url)
                for name in names:
                    page_name, page_size, _ = PICTURES[name]
                    if page_size != size:
                        continue
                    page = context.new_page()
                    page.goto(site.url + paths[page_name])
                    path = Path(folder) / name
                    page.screenshot(path=str(path), animations="disabled", caret="hide")
                    page.close()
                    made.append(path)
            finally:
                context.close()
    return made


def main(argv=None) -> int:
    sys.path.insert(0, str(ROOT / "docs"))
    from make_images import picture_command

    return picture_command(argv, __doc__.split("\n\n")[0], NAMES, make_all)


if __name__ == "__main__":
    sys.exit(main())
