"""Stand-ins for a MAX7219 chain's SPI port: luma's serial interface that records what its driver
sends, and a fake /dev/spidev that keeps each write (one chip-select frame) apart."""
import socket


class SerialLog:
    """Stands in for luma's spi(): records the bytes the driver sends."""

    def __init__(self, fail_after=None):
        self.sent, self.fail_after = [], fail_after

    def data(self, data):
        if self.fail_after is not None and len(self.sent) >= self.fail_after:
            raise OSError(5, "Input/output error")
        self.sent.append(list(data))

    def command(self, *cmd):
        self.sent.append(list(cmd))

    def cleanup(self):
        pass


class FakeSpidev:
    """A SOCK_SEQPACKET pair: ``fd`` is written as /dev/spidev would be, ``transfers()`` gives
    back each write as it came, so transfer boundaries (chip-select frames) are checked too."""

    def __init__(self):
        self.device, self.wire = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.wire.setblocking(False)
        self.fd = self.device.fileno()

    def transfers(self) -> list[list[int]]:
        out = []
        while True:
            try:
                out.append(list(self.wire.recv(65536)))
            except BlockingIOError:
                return out

    def close(self) -> None:
        self.device.close()
        self.wire.close()

