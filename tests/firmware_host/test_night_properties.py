"""Property: whatever the referee presses, the night never breaks and a restart shows the same.

Random menu actions and record commands (hypothesis) over a league with a fixture tonight; after
every step a fresh Night folded from the files on disk must show the same screen — menus
excepted, whose cursor is not a decision (firmware_host/match_night.py).
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from night_helpers import TONIGHT, write_night  # the crash tests' league night

from clock import ManualClock
from firmware_host.league import load_league
from firmware_host.match_night import Night
from firmware_host.settings import load
from rules.errors import RuleError

pytestmark = pytest.mark.slow           # 150 random nights of up to 200 presses, each step restarted

# Weighted so that random presses get through setup, partie and closing often enough.
ACTIONS = st.sampled_from(
    ["confirm"] * 12 + ["cancel", "up", "down", "menu", 0, 1, 2, 3, 6, 7]
    + [{"cmd": "score", "value": v} for v in (1, 1, 2, 2, 10, 20)]
    + [{"cmd": c} for c in ("miss", "miss", "miss", "miss", "foul", "undo", "redo", "frozen")]
    + [{"cmd": "forfeit", "by": "b"}])


class Counter:
    def __init__(self):
        self.n = 0

    def __call__(self, size):
        self.n += 1
        return self.n.to_bytes(size, "big")


def make(path, urandom):
    config = load(path / "config.toml")
    return Night(config, load_league(path / "league.toml"), clock=ManualClock(TONIGHT), urandom=urandom)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=st.integers(min_value=0, max_value=8), presses=st.lists(ACTIONS, min_size=1, max_size=200))
def test_any_presses_never_break_the_night_and_restart_shows_the_same(tmp_path_factory, setup, presses):
    steps = ["confirm"] * setup + presses         # often straight into a match, then anything
    path = tmp_path_factory.mktemp("night")
    write_night(path, points_limit=5)
    urandom = Counter()
    night = make(path, urandom)
    for step in steps:
        try:
            if isinstance(step, dict):
                night.command(step)
            else:
                night.ui(step)
        except RuleError:
            pass
        screen = night.screen()
        assert isinstance(screen, dict) and "screen" in screen
        if screen["screen"] not in ("menu", "prompt"):   # a menu cursor is not a decision
            again = make(path, urandom)
            assert again.screen() == screen or (screen["screen"] == "lotdraw" and again.phase == "lotdraw")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=st.integers(min_value=0, max_value=8),
       presses=st.lists(st.one_of(ACTIONS, st.just("undo"), st.just("menu")), min_size=1, max_size=200))
def test_a_record_in_the_outbox_is_never_taken_back(tmp_path_factory, setup, presses):
    """Issue 12: with the undo key taking closings back at random, the partie in play is never one
    already in the outbox, nor is a match back on its result whose record went out."""
    from delivery.outbox import Outbox

    path = tmp_path_factory.mktemp("night")
    write_night(path, points_limit=5)
    outbox = Outbox(path / "outbox")
    night = Night(load(path / "config.toml"), load_league(path / "league.toml"), outbox=outbox,
                  clock=ManualClock(TONIGHT), urandom=Counter())
    for step in ["confirm"] * setup + presses:
        try:
            night.command(step) if isinstance(step, dict) else night.ui(step)
        except RuleError:
            pass
        sent = {item.id for item in outbox.pending()}
        if night.board is not None:
            assert night.board.header["id"] not in sent
        if night.match is not None:
            assert night.match.id not in sent
