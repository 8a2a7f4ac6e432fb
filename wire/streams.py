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


class Streams:
    def __init__(self, most: int, per_client: int):
        self.most, self.per_client = most, per_client
        self._held: dict[object, list] = {}         # stream -> [client, when last sent something]

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, stream) -> bool:
        return stream in self._held

    def admit(self, stream, address: str | None, now: float) -> list:
        """Let ``stream`` in; the streams to end to make room for it (no longer counted here)."""
        client = client_of(address)
        mine = [s for s, (c, _) in self._held.items() if c == client]
        ended = []
        if len(mine) >= self.per_client:
            ended.append(self._idlest(mine))
        elif len(self._held) >= self.most:
            ended.append(self._idlest(self._held))
        for old in ended:
            del self._held[old]
        self._held[stream] = [client, now]
        return ended

    def sent(self, stream, now: float) -> None:
        """``stream`` was sent something (it is not idle)."""
        held = self._held.get(stream)
        if held is not None:
            held[1] = now

    def leave(self, stream) -> None:
        self._held.pop(stream, None)

    def _idlest(self, streams):
        return min(streams, key=lambda s: self._held[s][1])
