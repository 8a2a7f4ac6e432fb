"""The key path (issue 11): key → referee → command → night → screen, each command checked once."""
import pytest

from desk_helpers import FakeClock
from firmware_host.display_link import DisplayLink
from firmware_host.match_night import Night
from firmware_host.service import Service, Ui
from firmware_host.settings import load
from input.events import KeyEvent
from input.referee import Referee
from rules.board import Board


@pytest.fixture
def ready(tmp_path):
    (tmp_path / "config.toml").write_text('[device]\nvenue = "Test"\ndata_dir = "data"\n', encoding="utf-8")
    clock = FakeClock()
    return Service(Night(load(tmp_path / "config.toml")), DisplayLink(None),
                   referee=Referee("carom", clock=clock), clock=clock)


@pytest.fixture
def service(ready):
    for _ in range(3):
        ready.handle(Ui("confirm"))                    # a single partie
    return ready


def tap(service, key, seconds=0.05):
    service.handle(KeyEvent(key, True, service.clock(), "kp", debounced=True))
    service.clock.advance(seconds)
    service.tick()
    service.handle(KeyEvent(key, False, service.clock(), "kp", debounced=True))


def press(service, action):
    tap(service, service.referee.keymap.keys_for(action)[0])


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


def test_the_setup_menu_on_the_keypad_is_the_one_overlay_and_the_one_screen(ready):
    """Keys in the night's setup menu: a digit moves the cursor, - moves up, Enter chooses."""
    tap(ready, "enter")
    assert ready.display.model["title"] == "Utkání (pravidla z konfigurace)" and ready.referee.screen == ready.display.model
    tap(ready, "2")
    assert ready.display.model["selected"] == 1
    tap(ready, "-")
    assert ready.display.model["selected"] == 0
    tap(ready, "5")                                     # no item 5: say which digits
    assert ready.display.model["message"]["text"] == "Vyberte 1–2, Enter"
    tap(ready, "*")                                     # not a digit nor a menu key
    assert ready.display.model["message"]["text"] == "Klávesa * nemá funkci"
    tap(ready, "enter")
    assert ready.display.model["title"] == "Partie 1: kdo začíná?"


def test_the_key_test_from_setup_returns_to_its_item(ready):
    tap(ready, "enter"), tap(ready, "2"), tap(ready, "enter")
    assert ready.display.model["screen"] == "keytest"
    tap(ready, "7")
    assert ready.display.model["key"] == "7"
    tap(ready, "enter", ready.referee.debouncer.long_press + 0.1)     # hold Enter: the end
    assert ready.display.model["title"] == "Utkání (pravidla z konfigurace)" and ready.display.model["selected"] == 1


def test_a_protocol_correction_typed_on_the_keypad_is_checked_once(service, monkeypatch):
    """Issue 6: the protocol's prompt gives the correction; the night enters it unchecked again."""
    for action in ("score2", "miss", "miss"):
        press(service, action)
    checks = []
    real = Board.check
    monkeypatch.setattr(Board, "check", lambda board, cmd: (checks.append(cmd), real(board, cmd))[1])
    for key in ("enter", "enter", "enter", "enter", "5", "enter"):   # protocol, correct, a, inning 1
        tap(service, key)
    typed = {"cmd": "correct", "player": "a", "inning": 1, "points": 5}
    assert checks.count(typed) == 1 and checks[-1] == typed      # (before it: "may the record be corrected now?")
    assert service.night.board.summary()["players"]["a"]["series"] == [5]


def test_the_partie_room_grows_after_a_frame_never_between_a_key_and_its_frame(tmp_path):
    """Issue 14: nothing but the stroke's own write and fdatasync before its frame."""
    from cli.commands.run import assemble
    from firmware_host.service import Command

    path = tmp_path / "config.toml"
    path.write_text('[device]\nvenue = "Test"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
                    '[keypad]\ndevices = ["terminal"]\n[sync]\noutbox = "outbox"\n', encoding="utf-8")
    service, devices, _ = assemble(load(path))
    service.display.start(0.0)
    for _ in range(3):
        service.handle(Ui("confirm"))
    journal = service.night.partie.journal
    events = []
    real_room, real_display = journal._make_room, service.display.counter.device.display

    def make_room(fd, needed):
        end = journal._end
        real_room(fd, needed)
        if journal._end != end:
            events.append("grow")

    journal._make_room = make_room
    service.display.counter.device.display = lambda image: events.append("frame") or real_display(image)
    for _ in range(200):                          # 16 KiB of room hold about 100 strokes
        events.append("key")
        service.handle(Command({"cmd": "score", "value": 1}))
    assert events.count("grow") >= 1
    assert [events[i - 1] for i, event in enumerate(events) if event == "grow"] == ["frame"] * events.count("grow")
    for dev in devices:
        dev.close()
