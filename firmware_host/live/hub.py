"""The current live state and the viewers waiting for its changes (the server's loop thread only).

Every event is the whole state, so a viewer that lags loses nothing but the steps in between:
when its queue is full it is cut back to the newest state (``Client.push``).
"""
import json
from collections import deque

QUEUE_LIMIT = 16           # events a viewer may have waiting before it drops to the newest state
RETRY_MS = 2000            # EventSource's reconnect delay, sent on connect


class Client:
    """One /events viewer: a bounded queue of encoded events and a flag its writer waits on."""

    def __init__(self, ready, limit: int = QUEUE_LIMIT):
        self.pending: deque[bytes] = deque()
        self.limit = limit
        self.ready = ready               # an asyncio.Event
        self.dropped = 0                 # times the queue was cut back to the newest state

    def push(self, event: bytes) -> None:
        if len(self.pending) >= self.limit:
            self.pending.clear()
            self.dropped += 1
        self.pending.append(event)
        self.ready.set()

    def ping(self, comment: bytes) -> None:
        """A keep-alive comment, only when nothing else is waiting to be sent."""
        if not self.pending:
            self.push(comment)

    def take(self) -> list[bytes]:
        chunks = list(self.pending)
        self.pending.clear()
        self.ready.clear()
        return chunks


class Hub:
    def __init__(self, identity: dict):
        self.identity = identity         # venue, table, language: in every state
        self.view: dict | None = None
        self.seq = 0
        self.state = dict(identity, seq=0, view="waiting")
        self.body = self._encode()
        self.clients: set[Client] = set()

    def update(self, view: dict | None) -> bool:
        """A new view from the service; True when it changed the state (and went to every viewer)."""
        if view is None or view == self.view:
            return False
        self.view = view
        self.seq += 1
        self.state = dict(self.identity, seq=self.seq, **view)
        self.body = self._encode()
        event = self.event()
        for client in self.clients:
            client.push(event)
        return True

    def _encode(self) -> bytes:
        return json.dumps(self.state, ensure_ascii=False, separators=(",", ":")).encode()

    def event(self) -> bytes:
        """The current state as one SSE event; its id is the state's sequence number."""
        return b"id: %d\nevent: state\ndata: %s\n\n" % (self.seq, self.body)

    def greeting(self) -> bytes:
        """What a viewer gets on connect: the reconnect delay and the whole current state (a page
        that reconnects catches up, whatever its Last-Event-ID)."""
        return b"retry: %d\n\n" % RETRY_MS + self.event()

    def ping(self) -> None:
        for client in self.clients:
            client.ping(b": keep-alive\n\n")
