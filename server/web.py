"""The receiver's HTTP(S) endpoint and its read-only pages.

    POST /api/v1/records             a signed item (wire.signing headers)
    GET  /api/v1/records             the list of stored items
    GET  /api/v1/records/<id>        one item verbatim (the bytes the device sent)
    GET  /matches.json               the matches
    GET  /matches/<id>.json|.html    the match record (zápis o utkání, RULES 1.6)
    GET  /table.json|.html           the carom league table (RULES 1.8)
    GET  /table-8ball.json|.html     the 8-ball league table (RULES 2.9; order: docs/server.md)
    GET  /refusals.json              every refused message: when, via, device, id, status, reason
    GET  /                           an index page
"""
import json
import logging
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

from wire.signing import Signed
from server import exports, pages
from server.receiver import MAX_BODY

log = logging.getLogger("pocitadlo.server")

RECORDS = "/api/v1/records"


class Handler(BaseHTTPRequestHandler):
    server_version = "pocitadlo-receiver/1"
    timeout = 30          # seconds: a client that stalls mid-request is dropped
    protocol_version = "HTTP/1.1"

    @property
    def receiver(self):
        return self.server.receiver

    def log_message(self, fmt, *args):   # to logging, not stderr
        log.debug("%s %s", self.address_string(), fmt % args)

    def _send(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, obj) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8"),
                   "application/json; charset=utf-8")

    def _html(self, text: str) -> None:
        self._send(200, text.encode("utf-8"), "text/html; charset=utf-8")

    def do_POST(self):
        remote = self.client_address[0]
        if urlsplit(self.path).path != RECORDS:
            return self._json(404, {"code": 404, "status": "refused", "reason": "not found"})
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.close_connection = True
            return self._json(411, {"code": 411, "status": "refused", "reason": "Content-Length required"})
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            status, answer = self.receiver.refuse_unsigned(f"body too large ({length} bytes)", status=413,
                                                           via="http", remote=remote)
            return self._json(status, answer)
        body = self.rfile.read(length)
        try:
            signed = Signed.from_headers(self.headers, body)
        except ValueError as exc:
            status, answer = self.receiver.refuse_unsigned(str(exc), status=401, via="http", remote=remote)
            return self._json(status, answer)
        try:
            status, answer = self.receiver.handle(signed, via="http", remote=remote)
        except Exception:     # a bug or a full disk: answer 500 so the device retries later
            log.exception("POST from %s failed", remote)
            status, answer = 500, {"code": 500, "status": "error", "reason": "internal error"}
        self._json(status, answer)

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        store = self.receiver.store
        try:
            if path == "/":
                return self._html(pages.index(exports.matches(store)))
            if path == RECORDS:
                return self._json(200, [{k: v for k, v in row.items() if k != "body"} for row in store.items()])
            if path.startswith(RECORDS + "/"):
                body = store.stored_body(path[len(RECORDS) + 1:])
                if body is None:
                    return self._json(404, {"code": 404, "reason": "no such record"})
                return self._send(200, body, "application/json; charset=utf-8")
            if path == "/matches.json":
                return self._json(200, exports.matches(store))
            if path == "/refusals.json":
                return self._json(200, store.refusals())
            if path == "/table.json":
                return self._json(200, exports.league_table(store))
            if path == "/table.html":
                return self._html(pages.table(exports.league_table(store)))
            if path == "/table-8ball.json":
                return self._json(200, exports.league_table(store, "8ball"))
            if path == "/table-8ball.html":
                return self._html(pages.eightball_table(exports.league_table(store, "8ball")))
            if path.startswith("/matches/") and path.endswith((".json", ".html")):
                match_id = path[len("/matches/"):-5]
                record = exports.match_record(store, match_id)
                if record is None:
                    return self._json(404, {"code": 404, "reason": f"no match {match_id!r}"})
                return self._json(200, record) if path.endswith(".json") else self._html(pages.match(record))
        except Exception:
            log.exception("GET %s failed", path)
            return self._json(500, {"code": 500, "reason": "internal error"})
        self._json(404, {"code": 404, "reason": "not found"})


class ReceiverServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, receiver, *, certfile: str | None = None, keyfile: str | None = None):
        super().__init__(address, Handler)
        self.receiver = receiver
        if certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certfile, keyfile)
            # handshake in the handler thread, so a slow client cannot stall accept()
            self.socket = context.wrap_socket(self.socket, server_side=True, do_handshake_on_connect=False)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def start(self, poll_interval: float = 0.1) -> threading.Thread:
        """Serve in a background thread (tests, `pocitadlo serve` with a serial listener beside it)."""
        thread = threading.Thread(target=self.serve_forever, args=(poll_interval,), name="receiver-http",
                                  daemon=True)
        thread.start()
        return thread
