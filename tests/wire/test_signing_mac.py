"""The signature's HMAC (docs/sync.md): HMAC-SHA256 of ``device \\n timestamp \\n nonce \\n body``."""
import hashlib
import hmac

from hypothesis import given, settings
from hypothesis import strategies as st

from wire.signing import mac


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=80), st.text(max_size=20), st.integers(-2**40, 2**40), st.text(max_size=40),
       st.binary(max_size=3000))
def test_mac_is_hmac_sha256_of_the_signed_message(secret, device, timestamp, nonce, body):
    """One-shot OpenSSL HMAC (hmac.digest) gives what the HMAC object gave, for any key length
    (longer than SHA-256's block too) and body."""
    try:
        message = f"{device}\n{timestamp}\n{nonce}\n".encode("utf-8") + body
    except UnicodeEncodeError:      # a lone surrogate: mac raises it too (Signed.valid_for: False)
        return
    assert mac(secret, device, timestamp, nonce, body) == hmac.new(secret, message, hashlib.sha256).hexdigest()
