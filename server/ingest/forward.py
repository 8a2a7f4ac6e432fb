"""A gateway passes what it received on to the league's receiver (``pocitadlo serve --forward URL``).

A venue laptop takes the records over serial (no network at the table) and, whenever it has a
network, re-posts every stored item to the league's server: the same bytes, signed afresh by the
gateway's registered identity and carrying the device's original signature (``RelaySigner``), so
the league's receiver checks the device's authorship and the gateway's freshness. Delivery is the
device's own machinery, ``delivery.sync.Syncer`` (retry, capped backoff with jitter, holding
refused items), over ``ForwardQueue``: the outbox interface on top of the gateway's store. A crash
between a delivery and its mark only causes a resend, which the league's receiver answers "already
have it": every item arrives exactly once.
"""
import json
from datetime import datetime

from delivery.outbox import DELIVERED, HELD, PENDING, Item
from delivery.sync import Syncer
from wire.signing import RelaySigner, Signed

NO_ORIGIN = "stored without the device's signature (before gateways were supported): cannot be relayed"


class ForwardQueue:
    """What the Syncer needs of an outbox, kept in the gateway's SQLite store (table ``forwarded``)."""

    def __init__(self, store):
        self.store = store

    def pending(self, limit: int = -1) -> list[Item]:
        return [Item(row["id"], row["kind"], row["body"], PENDING)
                for row in self.store.forwarding.waiting(relayable=True, limit=limit)]

    def next_pending(self) -> Item | None:
        first = self.pending(limit=1)
        return first[0] if first else None

    def held(self) -> list[Item]:
        unrelayable = [Item(row["id"], row["kind"], row["body"], HELD, NO_ORIGIN)
                       for row in self.store.forwarding.waiting(relayable=False)]
        return [Item(row["id"], row["kind"], row["body"], HELD, row["why"])
                for row in self.store.forwarding.marked(HELD)] + unrelayable

    def held_count(self) -> int:
        return len(self.held())

    def unsent(self) -> int:
        return self.store.forwarding.count_waiting()

    def mark_delivered(self, item_id: str, when: datetime | str | None = None) -> None:
        self.store.forwarding.mark(item_id, DELIVERED, self._stamp(when))

    def hold(self, item_id: str, why: str) -> None:
        self.store.forwarding.mark(item_id, HELD, self._stamp(None), why)

    def retry_held(self) -> int:
        held = self.store.forwarding.marked(HELD)
        for row in held:
            self.store.forwarding.mark(row["id"], None, self._stamp(None))
        return len(held)

    def last_delivery(self) -> str | None:
        return self.store.forwarding.last_delivered()

    def _stamp(self, when) -> str:
        if isinstance(when, str):
            return when
        return when.isoformat(timespec="seconds") if when else self.store.now()

    def origin_of(self, body: bytes) -> Signed:
        """The device's signature kept with this item (the body names its id)."""
        item_id = json.loads(body)["id"]
        fields = self.store.items.origin(item_id)
        if fields is None:
            raise LookupError(f"{item_id}: {NO_ORIGIN}")
        return Signed.from_fields(fields, body, nested=False)




def forwarder(store, url: str, gateway_id: str, secret: bytes, *, timeout: float = 10.0,
              ca_file: str | None = None, backoff_initial: float = 2.0, backoff_max: float = 600.0,
              **syncer_options) -> Syncer:
    """The gateway's Syncer: every item in ``store`` to the receiver at ``url``, as ``gateway_id``."""
    from delivery.transport_http import HttpTransport

    queue = ForwardQueue(store)
    transport = HttpTransport(url, RelaySigner(gateway_id, secret, queue.origin_of), timeout=timeout, ca_file=ca_file)
    transport.tls_context()         # a CA file TLS cannot use: said at the gateway's start (ssl.SSLError)
    return Syncer(queue, transport, backoff_initial=backoff_initial, backoff_max=backoff_max, **syncer_options)
