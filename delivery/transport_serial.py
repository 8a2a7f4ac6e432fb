"""Sending signed outbox items over a serial cable (pyserial), with ACK/NAK and retransmission.

The device sends one DATA frame (payload = ``Signed.pack()``, the same signature as over HTTP)
and waits for the ACK with the same sequence number, whose payload is the receiver's JSON answer.
A NAK or no answer within the frame's air time plus ``ack_timeout`` sends the frame again, up to
``tries`` times. A port that fails (cable pulled, USB adapter gone) is closed and opened afresh
on the next attempt. ``port`` is a device name or any pyserial URL (``socket://host:port``).
"""
import itertools
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from delivery.no_answer import serial_open_words
from wire import framing
from wire.answer import Answer, TransportError
from wire.signing import Signer

if TYPE_CHECKING:
    import serial

READ_SLICE = 0.05    # seconds one read may block: the loop checks its deadline this often


class Link:
    """One end of a framed serial line: opens lazily, reopens after an error."""

    def __init__(self, port: str, baudrate: int = 115200, *, clock: Callable[[], float] = time.monotonic):
        self.port, self.baudrate, self._clock = port, baudrate, clock
        self._serial: "serial.Serial | None" = None
        self.decoder = framing.Decoder()
        self.last_rx = clock()      # when a byte last arrived

    def open(self) -> "serial.Serial":
        if self._serial is None:
            import serial  # pyserial: imported only when a serial transport is used

            try:
                self._serial = serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=READ_SLICE,
                                                     write_timeout=10)
            except (serial.SerialException, OSError, ValueError) as exc:
                raise TransportError(serial_open_words(self.port, exc)) from None
            self.decoder = framing.Decoder()
        return self._serial

    def close(self) -> None:
        if self._serial is not None:
            try:
                self._serial.close()
            except (OSError, ValueError):
                pass
            self._serial = None

    def write(self, data: bytes) -> None:
        port = self.open()
        try:
            port.write(data)
            port.flush()
        except (OSError, ValueError) as exc:   # SerialException is an OSError: the cable or adapter is gone
            self.close()
            raise TransportError(f"{self.port}: write failed: {exc}") from None

    def read_frames(self) -> list[framing.Frame]:
        """Frames that arrive within one read slice (possibly none)."""
        port = self.open()
        try:
            data = port.read(max(1, port.in_waiting))
        except (OSError, ValueError) as exc:
            self.close()
            raise TransportError(f"{self.port}: read failed: {exc}") from None
        if not data:
            return []
        self.last_rx = self._clock()
        return self.decoder.feed(data)

    def air_time(self, nbytes: int) -> float:
        return nbytes * 10 / self.baudrate     # 8N1: 10 bits per byte


class SerialTransport:
    def __init__(self, port: str, signer: Signer, *, baudrate: int = 115200, ack_timeout: float = 1.0, tries: int = 5,
                 clock: Callable[[], float] = time.monotonic):
        self.signer, self.ack_timeout, self.tries = signer, ack_timeout, tries
        self.link = Link(port, baudrate, clock=clock)
        self._clock = clock
        self._seq = itertools.cycle(range(256))
        for _ in range(random.randrange(256)):   # a restarted device does not reuse the last numbers
            next(self._seq)

    def send(self, body: bytes) -> Answer:
        payload = self.signer.sign(body).pack()
        seq = next(self._seq)
        frame = framing.encode(framing.DATA, seq, payload)
        wait = self.link.air_time(len(frame)) * 2 + self.ack_timeout
        for _ in range(self.tries):
            self.link.write(frame)
            answer = self._await_answer(seq, self._clock() + wait)
            if answer is not None:
                return answer
        raise TransportError(f"{self.link.port}: no ACK after {self.tries} tries")

    def _await_answer(self, seq: int, deadline: float) -> Answer | None:
        """The ACK for ``seq`` as an Answer; None on NAK or when the deadline passes."""
        while self._clock() < deadline:
            for frame in self.link.read_frames():
                if frame.seq != seq:
                    continue            # a stale ACK for an earlier frame, or noise
                if frame.kind == framing.ACK:
                    return Answer.from_json(200, frame.payload)
                if frame.kind in (framing.NAK, framing.DAMAGED):
                    return None
        return None

    def close(self) -> None:
        self.link.close()
