"""The little HTTP the live endpoint speaks: parse a GET/HEAD request head, write a response.

One request per connection (``Connection: close``) — a page, a JSON state or one event stream.
Every response carries the same guards: no caching, no sniffing, no referrer, and on pages a
Content-Security-Policy that allows only this device's own script, style and event stream.
"""
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

METHODS = ("GET", "HEAD")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
       "base-uri 'none'; form-action 'none'")
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
           503: "Service Unavailable"}
COMMON = (("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
          ("Referrer-Policy", "no-referrer"), ("Connection", "close"))


class BadRequest(ValueError):
    pass


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: dict

    @property
    def head_only(self) -> bool:
        return self.method == "HEAD"


def parse(head: bytes) -> Request:
    """The request line of a request head (headers are read and ignored: nothing here needs them)."""
    try:
        line = head.split(b"\r\n", 1)[0].decode("ascii")
        method, target, version = line.split(" ")
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("malformed request line") from None
    if not version.startswith("HTTP/1.") or not target.startswith("/"):
        raise BadRequest("not an HTTP/1 request for a path")
    url = urlsplit(target)
    return Request(method, url.path, {k: v[-1] for k, v in parse_qs(url.query).items()})


def response(status: int, body: bytes = b"", content_type: str = "text/plain; charset=utf-8", *,
             head_only: bool = False, extra: tuple = ()) -> bytes:
    """A whole response: status line, headers and (unless HEAD) the body."""
    headers = [("Content-Type", content_type), ("Content-Length", str(len(body))), *COMMON, *extra]
    if content_type.startswith("text/html"):
        headers.append(("Content-Security-Policy", CSP))
    return head(status, headers) + (b"" if head_only else body)


def head(status: int, headers) -> bytes:
    lines = [f"HTTP/1.1 {status} {REASONS[status]}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def error(status: int, text: str, *, head_only: bool = False, extra: tuple = ()) -> bytes:
    return response(status, (text + "\n").encode(), head_only=head_only, extra=extra)


def not_allowed(head_only: bool = False) -> bytes:
    return error(405, "read-only: GET and HEAD only", head_only=head_only, extra=(("Allow", "GET, HEAD"),))


def stream_head() -> bytes:
    """The head of the Server-Sent Events stream (no length: it lasts as long as the viewer)."""
    return head(200, [("Content-Type", "text/event-stream; charset=utf-8"), *COMMON,
                      ("X-Accel-Buffering", "no")])
