"""docs/make_site_images.py: the site's pictures docs/league.md and README.md show are what the
site shows now (the demo league, Chromium). A change to a page that changes a picture fails here
until the pictures are taken again (`.venv/bin/python docs/make_site_images.py`) and looked at.
Skipped without Chromium, a failure with POCITADLO_REQUIRE_BROWSER=1 (CI)."""
import re
from pathlib import Path

import pytest
from PIL import Image

from browser_helpers import require_browser
from docs_helpers import load_script

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


SCRIPT = load_script("make_site_images")


def pixels(path: Path) -> tuple:
    with Image.open(path) as image:
        return image.size, image.convert("RGB").tobytes()


def test_the_committed_site_pictures_are_what_the_site_shows_now(tmp_path):
    require_browser()
    stale = [path.name for path in SCRIPT.make_all(SCRIPT.NAMES, tmp_path)
             if pixels(path) != pixels(SCRIPT.IMG / path.name)]
    assert stale == [], f"docs/img/{stale} stale: run .venv/bin/python docs/make_site_images.py and look at them"


def test_every_site_picture_the_docs_show_is_taken_by_the_script():
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = {name for path in texts for name in re.findall(r"img/(site-[\w.-]+\.png)", path.read_text("utf-8"))}
    assert shown == set(SCRIPT.NAMES)
