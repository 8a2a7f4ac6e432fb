"""Golden images: every key state on every layout, drawn on luma's dummy device.

The states come from real records replayed through the rule cores (tests/display_samples.py).
After an intended change of the pictures, regenerate them and look at the diff:

    POCITADLO_REGEN_GOLDEN=1 .venv/bin/python -m pytest -q tests/display/test_display_golden.py
"""
import os
from pathlib import Path

import pytest
from PIL import Image

from display.counter import Counter
from display.devices import open_device
from display.settings import DisplaySettings
from display_samples import NAMES, sample

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("POCITADLO_REGEN_GOLDEN") == "1"

LAYOUTS = {
    "32x8": dict(width=32, height=8),
    "64x16": dict(width=64, height=16),
    "96x16": dict(width=96, height=16),
    "128x32": dict(width=128, height=32),
    "7seg8": dict(emulate="sevensegment", digits=8),
    "7seg16": dict(emulate="sevensegment", digits=16),
}


def frame(layout: str, name: str, now: float = 0.0) -> Image.Image:
    settings = DisplaySettings(driver="dummy", **LAYOUTS[layout])
    device = open_device(settings)
    Counter(device, settings).show(sample(name), now)
    return device.image


# Later pages of the states whose facts take turns (the first page is in the test above).
PAGES = [("32x8", "carom-to-go", 6.0), ("32x8", "carom-equalising", 6.0), ("32x8", "carom-league-end", 3.0),
         ("32x8", "carom-league-end", 6.0), ("32x8", "carom-frozen", 24.0), ("32x8", "8ball-pocket", 3.0),
         ("64x16", "carom-to-go", 3.0), ("64x16", "carom-league-end", 3.0), ("64x16", "lotdraw", 3.0),
         ("7seg8", "carom-to-go", 3.0), ("7seg8", "carom-league-end", 3.0), ("7seg16", "carom-equalising", 3.0),
         ("32x8", "carom-series", 3.0), ("64x16", "carom-match-night", 12.0), ("64x16", "carom-match-night", 27.0),
         ("128x32", "carom-match-night", 3.0), ("64x16", "8ball-match-night", 12.0)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", NAMES)
def test_frame_matches_golden_image(layout, name, tmp_path):
    """RULES 1.7 (carom) and 2.x (8-ball) states as the counter shows them."""
    check_golden(frame(layout, name), GOLDEN / layout / f"{name}.png", tmp_path)


@pytest.mark.parametrize("layout,name,now", PAGES)
def test_later_page_matches_golden_image(layout, name, now, tmp_path):
    """RULES 1.7: points left (-19 / Z 19), the inning of the limit on 32x8 (1/15); RULES 1.2: frozen balls
    (LPÍ / LP), 1.4: equalising (DOH / do); RULES 1.6 / 2.9: a match night's names, partie and team score."""
    image = frame(layout, name, now)
    assert image.tobytes() != frame(layout, name).tobytes(), "a later page must show something else"
    check_golden(image, GOLDEN / layout / f"{name}@{now:g}s.png", tmp_path)


def check_golden(image, path, tmp_path):
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    assert path.exists(), f"no golden image {path}: run with POCITADLO_REGEN_GOLDEN=1"
    with Image.open(path) as golden:
        expected = golden.convert(image.mode)
    if expected.tobytes() != image.tobytes():
        image.save(tmp_path / "actual.png")
        pytest.fail(f"{path} differs; the new picture is {tmp_path / 'actual.png'}")


def test_goldens_are_not_all_alike():
    """A golden test that compares blank frames would pass for anything."""
    pictures = {frame("64x16", name).tobytes() for name in NAMES}
    assert len(pictures) == len(NAMES)
