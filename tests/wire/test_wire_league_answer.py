"""The receiver's signed league answer (wire/league_answer.py, issue 16): only the receiver's
word, for this request and fresh, verifies on the device."""
import datetime as dt
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league_fetch_helpers import LVA, league_document
from wire.league import parse_document
from wire.league_answer import WINDOW, Unverified, envelope, sign_answer, verify_answer, verify_cached
from wire.signing import Signer

SECRET = b"device-secret-0123456789abcdef"
NOW = 1_772_649_000          # a fixed evening (no test reads the real date)
TONIGHT = dt.date(2026, 3, 4)


def answer(secret=SECRET, device="u-lva-1", timestamp=NOW, nonce="ab" * 16, venue=LVA):
    body = envelope(venue, TONIGHT, parse_document(league_document(TONIGHT)))
    return sign_answer(secret, device, timestamp, nonce, body)


def verify(signed, **kw):
    return verify_answer(signed, **{"secret": SECRET, "device": "u-lva-1", "nonce": "ab" * 16, "now": NOW, **kw})


def test_the_receivers_answer_verifies_and_carries_venue_date_and_league():
    got = verify(answer())
    assert (got.venue, got.today) == (LVA, TONIGHT)
    assert got.document == parse_document(league_document(TONIGHT))


@pytest.mark.parametrize("signed, reason", [
    (answer(secret=b"another-secret-0123456789abc"), "bad signature"),
    (replace(answer(), body=answer().body.replace("Novák".encode(), "Nowak".encode())), "bad signature"),
    (answer(nonce="cd" * 16), "replayed answer"),
    (answer(device="u-koule-1"), "for device 'u-koule-1'"),
    (answer(timestamp=NOW - WINDOW - 1), "stale answer"),
    (answer(timestamp=NOW + WINDOW + 1), "stale answer"),
])
def test_an_altered_foreign_replayed_or_stale_answer_does_not_verify(signed, reason):
    with pytest.raises(Unverified, match=reason):
        verify(signed)


def test_an_answer_is_never_a_message_the_device_signed():
    """The answer's key is derived from the secret: the device's own signature of the same bytes
    (which a captive portal could have seen on a post) does not pass for the receiver's."""
    own = Signer("u-lva-1", SECRET, clock=lambda: NOW, token=lambda n: "ab" * n).sign(answer().body)
    with pytest.raises(Unverified, match="bad signature"):
        verify(own)


def test_a_cached_answer_verifies_again_without_time_or_nonce():
    old = answer(timestamp=NOW - 30 * 86400)
    assert verify_cached(old, secret=SECRET, device="u-lva-1").venue == LVA
    with pytest.raises(Unverified, match="bad signature"):
        verify_cached(replace(old, body=old.body[:-1] + b" "), secret=SECRET, device="u-lva-1")


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_changed_byte_of_the_answer_is_refused(data):
    """A captive portal or a proxy that alters one byte anywhere in the body changes nothing."""
    signed = answer()
    at = data.draw(st.integers(0, len(signed.body) - 1))
    flip = data.draw(st.integers(1, 255))
    body = bytearray(signed.body)
    body[at] ^= flip
    with pytest.raises(Unverified, match="bad signature"):
        verify(replace(signed, body=bytes(body)))
