"""The Counter: frames only on change, blink and page deadlines, messages, faults (RULES 1.7)."""
import pytest

from display.counter import Counter
from display.devices import DisplayFault, open_device
from display.layouts.text_screens import message_parts
from display.scene import Scene
from display.settings import DisplaySettings
from display_samples import sample


class Recorder:
    """A luma-like device that keeps every frame it is handed."""

    def __init__(self, width=64, height=16, mode="1", fail=False):
        self.size, self.mode, self.fail = (width, height), mode, fail
        self.frames = []

    def display(self, image):
        if self.fail:
            raise OSError("SPI write failed")
        self.frames.append(image.tobytes())


def counter(settings=None, device=None):
    settings = settings or DisplaySettings(driver="dummy")
    return Counter(device or Recorder(*settings.size), settings)


def test_an_unchanged_picture_is_never_resent():
    c = counter()
    model = sample("carom-series")
    c.show(model, 0.0)
    c.show(dict(model), 0.1)
    c.show(model, 7.0)
    assert c.frames == 1 and len(c.device.frames) == 1


def test_a_changed_state_sends_one_frame():
    c = counter()
    c.show(sample("carom-start"), 0.0)
    c.show(sample("carom-series"), 0.2)
    assert c.frames == 2


def test_a_still_picture_needs_no_deadline():
    c = counter()
    assert c.show(sample("carom-series"), 0.0) is None
    assert c.tick(100.0) is None and c.frames == 1


def test_last_two_innings_blink_on_the_blink_deadline():
    """RULES 1.7: the last 2 innings are shown — the inning number blinks."""
    c = counter()
    deadline = c.show(sample("carom-last-two"), 0.0)
    assert deadline == 0.5
    lit = c.device.frames[-1]
    assert c.tick(0.25) == 0.5 and c.frames == 1          # early tick: nothing to send
    assert c.tick(0.5) == 1.0 and c.frames == 2
    assert c.device.frames[-1] != lit
    assert c.tick(1.0) == 1.5 and c.device.frames[-1] == lit


def test_blink_period_follows_config():
    c = counter(DisplaySettings(driver="dummy", blink_seconds=0.8))
    assert c.show(sample("carom-last-two"), 0.1) == pytest.approx(0.8)


def test_small_counter_pages_through_facts():
    settings = DisplaySettings(driver="dummy", width=32, height=8, page_seconds=2.0)
    c = counter(settings)
    assert c.show(sample("carom-series"), 0.0) == 2.0
    first = c.device.frames[-1]
    c.tick(2.0)
    assert c.device.frames[-1] != first


def test_message_shows_then_times_out():
    c = counter(DisplaySettings(driver="dummy", message_seconds=3.0))
    plain = sample("carom-series")      # a still picture: no blink, no pages
    c.show(plain, 0.0)
    without = c.device.frames[-1]
    deadline = c.show(dict(plain, message={"text": "10 nelze", "level": "warn"}), 1.0)
    assert deadline == 4.0 and c.device.frames[-1] != without
    assert c.tick(4.0) is None
    assert c.device.frames[-1] == without


def test_the_same_message_does_not_restart_its_timer():
    c = counter(DisplaySettings(driver="dummy", message_seconds=3.0))
    model = dict(sample("carom-series"), message={"text": "10 nelze", "level": "warn"})
    c.show(model, 0.0)
    assert c.show(dict(model), 2.0) == 3.0
    assert c.show(dict(model), 3.5) is None


def test_a_new_message_restarts_the_timer():
    c = counter(DisplaySettings(driver="dummy", message_seconds=3.0))
    c.show(dict(sample("carom-series"), message={"text": "a", "level": "info"}), 0.0)
    assert c.show(dict(sample("carom-series"), message={"text": "b", "level": "info"}), 2.0) == 5.0


def test_write_failure_is_one_display_fault_and_retried_after_reattach():
    c = counter(device=Recorder(fail=True))
    with pytest.raises(DisplayFault, match="SPI write failed"):
        c.show(sample("carom-series"), 0.0)
    assert c.frames == 0
    c.attach(Recorder())
    c.tick(1.0)
    assert c.frames == 1


def test_reattached_device_gets_the_picture_even_if_unchanged():
    c = counter()
    c.show(sample("carom-series"), 0.0)
    fresh = Recorder()
    c.attach(fresh)
    c.tick(0.1)
    assert len(fresh.frames) == 1


def test_a_malformed_model_shows_an_error_screen_not_a_traceback():
    """In the counter's language: what is wrong, and that scoring goes on (the model to the log)."""
    c = counter()
    c.show({"screen": "carom", "summary": {"players": {}}}, 0.0)
    good = counter()
    good.show({"screen": "error", "code": "display", "text": "obraz nelze vykreslit, hraje se dál: nahlaste chybu"}, 0.0)
    assert c.device.frames[-1] == good.device.frames[-1]


@pytest.mark.parametrize("code,title", [("keypad", "CHYBA klávesnice"), ("storage", "CHYBA SD karta"),
                                        ("config", "CHYBA nastavení"), ("display", "CHYBA displej")])
def test_an_error_screen_names_the_fault_in_czech(code, title, monkeypatch):
    """A Czech counter never says CHYBA keypad: the error's code is named in the counter's words."""
    from display import fonts

    said, paint = [], fonts.BitmapFont.paint
    monkeypatch.setattr(fonts.BitmapFont, "paint", lambda font, p, xy, text: said.append(text) or paint(
        font, p, xy, text))
    Counter(None, DisplaySettings(driver="dummy", width=128, height=32)).render(
        {"screen": "error", "code": code, "text": "x"}, 0.0)
    assert title in said


def test_unknown_screen_is_drawn_not_raised():
    c = counter()
    c.show({"screen": "_draw"}, 0.0)
    assert c.frames == 1


def test_dummy_device_receives_the_frame():
    settings = DisplaySettings(driver="dummy", width=32, height=8)
    device = open_device(settings)
    Counter(device, settings).show(sample("carom-series"), 0.0)
    assert device.image.size == (32, 8) and device.image.getbbox() is not None


def test_ws2812_frames_use_player_colours():
    settings = DisplaySettings(driver="dummy", emulate="ws2812")
    device = open_device(settings)
    Counter(device, settings).show(sample("carom-series"), 0.0)
    colours = {colour for _, colour in device.image.getcolors()}
    assert {(255, 176, 0), (0, 200, 255)} <= colours     # colour_a, colour_b defaults


def test_segment_board_shows_points_inning_points():
    """8 digits: points A | inning | points B, kept apart by two decimal points that are always lit."""
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=8)
    c = Counter(open_device(settings), settings)
    scene = c.render(sample("carom-series"), 0.0)
    assert c.layout.line(scene, sample("carom-series")) == " 11. 1. 13"


def test_segment_board_blanks_the_inning_in_the_last_two():
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=8)
    c = Counter(open_device(settings), settings)
    model = sample("carom-last-two")
    on = c.layout.line(c.render(model, 0.0), model)
    off = c.layout.line(c.render(model, 0.5), model)
    assert on == "  2. 2.  2" and off == "  2.  .  2"


def test_sixteen_digit_board_shows_the_series_on_the_players_side():
    """The series of B (at the table: the point after B's score) on B's side of the inning, the
    inning between two points: 13 and 1 never read as 131."""
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=16)
    c = Counter(open_device(settings), settings)
    model = sample("carom-series")
    assert c.layout.line(c.render(model, 0.0), model) == " 11    . 1. 13  13."


def test_without_a_device_scoring_goes_on_and_the_next_device_gets_the_picture():
    """A dead display at boot: the counter still follows the state; a reopened one shows it."""
    settings = DisplaySettings(driver="dummy")
    c = Counter(None, settings)
    c.show(sample("carom-start"), 0.0)
    c.show(sample("carom-series"), 1.0)
    assert c.frames == 0
    device = Recorder()
    c.attach(device)
    c.tick(2.0)
    assert c.frames == 1 and device.frames[0] == counter_frame("carom-series")


def counter_frame(name):
    c = counter()
    c.show(sample(name), 0.0)
    return c.device.frames[-1]


def test_terminal_driver_draws_the_counter_on_a_stream():
    import io
    out = io.StringIO()
    settings = DisplaySettings(driver="terminal", width=32, height=8)
    c = Counter(open_device(settings, stream=out), settings)
    c.show(sample("carom-series"), 0.0)
    frame = out.getvalue()
    assert frame.count("\n") == 4 and "38;2;255;42;16" in frame     # 8 LED rows, lit in LED red


@pytest.mark.parametrize("size", [(32, 8), (64, 16), (128, 32)])
def test_a_long_message_is_said_in_parts_never_cut(size):
    """A refusal that does not fit the line goes part by part: cut short, "Partie neskončila
    (vzdání v menu)" read "PARTIE NESKONCIL" and "Nahlášeno: jen 1 nebo 2" read "only 1"."""
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1], message_seconds=3.0)
    c = counter(settings)
    text = "Partie neskončila (vzdání v menu)"
    scene = Scene(c.size, c.mode, colours=c.colours, words=c.words)
    pieces = message_parts(text, scene, size[0])
    assert len(pieces) >= (1 if size[0] >= 128 else 2)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")          # nothing left out
    assert all(scene.font_for(p, size[0]).width(p) <= size[0] for p in pieces)   # nothing cut

    drawn = []
    original = c.layout.message

    def spy(scene, message, part=0):
        drawn.append((now, part))
        return original(scene, message, part)
    c.layout.message = spy
    now = 0.0
    deadline = c.show(dict(sample("carom-series"), message={"text": text, "level": "warn"}), now)
    while deadline is not None and now < 30:
        now = deadline
        deadline = c.tick(now)
    assert [part for _, part in drawn] == sorted(part for _, part in drawn)
    assert {part for _, part in drawn} == set(range(len(pieces)))
    n = len(pieces)         # up to 2 parts 3 s each; more share 6 s, each at least 1.5 s; then gone
    turns = 2 * n - 1 if size[1] < 16 else n    # 32x8: the score between two parts (RULES 1.7)
    each = max(1.5, min(3.0, 6.0 / n))
    assert max(t for t, _ in drawn) < turns * each
