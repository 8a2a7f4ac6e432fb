"""The key path (issue 11): key → referee → command → night → screen, each command checked once."""
import pytest

from config.load import load
from firmware_host.match_night import Night
from firmware_host.service import DisplayLink, Service, Ui
from input.events import KeyEvent
from input.referee import Referee
from input.testing import FakeClock
from rules.board import Board


@pytest.fixture
def service(tmp_path):
    (tmp_path / "config.toml").write_text('[device]\nvenue = "Test"\ndata_dir = "data"\n', encoding="utf-8")
    clock = FakeClock()
    service = Service(Night(load(tmp_path / "config.toml")), DisplayLink(None),
                      referee=Referee("carom", clock=clock), clock=clock)
    for _ in range(3):
        service.handle(Ui("confirm"))                  # a single partie
    return service


def press(service, action):
    key = service.referee.keymap.keys_for(action)[0]
    for pressed in (True, False):
        service.handle(KeyEvent(key, pressed, service.clock(), "kp", debounced=True))


def test_a_key_is_checked_once_journalled_and_shown(service, monkeypatch):
    """RULES 1.2: +2 on its key; the rule core is asked once whether it is accepted."""
    checks = []
    real = Board.check
    monkeypatch.setattr(Board, "check", lambda board, cmd: (checks.append(cmd), real(board, cmd))[1])
    press(service, "score2")
    assert checks == [{"cmd": "score", "value": 2}]
    assert service.night.partie_journal.lines[-1]["cmd"] == "score"
    assert service.display.model["summary"]["counter"]["series"] == 2


def test_a_refused_key_says_why_and_changes_nothing(service):
    """RULES 1.2: nothing to undo at the start; the journal holds the header only."""
    press(service, "undo")
    assert service.display.model["message"]["text"] == "Není co vrátit"
    assert len(service.night.partie_journal.lines) == 1 and service.night.board.history == []
