"""What a receiver answers to a delivery attempt, and the failure to get an answer at all.

Both ends speak it: the device's transports build an Answer from the receiver's reply, the
serial listener raises TransportError on a dead line.
"""
import json
import math
from dataclasses import dataclass

from rules.core import JSONObject

FINAL_STATUSES = (400, 409, 413, 422)
HINTS = {404: "is the URL the receiver's?"}     # after the status's phrase when an answer says nothing


class TransportError(Exception):
    """The receiver could not be reached or did not answer in time."""


@dataclass(frozen=True)
class Answer:
    """The receiver's answer to one item, as the device reads it."""
    status: int
    message: str = ""
    server_time: float | None = None

    @property
    def delivered(self) -> bool:
        return self.status == 200

    @property
    def final(self) -> bool:
        return self.status in FINAL_STATUSES

    @classmethod
    def from_json(cls, status: int, data: bytes) -> "Answer":
        """Read the receiver's JSON answer; a body that is not JSON still yields the status."""
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError):    # RecursionError: JSON nested too deeply for the parser
            obj = None
        if not isinstance(obj, dict):
            return cls(status, worded(status, data[:200].decode("utf-8", "replace")))
        return cls.from_obj(status, obj)

    @classmethod
    def from_obj(cls, status: int, obj: JSONObject) -> "Answer":
        """The receiver's JSON answer already read (an item's answer within a batch's). Its
        ``code`` is taken when it is an HTTP status; anything else in its place (a proxy's
        "UPSTREAM_DOWN", 1e999) leaves ``status``."""
        server_time = obj.get("server_time")
        message = obj.get("reason") or obj.get("status") or ""
        code = obj.get("code")
        status = code if type(code) is int and 100 <= code <= 599 else status
        return cls(status, worded(status, str(message)),
                   float(server_time) if isinstance(server_time, (int, float)) and math.isfinite(server_time) else None)


def worded(status: int, message: str) -> str:
    """``message``, or for an answer that says nothing the status's standard phrase ("Not Found"),
    so the staff never read a bare "404 "."""
    if message.strip():
        return message
    from http import HTTPStatus

    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:          # a status HTTP does not name
        return message
    return f"{phrase} — {HINTS[status]}" if status in HINTS else phrase
