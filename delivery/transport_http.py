"""HTTPS (or, opted in, plain HTTP) POST of one signed outbox item to the league's receiver.

Delivery is the receiver's word: a 200 counts only when its body is the receiver's JSON answer
"stored" or "duplicate" for this very item id. Anything else that says 200 (a captive portal's
login page, a proxy's error page, another item's answer) is a failed attempt, retried later.
"""
import http.client
import json
import socket
import ssl
from urllib.parse import urlsplit

from wire.answer import Answer, TransportError


class HttpTransport:
    def __init__(self, url: str, signer, *, timeout: float = 10.0, ca_file: str | None = None,
                 ssl_context: ssl.SSLContext | None = None):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.url, self.signer, self.timeout = url, signer, timeout
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if self._https and ssl_context is None:
            ssl_context = ssl.create_default_context(cafile=ca_file)
        self._ssl = ssl_context

    def _connection(self) -> http.client.HTTPConnection:
        if self._https:
            return http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout, context=self._ssl)
        return http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)

    def send(self, body: bytes) -> Answer:
        status, data = self.post(body)
        return _receivers_word(Answer.from_json(status, data), data, body)

    def post(self, body: bytes) -> tuple[int, bytes]:
        """POST ``body`` signed; the HTTP status and the answer's bytes (TransportError: none)."""
        signed = self.signer.sign(body)
        status, _, data = self.exchange("POST", body, {"Content-Type": "application/json", **signed.headers()})
        return status, data

    def exchange(self, method: str, body: bytes | None, headers: dict,
                 limit: int = 1 << 20) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request to the url as given; the status, the answer's headers and at most ``limit``
        bytes of it (TransportError: no answer)."""
        conn = self._connection()
        try:
            conn.request(method, self._path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read(limit)
        except (OSError, http.client.HTTPException, socket.timeout) as exc:
            raise TransportError(f"{self.url}: {exc.__class__.__name__}: {exc}") from None
        finally:
            conn.close()

    def close(self) -> None:
        pass


ACKNOWLEDGED = ("stored", "duplicate")
NOT_AN_ANSWER = 502     # not final: the Syncer retries it


def _receivers_word(answer: Answer, data: bytes, body: bytes) -> Answer:
    """``answer``, unless it claims delivery without the receiver's acknowledgement of this item."""
    if not answer.delivered:
        return answer
    try:
        said, sent = json.loads(data), json.loads(body)
    except (ValueError, RecursionError):
        said, sent = None, None
    if (isinstance(said, dict) and isinstance(sent, dict) and said.get("status") in ACKNOWLEDGED
            and said.get("id") == sent.get("id")):
        return answer
    shown = data[:80].decode("utf-8", "replace").replace("\n", " ")
    return Answer(NOT_AN_ANSWER, f"a 200 that is not the receiver's answer for this item: {shown!r}")
