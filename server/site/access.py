"""Who may ask what: refused clients slowed down, admin views behind a token.

``RefusalLimiter``: each client (an address; an IPv6 address by its /64, which one machine is
given whole) has a bucket of ``burst`` refusals that refills at ``per_second``; a client whose
bucket is empty gets 429 at once, before any check or store write, so an unsigned flood costs
neither CPU nor disk. The bucket never goes below empty: a burst of refusals at once (a thousand
slow bodies answered 408 together) costs the client the same seconds as twenty. A refusal counts
when it is logged (``refused`` is the refusal log's ``on_logged``, set by server/app.py), so what
is counted is what the log shows. A well-behaved device is never refused, so never limited.
``admin_allowed``: the admin views need ``Authorization: Bearer <token>``.
"""
import hmac
import threading
import time

from wire.streams import client_of

BURST = 20
PER_SECOND = 0.5
TRACKED = 10_000          # clients remembered; beyond that the fullest buckets are forgotten


class RefusalLimiter:
    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND, clock=time.monotonic):
        self.burst, self.per_second, self._clock = burst, per_second, clock
        self._buckets: dict[str, tuple[float, float]] = {}     # client -> (tokens, when)
        self._lock = threading.Lock()
        self.limited = 0          # requests answered 429 since start

    def _tokens(self, client: str, now: float) -> float:
        tokens, when = self._buckets.get(client, (self.burst, now))
        return min(self.burst, tokens + (now - when) * self.per_second)

    def allow(self, address: str | None) -> bool:
        """False: this client used up its refusals; answer 429 without looking at the request."""
        if address is None:
            return True
        with self._lock:
            if self._tokens(client_of(address), self._clock()) >= 1:
                return True
            self.limited += 1
            return False

    def refused(self, address: str | None, via: str = "http") -> None:
        """A refusal of this client's logged (one ``via`` HTTP: the others have no client to limit)."""
        if address is None or not via.startswith("http"):
            return
        client = client_of(address)
        with self._lock:
            now = self._clock()
            self._buckets[client] = (max(0.0, self._tokens(client, now) - 1), now)
            if len(self._buckets) > TRACKED:
                self._forget(now)

    def retry_after(self) -> int:
        return max(1, round(1 / self.per_second))

    def _forget(self, now: float) -> None:
        for client in [c for c in self._buckets if self._tokens(c, now) >= self.burst]:
            del self._buckets[client]
        while len(self._buckets) > TRACKED:
            self._buckets.pop(next(iter(self._buckets)))


def admin_allowed(token: str | None, authorization: str | None) -> bool:
    """The request carries the admin token (constant-time compare); no token configured: nobody."""
    if not token or not authorization or not authorization.startswith("Bearer "):
        return False
    return hmac.compare_digest(authorization[len("Bearer "):].encode(), token.encode())
