"""Per-device HMAC-SHA256 signatures, the same over HTTP, serial and an exported backlog file.

The signed message is ``device \\n timestamp \\n nonce \\n body``: the device id, whole Unix
seconds, 32 hex digits of randomness and the exact body bytes. The receiver recomputes the HMAC
with the device's registered secret, refuses a timestamp outside its window and a nonce it has
seen, so a forged, altered or replayed post is rejected. A retry is signed afresh (new nonce);
the record id, not the nonce, is what makes a retry harmless.

A gateway (a venue laptop that received the record over serial) passes a record on with its own
fresh signature and carries the device's original one beside it as ``origin`` (HTTP headers
``X-Pocitadlo-Origin-*``, an ``"origin"`` object on the serial line and in a backlog file). The
receiver checks both: the gateway's for freshness, the device's for authorship (docs/sync.md).
"""
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from clock import SystemClock
from rules.core import JSONObject
from rules.record import parse_json

HEADER_DEVICE = "X-Pocitadlo-Device"
HEADER_TIMESTAMP = "X-Pocitadlo-Timestamp"
HEADER_NONCE = "X-Pocitadlo-Nonce"
HEADER_SIGNATURE = "X-Pocitadlo-Signature"
ORIGIN_PREFIX = "X-Pocitadlo-Origin-"
FIELDS = ("device", "timestamp", "nonce", "signature")


class Headers(Protocol):
    """HTTP headers as both ends have them (http.client's, Starlette's, a dict): ``get`` by name."""

    def get(self, name: str, /) -> str | None: ...


def mac(secret: bytes, device: str, timestamp: int, nonce: str, body: bytes) -> str:
    # hashlib and hmac (OpenSSL's, ~4 ms of a PC's CPU) imported at the first signature, not at
    # the device's start: nothing is signed before the counter is ready to score
    import hmac

    message = f"{device}\n{timestamp}\n{nonce}\n".encode("utf-8") + body
    return hmac.digest(secret, message, "sha256").hex()     # OpenSSL's one-shot HMAC: no HMAC object


@dataclass(frozen=True)
class Signed:
    """A body with its signature: what travels over every transport."""

    device: str
    timestamp: int
    nonce: str
    signature: str
    body: bytes
    origin: "Signed | None" = None     # the device's own signature of the same body, relayed by a gateway

    def fields(self) -> JSONObject:
        """device, timestamp, nonce, signature (and origin, as fields too) — without the body."""
        out = {"device": self.device, "timestamp": self.timestamp, "nonce": self.nonce, "signature": self.signature}
        if self.origin is not None:
            out["origin"] = self.origin.fields()
        return out

    @classmethod
    def from_fields(cls, fields: JSONObject, body: bytes, *, nested: bool = True) -> "Signed":
        """The inverse of ``fields`` (ValueError when a field is missing or of the wrong type)."""
        try:
            origin = fields.get("origin")
            if origin is not None:
                if not nested:
                    raise ValueError("an origin cannot carry another origin")
                origin = cls.from_fields(origin, body, nested=False)
            timestamp = fields["timestamp"]
            if isinstance(timestamp, bool) or not isinstance(timestamp, (int, str)):
                raise ValueError("timestamp")
            return cls(str(fields["device"]), int(timestamp), str(fields["nonce"]), str(fields["signature"]),
                       body, origin)
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ValueError("malformed signature fields (device, timestamp, nonce, signature)") from None

    def headers(self) -> dict[str, str]:
        out = {HEADER_DEVICE: self.device, HEADER_TIMESTAMP: str(self.timestamp),
               HEADER_NONCE: self.nonce, HEADER_SIGNATURE: self.signature}
        if self.origin is not None:
            out.update({ORIGIN_PREFIX + name.capitalize(): str(self.origin.fields()[name]) for name in FIELDS})
        return out

    @classmethod
    def from_headers(cls, headers: Headers, body: bytes) -> "Signed":
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
        origin = None
        relayed = {name: headers.get(ORIGIN_PREFIX + name.capitalize()) for name in FIELDS}
        if any(relayed.values()):
            missing = [ORIGIN_PREFIX + name.capitalize() for name, value in relayed.items() if not value]
            if missing:
                raise ValueError(f"missing header {missing[0]}")
            try:
                origin = cls.from_fields(relayed, body, nested=False)
            except ValueError:
                raise ValueError(f"{ORIGIN_PREFIX}Timestamp is not whole seconds") from None
        return cls(values[HEADER_DEVICE], timestamp, values[HEADER_NONCE], values[HEADER_SIGNATURE], body, origin)

    def pack(self) -> bytes:
        """One byte string: a JSON line with the signature fields, then the body (serial payload)."""
        return json.dumps(self.fields(), separators=(",", ":")).encode("utf-8") + b"\n" + self.body

    @classmethod
    def unpack(cls, data: bytes) -> "Signed":
        head, sep, body = data.partition(b"\n")
        if not sep:
            raise ValueError("the signature line is missing")
        try:
            return cls.from_fields(parse_json(head), body)
        except ValueError as exc:            # UnicodeDecodeError and JSONDecodeError included
            raise ValueError(f"the signature line is malformed: {exc}") from None

    def to_json(self) -> JSONObject:
        """A line of an exported backlog file (the body as text)."""
        return {**self.fields(), "body": self.body.decode("utf-8")}

    @classmethod
    def from_json(cls, obj: JSONObject) -> "Signed":
        try:
            return cls.from_fields(obj, obj["body"].encode("utf-8"))
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ValueError("not a signed backlog line (device, timestamp, nonce, signature, body)") from None

    @classmethod
    def from_line(cls, text: str) -> "Signed":
        """A line of an exported backlog file, as text; ValueError says what is wrong."""
        try:
            obj = parse_json(text)
        except ValueError as exc:
            raise ValueError(f"malformed JSON: {exc}") from None
        return cls.from_json(obj)

    def valid_for(self, secret: bytes) -> bool:
        if not self.signature.isascii():     # compare_digest refuses non-ASCII text: a forgery anyway
            return False
        try:
            expected = mac(secret, self.device, self.timestamp, self.nonce, self.body)
        except UnicodeEncodeError:           # a device id or nonce no device could have sent
            return False
        import hmac

        return hmac.compare_digest(expected, self.signature)


def _token_hex(nbytes: int) -> str:
    import secrets  # at the first signature, like hashlib (it imports hmac and hashlib)

    return secrets.token_hex(nbytes)


class Signer:
    """Signs bodies for one device; ``clock`` gives Unix seconds, ``offset`` corrects a wrong clock."""

    def __init__(self, device: str, secret: bytes, *, clock: Callable[[], float] | None = None,
                 token: Callable[[int], str] | None = None):
        self.device, self._secret, self._token = device, secret, token or _token_hex
        self._clock = clock or SystemClock().time
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


class RelaySigner(Signer):
    """A gateway's signer: signs afresh as the gateway and carries the device's original signature.

    ``origin_of(body)`` returns the ``Signed`` the device made for these exact bytes (a gateway's
    store keeps it for every item it accepted); the league's receiver verifies both.
    """

    def __init__(self, device: str, secret: bytes, origin_of: Callable[[bytes], Signed], **kwargs: Any):
        super().__init__(device, secret, **kwargs)
        self._origin_of = origin_of

    def sign(self, body: bytes) -> Signed:
        origin = self._origin_of(body)
        if origin.body != body:
            raise ValueError("the origin signature is for other bytes")
        return replace(super().sign(body), origin=replace(origin, origin=None))
