"""Finding 5: the device counts an item delivered only on the receiver's own JSON answer,
"stored" or "duplicate", for that same id; any other 200 is a failed attempt, retried."""
import pytest

import carom_samples
from delivery.outbox import Outbox
from delivery.sync import Syncer
from delivery.transport_http import HttpTransport
from sync_helpers import answering


@pytest.mark.parametrize("answer, content_type", [
    ("<html><body>Přihlaste se do Wi-Fi hospody</body></html>".encode(), "text/html"),    # a captive portal
    (b'{"code": 200, "status": "stored", "id": "some-other-item"}', "application/json"),
    (b'{"code": 200, "status": "ok"}', "application/json"),
    (b"", "text/plain"),
])
def test_a_200_that_is_not_the_receivers_word_leaves_the_item_in_the_outbox(tmp_path, sign, answer, content_type):
    outbox = Outbox(tmp_path / "outbox")
    for n in range(3):
        text, summary = carom_samples.partie(f"p-{n}", "A", "B", seed=n, points_limit=20, innings_limit=3)
        outbox.add(f"p-{n}", "partie", text, summary)
    with answering(200, answer, content_type) as url:
        syncer = Syncer(outbox, HttpTransport(url, sign("u-lva-1"), timeout=5), rand=lambda: 0.0)
        assert syncer.step() > 0            # a failed attempt: backoff, not delivered
    assert outbox.unsent() == 3 and outbox.held_count() == 0
    assert "not the receiver's answer" in syncer.status()["last_error"]


def test_the_receivers_stored_and_duplicate_answers_deliver(tmp_path, server, store, sign):
    outbox = Outbox(tmp_path / "outbox")
    text, summary = carom_samples.partie("p-1", "A", "B", seed=1, points_limit=20, innings_limit=3)
    outbox.add("p-1", "partie", text, summary)
    transport = HttpTransport(f"http://127.0.0.1:{server.port}/api/v1/records", sign("u-lva-1"), timeout=5)
    assert transport.send(outbox.next_pending().body).message == "stored"
    syncer = Syncer(outbox, transport)
    assert syncer.step() == 0.0             # "already have it" for the same id: delivered
    assert outbox.unsent() == 0 and store.items.count() == 1
