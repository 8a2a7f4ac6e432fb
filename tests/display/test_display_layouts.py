"""One layout interface for dot-matrix and 7-segment boards: a method per screen under the same
names, ``draw`` and ``message``; the Counter never asks which kind of board it has."""
import pytest

from display.counter import Counter
from display.devices import open_device
from display.layouts import MatrixLayout, SegmentLayout
from display.layouts.base import TEXT_SCREENS, Layout
from display.settings import DisplaySettings
from display_samples import sample
from rules.games import GAMES

LAYOUTS = [MatrixLayout(64, 16), SegmentLayout(8)]
SCREEN_METHODS = sorted(set(TEXT_SCREENS) | {game.screen for game in GAMES.values()} | {"unknown"})


def segment_counter(digits=8, **options):
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=digits, **options)
    return Counter(open_device(settings), settings)


@pytest.mark.parametrize("layout", LAYOUTS, ids=type)
def test_both_kinds_of_board_have_a_method_for_every_screen(layout):
    assert isinstance(layout, Layout)
    for name in SCREEN_METHODS:
        assert callable(getattr(layout, name)), name
    assert type(layout).message is not Layout.message


@pytest.mark.parametrize("layout", LAYOUTS, ids=type)
def test_a_game_screen_is_drawn_by_the_games_method_and_a_stray_name_as_unknown(layout):
    assert layout.screen({"screen": "8ball"}) == layout.eightball
    assert layout.screen({"screen": "carom"}) == layout.carom
    assert layout.screen({"screen": "menu"}) == layout.menu
    for stray in ("message", "_carom", "eightball", "geometry", "draw", None):
        assert layout.screen({"screen": stray}) == layout.unknown


def test_a_segment_board_draws_the_line_its_screen_method_gives():
    c = segment_counter()
    model = sample("carom-series")
    drawn = c.render(model, 0.0).image.tobytes()
    assert c.layout.carom(c.render(model, 0.0), model) == " 11. 1. 13"
    other = c.render(sample("carom-start"), 0.0).image.tobytes()
    assert drawn != other


def test_a_message_on_a_segment_board_takes_the_place_of_the_screen():
    c = segment_counter()
    model = dict(sample("carom-series"), message={"text": "10 nelze", "level": "warn"})
    with_message = c.render(model, 0.0).image.tobytes()
    alone = c.render({"screen": "_none", "message": {"text": "10 nelze"}}, 0.0).image.tobytes()
    assert with_message == alone
    assert c.render(model, 0.0, message=False).image.tobytes() == c.render(sample("carom-series"), 0.0).image.tobytes()
    assert c.layout.message(c.render(model, 0.0), model["message"], 3) == 1


def test_a_segment_board_keeps_its_pages_and_blinking_under_a_message():
    """RULES 1.7: the counter's deadlines still come from the screen beneath a message."""
    c = segment_counter()
    model = dict(sample("carom-last-two"), message={"text": "10 nelze", "level": "warn"})
    assert c.render(model, 0.0).blinks
