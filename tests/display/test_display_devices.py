"""Opening devices: luma's MAX7219 driver over a recording serial port, WS2812 over a fake
rpi_ws281x, luma's dummy, the terminal; every failure is one DisplayFault."""
import pytest

from display.counter import Counter
from display.devices import DisplayFault, open_device, require_spi, serpentine
from display.settings import DisplaySettings
from display_samples import sample
from spi_helpers import SerialLog

INTENSITY, SHUTDOWN = 0x0A, 0x0C


def test_contrast_is_set_before_the_display_is_switched_on():
    """No bright flash at start: INTENSITY comes before SHUTDOWN=1 (display on)."""
    serial = SerialLog()
    open_device(DisplaySettings(driver="max7219", width=64, height=16, contrast=0x30), serial_interface=serial)
    intensity = next(i for i, d in enumerate(serial.sent) if d[0] == INTENSITY)
    switch_on = next(i for i, d in enumerate(serial.sent) if d[:2] == [SHUTDOWN, 1])
    assert intensity < switch_on
    assert serial.sent[intensity] == [INTENSITY, 0x30 >> 4] * 16     # 16 modules in 64x16


@pytest.mark.parametrize("width,height,modules", [(32, 8, 4), (64, 16, 16), (96, 16, 24), (128, 32, 64)])
def test_max7219_any_cascade_draws_frames(width, height, modules):
    serial = SerialLog()
    settings = DisplaySettings(driver="max7219", width=width, height=height, block_orientation=-90)
    device = open_device(settings, serial_interface=serial)
    assert device.cascaded == modules
    before = len(serial.sent)
    Counter(device, settings).show(sample("carom-series"), 0.0)
    assert len(serial.sent) - before == 8                    # one write per digit row
    assert any(any(byte for byte in d[1::2]) for d in serial.sent[before:])


@pytest.mark.parametrize("digits", [8, 16])
def test_sevensegment_board_on_max7219(digits):
    serial = SerialLog()
    settings = DisplaySettings(driver="sevensegment", digits=digits)
    device = open_device(settings, serial_interface=serial)
    assert device.size == (digits, 8)
    Counter(device, settings).show(sample("carom-series"), 0.0)


def test_missing_spi_is_one_display_fault_naming_the_device_and_the_fix():
    """On a machine without SPI (like this one) opening the MAX7219 fails cleanly, saying which
    /dev/spidevX.Y is missing and how SPI is switched on (issue 27), with a code the counter says."""
    with pytest.raises(DisplayFault, match=r"no SPI device /dev/spidev5\.0: .*raspi-config nonint do_spi 0.*"
                                           r"dtparam=spi=on in /boot/firmware/config.txt") as raised:
        open_device(DisplaySettings(driver="max7219", spi_port=5))
    assert raised.value.code == "spi_off"


def test_require_spi_names_the_missing_device():
    with pytest.raises(DisplayFault, match=r"no SPI device /dev/spidev0\.0") as raised:
        require_spi(0, 0, dev_root="/nonexistent")
    assert raised.value.code == "spi_off"


def test_a_serial_error_while_opening_is_a_display_fault():
    with pytest.raises(DisplayFault, match="Input/output error"):
        open_device(DisplaySettings(driver="max7219"), serial_interface=SerialLog(fail_after=1))


class FakeWs281x:
    """The parts of rpi_ws281x's SWIG API that luma's ws2812 driver calls."""
    WS2811_STRIP_GRB = 0x081000

    def __init__(self):
        self.pins, self.leds, self.brightness, self.renders = [], {}, None, 0

    def new_ws2811_t(self):
        return object()

    def ws2811_channel_get(self, leds, n):
        return n

    def ws2811_channel_t_gpionum_set(self, channel, pin):
        self.pins.append(pin)

    def ws2811_channel_t_brightness_set(self, channel, value):
        if channel == 0:
            self.brightness = value

    def ws2811_led_set(self, channel, index, colour):
        self.leds[index] = colour

    def ws2811_init(self, leds):
        return 0

    def ws2811_render(self, leds):
        self.renders += 1
        return 0

    def __getattr__(self, name):          # count/invert/strip type/freq/dma setters
        return lambda *args: None


def test_ws2812_on_the_configured_pin_with_contrast_and_colours():
    ws = FakeWs281x()
    settings = DisplaySettings(driver="ws2812", width=32, height=8, ws2812_pin=12, contrast=40)
    device = open_device(settings, ws281x=ws)
    assert 12 in ws.pins and 18 not in ws.pins
    assert ws.brightness == 40
    Counter(device, settings).show(sample("carom-series"), 0.0)
    assert {0xFFB000, 0x00C8FF} <= set(ws.leds.values())


def test_ws2812_defaults_to_the_spi_pin_which_needs_no_root(monkeypatch):
    """Issue 12: the hardened unit runs unprivileged; GPIO 10 (SPI) works there, PWM/PCM pins do not."""
    monkeypatch.setattr("os.geteuid", lambda: 999)
    ws = FakeWs281x()
    open_device(DisplaySettings(driver="ws2812", width=8, height=8), ws281x=ws)
    assert 10 in ws.pins and {12, 18, 21}.isdisjoint(ws.pins)
    for pin in (12, 18, 21):
        with pytest.raises(DisplayFault, match=rf"GPIO {pin} needs root .* set \[display\] ws2812_pin = 10"):
            open_device(DisplaySettings(driver="ws2812", width=8, height=8, ws2812_pin=pin), ws281x=FakeWs281x())


def test_ws2812_init_failure_is_a_display_fault():
    ws = FakeWs281x()
    ws.ws2811_init = lambda leds: -5
    with pytest.raises(DisplayFault, match="ws2811_init failed"):
        open_device(DisplaySettings(driver="ws2812", width=8, height=8), ws281x=ws)


def test_serpentine_mapping_reverses_every_other_row():
    assert serpentine(3, 2) == [0, 1, 2, 5, 4, 3]


def test_capture_device_writes_png(tmp_path):
    settings = DisplaySettings(driver="capture", width=32, height=8, emulator_scale=2,
                               emulator_transform="identity", file_template=str(tmp_path / "f{0}.png"))
    Counter(open_device(settings), settings).show(sample("carom-series"), 0.0)
    from PIL import Image
    with Image.open(tmp_path / "f1.png") as image:
        assert image.size == (64, 16)
