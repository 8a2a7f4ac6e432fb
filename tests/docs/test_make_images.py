"""docs/make_images.py: the pictures README.md and docs/*.md show are what the display code draws
now. A change to the counter or the key card that changes a picture fails here until the
pictures are drawn again (`.venv/bin/python docs/make_images.py`) and looked at."""
import re
from pathlib import Path

import pytest
from PIL import Image, ImageSequence

from docs_helpers import load_script

ROOT = Path(__file__).resolve().parents[2]


SCRIPT = load_script("make_images")


def frames(path: Path) -> list[tuple[bytes, int | None]]:
    """Each frame's RGB pixels and how long it is shown (a PNG: one frame, no duration)."""
    with Image.open(path) as image:
        return [(frame.convert("RGB").tobytes(), frame.info.get("duration"))
                for frame in ImageSequence.Iterator(image)]


@pytest.mark.parametrize("name", SCRIPT.NAMES)
def test_the_committed_picture_is_what_the_script_draws_now(name, tmp_path):
    drawn = SCRIPT.make(name, tmp_path)
    assert frames(drawn) == frames(SCRIPT.IMG / name), \
        f"docs/img/{name} is stale: run .venv/bin/python docs/make_images.py and look at it"


def test_every_picture_the_docs_show_is_drawn_by_the_script():
    """Live pages' screenshots come from bench/live_screenshots.py, the site's from
    docs/make_site_images.py; every other picture from here."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = {name for path in texts for name in re.findall(r"img/([\w.-]+\.(?:png|gif))", path.read_text("utf-8"))}
    counter = {name for name in shown if not name.startswith(("live-", "site-"))}
    assert counter == set(SCRIPT.NAMES)
    assert all((SCRIPT.IMG / name).is_file() for name in shown)
