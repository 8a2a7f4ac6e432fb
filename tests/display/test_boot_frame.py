"""The first frame without luma or Pillow (display.boot_frame): the exact MAX7219 register writes
on a fake /dev/spidev, the same as luma's driver sends for the same picture, and luma taking the
lit chain over without a blank frame."""
import pytest
from PIL import Image

from display import boot_frame
from display.counter import Counter
from display.devices import open_device
from display.settings import DisplaySettings
from spi_helpers import FakeSpidev, SerialLog

SCANLIMIT, DECODEMODE, DISPLAYTEST, INTENSITY, SHUTDOWN = 0x0B, 0x09, 0x0F, 0x0A, 0x0C
BOOT = {"screen": "ready", "table": "3", "venue": "U Lva"}

CHAINS = [
    DisplaySettings(width=32, height=8),
    DisplaySettings(width=64, height=16, block_orientation=-90, contrast=0x30),
    DisplaySettings(width=96, height=16, block_orientation=90),
    DisplaySettings(width=32, height=8, blocks_arranged_in_reverse_order=True),   # (luma: one row only)
    DisplaySettings(driver="sevensegment", digits=16),
]


def sent_on_fake_spidev(settings, image) -> list[list[int]]:
    rows = boot_frame.picture_rows(settings, image)
    spidev = FakeSpidev()
    try:
        assert boot_frame.send(spidev.fd, settings.spi_bus_speed,
                               boot_frame.register_writes(rows, len(rows[0]) // 2, settings.contrast))
        return spidev.transfers()
    finally:
        spidev.close()


@pytest.mark.parametrize("settings", CHAINS, ids=lambda s: f"{s.driver}-{s.width}x{s.height}-{s.digits}-{s.block_orientation}-{s.blocks_arranged_in_reverse_order}")
def test_the_first_frame_is_what_luma_sends_for_the_picture_without_its_blank_frame(settings):
    image = Counter(None, settings).render(BOOT, 0.0).image
    luma = SerialLog()
    device = open_device(settings, serial_interface=luma)
    device.display(image)
    # luma: scan limit, decode, display test, intensity, a blank frame (8 rows), display on, the picture
    assert len(luma.sent) == 4 + 8 + 1 + 8
    assert sent_on_fake_spidev(settings, image) == luma.sent[:4] + luma.sent[-8:] + [luma.sent[12]]


def test_each_register_goes_to_every_chip_and_contrast_comes_before_the_display_is_on():
    settings = DisplaySettings(width=64, height=16, contrast=0x30)       # 16 chips
    sent = sent_on_fake_spidev(settings, Image.new("1", (64, 16)))
    assert sent[:4] == [[SCANLIMIT, 7] * 16, [DECODEMODE, 0] * 16, [DISPLAYTEST, 0] * 16, [INTENSITY, 3] * 16]
    assert [t[0::2] for t in sent[4:12]] == [[digit] * 16 for digit in range(1, 9)]
    assert sent[12] == [SHUTDOWN, 1] * 16 and len(sent) == 13


def test_rows_go_to_the_chips_in_daisy_chain_order_the_farthest_first():
    """A 4-chip row, one LED lit at x=9, y=2: chip 1 from the left, its digit 2, bit 2. The first
    pair of a transfer is shifted through to the farthest (rightmost) chip."""
    image = Image.new("1", (32, 8))
    image.putpixel((9, 2), 1)
    rows = sent_on_fake_spidev(DisplaySettings(width=32, height=8), image)[4:12]
    assert rows[1] == [2, 0, 2, 0, 2, 4, 2, 0]
    assert all(value == 0 for i, row in enumerate(rows) if i != 1 for value in row[1::2])


def test_light_replays_the_file_saved_for_this_config_and_nothing_for_another(tmp_path):
    spidev, path = tmp_path / "spidev0.0", str(tmp_path / boot_frame.FILE_NAME)
    spidev.write_bytes(b"")
    transfers = [b"\x0b\x07" * 2, b"\x01\x81" * 2, b"\x0c\x01" * 2]
    assert boot_frame.save(path, "key A", str(spidev), 1_000_000, transfers)
    assert not boot_frame.save(path, "key A", str(spidev), 1_000_000, transfers)      # unchanged: not rewritten
    assert not boot_frame.light(path, "key B")
    assert spidev.read_bytes() == b""
    assert boot_frame.light(path, "key A")
    assert spidev.read_bytes() == b"".join(transfers)


def test_a_missing_damaged_or_unwritable_file_lights_nothing(tmp_path):
    path = str(tmp_path / boot_frame.FILE_NAME)
    assert not boot_frame.light(path, "key")
    (tmp_path / boot_frame.FILE_NAME).write_text(f"{boot_frame.FORMAT}\nkey\n/dev/x 1\nzz\n", encoding="utf-8")
    assert not boot_frame.light(path, "key")
    boot_frame.save(path, "key", str(tmp_path / "no" / "spidev"), 1_000_000, [b"\x0c\x01"])
    assert not boot_frame.light(path, "key")


def test_luma_takes_a_lit_chain_over_without_sending_its_start():
    """adopt: the set-up and the blank frame of luma's start are not sent; the next picture is."""
    settings = DisplaySettings(width=32, height=8)
    serial = SerialLog()
    device = open_device(settings, serial_interface=serial, adopt=True)
    assert serial.sent == []
    Counter(device, settings).show(BOOT, 0.0)
    assert [t[0] for t in serial.sent] == list(range(1, 9))
