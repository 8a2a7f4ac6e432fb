"""HTTPS (or, opted in, plain HTTP) POST of signed outbox items to the league's receiver: one,
or a backlog's several in one request (``send_many``, the receiver's /api/v1/batch).

Delivery is the receiver's word: a 200 counts only when its body is the receiver's JSON answer
"stored" or "duplicate" for this very item id. Anything else that says 200 (a captive portal's
login page, a proxy's error page, another item's answer) is a failed attempt, retried later.

Posts one after the other share a connection: one kept from the previous post for KEPT_FOR
seconds (well within the receiver's keep-alive, server/http_server.py), so a backlog or a busy
night's items do not each pay a new connection (and, over HTTPS, a new TLS handshake), at both
ends. A kept connection the receiver closed meanwhile fails before any answer; the post then
goes again on a new connection, signed anew (a new nonce: a post the receiver took before it
closed is answered "duplicate", which delivers it).

http.client and ssl are imported, and the TLS context made (the system's CA certificates read),
at the first request, in the sync thread: the service builds its transport before READY, and
those cost ~70 ms of a PC's CPU — about a second on a Pi Zero 2 W-class core.
"""
import json
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from delivery.logs import Logger
from delivery.no_answer import http_words
from wire.answer import Answer, TransportError
from wire.signing import Signer

if TYPE_CHECKING:
    import http.client
    import ssl

log = Logger(__name__)

KEPT_FOR = 2.0      # seconds a connection is kept for the next post


def closed_errors() -> tuple[type[BaseException], ...]:
    """How a kept connection the receiver closed meanwhile fails (a timeout is not one of them)."""
    import http.client

    return http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError


def no_answer_errors() -> tuple[type[BaseException], ...]:
    """How a request that got no answer fails: an OSError (ssl.SSLError, a timeout, a CA file TLS
    cannot use among them) or http.client's own."""
    import http.client

    return OSError, http.client.HTTPException


class HttpTransport:
    def __init__(self, url: str, signer: Signer, *, timeout: float = 10.0, ca_file: str | None = None,
                 ssl_context: "ssl.SSLContext | None" = None):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {url!r}")
        self.url, self.signer, self.timeout = url, signer, timeout
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        # the receiver's batch endpoint beside its records endpoint (server/site/intake.py)
        self._batch_path = (parts.path[:-len(RECORDS)] + BATCH) if parts.path.endswith(RECORDS) and not parts.query \
            else None
        self._ssl, self._ca_file = ssl_context, ca_file
        self._kept: tuple[http.client.HTTPConnection, float] | None = None     # and when it was last used
        self._posting = threading.Lock()        # one post at a time over the kept connection

    def tls_context(self) -> "ssl.SSLContext | None":
        """The TLS context, made now if it is not yet (ssl.SSLError: a CA file TLS cannot use);
        None for a plain http:// url. The first request makes it; a caller that wants a bad CA
        file said at its start (the receiver's gateway) asks for it then."""
        if self._https and self._ssl is None:
            import ssl

            self._ssl = ssl.create_default_context(cafile=self._ca_file)
        return self._ssl

    def _connection(self) -> "http.client.HTTPConnection":
        import http.client

        context = self.tls_context()
        if context is None:
            return http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
        return http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout, context=context)

    def send(self, body: bytes) -> Answer:
        status, data = self.post(body)
        return _receivers_word(Answer.from_json(status, data), data, body, status)

    @property
    def takes_batches(self) -> bool:
        return self._batch_path is not None

    def send_many(self, bodies: list[bytes]) -> list[Answer] | None:
        """Several items in one request to the receiver's batch endpoint (a backlog: they share
        its one commit), each signed as if sent alone: an Answer for each, in order, each the
        receiver's word for that item. None: send them one at a time (a receiver that takes no
        batches, an older one or a url that is not its records endpoint, or one that refused
        this batch as a whole). TransportError when the request as a whole failed (no answer,
        an error, not the receiver's answer)."""
        if self._batch_path is None:
            return None
        batch_path = self._batch_path

        def signed() -> tuple[bytes, dict[str, str]]:
            body = json.dumps({"items": [self.signer.sign(b).to_json() for b in bodies]}).encode("utf-8")
            return body, {"Content-Type": "application/json"}
        status, data = self._posted(batch_path, signed)
        answers = _batch_answers(data, len(bodies))
        if answers is not None:         # 200, or 400 when the receiver took none of them
            return [_acknowledged(Answer.from_obj(status, said), said, sent, data) for said, sent in zip(answers, bodies)]
        if status in NO_BATCHES:
            self._batch_path = None
            log.info("sync: the receiver takes no batches (%s); sending one item at a time", status)
        if status in NO_BATCHES or status in ONE_AT_A_TIME:
            return None
        raise TransportError(f"a batch answered {status}, not the receiver's answer for its items: {_shown(data)!r}")

    def post(self, body: bytes) -> tuple[int, bytes]:
        """POST ``body`` signed; the HTTP status and the answer's bytes (TransportError: none)."""
        return self._posted(self._path, lambda: (body, {"Content-Type": "application/json",
                                                        **self.signer.sign(body).headers()}))

    def _posted(self, path: str, signed: Callable[[], tuple[bytes, dict[str, str]]]) -> tuple[int, bytes]:
        """A POST of ``signed()`` (the body and headers, signed anew for each attempt) over the
        connection kept from the previous post when it is fresh, else a new one; the status and
        the answer's bytes (TransportError: none). A kept connection the receiver closed
        meanwhile: the post once more, on a new connection."""
        with self._posting:
            kept, self._kept = self._kept, None
            if kept is not None and time.monotonic() - kept[1] > KEPT_FOR:
                kept[0].close()
                kept = None
            if kept is not None:
                body, headers = signed()
                try:
                    return self._over(kept[0], path, body, headers)
                except closed_errors():
                    kept[0].close()     # closed by the receiver: again below
                except no_answer_errors() as exc:
                    kept[0].close()
                    raise self._no_answer(exc) from None
            connection = None
            try:
                connection = self._connection()
                body, headers = signed()
                return self._over(connection, path, body, headers)
            except no_answer_errors() as exc:
                if connection is not None:
                    connection.close()
                raise self._no_answer(exc) from None

    def _over(self, connection: "http.client.HTTPConnection", path: str, body: bytes,
              headers: dict[str, str]) -> tuple[int, bytes]:
        """One POST on ``connection``, kept for the next when its answer was read whole and the
        receiver keeps it open, else closed."""
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read(1 << 20)
        if response.isclosed() and not response.will_close:
            self._kept = (connection, time.monotonic())
        else:
            connection.close()
        return response.status, data

    def exchange(self, method: str, body: bytes | None, headers: dict[str, str], limit: int = 1 << 20,
                 path: str | None = None) -> "tuple[int, http.client.HTTPMessage, bytes]":
        """One request to the url as given (or to ``path`` on its host); the status, the answer's
        headers and at most ``limit`` bytes of it (TransportError: no answer, or no TLS context:
        a CA file that does not load is said as the delivery's error, not a crash)."""
        conn = None
        try:
            conn = self._connection()
            conn.request(method, path or self._path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read(limit)
        except no_answer_errors() as exc:
            raise self._no_answer(exc) from None
        finally:
            if conn is not None:
                conn.close()

    def _no_answer(self, exc: BaseException) -> TransportError:
        return TransportError(http_words(self.url, self._host or "", self.timeout, exc))

    def close(self) -> None:
        with self._posting:
            kept, self._kept = self._kept, None
        if kept is not None:
            kept[0].close()


RECORDS, BATCH = "/api/v1/records", "/api/v1/batch"
NO_BATCHES = (404, 405)         # a receiver without the batch endpoint: one at a time from now on
ONE_AT_A_TIME = (400, 413)      # this batch refused as a whole: its items alone, each its own answer
ACKNOWLEDGED = ("stored", "duplicate")
NOT_AN_ANSWER = 502     # not final: the Syncer retries it


def _batch_answers(data: bytes, count: int) -> list[dict[str, Any]] | None:
    """The items' answers of a batch's answer, or None when it is not the receiver's."""
    said = _json(data)
    answers = said.get("answers") if isinstance(said, dict) and said.get("status") == "batch" else None
    if not isinstance(answers, list) or len(answers) != count \
            or not all(isinstance(a, dict) and isinstance(a.get("code", 0), int) for a in answers):
        return None
    return answers


def _receivers_word(answer: Answer, data: bytes, body: bytes, status: int) -> Answer:
    """``answer``, unless it claims delivery without the receiver's acknowledgement of this item,
    or a final refusal that is not the receiver's (``status``: the HTTP status it came with)."""
    if answer.delivered:
        return _acknowledged(answer, _json(data), body, data)
    return _refused(answer, _json(data), body, data, status) if answer.final else answer


def _refused(answer: Answer, said: object, body: bytes, data: bytes, status: int) -> Answer:
    """``answer``, when it is the receiver's refusal of the item in ``body`` (its JSON says
    "refused", names this item or none, and its code is the HTTP status); else a failed attempt,
    retried: a proxy's 400 or 413 page, or a 502 whose body says 400, must not set a record
    aside for good."""
    sent = _json(body)
    mine = sent.get("id") if isinstance(sent, dict) else None
    if (isinstance(said, dict) and said.get("status") == "refused" and answer.status == status
            and said.get("id") in (None, mine)):
        return answer
    return Answer(NOT_AN_ANSWER, f"a {status} that is not the receiver's refusal of this item: {_shown(data)!r}")


def _acknowledged(answer: Answer, said: object, body: bytes, data: bytes) -> Answer:
    """``answer``, unless it claims delivery and ``said`` is not the receiver's "stored" or
    "duplicate" for the item in ``body``: then a failed attempt showing ``data``."""
    if not answer.delivered:
        return answer
    sent = _json(body)
    if (isinstance(said, dict) and isinstance(sent, dict) and said.get("status") in ACKNOWLEDGED
            and said.get("id") == sent.get("id")):
        return answer
    return Answer(NOT_AN_ANSWER, f"a 200 that is not the receiver's answer for this item: {_shown(data)!r}")


def _json(data: bytes) -> Any:
    """``data`` read as JSON, or None when it is not."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _shown(data: bytes) -> str:
    """The start of an answer that is not the receiver's, for the log and the status."""
    return data[:80].decode("utf-8", "replace").replace("\n", " ")
