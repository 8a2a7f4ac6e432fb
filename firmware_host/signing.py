"""Per-device HMAC-SHA256 signatures, the same over HTTP, serial and an exported backlog file.

The signed message is ``device \\n timestamp \\n nonce \\n body``: the device id, whole Unix
seconds, 32 hex digits of randomness and the exact body bytes. The receiver recomputes the HMAC
with the device's registered secret, refuses a timestamp outside its window and a nonce it has
seen, so a forged, altered or replayed post is rejected. A retry is signed afresh (new nonce);
the record id, not the nonce, is what makes a retry harmless.
"""
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

HEADER_DEVICE = "X-Pocitadlo-Device"
HEADER_TIMESTAMP = "X-Pocitadlo-Timestamp"
HEADER_NONCE = "X-Pocitadlo-Nonce"
HEADER_SIGNATURE = "X-Pocitadlo-Signature"


def mac(secret: bytes, device: str, timestamp: int, nonce: str, body: bytes) -> str:
    message = f"{device}\n{timestamp}\n{nonce}\n".encode("utf-8") + body
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Signed:
    """A body with its signature: what travels over every transport."""

    device: str
    timestamp: int
    nonce: str
    signature: str
    body: bytes

    def headers(self) -> dict[str, str]:
        return {HEADER_DEVICE: self.device, HEADER_TIMESTAMP: str(self.timestamp),
                HEADER_NONCE: self.nonce, HEADER_SIGNATURE: self.signature}

    @classmethod
    def from_headers(cls, headers, body: bytes) -> "Signed":
        """From HTTP headers (any mapping with ``get``); ValueError names what is missing."""
        values = {}
        for name in (HEADER_DEVICE, HEADER_TIMESTAMP, HEADER_NONCE, HEADER_SIGNATURE):
            value = headers.get(name)
            if not value:
                raise ValueError(f"missing header {name}")
            values[name] = value
        try:
            timestamp = int(values[HEADER_TIMESTAMP])
        except ValueError:
            raise ValueError(f"{HEADER_TIMESTAMP} is not whole seconds") from None
        return cls(values[HEADER_DEVICE], timestamp, values[HEADER_NONCE], values[HEADER_SIGNATURE], body)

    def pack(self) -> bytes:
        """One byte string: a JSON line with the signature fields, then the body (serial payload)."""
        head = {"device": self.device, "timestamp": self.timestamp, "nonce": self.nonce,
                "signature": self.signature}
        return json.dumps(head, separators=(",", ":")).encode("utf-8") + b"\n" + self.body

    @classmethod
    def unpack(cls, data: bytes) -> "Signed":
        head, sep, body = data.partition(b"\n")
        try:
            fields = json.loads(head) if sep else None
            return cls(str(fields["device"]), int(fields["timestamp"]), str(fields["nonce"]),
                       str(fields["signature"]), body)
        except (ValueError, TypeError, KeyError, UnicodeDecodeError):
            raise ValueError("the signature line is missing or malformed") from None

    def to_json(self) -> dict:
        """A line of an exported backlog file (the body as text)."""
        return {"device": self.device, "timestamp": self.timestamp, "nonce": self.nonce,
                "signature": self.signature, "body": self.body.decode("utf-8")}

    @classmethod
    def from_json(cls, obj) -> "Signed":
        try:
            return cls(str(obj["device"]), int(obj["timestamp"]), str(obj["nonce"]),
                       str(obj["signature"]), obj["body"].encode("utf-8"))
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ValueError("not a signed backlog line (device, timestamp, nonce, signature, body)") from None

    def valid_for(self, secret: bytes) -> bool:
        if not self.signature.isascii():     # compare_digest refuses non-ASCII text: a forgery anyway
            return False
        try:
            expected = mac(secret, self.device, self.timestamp, self.nonce, self.body)
        except UnicodeEncodeError:           # a device id or nonce no device could have sent
            return False
        return hmac.compare_digest(expected, self.signature)


class Signer:
    """Signs bodies for one device; ``clock`` gives Unix seconds, ``offset`` corrects a wrong clock."""

    def __init__(self, device: str, secret: bytes, *, clock=time.time, token=secrets.token_hex):
        self.device, self._secret, self._clock, self._token = device, secret, clock, token
        self.offset = 0.0   # learned from the receiver's time when it refuses a stale timestamp

    def now(self) -> float:
        return self._clock() + self.offset

    def sign(self, body: bytes) -> Signed:
        timestamp = int(self.now())
        nonce = self._token(16)
        return Signed(self.device, timestamp, nonce, mac(self._secret, self.device, timestamp, nonce, body), body)

    def learn_time(self, server_time: float) -> None:
        """Adopt the receiver's clock: a Pi without network or RTC may boot with the wrong time."""
        self.offset = float(server_time) - self._clock()
