"""input.gpio: gpiozero imported without what a keypad does not use, and the pin factory chosen as
gpiozero's Device._default_pin_factory chooses it, without its entry points."""
import json
import os
import subprocess
import sys
import types
import warnings

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, NativePinFactoryFallback, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from input import gpio

# what `import gpiozero` imported before, and a keypad's lines never use (the output devices are
# imported: the pin factories' software SPI drives them; colorzero is not)
UNUSED = ("importlib.metadata", "importlib_metadata", "email", "zipfile", "csv", "inspect", "statistics",
          "fractions", "decimal", "colorzero", "subprocess", "pprint", "importlib.resources",
          "gpiozero.boards", "gpiozero.internal_devices", "gpiozero.tools", "gpiozero.spi_devices")

LEAN = """
import json, sys, types
from input.gpio import InputLine, factory_or_default
line = InputLine(17, pin_factory=factory_or_default())
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
    seen = run_fresh(LEAN, GPIOZERO_PIN_FACTORY="mock")
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


@pytest.fixture
def default_factory(monkeypatch):
    """Device.pin_factory unset (and unset again after), GPIOZERO_PIN_FACTORY unset, and gpiozero's
    default factories' modules faked: ``make("lgpio", "rpigpio")`` makes those two work (each a
    MockFactory), the others fail to, as without their library or GPIO chip."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)

    def no_entry_points(**params):
        raise AssertionError("entry points looked up")

    monkeypatch.setattr(sys.modules["gpiozero.devices"], "entry_points", no_entry_points)
    made = {}

    def make(*working):
        for name, module, cls in gpio.DEFAULT_FACTORIES:
            def factory(name=name):
                if name not in working:
                    raise OSError(f"no {name} here")
                made[name] = MockFactory()
                return made[name]
            fake = types.ModuleType(module)
            setattr(fake, cls, factory)
            monkeypatch.setitem(sys.modules, module, fake)
        return made

    yield make
    for factory in made.values():
        factory.close()


def test_without_the_variable_lgpio_is_chosen_when_it_works(default_factory):
    made = default_factory("lgpio", "rpigpio", "pigpio", "native")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gpio.default_pin_factory() is made["lgpio"]
    assert list(made) == ["lgpio"]


def test_each_default_falls_back_to_the_next_as_gpiozero_does_saying_why(default_factory):
    made = default_factory("pigpio", "native")
    with pytest.warns(PinFactoryFallback) as warned:
        assert gpio.default_pin_factory() is made["pigpio"]
    assert [str(w.message) for w in warned] == ["Falling back from lgpio: no lgpio here",
                                                "Falling back from rpigpio: no rpigpio here"]
    made = default_factory("native")
    with pytest.warns(Warning) as warned:
        assert gpio.default_pin_factory() is made["native"]
    assert [type(w.message) for w in warned] == [PinFactoryFallback] * 3 + [NativePinFactoryFallback]


def test_no_gpio_library_that_can_run_is_one_error_naming_each_reason(default_factory):
    default_factory()
    with pytest.raises(BadPinFactory) as error, warnings.catch_warnings():
        warnings.simplefilter("error")
        gpio.default_pin_factory()
    assert str(error.value) == ("Unable to load any default pin factory (lgpio: no lgpio here; "
                                "rpigpio: no rpigpio here; pigpio: no pigpio here; native: no native here)")


def test_buttons_that_cannot_open_are_a_keypad_error_not_a_crash(default_factory):
    """What `pocitadlo run` on a machine without GPIO shows for [keypad] devices = ["buttons"]."""
    from cli.commands.run import open_keypads
    from config.options import Section
    from input.events import DeviceStatus
    from input.settings import read

    default_factory()
    posted = []
    service = types.SimpleNamespace(post=posted.append)
    assert open_keypads(read(Section({"devices": ["buttons"]}, "keypad")), service) == []
    [status] = posted
    assert isinstance(status, DeviceStatus) and (status.device, status.connected) == ("buttons", False)
    assert status.detail.startswith("Unable to load any default pin factory (lgpio: no lgpio here; ")


@pytest.mark.parametrize("name", ["mock", "MOCK", "Mock"])
def test_the_variable_naming_gpiozeros_own_factory_is_honoured_without_entry_points(default_factory, monkeypatch,
                                                                                    name):
    default_factory("lgpio")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", name)
    factory = gpio.default_pin_factory()
    try:
        assert type(factory) is MockFactory
    finally:
        factory.close()


def test_the_variable_naming_another_factory_is_left_to_gpiozeros_entry_points(default_factory, monkeypatch):
    monkeypatch.setattr(sys.modules["gpiozero.devices"], "entry_points", lambda **params: [])
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "elsewhere")
    with pytest.raises(BadPinFactory, match="Unable to find pin factory 'elsewhere'"):
        gpio.default_pin_factory()


def test_the_default_factory_is_made_once_for_every_device_given_none(default_factory):
    made = default_factory("lgpio")
    factory = gpio.factory_or_default()
    assert factory is made["lgpio"] is Device.pin_factory and gpio.factory_or_default() is factory
    other = MockFactory()
    try:
        assert gpio.factory_or_default(other) is other and Device.pin_factory is factory
    finally:
        other.close()


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


def test_the_factories_are_gpiozeros_own_as_its_installed_version_has_them():
    """input.gpio copies gpiozero's choice: its default factories in its order (the dict in
    Device._default_pin_factory) and the entry points its own distribution registers."""
    import inspect
    import re
    from importlib.metadata import entry_points

    source = inspect.getsource(Device._default_pin_factory)
    defaults = re.findall(r"'(\w+)':\s*'([\w.]+):(\w+)'", source)
    assert tuple(defaults) == gpio.DEFAULT_FACTORIES
    own = {ep.name: tuple(ep.value.split(":")) for ep in entry_points(group="gpiozero_pin_factories")
           if ep.dist is not None and ep.dist.name == "gpiozero"}
    assert own == gpio.NAMED_FACTORIES
