"""The MAX7219 driver's frames packed by a mapping worked out once: luma's transfers, byte for byte."""
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.led_matrix.device import max7219
from PIL import Image

from display.max7219_packing import Max7219
from spi_helpers import SerialLog

CHAINS = st.fixed_dictionaries({
    "width": st.sampled_from([8, 16, 32, 64]), "height": st.sampled_from([8, 16, 24]),
    "rotate": st.integers(0, 3), "block_orientation": st.sampled_from([0, 90, -90, 180]),
    "blocks_arranged_in_reverse_order": st.booleans(),
})


def opened(driver, chain):
    """(the device, its serial log), or the type of what opening it raised."""
    serial = SerialLog()
    try:
        return driver(serial, **chain), serial
    except Exception as exc:       # noqa: BLE001 — luma refuses some chains its own way: the same here
        return type(exc), None


def picture(size, seed: int) -> Image.Image:
    image = Image.new("1", size)
    image.putdata([(seed >> (i % 61)) & 1 for i in range(size[0] * size[1])])
    return image


@settings(max_examples=150, deadline=None)
@given(CHAINS, st.lists(st.integers(0, 2**61), min_size=1, max_size=3))
def test_every_frame_sends_what_luma_sends(chain, seeds):
    (luma, luma_sent), (ours, our_sent) = opened(max7219, chain), opened(Max7219, chain)
    if luma_sent is None:
        assert ours == luma
        return
    assert our_sent.sent == luma_sent.sent                  # the start (its blank frame included)
    for seed in seeds:
        luma_sent.sent.clear(), our_sent.sent.clear()
        luma.display(picture(luma.size, seed))              # luma may change the picture it is given
        ours.display(picture(ours.size, seed))
        assert our_sent.sent == luma_sent.sent


def test_the_counter_64x16_sends_one_transfer_per_digit_row():
    serial = SerialLog()
    device = Max7219(serial, width=64, height=16, block_orientation=-90)
    serial.sent.clear()
    frame = picture(device.size, 12345)
    device.display(frame)
    assert [len(t) for t in serial.sent] == [2 * 16] * 8
    assert [t[0] for t in serial.sent] == [1, 2, 3, 4, 5, 6, 7, 8]     # DIGIT_0 … DIGIT_7
    assert frame.tobytes() == picture(device.size, 12345).tobytes()    # the frame is left as it was
