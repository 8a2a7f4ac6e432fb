"""Live snapshots of this table to the league's receiver (``[live] push``, issue 15 part 2).

An observer of the service (after the frame went to the counter, like the live page): each
model's live view becomes a small signed snapshot (wire.live) handed to a LivePusher, whose own
thread posts the latest a few times a second at most and drops it when the receiver is away.
"""

from delivery.live_push import LivePusher, live_url
from delivery.logs import Logger
from firmware_host.live.state import live_view, match_context
from wire.live import snapshot

log = Logger("pocitadlo.live")


class SnapshotFeed:
    """``observe(model)``: the snapshot of ``model``'s view to the pusher (never raises)."""

    def __init__(self, pusher, identity: dict, service):
        self.pusher, self.identity, self.service, self.seq = pusher, identity, service, 0

    def observe(self, model: dict) -> None:
        try:
            night = self.service.night
            view = live_view(model, match_context(night))
            if view is None:
                return
            self.seq += 1
            record = night.board.header.get("id") if night.board is not None else None
            self.pusher.offer(snapshot(venue=self.identity["venue"], table=self.identity["table"],
                                       seq=self.seq, view=view, record=record))
        except Exception:
            log.exception("live snapshot: a screen model could not be passed on")


def attach_push(config, service, transport=None, signer=None) -> LivePusher | None:
    """With ``[live] push`` and ``[sync] transport = "http"``: snapshots of every model ``service``
    shows go to the receiver's ``/api/v1/live``. None (and a log line) otherwise. ``signer``: the
    Syncer's, so the receiver's clock it learnt from answers signs the snapshots too."""
    sync, device = config.parts["sync"], config.device
    if not config.parts["live"].push:
        return None
    if sync.transport != "http":
        log.warning("[live] push needs [sync] transport = \"http\": no live snapshots")
        return None
    if transport is None:
        from clock import SystemClock
        from delivery.live_push import TIMEOUT
        from delivery.transport_http import HttpTransport
        from wire.signing import Signer
        signer = signer or Signer(sync.device_id, sync.secret, clock=SystemClock().time)
        transport = HttpTransport(live_url(sync.url), signer, timeout=TIMEOUT, ca_file=sync.ca_file)
    pusher = LivePusher(transport)
    feed = SnapshotFeed(pusher, {"venue": device.venue, "table": device.table}, service)
    service.observers.append(feed.observe)
    feed.observe(service.display.model)
    return pusher
