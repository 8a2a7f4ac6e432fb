"""Reading what reaches the receiver from outside: a backlog line, a serial frame's payload, an item body.

JSON nested too deeply for the parser makes ``json.loads`` raise RecursionError (its scanner
recurses once per level), which is not a ValueError: left alone it would pass for an internal
error (a 500, so a device would retry it for ever). Here it is malformed input like any other,
refused with the reason "nested too deeply". ``rules.record.decode_line`` does the same for a
record's own lines.
"""
import json

from firmware_host.signing import Signed
from server.verify import Parsed, Refused, parse_body

TOO_DEEP = "nested too deeply"


def _parsed(parse, data, failure):
    try:
        return parse(data)
    except RecursionError:
        raise failure(TOO_DEEP) from None


def backlog_line(text: str) -> Signed:
    """One signed line of a backlog file (``pocitadlo outbox export``); ValueError says what is wrong."""
    return Signed.from_json(_parsed(json.loads, text, lambda why: ValueError(f"malformed JSON: {why}")))


def frame_payload(payload: bytes) -> Signed:
    """A serial DATA frame's payload: the signature line, then the body; ValueError says what is wrong."""
    return _parsed(Signed.unpack, payload, lambda why: ValueError(f"the signature line is malformed: {why}"))


def item(body: bytes) -> Parsed:
    """An item body's outer shape (server.verify.parse_body); Refused (400) when it cannot be read."""
    return _parsed(parse_body, body, lambda why: Refused(400, f"malformed JSON: {why}"))
