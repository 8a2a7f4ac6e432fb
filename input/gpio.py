"""gpiozero for the GPIO keypads, imported and set up lean: they are opened before READY=1.

``import gpiozero`` runs the package's ``__init__``, which imports every device gpiozero has (LEDs,
motors, SPI chips, boards, tones, the Pi's internal devices: colorzero, subprocess, socket,
datetime, pprint, importlib.resources …); ``gpiozero.devices`` and ``gpiozero.pins.mock`` import
``importlib.metadata`` (with email, zipfile, csv …) for entry points looked up only when
GPIOZERO_PIN_FACTORY names a factory; ``gpiozero.mixins`` imports ``inspect`` for a check of an
event handler's signature at ``when_activated = …``, ``statistics`` (with fractions, decimal,
random) for the averages of smoothed sensors, and the pin factories' SPI the output devices, with
colorzero for an RGB LED's colour. On top of the service's start to READY that was
more than the start's own instructions (docs/performance.md, the fifth round). A keypad's
``DigitalInputDevice`` needs none of it, so here:

* the ``gpiozero`` package is imported without running its ``__init__``, which runs (into the same
  module) at the first name asked of the package that none of its submodules has set: anything
  doing ``from gpiozero import Button`` later gets it as ever, from the same modules and classes;
* while gpiozero's modules are imported, ``importlib_metadata`` (which gpiozero tries before
  ``importlib.metadata``), ``inspect``, ``statistics`` and ``colorzero`` are stand-ins in
  ``sys.modules``, as ``cli.lean_dataclasses`` does for ``inspect``: the real module is imported
  at the first use of anything gpiozero took from a stand-in (``entry_points``, ``median``,
  ``Color``); no other import ever sees one;
* ``InputLine``'s edges call plain callbacks (``on_activated``), through the hooks gpiozero leaves
  for subclasses, not ``when_activated``, whose handler check is the one user of ``inspect``;
* the default pin factory is made here as gpiozero 2.0's ``Device._default_pin_factory`` makes it,
  without the entry-point lookup for the factories gpiozero's own distribution registers.
"""
import os
import sys
import types
import warnings
from typing import Any


class _StandIn(types.ModuleType):
    """A module imported at the first use of any of its attributes: the first of ``real`` that
    imports. Its ``calls`` are functions that import it at their first call, for a module whose
    functions gpiozero binds at its import (``from statistics import median``)."""

    def __init__(self, name: str, real: tuple[str, ...], calls: tuple[str, ...] = ()):
        super().__init__(name)
        self._real, self._calls = real, calls

    def _module(self) -> types.ModuleType:
        for name in self._real:
            try:
                __import__(name)
            except ImportError:
                continue
            if sys.modules[name] is not self:          # out of sys.modules by now, as it should be
                return sys.modules[name]
        raise ImportError(f"{self.__name__} used while it stands in for gpiozero's import")

    def __getattr__(self, name: str):
        if name.startswith("__"):                     # the import machinery's probes
            raise AttributeError(name)
        if name not in self._calls:
            return getattr(self._module(), name)

        def call(*args, **kwargs):
            return getattr(self._module(), name)(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        return call


def _stand_ins() -> list[_StandIn]:
    """gpiozero's imports that a keypad's lines never use: ``entry_points`` (``importlib_metadata``,
    the backport gpiozero tries first, when installed), ``inspect`` (``when_activated``'s check),
    ``statistics`` (the averages of its smoothed input devices), ``colorzero`` (with fractions and
    decimal: ``RGBLED.color``'s ``Color``, in ``gpiozero.output_devices``, which the pin factories'
    software SPI imports)."""
    return [_StandIn("importlib_metadata", ("importlib_metadata", "importlib.metadata"), ("entry_points",)),
            _StandIn("inspect", ("inspect",)),
            _StandIn("statistics", ("statistics",), ("median", "mean")),
            _StandIn("colorzero", ("colorzero",), ("Color",))]


class _Package(types.ModuleType):
    """gpiozero before its ``__init__`` has run: its submodules are imported into it as usual; the
    first other name asked of it runs ``__init__`` here, which makes it a plain module."""

    def __init__(self, spec):
        super().__init__(spec.name)
        vars(self).update(__spec__=spec, __loader__=spec.loader, __package__=spec.name, __file__=spec.origin,
                          __cached__=spec.cached, __path__=list(spec.submodule_search_locations or ()))

    def __getattr__(self, name: str):
        self.__class__ = types.ModuleType  # type: ignore[assignment]  # no second run, no recursion in it
        try:
            vars(self)["__loader__"].exec_module(self)
        except BaseException:
            self.__class__ = _Package
            raise
        return getattr(self, name)


def _lean_package(name: str) -> None:
    for finder in sys.meta_path:
        spec = finder.find_spec(name, None) if hasattr(finder, "find_spec") else None
        if spec is not None:
            sys.modules[name] = _Package(spec)
            return
    raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def import_gpiozero(name: str) -> types.ModuleType:
    """gpiozero's submodule ``name`` (e.g. ``gpiozero.input_devices``), imported lean (above)."""
    if name in sys.modules:
        return sys.modules[name]
    stand_ins = {module.__name__: module for module in _stand_ins() if module.__name__ not in sys.modules}
    sys.modules.update(stand_ins)
    try:
        if "gpiozero" not in sys.modules:
            _lean_package("gpiozero")
        __import__(name)
        return sys.modules[name]
    finally:
        for key in stand_ins:
            del sys.modules[key]


_devices = import_gpiozero("gpiozero.devices")
_input_devices = import_gpiozero("gpiozero.input_devices")
_exc = import_gpiozero("gpiozero.exc")
Device, GPIODevice = _devices.Device, _devices.GPIODevice
DigitalInputDevice: Any = _input_devices.DigitalInputDevice


class InputLine(DigitalInputDevice):
    """A ``DigitalInputDevice`` calling ``on_activated()`` and ``on_deactivated()`` at its edges
    (``when_activated`` works too, as on any)."""

    def __init__(self, pin, *, on_activated=None, on_deactivated=None, **kw):
        self.on_activated, self.on_deactivated = on_activated, on_deactivated
        super().__init__(pin, **kw)

    def _fire_activated(self):
        if self.on_activated is not None:
            self.on_activated()
        super()._fire_activated()

    def _fire_deactivated(self):
        if self.on_deactivated is not None:
            self.on_deactivated()
        super()._fire_deactivated()


# gpiozero 2.0's Device._default_pin_factory: the factories it tries in this order when
# GPIOZERO_PIN_FACTORY is not set, and those its own distribution registers as entry points
# (gpiozero_pin_factories), which that variable names
DEFAULT_FACTORIES = (("lgpio", "gpiozero.pins.lgpio", "LGPIOFactory"),
                     ("rpigpio", "gpiozero.pins.rpigpio", "RPiGPIOFactory"),
                     ("pigpio", "gpiozero.pins.pigpio", "PiGPIOFactory"),
                     ("native", "gpiozero.pins.native", "NativeFactory"))
NAMED_FACTORIES = {name: (module, cls) for name, module, cls in DEFAULT_FACTORIES}
NAMED_FACTORIES["mock"] = ("gpiozero.pins.mock", "MockFactory")


def default_pin_factory():
    """The pin factory gpiozero would make for a device given none. GPIOZERO_PIN_FACTORY naming one
    of gpiozero's own factories (in any case, as gpiozero allows) is made without looking its entry
    point up; another name is left to gpiozero, which looks it up among every package's."""
    name = os.environ.get("GPIOZERO_PIN_FACTORY")
    if name is None:
        return _first_default()
    found = NAMED_FACTORIES.get(name) or NAMED_FACTORIES.get(name.lower())
    if found is None:
        return Device._default_pin_factory()
    module, cls = found
    return getattr(import_gpiozero(module), cls)()


def _first_default():
    """The first of the defaults that can be made; the reasons of those that could not are warned
    of as gpiozero does when one could, and are the error's text when none could."""
    failed = []
    for name, module, cls in DEFAULT_FACTORIES:
        try:
            factory = getattr(import_gpiozero(module), cls)()
        except Exception as exc:      # noqa: BLE001 — as gpiozero: any reason to fall back
            failed.append(f"{name}: {exc}")
            continue
        for reason in failed:
            warnings.warn(_exc.PinFactoryFallback(f"Falling back from {reason}"), stacklevel=2)
        if name == "native":
            warnings.warn(_exc.NativePinFactoryFallback(_devices.native_fallback_message), stacklevel=2)
        return factory
    raise _exc.BadPinFactory("Unable to load any default pin factory (" + "; ".join(failed) + ")")


def factory_or_default(given=None):
    """``given``, or else gpiozero's default factory, made once (``Device.pin_factory``, which
    every device given none uses and gpiozero closes at exit) as ``default_pin_factory`` makes it."""
    if given is not None:
        return given
    if Device.pin_factory is None:
        Device.pin_factory = default_pin_factory()
    return Device.pin_factory
