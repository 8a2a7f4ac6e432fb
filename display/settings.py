"""The [display] config section: which LED counter is wired and how it is laid out.

Option names follow luma's own (``width``, ``height``, ``cascaded``, ``block_orientation``,
``rotate``, ``blocks_arranged_in_reverse_order``, ``contrast``, ``spi_port``, ``spi_device``)::

    [display]
    driver = "max7219"          # max7219 | sevensegment | ws2812 | dummy | capture | gifanim | terminal
    emulate = "max7219"         # what dummy/capture/gifanim/terminal imitate: max7219 | sevensegment | ws2812
    width = 64                  # pixels; MAX7219 modules are 8x8, so multiples of 8
    height = 16                 # two rows of modules
    block_orientation = -90     # 0, 90, -90, 180 (the common 4-in-1 modules need -90 or 90)
    contrast = 64               # 0..255, set before the first frame (no bright flash)
    language = "cs"             # cs | en

Errors name the file, [display] and the option (config.options.Section does that).
"""
from dataclasses import dataclass, field

from config.options import Section

DRIVERS = ("max7219", "sevensegment", "ws2812", "dummy", "capture", "gifanim", "terminal")
LANGUAGES = ("cs", "en")
ORIENTATIONS = (0, 90, -90, 180)
SEGMENT_DIGITS = (8, 16)
WS2812_PINS = (10, 12, 18, 21)   # the pins rpi_ws281x can drive (PWM, PCM, SPI)
EMULATED = ("max7219", "sevensegment", "ws2812")   # what capture/gifanim/terminal/dummy imitate
TRANSFORMS = ("led_matrix", "identity", "none", "scale2x", "smoothscale")

DEFAULT_COLOURS = {"a": "#ffb000", "b": "#00c8ff", "text": "#ffffff", "led": "#ff2a10"}


@dataclass(frozen=True)
class DisplaySettings:
    """[display]: the counter's driver, size and wiring."""
    driver: str = "max7219"
    width: int = 64
    height: int = 16
    block_orientation: int = 0
    rotate: int = 0
    blocks_arranged_in_reverse_order: bool = False
    contrast: int = 64                # of 255: a 64x16 chain at full brightness draws up to 2 A
    spi_port: int = 0
    spi_device: int = 0
    spi_bus_speed: int = 1_000_000
    digits: int = 8                       # sevensegment: digits on the board
    ws2812_pin: int = 10                  # SPI: the one pin the unprivileged service can drive
    ws2812_serpentine: bool = False       # zig-zag wired matrices (most flexible panels)
    language: str = "cs"
    colours: dict = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    blink_seconds: float = 0.5            # half period: on for this long, off for this long
    page_seconds: float = 3.0             # small sizes cycle pages of information
    message_seconds: float = 3.0          # how long a transient message stays over the screen
    emulate: str = "max7219"              # capture, gifanim, terminal and dummy look like this
    emulator_scale: int = 6
    emulator_transform: str = "led_matrix"
    file_template: str = "frame_{0:06}.png"   # capture: one PNG per frame; gifanim: the GIF's name

    @property
    def kind(self) -> str:
        """The kind of counter drawn: the driver itself, or the one an emulator imitates."""
        return self.driver if self.driver in EMULATED else self.emulate

    @property
    def mono(self) -> bool:
        return self.kind != "ws2812"

    @property
    def mode(self) -> str:
        """The PIL mode of a frame: 1-bit for MAX7219 boards (as the real driver wants), RGB otherwise."""
        return "1" if self.mono else "RGB"

    @property
    def size(self) -> tuple[int, int]:
        if self.is_segment:
            return (self.digits, 8)
        return (self.width, self.height)

    @property
    def is_segment(self) -> bool:
        return self.kind == "sevensegment"


def max7219_fault(width: int, height: int) -> tuple[str, str] | None:
    """(the option, why) when a chain of MAX7219's 8x8 modules cannot be ``width`` x ``height``;
    the config's check and `pocitadlo render --size`'s."""
    for name, value in (("width", width), ("height", height)):
        if value % 8:
            return name, f"MAX7219 modules are 8x8: must be a multiple of 8, got {value}"
    return None


def _colour(section: Section, option: str, default: str) -> str:
    if not section.has(option):
        return default          # known good: Pillow, which checks a colour, is imported after READY
    from PIL import ImageColor

    value = section.str(option, default, nonempty=True)
    try:
        ImageColor.getrgb(value)
    except ValueError:
        raise section.error(option, f'expected a colour such as "#ff8000" or "red", got "{value}"') from None
    return value


def read(section: Section) -> DisplaySettings:
    """Read and check the [display] section; raise ConfigError naming the option at fault."""
    driver = section.choice("driver", DRIVERS, "max7219")
    width = section.int("width", 64, minimum=8, maximum=512)
    height = section.int("height", 16, minimum=8, maximum=256)
    if section.has("cascaded"):
        # luma's meaning: a single row of ``cascaded`` 8x8 modules.
        cascaded = section.int("cascaded", minimum=1, maximum=64)
        width, height = cascaded * 8, 8
    fault = max7219_fault(width, height) if driver == "max7219" else None
    if fault:
        raise section.error(*fault)
    colours = {role: _colour(section, f"colour_{role}", default) for role, default in DEFAULT_COLOURS.items()}
    settings = DisplaySettings(
        driver=driver,
        width=width,
        height=height,
        block_orientation=section.choice("block_orientation", ORIENTATIONS, 0),
        rotate=section.choice("rotate", (0, 1, 2, 3), 0),
        blocks_arranged_in_reverse_order=section.bool("blocks_arranged_in_reverse_order", False),
        contrast=section.int("contrast", DisplaySettings.contrast, minimum=0, maximum=255),
        spi_port=section.int("spi_port", 0, minimum=0, maximum=6),
        spi_device=section.int("spi_device", 0, minimum=0, maximum=3),
        spi_bus_speed=section.int("spi_bus_speed", 1_000_000, minimum=10_000, maximum=32_000_000),
        digits=section.choice("digits", SEGMENT_DIGITS, 8),
        ws2812_pin=section.choice("ws2812_pin", WS2812_PINS, DisplaySettings.ws2812_pin),
        ws2812_serpentine=section.bool("ws2812_serpentine", False),
        language=section.choice("language", LANGUAGES, "cs"),
        colours=colours,
        blink_seconds=section.float("blink_seconds", 0.5, minimum=0.1, maximum=5.0),
        page_seconds=section.float("page_seconds", 3.0, minimum=0.5, maximum=60.0),
        message_seconds=section.float("message_seconds", 3.0, minimum=0.5, maximum=60.0),
        emulate=section.choice("emulate", EMULATED, "max7219"),
        emulator_scale=section.int("emulator_scale", 6, minimum=1, maximum=32),
        emulator_transform=section.choice("emulator_transform", TRANSFORMS, "led_matrix"),
        file_template=section.str("file_template", "frame_{0:06}.png", nonempty=True),
    )
    section.finish()
    return settings
