"""The first frame on a MAX7219 chain without luma or Pillow: the counter lit in a fraction of the
start (docs/install.md, "Boot ordering").

Importing luma's driver alone takes about a second on a Pi Zero 2 W-class core, so the first picture
is sent from a file of the SPI transfers luma would make for it, written by the service itself
(``save``) the last time it drew that picture with luma — the boot screen of the same [display]
and [device] tables. ``light`` replays it: it opens ``/dev/spidevP.D``, sets the bus speed as luma
does and writes each transfer with one ``os.write`` (one chip-select frame; a register of every
chip in the daisy chain, the farthest chip's pair first). The transfers are, in this order:
scan limit 7, decode mode off, display test off, intensity (contrast >> 4), the eight digit rows
of the picture, shutdown off (display on) — luma's own start without its blank frame, then its
``display()`` of the picture. When the file is missing or made for another config, nothing is
sent and the start lights the counter through luma as before.

Only ``os`` (and ``fcntl`` for a real SPI device) is imported here, so the call costs microseconds
beside the interpreter's own start.
"""
import os
import sys

FILE_NAME = "boot-frame.max7219"
FORMAT = "pocitadlo boot frame 1"
SPI_IOC_WR_MAX_SPEED_HZ = 0x40046B04      # _IOW('k', 4, __u32), linux/spi/spidev.h

SCANLIMIT, DECODEMODE, DISPLAYTEST, INTENSITY, SHUTDOWN, DIGIT_0 = 0x0B, 0x09, 0x0F, 0x0A, 0x0C, 0x01


def path_in(data_dir: str) -> str:
    return os.path.join(data_dir, FILE_NAME)


def key_of(display: dict, model: dict) -> str:
    """What the picture depends on, as one line: the raw [display] table and the boot model."""
    return repr((sorted(display.items()), sorted(model.items())))


def register_writes(rows: list[bytes], cascaded: int, contrast: int) -> list[bytes]:
    """The transfers that set up a chain of ``cascaded`` chips and show ``rows`` (the eight
    digit-row transfers of a picture, as luma's ``display()`` sends them)."""
    def every_chip(register: int, value: int) -> bytes:
        return bytes((register, value)) * cascaded

    return [every_chip(SCANLIMIT, 7), every_chip(DECODEMODE, 0), every_chip(DISPLAYTEST, 0),
            every_chip(INTENSITY, contrast >> 4), *rows, every_chip(SHUTDOWN, 1)]


def picture_rows(settings, image) -> list[bytes]:
    """The eight digit-row transfers luma's MAX7219 driver sends for ``image`` (a picture drawn
    for ``settings``): taken from the driver itself, over a serial port that records them."""
    from display.devices import open_device

    recorder = _Recorder()
    device = open_device(settings, serial_interface=recorder)
    recorder.sent.clear()
    device.display(image)
    return recorder.sent


class _Recorder:
    """luma's serial interface, recording each data transfer."""

    def __init__(self):
        self.sent: list[bytes] = []

    def data(self, data):
        self.sent.append(bytes(data))

    def command(self, *cmd):
        self.sent.append(bytes(cmd))

    def cleanup(self):
        pass


def spi_path(settings) -> str:
    return f"/dev/spidev{settings.spi_port}.{settings.spi_device}"


def save(path: str, key: str, spi: str, speed: int, transfers: list[bytes]) -> bool:
    """Write the file ``light`` replays (atomically; unchanged files are not rewritten, the SD
    card is spared). True when it was written."""
    text = "\n".join([FORMAT, key, f"{spi} {speed}", *(t.hex() for t in transfers)]) + "\n"
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return False
    except (OSError, ValueError):
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    temporary = path + ".new"
    with open(temporary, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(temporary, path)
    return True


def read(path: str, key: str) -> tuple[str, int, list[bytes]] | None:
    """(SPI device, bus speed, transfers) of the file when it was made for ``key``, else None."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        if len(lines) < 4 or lines[0] != FORMAT or lines[1] != key:
            return None
        spi, speed = lines[2].rsplit(" ", 1)
        return spi, int(speed), [bytes.fromhex(line) for line in lines[3:]]
    except (OSError, ValueError):
        return None


def light(path: str, key: str) -> bool:
    """Send the saved first frame made for ``key``; True when the chain got all of it."""
    saved = read(path, key)
    if saved is None:
        return False
    spi, speed, transfers = saved
    try:
        fd = os.open(spi, os.O_WRONLY)
    except OSError:
        return False
    try:
        return send(fd, speed, transfers)
    except OSError:
        return False
    finally:
        os.close(fd)


def send(fd: int, speed: int, transfers: list[bytes]) -> bool:
    """Write each transfer as one write (one chip-select frame), the bus speed set first on an
    SPI device (a file, pipe or socket standing in for one is written as it is)."""
    import stat

    if stat.S_ISCHR(os.fstat(fd).st_mode):
        import fcntl

        fcntl.ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, speed.to_bytes(4, sys.byteorder))
    for transfer in transfers:
        if os.write(fd, transfer) != len(transfer):
            return False
    return True
