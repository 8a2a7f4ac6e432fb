"""Fault injection between the device and a real receiver on 127.0.0.1.

A small TCP proxy answers 500, resets connections, stalls past the timeout, answers slowly, or
forwards the post and then resets before the answer gets back. The receiver is down all night
and comes back. The device is killed with SIGKILL mid-delivery and restarted. Every record must
arrive exactly once and byte-identical.
"""
import random
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from delivery.outbox import Outbox
from delivery.sync import Syncer
from delivery.transport_http import HttpTransport
from sync_helpers import DEVICE as DEVICE_ID
from sync_helpers import (
    SECRET,
    FakeClock,
    assert_exactly_once,
    drain,
    proxy,
    queue,
    records_url,
    running_server,
    wait_for,
)
from wire.signing import Signer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("batch", [1, 2])
def test_500s_resets_stalls_slow_answers_and_lost_answers(tmp_path, sync_server, sync_store, batch):
    """One item a request, or two (a backlog's batch, /api/v1/batch): a batch whose answer is lost
    after the receiver stored it is sent again and answered "duplicate" item by item."""
    script = ["500", "reset", "stall", "slow", "lost-answer", "500", "lost-answer", "reset", "slow"]
    with proxy(sync_server.port, script) as between:
        outbox = queue(tmp_path / "outbox", 5)
        clock = FakeClock()
        transport = HttpTransport(records_url(between.port), Signer(DEVICE_ID, SECRET), timeout=0.3)
        syncer = Syncer(outbox, transport, clock=clock, backoff_initial=1.0, backoff_max=30.0, batch=batch)
        drain(syncer, clock, outbox, max_steps=200)
    assert between.seen[:len(script)] == script
    assert_exactly_once(outbox, sync_store, 5)
    assert syncer.status() == {"unsent": 0, "last_delivery": outbox.last_delivery(), "last_error": None, "device_refused": False}


def test_the_receiver_down_all_night_then_back(tmp_path, sync_store):
    """Twelve hours without a receiver: attempts back off to the cap, then everything arrives."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    outbox = queue(tmp_path / "outbox", 3)
    clock = FakeClock()
    transport = HttpTransport(records_url(port), Signer(DEVICE_ID, SECRET), timeout=0.5)
    syncer = Syncer(outbox, transport, clock=clock, backoff_initial=2.0, backoff_max=600.0,
                    rand=random.Random(1).random)
    attempts, waits = 0, []
    while clock.t < 12 * 3600:
        wait = syncer.step()
        attempts += 1
        waits.append(wait)
        clock.t += wait
    assert max(waits) <= 600.0 and max(waits) >= 300.0        # capped, jittered in [cap/2, cap]
    assert 72 <= attempts <= 160                              # not a busy loop, not given up
    assert syncer.status()["unsent"] == 3 and "refused the connection (is it running?)" in syncer.status()["last_error"]
    with running_server(sync_store, port=port):
        clock.t += syncer.step()     # still waiting out the backoff...
        syncer.retry_now()           # ...or the referee presses "send now"
        drain(syncer, clock, outbox)
    assert_exactly_once(outbox, sync_store, 3)


DEVICE = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    sys.path.insert(0, {root!r} + '/tests')
    from delivery.outbox import Outbox
    from wire.signing import Signer
    from delivery.sync import Syncer
    from delivery.transport_http import HttpTransport
    import carom_samples
    outbox = Outbox({outbox!r})
    for i in range({n}):   # a restarted service re-adds what it finished: add is idempotent
        text, summary = carom_samples.partie(f"p-{{i}}", "Novák", "Dvořák", seed=1 + i, points_limit=30, innings_limit=5)
        outbox.add(f"p-{{i}}", "partie", text, summary)
    syncer = Syncer(outbox, HttpTransport({url!r}, Signer("u-lva-1", {secret!r}), timeout=5),
                    backoff_initial=0.01, backoff_max=0.05, batch={batch})
    while outbox.pending():
        time.sleep(min(syncer.step(), 0.05))
""")


@pytest.mark.parametrize("batch, n", [(1, 6), (3, 12)])
def test_the_device_killed_mid_delivery_and_restarted(tmp_path, sync_server, sync_store, batch, n):
    """Items sent one a request, or three (a backlog's batches): killed with some stored, the
    restarted device sends the rest, and what it sends again is a duplicate."""
    script = tmp_path / "device.py"
    outbox_dir = tmp_path / "outbox"
    with proxy(sync_server.port, ["slow", "lost-answer", "slow", "slow", "lost-answer"] + ["slow"] * 20) as between:
        def device(port):
            script.write_text(DEVICE.format(root=str(ROOT), outbox=str(outbox_dir), n=n, secret=SECRET,
                                            url=records_url(port), batch=batch), encoding="utf-8")
            return subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE)

        first = device(between.port)
        wait_for(lambda: sync_store.items.count() >= max(2, batch) or first.poll() is not None, poll=0.01)
        first.send_signal(signal.SIGKILL)        # killed mid-delivery (answers are slow)
        first.wait()
        assert first.returncode == -signal.SIGKILL
        assert max(2, batch) <= sync_store.items.count() < n
        second = device(sync_server.port)
        assert second.wait(60) == 0, second.stderr.read().decode()
    outbox = Outbox(outbox_dir)
    assert_exactly_once(outbox, sync_store, n)
