"""Property: 10,000 random presses (50 examples x 200), with bounces, held and stuck keys, never
raise, and every command the keypad produces is one the rule core accepts in that state."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desk_helpers import Desk
from input.events import DeviceStatus, KeyEvent
from input.keymap import KEY_NAMES
from rules.board import Board

HEADERS = {
    "carom": {"game": "carom", "a": "A", "b": "B", "points_limit": 30, "innings_limit": 3},
    "8ball": {"game": "8ball", "a": "A", "b": "B", "games_to_win": 2, "sets_to_win": 1},
}
SCREENS = {"prompt", "menu", "keytest"}
KEYS = sorted(KEY_NAMES)
# Weighted towards the keys a referee uses, so games get far; every key name can appear.
BUSY = list("0123456789") * 3 + ["dot", "*", "/", "-", "+", "enter"] * 2 + KEYS

step = st.tuples(
    st.sampled_from(BUSY),
    st.sampled_from(["tap", "tap", "tap", "hold", "bounce", "down", "up", "unplug"]),
    st.sampled_from(["kp", "matrix"]),        # a keyboard (debounced) and raw contacts
    st.floats(min_value=0.0, max_value=1.5),
)


def run(desk: Desk, steps):
    for key, kind, device, gap in steps:
        raw = device == "matrix"

        def event(pressed, key=key, device=device, raw=raw):
            desk.feed(KeyEvent(key, pressed, desk.clock(), device, not raw))

        if kind == "tap":
            event(True)
            desk.wait(0.08)
            event(False)
        elif kind == "hold":
            event(True)
            desk.wait(desk.referee.debouncer.long_press + gap)
            event(False)
        elif kind == "bounce":
            for pressed in (True, False, True, False, True):
                event(pressed)
                desk.clock.advance(0.001)
            desk.wait(0.05)
            event(False)
        elif kind == "down":             # held or stuck: no release for now
            event(True)
        elif kind == "up":
            event(False)
        else:
            desk.feed(DeviceStatus(device, False, "unplugged"))
            desk.feed(DeviceStatus(device, True, ""))
        desk.wait(gap)
        for outcome in desk.outcomes[-50:]:
            assert outcome.screen is None or outcome.screen["screen"] in SCREENS
        if desk.referee.screen is None and desk.board.finished and kind == "tap":
            desk.referee.cancel()


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=200, max_size=200))
def test_random_carom_presses(steps):
    """RULES 1.2-1.4: whatever is pressed, only commands the carom core accepts are produced."""
    run(Desk(Board(HEADERS["carom"])), steps)      # Desk pushes each command: a refusal raises


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=200, max_size=200))
def test_random_8ball_presses(steps):
    """RULES 2.2-2.8: whatever is pressed, only commands the 8-ball core accepts are produced."""
    run(Desk(Board(HEADERS["8ball"])), steps)


def test_a_stuck_key_never_floods():
    desk = Desk(Board(HEADERS["carom"]))
    desk.feed(KeyEvent("1", True, desk.clock(), "matrix"))
    desk.wait(3600.0)
    assert desk.commands == [{"cmd": "score", "value": 1}]
    assert desk.referee.deadline() is None
