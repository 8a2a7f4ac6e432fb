"""Serial frames: start bytes, type, sequence number, length, header check, payload, CRC-32.

::

    7E A5 | type (1) | seq (1) | length (2, big-endian) | header check (2) | payload | CRC-32 (4)

type is ``D`` (data), ``A`` (ACK, payload = the receiver's JSON answer) or ``N`` (NAK). The header
check (low 16 bits of the CRC-32 of type..length) lets a corrupted length be caught at once
instead of swallowing the frames behind it; the CRC-32 covers type..payload. The decoder resyncs
after garbage, a cut cable or a bad frame by searching for the next start bytes one byte further
on, so a damaged frame never hides the good frame behind it.
"""
import zlib
from dataclasses import dataclass

START = b"\x7e\xa5"
DATA, ACK, NAK = b"D", b"A", b"N"
DAMAGED = b"?"            # a frame whose header was sound but payload CRC was not (answer it with NAK)
TYPES = (DATA, ACK, NAK)
MAX_PAYLOAD = 65535
HEADER_SIZE = 2 + 1 + 1 + 2 + 2
OVERHEAD = HEADER_SIZE + 4


@dataclass(frozen=True)
class Frame:
    kind: bytes
    seq: int
    payload: bytes = b""


def _header_check(kind: bytes, seq: int, length: int) -> int:
    return zlib.crc32(kind + bytes([seq]) + length.to_bytes(2, "big")) & 0xFFFF


def encode(kind: bytes, seq: int, payload: bytes = b"") -> bytes:
    if kind not in TYPES:
        raise ValueError(f"unknown frame type {kind!r}")
    if not 0 <= seq <= 255:
        raise ValueError("seq must be 0..255")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    length = len(payload).to_bytes(2, "big")
    head = kind + bytes([seq]) + length
    crc = zlib.crc32(head + payload)
    return START + head + _header_check(kind, seq, len(payload)).to_bytes(2, "big") + payload + crc.to_bytes(4, "big")


class Decoder:
    """Turns a byte stream with any amount of damage into the good frames it holds."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.garbage = 0       # bytes skipped while looking for a start
        self.bad = 0           # frames refused by a check

    @property
    def partial(self) -> bool:
        """Bytes of an unfinished frame are waiting (a quiet line now means the cable was cut)."""
        return bool(self._buf)

    def drop_partial(self) -> list[Frame]:
        """Give up on the frame being assembled; return the frames found after its first byte."""
        if self._buf:
            self.bad += 1
            del self._buf[:1]
        return self.feed(b"")

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        frames: list[Frame] = []
        while True:
            frame = self._next()
            if frame is None:
                return frames
            frames.append(frame)

    def _next(self) -> Frame | None:
        buf = self._buf
        while True:
            at = buf.find(START)
            if at < 0:
                keep = 1 if buf[-1:] == START[:1] else 0
                self.garbage += len(buf) - keep
                del buf[:len(buf) - keep]
                return None
            if at:
                self.garbage += at
                del buf[:at]
            if len(buf) < HEADER_SIZE:
                return None
            kind, seq, length, check = bytes(buf[2:3]), buf[3], int.from_bytes(buf[4:6], "big"), int.from_bytes(buf[6:8], "big")
            if kind not in TYPES or check != _header_check(kind, seq, length):
                self.bad += 1
                del buf[:1]
                continue
            end = HEADER_SIZE + length + 4
            if len(buf) < end:
                return None
            payload = bytes(buf[HEADER_SIZE:HEADER_SIZE + length])
            crc = int.from_bytes(buf[end - 4:end], "big")
            if zlib.crc32(bytes(buf[2:6]) + payload) != crc:
                self.bad += 1
                del buf[:1]
                return Frame(DAMAGED, seq)
            del buf[:end]
            return Frame(kind, seq, payload)
