"""Finding 1: a device writes only into matches of the venue it is registered for; a gateway
relays a device's own signature, so it cannot lend one venue's device to another's match."""
import json

import carom_samples
from delivery.outbox import item_body
from wire.signing import RelaySigner


def test_a_device_of_another_venue_cannot_store_into_a_match(client, store, items):
    """RULES 1.6: the zápis of a match at U Lva is written by U Lva's counter, nobody else's."""
    first, *rest = items()
    status, answer = client.post(first, device="u-koule-1")
    assert status == 403
    assert answer["reason"] == ("device 'u-koule-1' is registered for 'Hospoda U Koule'; "
                                "match 'KD-1' is played at 'Hostinec U Lva'")
    assert store.items.count() == 0 and store.refusals.latest()[-1]["status"] == 403
    for body in [first, *rest]:
        assert client.post(body)[0] == 200
    assert store.items.count() == 5


def test_a_match_stored_at_one_venue_cannot_be_claimed_by_another(client, store, items):
    """The first item fixes a match's venue: another venue's device naming its own venue is refused."""
    assert client.post(items()[0])[0] == 200
    claimed = items(venue="Hospoda U Koule", seed=1)[1]     # same match id, partie 2, "at U Koule"
    status, answer = client.post(claimed, device="u-koule-1")
    assert status == 403 and "match 'KD-1' is played at 'Hostinec U Lva'" in answer["reason"]
    assert [row["id"] for row in store.items.all()] == ["KD-1-p1"]


def test_a_device_registered_for_no_venue_writes_into_no_match(client, store, items):
    status, answer = client.post(items()[0], device="u-nowhere")
    assert status == 403 and "not registered for a venue" in answer["reason"]
    assert store.items.count() == 0


def test_a_single_partie_outside_any_match_is_accepted_from_any_device(client, store):
    text, summary = carom_samples.partie("solo-1", "Novák", "Dvořák", seed=2, points_limit=20, innings_limit=3)
    assert client.post(item_body("solo-1", "partie", text, summary), device="u-nowhere")[0] == 200


def test_a_gateway_relays_only_what_the_venues_own_device_signed(receiver, store, items, sign):
    body = items()[0]
    for device, expected in (("u-koule-1", 403), ("u-lva-1", 200)):
        origin = sign(device).sign(body)
        relayed = RelaySigner("gw-lva", b"gateway-secret-0123456789ab", lambda _, origin=origin: origin).sign(body)
        status, answer = receiver.handle(relayed, via="http")
        assert status == expected, answer
    [row] = store.items.all()
    assert (row["device"], row["via"]) == ("u-lva-1", "http:gw-lva")
    assert json.loads(row["body"])["id"] == "KD-1-p1"
