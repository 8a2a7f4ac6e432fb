"""input.gpio: gpiozero imported without what a keypad does not use."""
import json
import os
import subprocess
import sys

import pytest
from gpiozero.pins.mock import MockFactory

from input import gpio

# what `import gpiozero` imported before, and a keypad's lines never use (the output devices are
# imported: the pin factories' software SPI drives them; colorzero is not)
UNUSED = ("importlib.metadata", "importlib_metadata", "email", "zipfile", "csv", "inspect", "statistics",
          "fractions", "decimal", "colorzero", "subprocess", "pprint", "importlib.resources",
          "gpiozero.boards", "gpiozero.internal_devices", "gpiozero.tools", "gpiozero.spi_devices")

LEAN = """
import json, sys, types
from input.gpio import InputLine, import_gpiozero
line = InputLine(17, pin_factory=import_gpiozero("gpiozero.pins.mock").MockFactory())
seen = {"lean": sorted(sys.modules), "factory": type(line.pin_factory).__name__}
line.close()
import gpiozero
from gpiozero import *
seen["module"] = type(gpiozero) is types.ModuleType
from gpiozero import Button, DigitalInputDevice, RGBLED
from gpiozero.pins.mock import MockFactory, MockPWMPin
import colorzero, statistics
seen["same_class"] = DigitalInputDevice is sys.modules["gpiozero.input_devices"].DigitalInputDevice
seen["submodule"] = gpiozero.devices is sys.modules["gpiozero.devices"] and LED is gpiozero.LED
seen["entry_points"] = sorted(ep.name for ep in sys.modules["gpiozero.devices"].entry_points(
    group="gpiozero_pin_factories"))
mixins, inputs = sys.modules["gpiozero.mixins"], sys.modules["gpiozero.input_devices"]
seen["inspect"] = mixins.inspect.isbuiltin(len) and mixins.inspect.getcallargs(lambda a: a, 1) == {"a": 1}
seen["averages"] = [inputs.median([3, 1, 2]), inputs.mean([1, 2, 6]), mixins.median([4, 2])]
factory = MockFactory(pin_class=MockPWMPin)
led = RGBLED(5, 6, 13, pin_factory=factory)
led.color = colorzero.Color("red")
seen["color"] = isinstance(led.color, colorzero.Color) and led.color == colorzero.Color("red")
button = Button(22, pin_factory=factory)
pressed = []
button.when_pressed = lambda device: pressed.append(device is button)
factory.pin(22).drive_low()
seen["when_pressed"] = pressed
seen["stand_ins_left"] = [m for m in ("importlib_metadata",) if m in sys.modules]
print(json.dumps(seen))
"""


def run_fresh(code: str, **env) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=os.getcwd(), **env))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_line_is_made_without_what_gpiozero_imports_for_the_rest_and_gpiozero_is_whole_after():
    """Once a keypad's line is up, gpiozero as a whole — its package's names, entry points,
    inspect's handler check, the averages, an RGB LED's colour — works as if imported at once."""
    seen = run_fresh(LEAN)
    assert seen["factory"] == "MockFactory"
    assert [m for m in UNUSED if m in seen["lean"]] == []
    assert seen["module"] and seen["same_class"] and seen["submodule"]
    assert {"lgpio", "mock", "native", "pigpio", "rpigpio"} <= set(seen["entry_points"])
    assert seen["inspect"] and seen["averages"] == [2, 3, 3] and seen["color"]
    assert seen["when_pressed"] == [True] and seen["stand_ins_left"] == []


def test_gpiozero_imported_first_is_taken_as_it_is():
    import gpiozero

    assert gpio.import_gpiozero("gpiozero") is gpiozero
    assert gpio.Device is gpiozero.Device and issubclass(gpio.InputLine, gpiozero.DigitalInputDevice)


def test_a_stand_in_used_while_it_stands_in_says_so(monkeypatch):
    stand_in = gpio._StandIn("inspect", ("inspect",), ("isbuiltin",))
    monkeypatch.setitem(sys.modules, "inspect", stand_in)
    with pytest.raises(ImportError, match="stands in"):
        stand_in.isbuiltin(len)
    assert not hasattr(stand_in, "__path__")


def test_a_lines_callbacks_come_at_its_edges_and_when_activated_still_works():
    factory = MockFactory()
    got = []
    line = gpio.InputLine(17, pull_up=True, pin_factory=factory, on_activated=lambda: got.append("on"),
                          on_deactivated=lambda: got.append("off"))
    try:
        line.when_activated = lambda device: got.append(("when", device is line))
        factory.pin(17).drive_low()
        factory.pin(17).drive_high()
        assert got == ["on", ("when", True), "off"]
    finally:
        line.close()
        factory.close()

