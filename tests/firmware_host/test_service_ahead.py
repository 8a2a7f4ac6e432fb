"""The loop draws the frames of the everyday strokes while it waits (Service.draw_ahead,
Night.screens_ahead), so a stroke's frame is taken, not drawn, between its key and the LEDs —
and every frame is the one drawing it at its show would have sent (issue 27)."""
import logging
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desk_helpers import FakeClock
from display.counter import Counter
from display.settings import DisplaySettings
from firmware_host.display_link import DisplayLink
from firmware_host.match_night import Night
from firmware_host.night_ahead import ScreensAhead
from firmware_host.night_screens import partie_model
from firmware_host.service import Command, Service, Stop, Ui
from firmware_host.settings import load

CONFIG = '[device]\nvenue = "Test"\ndata_dir = "data"\n[rules.carom]\npoints_limit = 30\ninnings_limit = 3\n'
POINT, MISS, CUSHION = {"cmd": "score", "value": 1}, {"cmd": "miss"}, {"cmd": "score", "value": 2}


class Recorder:
    """A luma-like device that keeps every frame it is handed."""

    def __init__(self, size=(64, 16), mode="1"):
        self.size, self.mode = size, mode
        self.frames: list[bytes] = []

    def display(self, image):
        self.frames.append(image.tobytes())


@pytest.fixture
def service(tmp_path):
    return service_in(tmp_path)


def service_in(tmp_path: Path, config: str = CONFIG) -> Service:
    (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    clock = FakeClock(100.0)
    counter = Counter(Recorder(), DisplaySettings(driver="dummy"))
    service = Service(Night(load(tmp_path / "config.toml")), DisplayLink(counter), clock=clock)
    service.display.start(clock())
    service.show()
    return service


def partie(service):
    for _ in range(3):
        service.handle(Ui("confirm"))
    assert service.night.phase == "partie"


def drawn_at_show(models: list[dict]) -> list[bytes]:
    """The frames a counter drawing every model at its show sends."""
    counter = Counter(Recorder(), DisplaySettings(driver="dummy"))
    for model in models:
        counter.show(model, 100.0)
    return counter.device.frames


def test_a_partie_s_screens_ahead_are_its_screens_after_each_everyday_stroke(service):
    """carom's Keys.ahead: a point, an inning's end, a point with the cushion first."""
    partie(service)
    night = service.night
    night.enter(POINT)
    ahead = list(night.screens_ahead())
    expected = []
    for cmd in (POINT, MISS, CUSHION):
        night.board.push(cmd)
        expected.append(partie_model(night.board, night.match))
        night.board.pop()
    assert ahead == expected and len(ahead) == 3


def test_no_screens_ahead_outside_a_partie_or_with_a_menu_up_or_once_it_is_over(service):
    night = service.night
    assert night.phase == "ready" and list(night.screens_ahead()) == []
    partie(service)
    service.handle(Ui("confirm"))               # the partie's menu
    assert night.phase == "menu" and list(night.screens_ahead()) == []
    service.handle(Ui("cancel"))
    for cmd in (Command({"cmd": "score", "value": 20}), Command({"cmd": "score", "value": 10}), Command(MISS),
                Command({"cmd": "score", "value": 20}), Command({"cmd": "score", "value": 10})):
        service.handle(cmd)
    assert night.board.finished and list(night.screens_ahead()) == []       # no stroke after the end


def test_each_stroke_takes_the_frame_drawn_ahead_and_sends_what_drawing_it_would(service):
    partie(service)
    shown, sent = [service.display.model], len(service.display.counter.device.frames) - 1
    service.observers.append(shown.append)
    counter = service.display.counter
    for cmd in (POINT, POINT, MISS, CUSHION, {"cmd": "score", "value": 10}, MISS, POINT):
        service.draw_ahead()
        service.handle(Command(cmd))
    assert counter.taken_ahead == 6          # all but the 10: not an everyday stroke
    assert counter.device.frames[sent:] == drawn_at_show(shown)


def test_drawing_ahead_happens_once_per_picture_and_stops_when_a_key_comes(service):
    partie(service)
    counter = service.display.counter
    service.draw_ahead()
    service.draw_ahead()
    assert counter.drawn_ahead == 3          # the same picture: not drawn ahead again
    service.handle(Command(POINT))
    service.post(Command(POINT))             # a key waits: the loop handles it first
    service.draw_ahead()
    assert counter.drawn_ahead == 3


def test_a_bug_drawing_ahead_is_logged_once_and_frames_are_drawn_at_their_show(service, caplog, monkeypatch):
    partie(service)

    def broken():
        raise ZeroDivisionError("a bug")
        yield
    monkeypatch.setattr(service.night, "screens_ahead", broken)
    shown, sent = [service.display.model], len(service.display.counter.device.frames) - 1
    service.observers.append(shown.append)
    with caplog.at_level(logging.ERROR, logger="pocitadlo.service"):
        for _ in range(3):
            service.draw_ahead()
            service.handle(Command(POINT))
    assert caplog.text.count("drawing frames ahead failed") == 1
    assert "message" not in service.display.model                    # nothing said on the counter
    assert service.display.counter.device.frames[sent:] == drawn_at_show(shown)


def test_the_loop_draws_ahead_once_it_has_nothing_to_do(service):
    partie(service)
    counter = service.display.counter
    service.post(Command(POINT))
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    end = time.monotonic() + 60
    while counter.drawn_ahead < 3 and time.monotonic() < end and loop.is_alive():
        time.sleep(0.01)
    service.post(Stop("test"))
    loop.join(30)
    assert counter.drawn_ahead == 3 and service.night.board.summary()["players"]["a"]["points"] == 1


def test_a_stroke_drawn_ahead_is_shown_with_the_screen_worked_out_for_it(service):
    """Its screen is not summarised again: it is the very model the counter drew ahead."""
    partie(service)
    service.draw_ahead()
    drawn = list(service.display.counter._ahead)
    service.handle(Command(MISS))
    night = service.night
    assert night.screen() is drawn[1].model
    assert night.screen() == partie_model(night.board, night.match)
    service.handle(Command({"cmd": "undo"}))
    assert night.screen() == partie_model(night.board, night.match)


STEPS = st.lists(st.tuples(st.sampled_from([POINT, MISS, CUSHION, {"cmd": "score", "value": 10}, {"cmd": "foul"},
                                            {"cmd": "undo"}, {"cmd": "redo"}, {"cmd": "score", "value": True}]),
                           st.booleans()), max_size=40)


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_every_screen_is_the_partie_s_own_whatever_was_worked_out_ahead(steps):
    """Undo, redo, strokes drawn ahead or not, refused ones: the night's screen is always the one
    summarising the board gives, and the counter's frames are those drawing each at its show sends."""
    with tempfile.TemporaryDirectory() as tmp:
        service = service_in(Path(tmp))
        partie(service)
        shown, sent = [service.display.model], len(service.display.counter.device.frames) - 1
        service.observers.append(shown.append)
        night = service.night
        for cmd, ahead in steps:
            if ahead:
                service.draw_ahead()
            service.handle(Command(cmd))
            assert night.screen() == partie_model(night.board, night.match)
        assert service.display.counter.device.frames[sent:] == drawn_at_show(shown)


def test_an_8ball_shot_takes_its_frame_drawn_ahead(tmp_path):
    """8-ball's Keys.ahead: the shot that misses (a pot asks for its pocket first)."""
    service = service_in(tmp_path, '[device]\nvenue = "Test"\ndata_dir = "data"\ngame = "8ball"\n')
    counter = service.display.counter
    partie(service)
    shown, sent = [service.display.model], len(counter.device.frames) - 1
    service.observers.append(shown.append)
    for cmd in ({"cmd": "shot"}, {"cmd": "scratch"}, {"cmd": "shot"}, {"cmd": "shot"}):
        service.draw_ahead()
        service.handle(Command(cmd))
    assert counter.drawn_ahead == 4 and counter.taken_ahead == 3
    assert counter.device.frames[sent:] == drawn_at_show(shown)


def test_a_screen_worked_out_ahead_belongs_to_its_night_state_too(service):
    """The screen carries the match's facts (partie number, team points): once the night's state
    is another, the board's screen is summarised afresh, even on the state worked out."""
    partie(service)
    night = service.night
    ahead = ScreensAhead()
    before_night = night.state
    first = next(ahead.screens(before_night, night.board, night.match))
    night.board.push(POINT)
    assert ahead.screen(before_night, night.board) is first
    assert ahead.screen(object(), night.board) is None
