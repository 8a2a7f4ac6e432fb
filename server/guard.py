"""Slow, numerous and bloated clients cannot starve the receiver: uvicorn's HTTP/1.1 protocol
(httptools, its C parser) with a header deadline, a bound on the headers and a connection cap.

A connection must deliver a request's headers within ``header_deadline`` seconds of opening (or
of its previous answer), else it is closed. Above ``max_connections`` open connections, a new one
evicts the oldest that is still waiting for its headers (the slowest client), so a device with a
whole request to send is always let in. The body has its own deadline (server.site.routes).

A request's line and headers are at most MAX_HEADER_BYTES bytes and MAX_HEADERS headers, else it
is answered 431 and the connection closed: the bytes are counted as they arrive, so at most
two reads (256 KiB each) beyond the bound are ever buffered (httptools keeps a header whole until its end).

This builds on uvicorn's ``HttpToolsProtocol``, which is not a public interface: pyproject pins
uvicorn to TESTED_UVICORN (tests/server/test_guard.py checks both agree); a new uvicorn is taken
by moving the pin once the suite passes on it.
"""
import asyncio

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

HEADER_DEADLINE = 10.0
MAX_CONNECTIONS = 4096
MAX_HEADER_BYTES = 64 * 1024
MAX_HEADERS = 100
TESTED_UVICORN = ((0, 54), (0, 55))     # from, to (not included): the versions the guard is tested with


class GuardedHttpTools(HttpToolsProtocol):
    header_deadline = HEADER_DEADLINE
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._refusing: str | None = None
        self._in_headers, self._header_bytes, self._header_count = True, 0, 0
        self._await_headers()
        if len(self.connections) > self.max_connections:
            self._evict_one()

    def _await_headers(self) -> None:
        self._cancel_header_timer()
        self._opened = self.loop.time()
        self._header_timer = self.loop.call_later(self.header_deadline, self._headers_overdue)

    def _cancel_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def waiting_for_headers(self) -> bool:
        """Between requests, or in the middle of a request's headers (the timer runs until they are in)."""
        return self._header_timer is not None

    def _headers_overdue(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _evict_one(self) -> None:
        waiting = [c for c in self.connections if isinstance(c, GuardedHttpTools) and c.waiting_for_headers()]
        victim = min(waiting, key=lambda c: c._opened) if waiting else self
        victim._cancel_header_timer()
        victim.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refusing is not None:
            return
        if self._in_headers:
            # the reads since the request began were all its headers (they are not complete yet)
            if self._header_bytes > MAX_HEADER_BYTES:
                self._refuse(f"the request's headers are over {MAX_HEADER_BYTES} bytes")
                return
            self._header_bytes += len(data)
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._in_headers, self._header_bytes, self._header_count = True, 0, 0
        super().on_message_begin()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > MAX_HEADERS:
            self._refusing = f"a request has at most {MAX_HEADERS} headers"
            raise ValueError(self._refusing)       # stops the parser: uvicorn answers 400, made 431 below
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        if self._refusing is not None:
            self._refuse(self._refusing)
        else:
            super().send_400_response(msg)

    def _refuse(self, reason: str) -> None:
        """431 Request Header Fields Too Large, and close."""
        self._refusing = reason
        if self.transport.is_closing():
            return
        body = reason.encode("ascii")
        self._cancel_header_timer()
        self.transport.write(b"".join([STATUS_LINE[431], b"content-type: text/plain; charset=utf-8\r\n",
                                       b"content-length: %d\r\n" % len(body), b"connection: close\r\n\r\n",
                                       body]))
        self.transport.close()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        self._in_headers = False
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        idle = self.cycle is None or self.cycle.response_complete      # no pipelined request under way
        if idle and not self.transport.is_closing():
            self._await_headers()

    def connection_lost(self, exc) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)


def guarded(header_deadline: float = HEADER_DEADLINE, max_connections: int = MAX_CONNECTIONS) -> type:
    """The protocol class for uvicorn.Config(http=...) with these limits."""
    return type("Guarded", (GuardedHttpTools,), {"header_deadline": header_deadline,
                                                  "max_connections": max_connections})
