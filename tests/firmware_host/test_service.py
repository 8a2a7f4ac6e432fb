"""The service loop: display faults, keypad faults, config errors, watchdog, the emulator."""
import errno
import logging
import os
import socket
import threading

import pytest

from cli.commands.run import load_or_wait
from cli.main import main
from desk_helpers import FakeClock
from display.counter import Counter
from display.devices import DisplayFault, open_device
from display.settings import DisplaySettings
from firmware_host.display_link import DisplayLink
from firmware_host.match_night import Night
from firmware_host.notify import Notifier
from firmware_host.service import IDLE_WAKE, Command, Service, Stop, Ui
from firmware_host.settings import load
from input.events import DeviceStatus, KeyEvent
from input.referee import Referee

CONFIG = '[device]\nvenue = "Test"\ndata_dir = "data"\n'


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return load(path)


def single_partie(service):
    for _ in range(3):
        service.handle(Ui("confirm"))
    assert service.night.phase == "partie"


class FlakyOpen:
    """open_device() for a dummy display that is missing the first ``failures`` times."""

    def __init__(self, failures: int):
        self.failures, self.calls = failures, 0
        self.settings = DisplaySettings(driver="dummy")

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise DisplayFault("cannot open the max7219 display: [Errno 2] No such file: '/dev/spidev0.0'")
        return open_device(self.settings)


def test_missing_display_scoring_goes_on_and_display_is_retried_with_backoff(config, caplog):
    clock = FakeClock(100.0)
    opener = FlakyOpen(failures=2)
    link = DisplayLink(Counter(None, opener.settings), opener, first_retry=1.0)
    service = Service(Night(config), link, clock=clock)
    with caplog.at_level(logging.ERROR, logger="pocitadlo.display"):
        link.start(clock())
    assert link.fault and link.retry_at == 101.0 and "spidev0.0" in caplog.text
    single_partie(service)
    service.handle(Command({"cmd": "score", "value": 2}))
    assert service.night.board.summary()["counter"]["series"] == 2      # scoring went on
    clock.advance(1.0)
    service.tick()                                                       # second failure
    assert link.retry_at == 103.0                                        # 2 s later: backoff doubled
    clock.advance(2.0)
    service.tick()
    assert link.fault is None and link.counter.device is not None
    assert link.counter.frames == 1                                      # the current picture was sent
    assert link.counter.device.image is not None


@pytest.mark.parametrize("language, text", [("cs", "SPI vypnuté: raspi-config → Interface → SPI"),
                                             ("en", "SPI off: raspi-config → Interface → SPI")])
def test_spi_switched_off_is_said_in_the_counters_language_and_logged_in_english(tmp_path, caplog, language, text):
    """The counter's model says SPI is off and where to switch it on; the log names the device."""
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + f'language = "{language}"\n', encoding="utf-8")
    settings = DisplaySettings(driver="max7219", spi_port=6, spi_device=3)     # no /dev/spidev6.3 here
    link = DisplayLink(Counter(None, settings), lambda: open_device(settings))
    service = Service(Night(load(path)), link, clock=FakeClock())
    with caplog.at_level(logging.ERROR, logger="pocitadlo.display"):
        link.start(0.0)
    service.show()
    assert service.display.model["message"] == {"text": text, "level": "error", "n": 0}
    assert "no SPI device /dev/spidev6.3" in caplog.text and "raspi-config nonint do_spi 0" in caplog.text


class BrokenSpi:
    """A luma device whose SPI write fails (cable pulled)."""
    size, mode = (64, 16), "1"

    def display(self, image):
        raise OSError(121, "Remote I/O error")

    def cleanup(self):
        pass


def test_failing_spi_write_is_a_fault_not_a_crash(config):
    clock = FakeClock()
    settings = DisplaySettings(driver="dummy")
    devices = iter([BrokenSpi(), open_device(settings)])
    link = DisplayLink(Counter(None, settings), lambda: next(devices))
    service = Service(Night(config), link, clock=clock)
    link.start(clock())
    service.show()
    assert link.fault and "Remote I/O error" in link.fault
    single_partie(service)
    service.handle(Command({"cmd": "score", "value": 1}))
    clock.advance(1.0)
    service.tick()
    assert link.fault is None and link.counter.frames == 1


def test_headless_service_shows_nothing_and_never_fails(config):
    service = Service(Night(config), DisplayLink(None))
    single_partie(service)
    service.handle(Command({"cmd": "score", "value": 1}))
    assert service.display.model["summary"]["players"]["a"]["points"] == 1


def test_refused_command_changes_nothing_and_says_why(config):
    service = Service(Night(config), DisplayLink(None))
    single_partie(service)
    service.handle(Command({"cmd": "score", "value": 7}))
    assert service.display.model["message"]["level"] == "warn"
    assert service.night.board.history == []


def tap(service, clock, key):
    service.handle(KeyEvent(key, True, clock(), "kp", debounced=True))
    clock.t += 0.1
    service.handle(KeyEvent(key, False, clock(), "kp", debounced=True))


def showing_message(service, clock) -> bool:
    """Whether the frame on the (dummy) device differs from the same screen without its message."""
    counter = service.display.counter
    counter.tick(clock())
    plain = counter.render(service.display.model, clock(), message=False).image
    return counter.device.image.tobytes() != plain.convert(counter.device.mode).tobytes()


def test_a_refusal_outlives_the_release_of_its_key_and_a_repeat_is_said_again(config):
    """A key's release changes nothing, so it must not wipe the refusal before it can be read;
    the same refusal again restarts the counter's message time; an accepted key clears it."""
    clock = FakeClock()
    settings = DisplaySettings(driver="dummy")
    service = Service(Night(config), DisplayLink(Counter(open_device(settings), settings)),
                      referee=Referee("carom", clock=clock), clock=clock)
    single_partie(service)
    tap(service, clock, "-")                                       # nothing to undo
    first = service.display.model["message"]
    assert first["text"] == "Není co vrátit" and showing_message(service, clock)
    clock.t += 5                                                   # the counter's 3 s are over
    assert not showing_message(service, clock)
    tap(service, clock, "-")
    again = service.display.model["message"]
    assert again["text"] == first["text"] and again != first
    clock.t += 2
    assert showing_message(service, clock)                        # said again, for 3 s more
    clock.t += 2
    assert not showing_message(service, clock)
    tap(service, clock, "1")
    assert "message" not in service.display.model
    assert service.night.board.summary()["counter"]["series"] == 1


def test_an_unplugged_keypad_says_what_to_do(config):
    clock = FakeClock()
    service = keypad_service(config, clock)
    single_partie(service)
    service.handle(DeviceStatus("evdev", False, "unplugged"))
    assert service.display.model["text"] == "Klávesnice odpojena: zapojte ji (přijímač) a zkontrolujte baterie"


def keypad_service(config, clock):
    referee = Referee("carom", clock=clock)
    return Service(Night(config), DisplayLink(None), referee=referee, clock=clock)


def test_missing_keypad_is_an_error_screen_and_other_inputs_keep_working(config, caplog):
    """The counter says in Czech what is wrong and what to do; the device's own (English) words
    go to the log."""
    clock = FakeClock()
    service = keypad_service(config, clock)
    single_partie(service)
    service.handle(DeviceStatus("evdev", False, "no such device /dev/input/by-id/usb-kp"))
    model = service.display.model
    assert model["screen"] == "error" and model["code"] == "keypad"
    assert model["text"] == "Klávesnice nefunguje: zapojte ji znovu"
    assert "usb-kp" in caplog.text
    key = service.referee.keymap.keys_for("score1")[0]
    service.handle(KeyEvent(key, True, clock(), "terminal", debounced=True))
    service.handle(KeyEvent(key, False, clock(), "terminal", debounced=True))
    assert service.night.board.summary()["counter"]["series"] == 1
    assert service.display.model["screen"] == "carom"
    assert service.faults == {"evdev": "no such device /dev/input/by-id/usb-kp"}
    service.handle(DeviceStatus("evdev", True))
    assert service.faults == {}


def test_keys_in_menus_are_navigation(config):
    clock = FakeClock()
    service = keypad_service(config, clock)
    service.handle(KeyEvent("enter", True, clock(), "kp", debounced=True))
    service.handle(KeyEvent("enter", False, clock(), "kp", debounced=True))    # a tap: on release
    assert service.display.model["screen"] == "menu"


def test_no_busy_loop_when_idle(config):
    """Nothing pressed, no deadline: the loop sleeps the longest wake, not a spin."""
    service = Service(Night(config), DisplayLink(None), clock=FakeClock())
    single_partie(service)
    service.show()
    assert service._timeout() == IDLE_WAKE


def test_watchdog_pings_and_ready_go_to_the_notify_socket(config, tmp_path):
    address = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(5)
        notifier = Notifier(address, "4000000")
        assert notifier.interval == 2.0
        service = Service(Night(config), DisplayLink(None), notifier=notifier)
        thread = threading.Thread(target=service.run, daemon=True)
        thread.start()
        try:
            messages = [server.recv(100).decode(), server.recv(100).decode()]
        finally:
            service.post(Stop())
            thread.join(5)
    assert not thread.is_alive()
    assert messages == ["READY=1\nSTATUS=scoring", "WATCHDOG=1"]


def test_notifier_outside_systemd_does_nothing():
    assert Notifier.from_env({}).ready() is False and Notifier.from_env({}).interval is None


class Recorder:
    def __init__(self):
        self.sent = []

    def ready(self, status=""):
        self.sent.append(("ready", status))

    def status(self, text):
        self.sent.append(("status", text))

    def watchdog(self):
        self.sent.append(("watchdog",))


def test_config_error_is_shown_then_the_service_waits_for_a_fixed_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[device]\nvenue = "Test"\n[rules.carom]\npoints_limit = "many"\n', encoding="utf-8")
    shown, sleeps, notifier = [], [], Recorder()

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 3:               # staff fix the file while the service waits
            path.write_text(CONFIG, encoding="utf-8")
            os.utime(path, ns=(1, 1))

    config = load_or_wait(path, notifier, poll=3.0, sleep=sleep, show_error=shown.append)
    assert config.device.venue == "Test"
    expected = f'{path}: [rules.carom] points_limit: expected a whole number, got "many"'
    on_counter = 'config.toml: [rules.carom] points_limit: expected a whole number, got "many"'
    assert shown == [{"screen": "error", "code": "config", "text": on_counter, "where": "[rules.carom] points_limit"}]
    assert notifier.sent[0] == ("ready", f"config error: {expected}")
    assert sleeps == [3.0, 3.0, 3.0] and notifier.sent.count(("watchdog",)) == 3


def test_a_config_error_pages_the_file_section_and_option_on_the_counter_while_it_waits(tmp_path, monkeypatch):
    """Issue 24 item 4: the counter showed only "CHYBA config" — the error's pages never turned
    while the service waited for a fixed file. Now the wait wakes for each page: the file, the
    section, the option and the fault all come round on a 64x16 counter; a 7-segment board says
    the section and the option a word at a time."""
    from cli.commands.boot import ErrorCounter
    from display_helpers import Said, segment_pages

    path = tmp_path / "config.toml"
    path.write_text('[device]\nvenue = "Test"\n[rules.carom]\npoints_limit = "many"\n'
                    '[display]\ndriver = "dummy"\nwidth = 64\nheight = 16\n', encoding="utf-8")
    now = [100.0]
    monkeypatch.setattr("cli.commands.boot.time.monotonic", lambda: now[0])
    said, sleeps = Said(monkeypatch), []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += seconds
        if now[0] > 160:                    # staff fix the file a minute later
            path.write_text(CONFIG, encoding="utf-8")
            os.utime(path, ns=(1, 1))

    counter = ErrorCounter(path)
    load_or_wait(path, Recorder(), sleep=sleep, show_error=counter.show, turn_page=counter.tick,
                 clock=lambda: now[0])
    counter.close()
    shown = " ".join(said.texts).upper()
    for part in ("CHYBA NASTAVENÍ", "CONFIG.TOML", "[RULES.CAROM]", "POINTS_LIMIT", "WHOLE", '"MANY"'):
        assert part in shown, part
    assert max(sleeps) <= 3.0 and len(sleeps) > 15               # woke for every page, and to poll
    model = {"screen": "error", "code": "config", "where": "[rules.carom] points_limit", "text": "…"}
    assert segment_pages(model, 8, seconds=12) == ["Err conf", "   rules", "   carom", "points_l"]


def test_a_missing_league_file_is_named_by_its_option_and_the_service_waits(tmp_path):
    """Issue 12: the error names [device] league, not just a file the venue staff never typed."""
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + 'league = "liga.toml"\n', encoding="utf-8")
    shown = []

    def sleep(seconds):
        (tmp_path / "liga.toml").write_text("", encoding="utf-8")

    config = load_or_wait(path, Recorder(), sleep=sleep, show_error=shown.append)
    assert config.device.league == str(tmp_path / "liga.toml")
    assert shown[0]["text"] == f"config.toml: [device] league: {tmp_path / 'liga.toml'}: file not found"


def test_run_with_missing_config_file_waits_too(tmp_path):
    path = tmp_path / "config.toml"
    shown = []

    def sleep(seconds):
        path.write_text(CONFIG, encoding="utf-8")

    config = load_or_wait(path, Recorder(), sleep=sleep, show_error=shown.append)
    assert config.device.venue == "Test" and "file not found" in shown[0]["text"]


def test_emulate_plays_a_key_script_and_writes_png_frames(tmp_path, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("\n1\n\n1112", encoding="utf-8")      # setup, 1 single partie, a starts, 1+1+1+2
    frames = tmp_path / "frames"
    assert main(["emulate", "--data", str(tmp_path / "data"), "--keys", str(keys), "--frames", str(frames)]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    summary = out["screen"]["summary"]
    assert summary["counter"]["series"] == 5 and summary["players"]["a"]["name"] == "Hráč 1"
    pngs = sorted(frames.glob("frame_*.png"))
    assert len(pngs) == out["frames"] >= 6
    assert pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_emulate_resumes_where_the_last_run_stopped(tmp_path, capsys):
    keys = tmp_path / "keys.txt"
    keys.write_text("\n1\n\n12", encoding="utf-8")
    data = str(tmp_path / "data")
    main(["emulate", "--data", data, "--keys", str(keys)])
    keys.write_text("2", encoding="utf-8")
    capsys.readouterr()
    main(["emulate", "--data", data, "--keys", str(keys)])
    import json
    assert json.loads(capsys.readouterr().out)["screen"]["summary"]["counter"]["series"] == 5


def test_emulate_needs_keys_for_frames(tmp_path, capsys):
    assert main(["emulate", "--frames", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == "pocitadlo emulate: --frames needs --keys (a key script to play)"


def run_in_pty(tmp_path, keys: bytes):
    """`pocitadlo emulate` on a real pseudo-terminal; returns (exit status, output, attrs before/after)."""
    import fcntl
    import select
    import subprocess
    import sys
    import termios
    import time

    master, slave = os.openpty()
    before = termios.tcgetattr(slave)

    def controlling_tty():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = dict(os.environ, PYTHONPATH=os.getcwd(), TERM="xterm-256color")
    child = subprocess.Popen([sys.executable, "-m", "cli", "emulate", "--data", str(tmp_path / "d")],
                             stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                             preexec_fn=controlling_tty, env=env)
    output = b""

    def read_until(marker: bytes, limit: float = 20.0):
        nonlocal output
        end = time.monotonic() + limit
        while marker not in output and time.monotonic() < end:
            if select.select([master], [], [], 0.2)[0]:
                output += os.read(master, 65536)

    read_until("▀".encode())                       # the counter is drawn
    os.write(master, keys)
    try:
        end = time.monotonic() + 20
        while child.poll() is None and time.monotonic() < end:
            read_until(b"\0", 0.2)                 # keep reading: a full pty would block the child
        status = child.wait(1)
    finally:
        if child.poll() is None:
            child.kill()
    after = termios.tcgetattr(slave)
    os.close(master), os.close(slave)
    return status, output, before, after


@pytest.mark.slow
@pytest.mark.parametrize("quit_key", [b"q", b"\x03"], ids=["q", "ctrl-c"])
def test_emulate_in_a_terminal_quits_cleanly_and_restores_the_terminal(tmp_path, quit_key):
    status, output, before, after = run_in_pty(tmp_path, b"\n" + quit_key)
    assert status == 0, output.decode(errors="replace")[-2000:]
    assert after == before                         # no raw/cbreak mode left behind
    assert b"Traceback" not in output


def test_key_test_from_the_setup_menu_shows_each_key(config):
    clock = FakeClock()
    service = keypad_service(config, clock)
    for action in ("confirm", 2, "confirm"):                 # setup → "Test kláves"
        service.handle(Ui(action))
    service.handle(KeyEvent("7", True, clock(), "usb-kp", debounced=True))
    assert service.display.model == {"screen": "keytest", "key": "7", "device": "usb-kp"}


def test_new_partie_from_the_referee_menu_on_an_unfinished_partie_is_refused(config):
    service = keypad_service(config, FakeClock())
    single_partie(service)
    from input.overlays import Outcome
    service._outcome(Outcome(ui="new_partie"))
    service.show()
    assert service.display.model["message"]["text"].startswith("Partie neskončila")
    assert service.night.phase == "partie"


def test_a_broken_league_file_waits_like_a_broken_config(tmp_path):
    (tmp_path / "league.toml").write_text('[[teams]]\nname = "A"\nplayers = ["x", "x"]\n', encoding="utf-8")
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + 'league = "league.toml"\n', encoding="utf-8")
    shown = []

    def sleep(seconds):
        (tmp_path / "league.toml").write_text('[[teams]]\nname = "A"\nplayers = ["x", "y"]\n', encoding="utf-8")
        os.utime(tmp_path / "league.toml", ns=(1, 1))

    config = load_or_wait(path, Recorder(), sleep=sleep, show_error=shown.append)
    assert config.device.league == str(tmp_path / "league.toml")
    assert shown == [{"screen": "error", "code": "config", "where": "[teams.1] players",
                      "text": "league.toml: [teams.1] players: a player is listed twice"}]


def test_a_failing_sd_card_refuses_the_command_and_says_so(config, monkeypatch):
    service = Service(Night(config), DisplayLink(None))
    single_partie(service)

    def failing_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    monkeypatch.setattr(os, "fdatasync", failing_fsync)         # the journal syncs a stroke's data only
    service.handle(Command({"cmd": "score", "value": 1}))
    monkeypatch.undo()
    message = service.display.model["message"]
    assert (message["text"], message["level"]) == ("SD karta selhává: nic se nezapsalo, vyměňte kartu", "error")
    assert service.night.board.history == []
    service.handle(Command({"cmd": "score", "value": 2}))            # the card works again
    assert service.night.board.summary()["counter"]["series"] == 2
    assert len(Night(config).board.history) == 1


def test_an_unusable_data_dir_is_a_config_error_naming_the_option(tmp_path):
    """The journal lives in [device] data_dir: if it cannot be written the service says which option
    is wrong on the counter and waits for a fixed file, as for any config error."""
    path = tmp_path / "config.toml"
    (tmp_path / "blocker").write_text("a file, not a folder", encoding="utf-8")
    path.write_text('[device]\nvenue = "Test"\ndata_dir = "blocker/data"\n', encoding="utf-8")
    shown = []

    def sleep(seconds):
        path.write_text(CONFIG, encoding="utf-8")
        os.utime(path, ns=(1, 1))

    config = load_or_wait(path, Recorder(), sleep=sleep, show_error=shown.append)
    assert config.device.data_dir == str(tmp_path / "data")
    assert shown == [{"screen": "error", "code": "config", "where": "[device] data_dir", "text":
                      f"config.toml: [device] data_dir: cannot keep the journal in {tmp_path / 'blocker' / 'data'}: "
                      "Not a directory"}]


@pytest.mark.parametrize("unsupported", [None, errno.EOPNOTSUPP, errno.EISDIR])
def test_the_data_dir_check_leaves_nothing_behind_with_or_without_unnamed_files(tmp_path, monkeypatch, unsupported):
    """The check makes an unnamed file (O_TMPFILE) where the filesystem has them, a named one that
    tempfile removes where it has not (EOPNOTSUPP; EISDIR from a kernel that predates them)."""
    from cli.commands import run as run_command

    real_open = os.open

    def open_(path, flags, *args):
        if unsupported and flags & os.O_TMPFILE == os.O_TMPFILE:
            raise OSError(unsupported, os.strerror(unsupported))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", open_)
    run_command._make_a_file_in(str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_a_data_dir_that_cannot_take_a_file_is_said_so(tmp_path, monkeypatch):
    from cli.commands import run as run_command

    def full(path, flags, *args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(OSError) as raised:
        run_command._make_a_file_in(str(tmp_path))
    assert raised.value.errno == errno.ENOSPC


def test_a_full_card_while_the_journals_open_is_shown_and_waited_out_never_an_exit(tmp_path, monkeypatch):
    """Issue 12: disk full plus a torn tail to cut made `run` exit 2 (a dark counter under systemd's
    start limit). Now the storage fault is on the counter, systemd hears READY and the watchdog, and
    the service comes up, with every accepted stroke, once the card has room again."""
    import errno

    from cli.commands import run as run_command
    from firmware_host import journal as journal_module

    path = tmp_path / "config.toml"
    path.write_text(CONFIG + '[display]\ndriver = "dummy"\n[keypad]\ndevices = []\n', encoding="utf-8")
    config = load(path)
    service = Service(Night(config), DisplayLink(None))
    single_partie(service)
    for value in (1, 2, 10):
        service.handle(Command({"cmd": "score", "value": value}))
    partie_file = service.night.partie_journal.path
    service.night.partie_journal.close()
    with open(partie_file, "ab") as fh:
        fh.write(b'{"cmd":"sco')                        # a torn tail the next start must cut aside
    real_open, full = open, [2]

    def card(file, mode="r", *args, **kw):
        if str(file).endswith(".cut") and full[0]:
            full[0] -= 1
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        return real_open(file, mode, *args, **kw)

    monkeypatch.setattr(journal_module, "open", card, raising=False)
    counter = Counter(open_device(DisplaySettings(driver="dummy")), DisplaySettings(driver="dummy"))
    shown, notifier = [], Recorder()
    monkeypatch.setattr(counter, "show", lambda model, now: shown.append(model))
    service, _, _ = run_command.assemble_or_wait(config, notifier, sleep=lambda s: None, counter=counter)
    assert shown[0] == {"screen": "error", "code": "storage", "text": "SD karta plná: nic se nezapsalo, uvolněte místo"}
    assert len(shown) == 2 and notifier.sent[0] == ("ready", f"storage fault: {partie_file}.cut: No space left on device")
    assert service.night.board.history == [{"cmd": "score", "value": v} for v in (1, 2, 10)]


class Cycle:
    me: object = None


def test_no_garbage_collection_runs_between_a_key_and_its_frame_only_after(tmp_path):
    """A young collection inside a stroke was its p99 on a Pi-class core: the loop collects after a
    frame, when nothing waits, what Python would have collected by then."""
    import gc

    from firmware_host.service import collect_garbage

    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    service = Service(Night(load(path)), DisplayLink(None))
    single_partie(service)
    during = []
    service.observers.append(lambda model: during.append(gc.isenabled()))
    for _ in range(20):
        service.post(Command({"cmd": "score", "value": 1}))
    service.post(Stop("test"))
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(10, 2, 2)
        assert gc.isenabled()
        service.run()
        assert during and not any(during) and gc.isenabled()    # disabled in the loop, enabled again
        gc.disable()
        for _ in range(50):
            cycle = Cycle()
            cycle.me = cycle                    # garbage only a collection frees
        assert gc.get_count()[0] >= 10
        collect_garbage()
        assert gc.get_count()[0] < 10
    finally:
        gc.enable()
        gc.set_threshold(*thresholds)
    assert service.night.board.summary()["players"]["a"]["points"] == 20


def test_a_chmod_of_the_config_file_is_a_change_the_wait_notices(tmp_path):
    """A config the service's user could not read, made readable by chmod or chown: the content's
    mtime stays, the wait must wake all the same (its ctime moved)."""
    from cli.commands.run import _stamp

    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    os.chmod(path, 0o600)
    before = _stamp(path)
    os.utime(path, ns=(before[0], before[0]))           # the same mtime after, as chmod leaves it
    os.chmod(path, 0o644)
    assert _stamp(path) != before and _stamp(path)[0] == before[0]


def test_under_systemd_a_missing_config_is_waited_out_not_exited(tmp_path, monkeypatch):
    """On a terminal a missing --config is one line and exit 2; under systemd (NOTIFY_SOCKET) the
    service waits for it like for any config error, instead of restarting into the start limit
    with the counter dark."""
    import argparse

    from cli.commands import run as run_command

    class Waited(Exception):
        pass

    def load_or_wait(path, notifier, **_):
        raise Waited(path)

    monkeypatch.setattr(run_command, "load_or_wait", load_or_wait)
    monkeypatch.setattr(run_command, "light", lambda path: (Recorder(), _Early(path), {}, False))
    args = argparse.Namespace(config=str(tmp_path / "missing.toml"), log_level="INFO")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    with pytest.raises(FileNotFoundError):
        run_command.run(args)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify.sock"))
    with pytest.raises(Waited):
        run_command.run(args)


class _Early:
    """ErrorCounter's part run() uses before the config loads, for a counter that stays dark."""

    fault = "no display in this test"

    def __init__(self, path):
        self.path = path

    def show(self, model):
        return False

    def remember(self, model, counter=None):
        pass

    def tick(self):
        return None
