"""The web admin's login session and its forms (docs/league.md "Web admin").

The organiser logs in with the admin token (``serve --admin-token-file``), compared as SHA-256
digests with ``hmac.compare_digest``. A session lives in the receiver's memory; the cookie holds
only its id (32 random bytes), HttpOnly, SameSite=Strict, Secure over HTTPS. So a session ends
for good at logout, after IDLE seconds unused, LIFETIME seconds after the login, and at a restart
(which is also how a new admin token is read): a copied cookie dies with it. A login starts a new
session (the visitor's cookie before it is not the admin's). At most KEPT sessions are kept: a
visitor's (the login form's CSRF token) makes way for another before an admin's does.

Every POST form carries the session's CSRF token in a hidden field and is refused without the
session's. Cookies and tokens are compared as bytes, so any text in them is a refusal, never an
error. A form body is bounded, must be UTF-8 and URL-encoded; its fields are bounded further by
server.league.admin_fields.
"""
import hashlib
import hmac
import secrets
from collections import OrderedDict
from urllib.parse import parse_qsl

COOKIE = "pocitadlo_admin"
LIFETIME = 8 * 3600            # seconds a session lasts at most
IDLE = 30 * 60                 # seconds a session lasts unused
KEPT = 1000                    # sessions kept at most
MAX_FORM = 16 * 1024           # bytes of a form body
MAX_FIELDS = 20


class FormRefused(Exception):
    """A form the admin will not act on: ``status`` to answer with, the text is the reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def same(given: str, expected: str) -> bool:
    """Constant-time comparison of two texts, whatever characters the given one holds."""
    return hmac.compare_digest(_bytes(given), _bytes(expected))


def token_matches(token: str | None, given: str) -> bool:
    """The admin token, compared as digests in constant time; no token configured: nobody."""
    if not token:
        return False
    return hmac.compare_digest(hashlib.sha256(_bytes(given)).digest(), hashlib.sha256(_bytes(token)).digest())


class Sessions:
    """The sessions of this process: ``new``, ``get`` (by the cookie's id; a use), ``end``."""

    def __init__(self, clock, *, kept: int = KEPT):
        self.clock, self.kept = clock, kept
        self._live: OrderedDict[bytes, dict] = OrderedDict()      # digest of the id -> session, least used first

    def __len__(self) -> int:
        return len(self._live)

    def new(self, *, admin: bool) -> dict:
        now, token = int(self.clock.time()), secrets.token_urlsafe(32)
        session = {"id": token, "admin": admin, "csrf": secrets.token_urlsafe(24), "until": now + LIFETIME,
                   "seen": now}
        self._make_room(now)
        self._live[_key(token)] = session
        return session

    def logged_in(self, visitor: dict | None) -> dict:
        """The admin's new session, in place of the visitor's before the login."""
        self.end(visitor)
        return self.new(admin=True)

    def get(self, cookie: str | None) -> dict | None:
        """The live session a cookie names (and now used); None when absent, unknown or over."""
        if not cookie or len(cookie) > 100:
            return None
        key = _key(cookie)
        session = self._live.get(key)
        if session is None:
            return None
        now = int(self.clock.time())
        if not self._alive(session, now):
            del self._live[key]
            return None
        session["seen"] = now
        self._live.move_to_end(key)
        return session

    def end(self, session: dict | None) -> None:
        if session is not None:
            self._live.pop(_key(session["id"]), None)

    @staticmethod
    def _alive(session: dict, now: int) -> bool:
        return now < session["until"] and now - session["seen"] < IDLE

    def _make_room(self, now: int) -> None:
        for key in [k for k, s in self._live.items() if not self._alive(s, now)]:
            del self._live[key]
        while len(self._live) >= self.kept:
            visitor = next((k for k, s in self._live.items() if not s["admin"]), None)
            self._live.pop(visitor if visitor is not None else next(iter(self._live)))

    def set_cookie(self, response, session: dict | None, *, secure: bool) -> None:
        if session is None:
            response.delete_cookie(COOKIE, path="/admin", httponly=True, samesite="strict", secure=secure)
            return
        response.set_cookie(COOKIE, session["id"], max_age=LIFETIME, path="/admin", httponly=True,
                            samesite="strict", secure=secure)


def _key(cookie: str) -> bytes:
    return hashlib.sha256(_bytes(cookie)).digest()


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
    if session is None or not same(form.get("csrf", ""), session["csrf"]):
        raise FormRefused(403, "the form's security token does not match your session; reload the page and "
                               "send it again")
    return form
