"""Slow and numerous clients cannot starve the receiver: uvicorn's HTTP/1.1 protocol (httptools,
its C parser) with a header deadline and a connection cap.

A connection must deliver a request's headers within ``header_deadline`` seconds of opening (or
of its previous answer), else it is closed. Above ``max_connections`` open connections, a new one
evicts the oldest that is still waiting for its headers (the slowest client), so a device with a
whole request to send is always let in. The body has its own deadline (server.site.routes).
"""
import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_DEADLINE = 10.0
MAX_CONNECTIONS = 4096


class GuardedHttpTools(HttpToolsProtocol):
    header_deadline = HEADER_DEADLINE
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
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

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
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
