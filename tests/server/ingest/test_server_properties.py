"""Receiver invariants under arbitrary input: nothing stored is ever touched, answers stay clear."""
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carom_samples
from delivery.outbox import item_body
from server.ingest.receiver import Receiver
from server.storage.store import Store
from sync_helpers import damaged
from wire.signing import Signed, Signer

SECRET = b"property-secret-0123456789"
GATEWAY_SECRET = b"property-gateway-secret-0123"
TEXT, SUMMARY = carom_samples.partie("p-1", "Novák", "Dvořák", seed=1, points_limit=30, innings_limit=5)
GOOD = item_body("p-1", "partie", TEXT, SUMMARY)
TEXT2, SUMMARY2 = carom_samples.partie("p-2", "Král", "Malý", seed=2, points_limit=30, innings_limit=5)
OTHER = item_body("p-2", "partie", TEXT2, SUMMARY2)


@pytest.fixture(scope="module")
def receiver(tmp_path_factory):
    store = Store(tmp_path_factory.mktemp("prop") / "league.sqlite")
    store.devices.add("d", SECRET)
    store.devices.add("gw", GATEWAY_SECRET, role="gateway")
    r = Receiver(store)
    assert r.handle(Signer("d", SECRET).sign(GOOD), via="test")[0] == 200
    yield r
    store.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_damaged_but_validly_signed_bodies_never_touch_what_is_stored(receiver, data):
    body = damaged(data.draw(st.sampled_from([GOOD, OTHER])), data, hows=("flip", "drop", "insert"))
    status, answer = receiver.handle(Signer("d", SECRET).sign(body), via="test")
    assert status in (200, 400, 409, 422), answer
    assert answer["reason"]
    assert receiver.store.items.body("p-1") == GOOD
    if status == 200:       # accepted: it is a real finished partie that replays to its summary
        stored = receiver.store.items.body(answer["id"])
        assert stored == body or stored == GOOD


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["d"]) | st.text(max_size=20), st.binary(max_size=300), st.integers(0, 2**40),
       st.text(max_size=40), st.text(max_size=70))
def test_forged_messages_are_refused(receiver, device, body, timestamp, nonce, signature):
    before = receiver.store.items.count()
    status, answer = receiver.handle(Signed(device, timestamp, nonce, signature, body), via="test")
    assert status == 401 and answer["status"] == "refused"
    assert receiver.store.items.count() == before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["d", "gw"]) | st.text(max_size=20), st.sampled_from([GOOD, OTHER]), st.integers(0, 2**40),
       st.text(max_size=40), st.text(max_size=70))
def test_a_gateway_cannot_relay_what_the_device_did_not_sign(receiver, device, body, timestamp, nonce, signature):
    """Whatever origin a registered gateway claims, only the device's own signature gets a record in."""
    before = receiver.store.items.count()
    origin = Signed(device, timestamp, nonce, signature, body)
    status, answer = receiver.handle(replace(Signer("gw", GATEWAY_SECRET).sign(body), origin=origin), via="test")
    assert status == 401 and answer["status"] == "refused"
    assert receiver.store.items.count() == before


@pytest.mark.parametrize("device, nonce", [("\ud800", "n"), ("d", "\udfff"), ("", "n"), ("d\n", "n"), ("d", "x" * 65)])
def test_crafted_device_ids_and_nonces_are_refused_not_crashed(receiver, device, nonce):
    """Over serial the signature line is JSON: "\\ud800" decodes to a lone surrogate."""
    status, answer = receiver.handle(Signed(device, 0, nonce, "00", b"{}"), via="serial")
    assert status == 401 and answer["reason"] == "malformed device id or nonce"
