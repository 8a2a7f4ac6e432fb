"""`pocitadlo run` lights the counter before the heavy imports (issue 14: the counter is lit within
a fraction of the start on a Pi; docs/install.md "Boot ordering"), and the service keeps that device."""
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cli.commands.boot import ErrorCounter, boot_model
from cli.commands.run import assemble
from display import boot_frame
from firmware_host.settings import load

CONFIG = ('[device]\nvenue = "U Lva"\ntable = "3"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
          '[keypad]\ndevices = ["terminal"]\n[sync]\noutbox = "outbox"\n')

PROBE = """
import json, sys
from display.counter import Counter
from firmware_host import notify

shown = []
real_show = Counter.show
Counter.show = lambda self, model, now: shown.append(model) or real_show(self, model, now)

def status(self, text):
    print(json.dumps({"status": text, "shown": shown, "modules": sorted(sys.modules)}))
    raise SystemExit(0)

notify.Notifier.status = status
from cli.main import main
sys.exit(main(["run", "--config", sys.argv[1]]))
"""

# the modules imported at the first STATUS and at READY=1, `run` started through ENTRY's main
PROBE_STATUS = """
import os, sys
from firmware_host import notify

seen = {}

def status(self, text):
    seen.setdefault("status", text)
    seen.setdefault("modules", sorted(sys.modules))

def ready(self, text=""):
    modules = sorted(sys.modules)
    import json
    print(json.dumps({**seen, "ready": text, "modules_at_ready": modules}), flush=True)
    os._exit(0)

notify.Notifier.status = status
notify.Notifier.ready = ready
from ENTRY import main
sys.exit(main(["run", "--config", sys.argv[1]]))
"""

HEAVY = ("rules.board", "rules.carom.state", "rules.eightball.state", "config.load", "firmware_host.match_night",
         "firmware_host.night_store", "rules.night",
         "firmware_host.service", "delivery.sync", "delivery.outbox", "input.referee", "gpiozero", "evdev",
         # `pocitadlo run` builds the parser of its own subcommand only
         "cli.commands.server", "cli.commands.serve", "cli.commands.emulate", "cli.commands.render")


def test_the_counter_is_lit_before_rules_night_sync_and_keypads_are_imported(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    out = subprocess.run([sys.executable, "-c", PROBE, str(config)], capture_output=True, text=True,
                         env=env, timeout=60)
    seen = json.loads(out.stdout)
    assert seen["status"] == "counter lit, starting"
    assert seen["shown"] == [{"screen": "ready", "venue": "U Lva", "table": "3"}]
    assert [m for m in HEAVY if m in seen["modules"]] == []


def test_boot_model_of_a_broken_file_is_the_ready_screen_without_a_place(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[device\nvenue = ", encoding="utf-8")
    assert boot_model(path) == {"screen": "ready", "table": "1"}
    assert boot_model(tmp_path / "missing.toml") == {"screen": "ready", "table": "1"}


def test_the_service_takes_over_the_lit_device_without_reopening_it(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    early = ErrorCounter(path)
    early.show(boot_model(path))
    device = early.counter.device
    config = load(path)
    counter = early.hand_over(config.parts["display"])
    assert counter is not None and early.counter is None
    service, devices, _ = assemble(config, counter=counter)
    service.display.start(0.0)
    service.show()
    assert service.display.counter.device is device and service.display.fault is None
    assert service.display.model["screen"] == "ready" and "time" in service.display.model
    for dev in devices:
        dev.close()


def test_a_display_section_changed_by_the_fix_is_opened_anew(tmp_path):
    """A config error fixed by changing [display] too: the lit device is freed, not handed over."""
    path = tmp_path / "config.toml"
    path.write_text(CONFIG.replace('driver = "dummy"', 'driver = "dummy"\nwidth = 32\nheight = 8'), encoding="utf-8")
    early = ErrorCounter(path)
    early.show(boot_model(path))
    path.write_text(CONFIG, encoding="utf-8")
    assert early.hand_over(load(path).parts["display"]) is None and early.counter is None


def first_status(config, *, entry="cli.main", flags=(), **env_vars) -> dict:
    env = {**os.environ, "PYTHONPATH": os.getcwd(), **env_vars}
    out = subprocess.run([sys.executable, *flags, "-c", PROBE_STATUS.replace("ENTRY", entry), str(config)],
                         capture_output=True, text=True, env=env, timeout=60)
    return {**json.loads(out.stdout), "log": out.stderr}


def max7219_config(tmp_path, venue="U Lva"):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.replace('driver = "dummy"', 'driver = "max7219"\nblock_orientation = -90')
                      .replace("U Lva", venue), encoding="utf-8")
    return config


def test_a_max7219_counter_is_lit_before_luma_and_pillow_are_imported_and_ready_before_too(tmp_path):
    """The first frame saved by an earlier start (display.boot_frame) goes to the SPI device —
    here a file standing in for /dev/spidev0.0 — before anything draws with luma or Pillow; and
    READY=1 (a key is taken) comes before them too: luma takes the lit chain over after it."""
    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    seen = first_status(config)
    assert seen["status"] == "counter lit, starting"
    assert [m for m in seen["modules"] if m.split(".")[0] in ("PIL", "luma") or m in HEAVY] == []
    assert seen["ready"] == "scoring"
    assert [m for m in seen["modules_at_ready"] if m.split(".")[0] in ("PIL", "luma") or m == "display.counter"] == []
    assert {"rules.carom.state", "firmware_host.match_night", "input.referee"} <= set(seen["modules_at_ready"])
    saved = boot_frame.read(boot_frame.path_in(str(tmp_path / "data")), boot_frame.key_of(
        {"driver": "max7219", "block_orientation": -90}, boot_model(config)))
    assert saved is not None and spidev.read_bytes() == b"".join(saved[2])


def test_under_systemd_a_max7219_counter_is_lit_before_logging_and_with_the_config_unchanged_tomllib(tmp_path):
    """With the state directory systemd gives the unit (StateDirectory=), the first start keeps
    its parse of the config there; the next, the file unchanged, lights the counter without
    parsing it again. Neither imports logging before (issue 27: each ~10 ms of a PC's CPU), nor
    before READY, where the log has the lit counter's line all the same; nor hashlib."""
    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    state = tmp_path / "state"
    state.mkdir()
    first, second = (first_status(config, STATE_DIRECTORY=str(state)) for _ in range(2))
    assert first["status"] == second["status"] == "counter lit, starting"
    assert "logging" not in first["modules"] and "tomllib" in first["modules"]
    assert "logging" not in second["modules"] and "tomllib" not in second["modules"]
    assert second["ready"] == "scoring"
    assert first["log"] == second["log"] == "INFO pocitadlo: counter lit, starting\n"
    assert "logging" not in second["modules_at_ready"]
    assert (state / "boot-config.marshal").is_file()
    # nothing is signed before a key is taken: OpenSSL's hashlib (hmac, secrets) comes after READY
    assert [m for m in ("hashlib", "_hashlib", "hmac", "secrets") if m in second["modules_at_ready"]] == []


# imported where they are needed, after READY: a retry's jitter, a match's draw, an average, an error
# message, a [live] bind address other than the default; the outbox and the start need no pathlib,
# tempfile or argparse, and a config parsed at an earlier start no tomllib (issue 27: each one
# ~1-3 ms of a PC's CPU, ten times that on a Pi's core); the checks of a league document fetched
# from the receiver (or cached by an earlier fetch) where there is one, at the fetch after READY;
# logging at the first record or right after READY (delivery.logs); inspect (with ast, dis and
# tokenize), which dataclasses imports for a class without a docstring only (cli.lean_dataclasses);
# signal.py and queue.py, where the C modules _signal and _queue do (no enums, no heapq)
LATER = ("argparse", "shutil", "pathlib", "tempfile", "random", "fractions", "decimal", "difflib", "ipaddress",
         "hashlib", "tomllib", "wire.league_answer", "wire.league", "logging", "inspect", "ast", "dis", "tokenize",
         "signal", "queue", "heapq")


# a venue's device: its league file (fixtures with TOML dates), delivering to the league's receiver
VENUE = ('league = "league.toml"\n', '[sync]\noutbox = "outbox"\n',
         '[sync]\noutbox = "outbox"\ntransport = "http"\nurl = "https://liga.example.invalid/api/v1/records"\n'
         'device_id = "u-lva-3"\nsecret = "0123456789abcdef0123"\n')
LEAGUE = Path("config/examples/league.toml")


@pytest.mark.parametrize("venue", [False, True], ids=["bare", "league-and-http"])
def test_through_the_installed_launcher_the_counter_is_lit_before_the_command_line_is_read(tmp_path, venue):
    """bin/pocitadlo as install.sh writes it (cli/launcher.py): `run` lights a MAX7219 chain before
    argparse, cli.main and re are imported (pip's console script imports re first), and is ready to
    score without argparse and what else is needed only later — on a venue's device neither the
    league file's parse (kept by the first start) nor http.client and ssl, which delivery and the
    league's fetch import after READY. Run without ``site`` (-S), whose .pth files in a
    development venv import re and pathlib themselves."""
    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    if venue:
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace("[device]\n", "[device]\n" + VENUE[0]).replace(VENUE[1], VENUE[2]),
                          encoding="utf-8")
        (tmp_path / "league.toml").write_bytes(LEAGUE.read_bytes())
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    (tmp_path / "state").mkdir()
    for _ in range(2):                  # the second start: the files' parses kept by the first
        spidev.write_bytes(b"")
        seen = first_status(config, entry="cli.launcher", flags=("-S",), STATE_DIRECTORY=str(tmp_path / "state"))
    assert seen["status"] == "counter lit, starting" and spidev.read_bytes() != b""
    # (importlib: the package, beyond the import system's frozen core)
    assert [m for m in ("argparse", "cli.main", "re", "logging", "tomllib", "dataclasses", "importlib")
            if m in seen["modules"]] == []
    assert seen["ready"] == "scoring"
    # (urllib.parse, with which a venue's transport reads its url at the start, imports ipaddress)
    later = [m for m in (*LATER, "ssl", "http.client") if not (venue and m == "ipaddress")]
    assert [m for m in later if m in seen["modules_at_ready"]] == []


def test_a_usb_keypad_is_opened_before_ready_without_python_evdev_and_asyncio(tmp_path):
    """A device's USB keypad is opened before READY=1 (a key can be taken from then on), read
    with the standard library (input.evdev_device): python-evdev's package imported asyncio, ssl,
    subprocess, logging and inspect, about as much as the rest of the start to READY. Its path
    missing here, the keypad says it cannot open it and the start goes on."""
    import importlib.util

    assert importlib.util.find_spec("evdev") is not None     # installed ([test]): not imported all the same
    config = max7219_config(tmp_path)
    keypad = 'devices = ["evdev"]\n[keypad.evdev]\npaths = ["/dev/input/by-id/usb-none-event-kbd"]\n'
    config.write_text(config.read_text(encoding="utf-8").replace('devices = ["terminal"]\n', keypad), encoding="utf-8")
    spidev = tmp_path / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    # with site, unlike the launcher's test above: python-evdev could be imported
    seen = first_status(config, entry="cli.launcher")
    assert seen["ready"] == "scoring" and "input.evdev_keypad" in seen["modules_at_ready"]
    imported = {m.split(".")[0] for m in seen["modules_at_ready"]}
    assert sorted(imported & {"evdev", "asyncio", "ssl", "subprocess", "socket", "concurrent", "logging",
                              "inspect"}) == []


# what gpiozero's package imported for the rest of it (its every device, the pin factories' entry
# points with importlib.metadata, a handler's check with inspect, sensors' averages), which a keypad's
# lines do without (input.gpio)
GPIOZERO_REST = ("importlib.metadata", "email", "zipfile", "csv", "inspect", "statistics", "fractions",
                 "colorzero", "subprocess", "pprint", "gpiozero.boards", "gpiozero.internal_devices")


def test_gpio_keypads_are_open_at_ready_without_what_gpiozero_imports_for_the_rest(tmp_path):
    """[keypad] devices = ["matrix", "buttons"], the pins gpiozero's mock ones (GPIOZERO_PIN_FACTORY,
    read as gpiozero reads it), started as the installed launcher starts (without site, gpiozero's
    folder on the path): both are open when READY=1 comes — a key can be taken — and neither
    importlib.metadata nor the rest of what `import gpiozero` imported was imported."""
    import gpiozero

    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    config.write_text(config.read_text(encoding="utf-8").replace('["terminal"]', '["matrix", "buttons"]'),
                      encoding="utf-8")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    (tmp_path / "state").mkdir()
    path = os.pathsep.join((os.getcwd(), os.path.dirname(os.path.dirname(gpiozero.__file__))))
    for _ in range(2):                  # the second start: the config's parse kept by the first
        spidev.write_bytes(b"")
        seen = first_status(config, entry="cli.launcher", flags=("-S",), GPIOZERO_PIN_FACTORY="mock",
                            PYTHONPATH=path, STATE_DIRECTORY=str(tmp_path / "state"))
    assert seen["ready"] == "scoring" and seen["log"] == "INFO pocitadlo: counter lit, starting\n"
    assert {"input.matrix", "input.buttons", "gpiozero.pins.mock"} <= set(seen["modules_at_ready"])
    assert [m for m in (*GPIOZERO_REST, *LATER) if m in seen["modules_at_ready"]] == []


def test_a_changed_config_is_lit_through_luma_and_its_first_frame_saved_anew(tmp_path):
    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    max7219_config(tmp_path, venue="U Bílé růže")
    early = ErrorCounter(config)
    assert not early.light_raw(boot_model(config)) and spidev.read_bytes() == b""
    early.remember(boot_model(config), spi=str(spidev))
    assert ErrorCounter(config).light_raw(boot_model(config)) and spidev.read_bytes()


def test_no_first_frame_is_saved_for_a_counter_luma_draws_on_without_spi(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")          # the dummy driver
    ErrorCounter(config).remember(boot_model(config))
    assert not os.path.exists(boot_frame.path_in(str(tmp_path / "data")))



class Ready:
    """A notifier that tells the test when READY=1 came (and ignores the rest)."""
    interval = None

    def __init__(self):
        self.event = threading.Event()

    def ready(self, status=""):
        self.event.set()

    def status(self, text):
        pass

    def stopping(self):
        pass


def test_a_key_taken_before_the_counter_is_built_is_durable_at_once_and_shown_when_it_is_up(tmp_path):
    """READY=1 before luma and Pillow (`pocitadlo run` on a lit MAX7219 chain builds the counter after
    it): a key then is journalled at once — nothing is shown before it is durable — and the counter,
    once built, shows the state with it."""
    from firmware_host.service import Command, Stop, Ui

    path = tmp_path / "config.toml"
    path.write_text(CONFIG.replace('["terminal"]', "[]"), encoding="utf-8")
    release, durable, up = threading.Event(), threading.Event(), threading.Event()
    service, _, _ = assemble(load(path), build_display=True, on_built=lambda counter: release.wait(30),
                             on_durable=lambda cmd: durable.set())
    service.notifier = notifier = Ready()
    service.after_display = up.set
    for _ in range(3):
        service.post(Ui("confirm"))                       # ready → setup → single partie → a starts
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    try:
        assert notifier.event.wait(30)
        service.post(Command({"cmd": "score", "value": 2}))
        assert durable.wait(30)
        written = service.night.partie_journal.lines[-1]
        assert (written["cmd"], written["value"]) == ("score", 2)
        assert b'"value":2' in open(service.night.partie_journal.path, "rb").read()
        assert service.display.counter is None            # still being built: nothing drawn yet
        release.set()
        assert up.wait(30)
        counter = service.display.counter
        assert counter.device is not None and counter.frames >= 1
        assert counter._model == service.display.model and service.display.model["summary"]["counter"]["series"] == 2
    finally:
        release.set()
        service.post(Stop("test"))
        loop.join(30)


def test_a_counter_that_cannot_be_built_stops_the_service_as_before_ready(tmp_path):
    """Pillow or the display's code broken is not a display fault to retry: the service stops
    (systemd restarts it; install.sh rolls an upgrade back), as when it was built before READY."""
    from firmware_host.display_link import DisplayLink
    from firmware_host.match_night import Night
    from firmware_host.service import Service

    def broken():
        raise ImportError("No module named 'PIL'")

    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    service = Service(Night(load(path)), DisplayLink(None, lambda: None, make_counter=broken))
    with pytest.raises(ImportError, match="PIL"):
        service.run()
