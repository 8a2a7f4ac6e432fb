"""The web admin's login session and its forms (docs/league.md "Web admin").

The organiser logs in with the admin token (``serve --admin-token-file``), compared as SHA-256
digests with ``hmac.compare_digest``. The session is a signed cookie (HMAC-SHA256 under a key
derived from the token: a new token ends every session) holding its expiry, whether it is logged
in, and its CSRF token; HttpOnly, SameSite=Strict, Secure over HTTPS. Every POST form carries the
CSRF token in a hidden field and is refused without the session's. A form body is bounded, must be
UTF-8 and URL-encoded; its fields are bounded further by server.league.admin_fields.
"""
import base64
import hashlib
import hmac
import json
import secrets
from urllib.parse import parse_qsl

COOKIE = "pocitadlo_admin"
LIFETIME = 8 * 3600            # seconds a session lasts
MAX_FORM = 16 * 1024           # bytes of a form body
MAX_FIELDS = 20


class FormRefused(Exception):
    """A form the admin will not act on: ``status`` to answer with, the text is the reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status


def token_matches(token: str | None, given: str) -> bool:
    """The admin token, compared as digests in constant time; no token configured: nobody."""
    if not token:
        return False
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "replace")).digest(),
                               hashlib.sha256(token.encode("utf-8")).digest())


class Sessions:
    def __init__(self, token: str | None, clock):
        self.clock = clock
        self._key = hmac.new((token or secrets.token_hex(32)).encode(), b"pocitadlo admin session",
                             hashlib.sha256).digest()

    def new(self, *, admin: bool) -> dict:
        return {"admin": admin, "csrf": secrets.token_urlsafe(24), "until": int(self.clock.time()) + LIFETIME}

    def encode(self, session: dict) -> str:
        payload = base64.urlsafe_b64encode(json.dumps(session, separators=(",", ":")).encode()).decode().rstrip("=")
        return f"{payload}.{self._sign(payload)}"

    def decode(self, cookie: str | None) -> dict | None:
        """The session a cookie holds; None when absent, forged, malformed or expired."""
        if not cookie or len(cookie) > 1000 or "." not in cookie:
            return None
        payload, signature = cookie.rsplit(".", 1)
        if not hmac.compare_digest(signature, self._sign(payload)):
            return None
        try:
            session = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        except ValueError:
            return None
        if not isinstance(session, dict) or not isinstance(session.get("until"), int):
            return None
        return session if session["until"] > self.clock.time() else None

    def _sign(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode(), hashlib.sha256).hexdigest()

    def set_cookie(self, response, session: dict | None, *, secure: bool) -> None:
        if session is None:
            response.delete_cookie(COOKIE, path="/admin", httponly=True, samesite="strict", secure=secure)
            return
        response.set_cookie(COOKIE, self.encode(session), max_age=LIFETIME, path="/admin", httponly=True,
                            samesite="strict", secure=secure)


async def read_form(request, session: dict | None) -> dict[str, str]:
    """The fields of a URL-encoded POST form whose CSRF field matches the session's."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise FormRefused(415, "a form is sent URL-encoded (application/x-www-form-urlencoded)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            raise FormRefused(413, f"a form is at most {MAX_FORM} bytes")
    try:
        pairs = parse_qsl(body.decode("ascii"), keep_blank_values=True, encoding="utf-8", errors="strict",
                          max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise FormRefused(400, "the form is not valid URL-encoded UTF-8 (or has too many fields)") from None
    form = dict(pairs)
    if session is None or not hmac.compare_digest(form.get("csrf", ""), session["csrf"]):
        raise FormRefused(403, "the form's security token does not match your session; reload the page and "
                               "send it again")
    return form
