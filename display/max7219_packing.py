"""luma's MAX7219 driver with its packing of a frame worked out once, not pixel by pixel each time.

luma's ``max7219.display`` turns every frame into the chips' digit-register bytes in Python, one
pixel at a time (0.15 ms for a 64x16 counter on the development machine, many times that on a Pi
Zero 2 W: on every keypress). Which pixel of the picture lands in which bit of which transfer
depends only on the chain (its size, rotation, block orientation and block order), so it is worked
out once, by luma itself: its own ``preprocess`` and loop run over a picture whose pixels are their
own numbers. A frame is then a few calls in C, and the transfers are luma's, byte for byte.
"""
from array import array
from operator import itemgetter

from luma.led_matrix.device import max7219
from PIL import Image

from display.scene import raw_bytes


class Max7219(max7219):
    """luma's ``max7219``, sending what it sends for a frame."""

    _pack = None        # made at the first frame: luma's own start draws one (clear)

    def display(self, image):
        assert image.mode == self.mode
        assert image.size == self.size
        if self._pack is None:
            self._pack = Packing(self)
        for transfer in self._pack.transfers(image):
            self.data(transfer)


class Packing:
    """The digit-register transfers of a frame for one chain, as luma's ``display`` sends them:
    for each digit (row of every chip), the register and the chip's byte, chip after chip."""

    def __init__(self, device: max7219):
        width, height = device.size
        numbered = Image.new("I", device.size)
        numbered.putdata(range(1, width * height + 1))      # 0 stays for a bit no pixel lights
        pixels = array("i", device.preprocess(numbered).tobytes())   # mode "I": native 32-bit ints
        sources: list[int] = []
        for digit in range(8):                          # luma's loop, noting where each bit comes from
            for chip in device._offsets:
                bits = [0] * 8
                index = chip + digit
                for y in device._rows:
                    bits[y] = pixels[index]
                    index += device._w
                sources += reversed(bits)               # bit 7 first: a "1" picture packs bytes that way
        self._pick = itemgetter(*sources)
        self._register = device._const.DIGIT_0
        self._chips = device.cascaded

    def transfers(self, image: Image.Image) -> list[list[int]]:
        lit = b"\0" + raw_bytes(image.convert("L"))    # a byte per pixel, 0 or 255
        bits = bytes(self._pick(lit))
        packed = raw_bytes(Image.frombytes("1", (len(bits), 1), bits, "raw", "1;8"))
        out = []
        for digit in range(8):
            transfer = [self._register + digit] * (2 * self._chips)
            transfer[1::2] = packed[digit * self._chips:(digit + 1) * self._chips]
            out.append(transfer)
        return out
