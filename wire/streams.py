"""Who holds the live event streams (Server-Sent Events) both ends serve: the device's live page
(firmware_host/live/server.py) and the league's ``/live/events`` (server/live/board.py).

``Streams(most, per_client)`` admits every new stream: one client (an address; an IPv6 address
by its /64, which one machine is given whole) holds at most ``per_client`` streams and all
clients at most ``most``. Past either bound the new stream is let in and the idlest stream
ends — the client's own, or of all: the one that has gone longest without being sent
something (a viewer whose connection takes nothing, or the oldest). So no client can hold every
slot, and nobody is refused for good: an ended viewer's page reconnects by itself.
"""
import ipaddress
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)     # a stream, as each end knows it (a queue, a writer)


def client_of(address: str | None) -> str:
    """The client an address stands for: itself, or for IPv6 its /64 network."""
    if not address:
        return "-"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


class Streams(Generic[S]):
    def __init__(self, most: int, per_client: int):
        self.most, self.per_client = most, per_client
        self._client: dict[S, str] = {}           # stream -> its client
        self._sent: dict[S, float] = {}           # stream -> when it was last sent something

    def __len__(self) -> int:
        return len(self._client)

    def __contains__(self, stream: object) -> bool:
        return stream in self._client

    def admit(self, stream: S, address: str | None, now: float) -> list[S]:
        """Let ``stream`` in; the streams to end to make room for it (no longer counted here)."""
        client = client_of(address)
        mine = [s for s, c in self._client.items() if c == client]
        ended = []
        if len(mine) >= self.per_client:
            ended.append(self._idlest(mine))
        elif len(self._client) >= self.most:
            ended.append(self._idlest(self._client))
        for old in ended:
            self.leave(old)
        self._client[stream], self._sent[stream] = client, now
        return ended

    def sent(self, stream: S, now: float) -> None:
        """``stream`` was sent something (it is not idle)."""
        if stream in self._sent:
            self._sent[stream] = now

    def leave(self, stream: S) -> None:
        self._client.pop(stream, None)
        self._sent.pop(stream, None)

    def _idlest(self, streams: Iterable[S]) -> S:
        return min(streams, key=self._sent.__getitem__)
