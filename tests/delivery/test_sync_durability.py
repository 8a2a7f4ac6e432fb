"""The outbox survives a device killed with SIGKILL while it adds items (delivery/outbox.py)."""
import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from delivery.outbox import Outbox, item_body

ROOT = Path(__file__).resolve().parents[2]

ADDER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from delivery.outbox import Outbox
    box = Outbox({dir!r})
    print("ready", flush=True)
    for i in range({n}):
        record = '{{"game":"carom","id":"p-%d","a":"Novák","b":"Dvořák"}}\\n' % i + '{{"cmd":"miss"}}\\n' * 200
        box.add(f"p-{{i}}", "partie", record, {{"n": i}})
""")


def expected(i):
    record = '{"game":"carom","id":"p-%d","a":"Novák","b":"Dvořák"}\n' % i + '{"cmd":"miss"}\n' * 200
    return item_body(f"p-{i}", "partie", record, {"n": i})


def test_killed_while_adding_then_restarted_every_item_is_whole_and_single(tmp_path):
    n = 60
    script = tmp_path / "adder.py"
    script.write_text(ADDER.format(root=str(ROOT), dir=str(tmp_path / "outbox"), n=n), encoding="utf-8")
    for delay in (0.0, 0.01, 0.03):
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE)
        assert proc.stdout.readline() == b"ready\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        box = Outbox(tmp_path / "outbox")
        for item in box.pending():                   # whatever is there is whole
            assert item.body == expected(int(item.id[2:]))
    assert subprocess.run([sys.executable, str(script)]).returncode == 0
    box = Outbox(tmp_path / "outbox")
    items = box.pending()
    assert sorted(int(i.id[2:]) for i in items) == list(range(n))
    assert all(i.body == expected(int(i.id[2:])) for i in items)
    assert list((tmp_path / "outbox" / "tmp").iterdir()) == []
    assert json.loads(items[0].body)["kind"] == "partie"
