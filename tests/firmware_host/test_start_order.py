"""`pocitadlo run` lights the counter before the heavy imports (issue 14: the counter is lit within
a fraction of the start on a Pi; docs/install.md "Boot ordering"), and the service keeps that device."""
import json
import os
import subprocess
import sys

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

PROBE_STATUS = """
import json, sys
from firmware_host import notify

def status(self, text):
    print(json.dumps({"status": text, "modules": sorted(sys.modules)}))
    raise SystemExit(0)

notify.Notifier.status = status
from cli.main import main
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


def first_status(config) -> dict:
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    out = subprocess.run([sys.executable, "-c", PROBE_STATUS, str(config)], capture_output=True, text=True,
                         env=env, timeout=60)
    return json.loads(out.stdout)


def max7219_config(tmp_path, venue="U Lva"):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.replace('driver = "dummy"', 'driver = "max7219"\nblock_orientation = -90')
                      .replace("U Lva", venue), encoding="utf-8")
    return config


def test_a_max7219_counter_is_lit_before_luma_and_pillow_are_imported(tmp_path):
    """The first frame saved by an earlier start (display.boot_frame) goes to the SPI device —
    here a file standing in for /dev/spidev0.0 — before anything draws with luma or Pillow."""
    config, spidev = max7219_config(tmp_path), tmp_path / "spidev0.0"
    spidev.write_bytes(b"")
    ErrorCounter(config).remember(boot_model(config), spi=str(spidev))
    seen = first_status(config)
    assert seen["status"] == "counter lit, starting"
    assert [m for m in seen["modules"] if m.split(".")[0] in ("PIL", "luma") or m in HEAVY] == []
    saved = boot_frame.read(boot_frame.path_in(str(tmp_path / "data")), boot_frame.key_of(
        {"driver": "max7219", "block_orientation": -90}, boot_model(config)))
    assert saved is not None and spidev.read_bytes() == b"".join(saved[2])


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

