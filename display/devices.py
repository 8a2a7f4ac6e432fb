"""Open the configured luma device. Driver imports are lazy, so the service starts fast and a
machine without SPI (or pygame) only needs what its config names.

Every hardware failure comes out as one ``DisplayFault`` with a clear message; the service keeps
scoring, shows nothing until the display is back, and retries.
"""
import os
import sys


class DisplayFault(Exception):
    """The counter cannot be reached (missing SPI, unplugged cable, driver failure).

    The message is English, for the log; ``code`` names a fault the counter says in its own
    language where it can (display.text TEXTS, e.g. "spi_off")."""

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.code = code


SPI_FIX = ("switch SPI on (sudo raspi-config nonint do_spi 0, or dtparam=spi=on in "
           "/boot/firmware/config.txt) and reboot")


def spi_device_path(port: int, device: int) -> str:
    return f"/dev/spidev{port}.{device}"


def require_spi(port: int, device: int, *, dev_root: str = "/") -> None:
    """A missing /dev/spidevP.D is SPI switched off (or the wrong spi_port/spi_device): say which
    device and how to switch it on, not luma's bare "SPI device not found"."""
    path = spi_device_path(port, device)
    if not os.path.exists(os.path.join(dev_root, path.lstrip("/"))):
        raise DisplayFault(f"no SPI device {path}: SPI is off or [display] spi_port/spi_device name another bus; "
                           f"{SPI_FIX}", code="spi_off")


def open_device(settings, *, stream=None, serial_interface=None, ws281x=None, adopt=False):
    """A luma device for ``settings`` (a DisplaySettings).

    ``serial_interface`` replaces the SPI port for MAX7219 boards and ``ws281x`` the rpi_ws281x
    module for WS2812 panels (tests and the benchmark); ``stream`` is the terminal's output.
    ``adopt``: a MAX7219 chain display.boot_frame already set up and lit for these settings — luma's
    start (the same set-up, then a blank frame) is not sent, so its picture stays until the next.
    """
    opener, _ = _DRIVERS[settings.driver]
    try:
        return opener(settings, stream=stream, serial_interface=serial_interface, ws281x=ws281x, adopt=adopt)
    except DisplayFault:
        raise
    except ImportError as exc:
        raise DisplayFault(f"the {settings.driver} display needs the Python module {exc.name or exc},"
                           " which is not installed") from None
    except Exception as exc:   # luma raises its own errors, OSError, RuntimeError, AssertionError …
        raise DisplayFault(f"cannot open the {settings.driver} display: {_describe(exc)}") from exc


def _describe(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


def _spi(settings, serial_interface):
    if serial_interface is not None:
        return serial_interface
    require_spi(settings.spi_port, settings.spi_device)
    from luma.core.interface.serial import noop, spi

    return spi(port=settings.spi_port, device=settings.spi_device, gpio=noop(),
               bus_speed_hz=settings.spi_bus_speed)


def _max7219(settings, *, serial_interface=None, adopt=False, **_):
    from display.max7219_packing import Max7219  # luma's driver, its frames packed faster

    serial = _Adopting(_spi(settings, serial_interface)) if adopt else _spi(settings, serial_interface)
    if settings.is_segment:
        # One MAX7219 drives 8 digits; its "image" is 8 columns (digits) x 8 rows (segments).
        device = Max7219(serial, cascaded=settings.digits // 8, contrast=settings.contrast)
    else:
        device = Max7219(serial, width=settings.width, height=settings.height, rotate=settings.rotate,
                         block_orientation=settings.block_orientation,
                         blocks_arranged_in_reverse_order=settings.blocks_arranged_in_reverse_order,
                         contrast=settings.contrast)
    if adopt:
        serial.starting = False
    return device


class _Adopting:
    """luma's serial interface to a chain already lit: silent while the driver starts."""

    def __init__(self, serial):
        self.serial, self.starting = serial, True

    def data(self, data):
        if not self.starting:
            self.serial.data(data)

    def command(self, *cmd):
        if not self.starting:
            self.serial.command(*cmd)

    def __getattr__(self, name):
        return getattr(self.serial, name)


class _PinOverride:
    """rpi_ws281x as luma's ws2812 driver uses it, but on the configured GPIO pin
    (the driver hard-codes pin 18)."""

    def __init__(self, module, pin: int):
        self._module, self._pin = module, pin

    def __getattr__(self, name):
        return getattr(self._module, name)

    def ws2811_channel_t_gpionum_set(self, channel, pin):
        return self._module.ws2811_channel_t_gpionum_set(channel, self._pin if pin else pin)


def serpentine(width: int, height: int) -> list[int]:
    """Pixel -> LED index for panels wired in a zig-zag (every other row runs backwards)."""
    return [y * width + (x if y % 2 == 0 else width - 1 - x) for y in range(height) for x in range(width)]


SPI_PIN = 10     # rpi_ws281x drives GPIO 10 through /dev/spidev0.0: no root, the hardened unit allows it


def _ws2812(settings, *, ws281x=None, **_):
    from luma.led_matrix.device import ws2812

    if settings.ws2812_pin != SPI_PIN and os.geteuid() != 0:
        raise DisplayFault(f"a ws2812 panel on GPIO {settings.ws2812_pin} needs root (PWM/PCM by DMA through "
                           f"/dev/mem), which the service does not run as: wire the panel's DIN to GPIO {SPI_PIN} "
                           f"(header pin 19) and set [display] ws2812_pin = {SPI_PIN} (SPI; docs/install.md)")

    if ws281x is None:
        require_spi(0, 0)           # rpi_ws281x drives GPIO 10 through /dev/spidev0.0
        import _rpi_ws281x as ws281x
    mapping = serpentine(settings.width, settings.height) if settings.ws2812_serpentine else None
    device = ws2812(dma_interface=_PinOverride(ws281x, settings.ws2812_pin), width=settings.width,
                    height=settings.height, rotate=settings.rotate, mapping=mapping)
    device.contrast(settings.contrast)    # the strip starts cleared, so this is before any light
    return device


def _dummy(settings, **_):
    from luma.core.device import dummy

    width, height = settings.size
    return dummy(width=width, height=height, rotate=settings.rotate, mode=settings.mode)


def _emulator_args(settings) -> dict:
    width, height = settings.size
    transform, scale = settings.emulator_transform, settings.emulator_scale
    if settings.is_segment:
        transform, scale = "seven_segment", 2
    elif transform == "scale2x":
        scale = 2
    elif scale == 1:
        transform = "none"
    return {"width": width, "height": height, "rotate": settings.rotate, "mode": "RGB",
            "transform": transform, "scale": scale}


def _capture(settings, **_):
    from luma.emulator.device import capture

    return _decimal_points(settings, capture(file_template=settings.file_template, **_emulator_args(settings)))


def _gifanim(settings, **_):
    from luma.emulator.device import gifanim

    return _decimal_points(settings, gifanim(filename=settings.file_template, duration=settings.blink_seconds,
                                             **_emulator_args(settings)))


_CELL = (30, 50)        # luma.emulator's 7-segment picture: one digit per 30x50 cell
_POINT = (27, 46, 2)    # where the decimal point goes in a cell (x, y, radius)
_POINT_COLOUR = (255, 0, 0)


def _decimal_points(settings, device):
    """luma's emulator draws a 7-segment board from bits 0-6 of each digit and drops bit 7, the
    decimal point; pocitadlo uses that point (the player at the table), so pictures draw it too."""
    if not settings.is_segment:
        return device
    pygame, luma_transform = device._pygame, device._transform

    def transform(surface):
        picture = luma_transform(surface)
        width, height = surface.get_size()
        pixels = pygame.PixelArray(surface)
        lit = [x for x in range(width) if height > 7 and pixels[x, 7] & 0xFFFFFF]
        del pixels          # a PixelArray locks its surface
        x0, y0, radius = _POINT
        for x in lit:       # the board's digit 0 is the image's rightmost column
            pygame.draw.circle(picture, _POINT_COLOUR, ((width - x - 1) * _CELL[0] + x0, y0), radius)
        return picture

    device._transform = transform
    return device


def _terminal(settings, *, stream=None, **_):
    from display.terminal import TerminalDevice

    width, height = settings.size
    return TerminalDevice(width=width, height=height, rotate=settings.rotate, stream=stream or sys.stdout)


def preload(settings) -> None:
    """Import the modules ``open_device`` will need for ``settings`` (one not installed is left
    to it to report, as a DisplayFault)."""
    from importlib import import_module

    _, modules = _DRIVERS[settings.driver]
    for name in modules:
        try:
            import_module(name)
        except ImportError:
            pass


_MAX7219_MODULES = ("luma.core.interface.serial", "luma.led_matrix.device", "display.max7219_packing")
_EMULATOR_MODULES = ("luma.emulator.device",)
_DRIVERS = {    # driver: its opener, and the modules it imports (``preload`` imports them off the loop)
    "max7219": (_max7219, _MAX7219_MODULES), "sevensegment": (_max7219, _MAX7219_MODULES),
    "ws2812": (_ws2812, ("luma.led_matrix.device",)), "dummy": (_dummy, ("luma.core.device",)),
    "capture": (_capture, _EMULATOR_MODULES), "gifanim": (_gifanim, _EMULATOR_MODULES),
    "terminal": (_terminal, ("display.terminal",)),
}
