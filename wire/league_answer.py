"""The receiver's signed answer to a device's league request (``GET /api/v1/league``).

The request is signed by the device exactly like a record post (wire.signing), over an empty
body. The answer's body is the envelope ``{"venue": …, "today": "YYYY-MM-DD", "document": {…}}``
(the league document of wire.league for the device's registered venue, as the receiver saw it on
``today``) and its headers are the four ``X-Pocitadlo-*`` signature headers:

* ``Device``: the asking device; ``Nonce``: the request's own nonce, echoed, so an answer belongs
  to one request and an old answer replayed by a proxy does not verify;
* ``Timestamp``: the receiver's time, which the device accepts within ``WINDOW`` seconds of its
  own (corrected) clock — a stale document is refused even if a nonce ever repeated;
* ``Signature``: HMAC-SHA256 over ``device \\n timestamp \\n nonce \\n body`` as for a post, but
  under ``answer_key(secret)``, a key derived from the device's shared secret. Only the receiver
  and the device hold the secret, so a captive portal cannot forge or alter an answer; the derived
  key keeps an answer from ever passing for a message the device itself signed.

The device caches the answer as it came (``Signed.to_json``) and checks the signature again
when it reads the cache back (``verify_cached``: no nonce or time, the cache is old by design).
"""
import datetime as dt
import json
from dataclasses import dataclass

from rules.core import JSONObject
from wire.league import MAX_BYTES, LeagueError, checked_text, parse_document
from wire.signing import Signed, mac

WINDOW = 300          # seconds an answer's timestamp may be off the device's clock
MAX_ANSWER = MAX_BYTES + 4096
PURPOSE = b"pocitadlo league answer"


class Unverified(ValueError):
    """The answer is not the receiver's word for this request; the message says why."""


@dataclass(frozen=True)
class LeagueAnswer:
    """The receiver's verified answer to a league fetch."""
    venue: str
    today: dt.date
    document: JSONObject    # wire.league.parse_document's canonical form
    signed: Signed          # as received: what the cache keeps


def answer_key(secret: bytes) -> bytes:
    import hashlib  # at the first league answer, not at the device's start (wire.signing.mac)
    import hmac

    return hmac.new(secret, PURPOSE, hashlib.sha256).digest()


def envelope(venue: str, today: dt.date, document: JSONObject) -> bytes:
    return json.dumps({"venue": venue, "today": today.isoformat(), "document": document},
                      ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def sign_answer(secret: bytes, device: str, timestamp: int, nonce: str, body: bytes) -> Signed:
    """The receiver's signature of ``body`` for ``device``'s request with ``nonce``."""
    return Signed(device, timestamp, nonce, mac(answer_key(secret), device, timestamp, nonce, body), body)


def verify_answer(signed: Signed, *, secret: bytes, device: str, nonce: str, now: float,
                  window: int = WINDOW) -> LeagueAnswer:
    """The answer to this device's request with ``nonce`` at ``now`` (Unverified: why not)."""
    if signed.device != device:
        raise Unverified(f"the answer is for device {signed.device!r}, not {device!r}")
    if signed.nonce != nonce:
        raise Unverified("the answer is not for this request (another nonce): a replayed answer")
    if abs(signed.timestamp - now) > window:
        raise Unverified(f"stale answer ({signed.timestamp - int(now):+d} s from this device's clock, "
                         f"at most {window} s allowed)")
    return verify_cached(signed, secret=secret, device=device)


def verify_cached(signed: Signed, *, secret: bytes, device: str) -> LeagueAnswer:
    """A kept answer: signed by the receiver for ``device``, its body a valid envelope."""
    if signed.device != device:
        raise Unverified(f"the answer is for device {signed.device!r}, not {device!r}")
    if len(signed.body) > MAX_ANSWER:
        raise Unverified(f"the answer is larger than {MAX_ANSWER} bytes")
    if not signed.valid_for(answer_key(secret)):
        raise Unverified("bad signature: not signed by the receiver with this device's secret "
                         "(altered on the way, or another receiver)")
    return read_envelope(signed)


def read_envelope(signed: Signed) -> LeagueAnswer:
    try:
        obj = json.loads(signed.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Unverified(f"the answer is not UTF-8 JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise Unverified("the answer is not a JSON object")
    try:
        venue = checked_text(obj.get("venue"), "\"venue\"")
        today = obj.get("today")
        if not isinstance(today, str) or len(today) != 10:
            raise LeagueError(f"\"today\" must be a date like 2026-11-29, got {ascii(today)[:40]}")
        day = dt.date.fromisoformat(today)
        document = parse_document(obj.get("document"))
    except ValueError as exc:         # LeagueError included
        raise Unverified(f"not a league answer: {exc}") from None
    return LeagueAnswer(venue, day, document, signed)
