"""Frames drawn ahead (Counter.prepare): the show that brings a model drawn ahead takes its
picture, and every frame is the one drawing it at its show would have sent — whatever the blink
phase, the page, the message or the device did meanwhile (issue 27: a stroke's frame off the
path from key to LEDs)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from display.counter import AHEAD_KEPT, Counter
from display_helpers import MATRICES, matrix
from display_samples import _CAROM, sample
from rules.board import Board
from rules.errors import RuleError

STROKES = [{"cmd": "score", "value": 1}, {"cmd": "miss"}, {"cmd": "score", "value": 2},
           {"cmd": "score", "value": 10}, {"cmd": "foul"}, {"cmd": "frozen"}]
AHEAD = STROKES[:3]         # the carom strokes the service has drawn ahead (Keys.ahead)


class Recorder:
    """A luma-like device that keeps every frame it is handed."""

    def __init__(self, size, mode="1"):
        self.size, self.mode = size, mode
        self.frames: list[bytes] = []

    def display(self, image):
        self.frames.append(image.tobytes())


def pair(size, **options) -> tuple[Counter, Counter]:
    """Two counters on two devices: one is handed frames drawn ahead, the other draws each at its show."""
    settings_ = matrix(size, **options)
    return Counter(Recorder(size), settings_), Counter(Recorder(size), settings_)


def model_of(board: Board, summary=None) -> dict:
    summary = board.summary() if summary is None else summary
    return {"screen": "carom", "summary": summary}


def league_partie() -> tuple[Counter, dict]:
    """A counter showing a new league partie, and the screen after its first point drawn ahead."""
    ahead, _ = pair((64, 16))
    board = Board(dict(_CAROM, points_limit=200, innings_limit=15))
    ahead.show(model_of(board), 0.0)
    after_point = model_of(board, board.summary_after(AHEAD[0]))
    ahead.prepare(after_point, 0.1)
    return ahead, after_point


def test_a_stroke_drawn_ahead_is_taken_not_drawn_at_its_show():
    ahead, plain = pair((64, 16))
    board = Board(dict(_CAROM, points_limit=200, innings_limit=15))
    for counter in (ahead, plain):
        counter.show(model_of(board), 0.0)
    for cmd in AHEAD:
        ahead.prepare(model_of(board, board.summary_after(cmd)), 0.5)
    board.push(AHEAD[0])
    for counter in (ahead, plain):
        counter.show(model_of(board), 1.0)
    assert ahead.drawn_ahead == 3 and ahead.taken_ahead == 1
    assert ahead.renders == 1 and plain.renders == 2       # the first screen drawn, the stroke's taken
    assert ahead.device.frames == plain.device.frames and len(ahead.device.frames) == 2


def test_frames_drawn_ahead_are_dropped_once_another_picture_is_shown():
    ahead, after_point = league_partie()
    ahead.show(sample("carom-series"), 0.2)         # an undo, a correction: not what was drawn ahead
    ahead.show(after_point, 0.3)                    # drawn again: what was ahead belonged to the picture before
    assert ahead.taken_ahead == 0 and ahead.renders == 3


def test_a_new_device_drops_the_frames_drawn_ahead():
    ahead, after_point = league_partie()
    ahead.attach(Recorder((128, 32)))              # reopened with another size: drawn for the old one
    ahead.show(after_point, 0.2)
    assert ahead.taken_ahead == 0 and len(ahead.device.frames[-1]) == 128 * 32 // 8


def test_a_blinking_picture_drawn_in_the_other_phase_is_drawn_again():
    """RULES 1.7: the last 2 innings blink; a frame drawn ahead while the inning was lit is not
    shown once it is dark."""
    ahead, plain = pair((64, 16))
    board = Board(dict(_CAROM, innings_limit=3))
    for cmd in ({"cmd": "score", "value": 2}, {"cmd": "miss"}, {"cmd": "score", "value": 1}, {"cmd": "miss"}):
        board.push(cmd)
    for counter in (ahead, plain):
        counter.show(model_of(board), 0.0)
    ahead.prepare(model_of(board, board.summary_after(AHEAD[0])), 0.1)       # lit (blink 0.5 s)
    board.push(AHEAD[0])
    for counter in (ahead, plain):
        counter.show(model_of(board), 0.7)                                     # dark
    assert ahead.taken_ahead == 0
    assert ahead.device.frames == plain.device.frames


def test_only_the_latest_frames_drawn_ahead_are_kept():
    ahead, first = league_partie()
    board = Board(dict(_CAROM, points_limit=200, innings_limit=15))
    for value in (2, 10, 20, 2, 10)[:AHEAD_KEPT]:
        ahead.prepare(model_of(board, board.summary_after({"cmd": "score", "value": value})), 0.1)
    ahead.show(first, 0.2)
    assert ahead.taken_ahead == 0


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from(sorted(MATRICES.values())), innings=st.integers(1, 6),
       steps=st.lists(st.tuples(st.sampled_from(STROKES), st.floats(0, 1.3), st.floats(0, 1.3),
                                st.booleans()), max_size=30))
def test_every_frame_is_the_one_drawn_at_its_show(size, innings, steps):
    """Whatever was drawn ahead, and whenever: each counter's device gets the same frames."""
    ahead, plain = pair(size)
    board = Board(dict(_CAROM, points_limit=40, innings_limit=innings))
    now = 0.0
    for counter in (ahead, plain):
        counter.show(model_of(board), now)
    for cmd, wait, think, message in steps:
        now += wait
        for candidate in AHEAD:
            try:
                ahead.prepare(model_of(board, board.summary_after(candidate)), now)
            except RuleError:
                pass
        now += think
        for counter in (ahead, plain):
            counter.tick(now)
        try:
            board.push(cmd)
        except RuleError:
            continue
        model = model_of(board)
        if message:         # a message over it (a refusal, news): its own picture
            model = dict(model, message={"text": "Nelze", "level": "warn", "n": 1})
        for counter in (ahead, plain):
            counter.show(model, now)
        assert ahead.device.frames == plain.device.frames
    assert ahead.renders + ahead.taken_ahead == plain.renders
