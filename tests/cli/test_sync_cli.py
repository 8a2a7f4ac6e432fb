"""`pocitadlo outbox` and `pocitadlo serve`: the USB-stick path, retry now, device registration."""
import json
import logging
import socket

import pytest

import carom_samples
from cli.main import main
from delivery.outbox import Outbox
from server.storage.store import Store
from sync_helpers import league_store, records_url, running_server

SECRET = "cli-secret-0123456789"


def write_config(tmp_path, **sync):
    lines = ["[sync]"] + [f"{k} = {json.dumps(v)}" for k, v in sync.items()]
    path = tmp_path / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def queued(tmp_path):
    outbox = Outbox(tmp_path / "outbox")
    played, (mid, mtext, msummary) = carom_samples.match("KD-5", "Lvi", "Orli", seed=2, points_limit=40, innings_limit=5)
    for pid, text, summary in played:
        outbox.add(pid, "partie", text, summary)
    outbox.add(mid, "match", mtext, msummary)
    return outbox


def register(db, secret_file):
    assert main(["server", "--db", str(db), "add-device", "u-lva-1", "--venue", "Hostinec U Lva", "--secret-file", str(secret_file)]) == 0


def test_backlog_on_a_usb_stick_is_imported_once(tmp_path, queued, capsys):
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    config = write_config(tmp_path, device_id="u-lva-1", secret_file="secret", outbox="outbox")
    assert main(["outbox", "--config", config]) == 0
    assert "5 unsent; last delivery: never" in capsys.readouterr().out
    stick = tmp_path / "backlog.jsonl"
    assert main(["outbox", "--config", config, "export", str(stick)]) == 0
    db = tmp_path / "league.sqlite"
    register(db, tmp_path / "secret")
    assert main(["server", "--db", str(db), "import", str(stick)]) == 0
    assert "stored 5, already had 0, refused 0" in capsys.readouterr().out
    assert main(["server", "--db", str(db), "import", str(stick)]) == 0      # carried in twice
    assert "stored 0, already had 5, refused 0" in capsys.readouterr().out
    store = Store(db)
    try:
        for item in queued.pending():
            assert store.items.body(item.id) == item.body
    finally:
        store.close()
    assert main(["server", "--db", str(db), "match", "KD-5", "--html"]) == 0
    assert "Zápis o utkání: Lvi – Orli" in capsys.readouterr().out


def test_an_altered_backlog_line_is_refused(tmp_path, queued, capsys):
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    config = write_config(tmp_path, device_id="u-lva-1", secret_file="secret", outbox="outbox")
    stick = tmp_path / "backlog.jsonl"
    main(["outbox", "--config", config, "export", str(stick)])
    lines = stick.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace("Lvi", "Lvy")
    stick.write_text("\n".join(lines + ["not json"]) + "\n", encoding="utf-8")
    db = tmp_path / "league.sqlite"
    register(db, tmp_path / "secret")
    assert main(["server", "--db", str(db), "import", str(stick)]) == 3      # lines refused: not a bug (1)
    out = capsys.readouterr().out
    assert "line 1: refused (401): bad signature" in out and "line 6: refused (400)" in out
    assert "stored 4" in out


def test_retry_now_delivers_to_a_running_receiver(tmp_path, queued, capsys):
    with league_store(tmp_path / "league.sqlite", SECRET.encode()) as store, running_server(store) as server:
        config = write_config(tmp_path, transport="http", url=records_url(server.port),
                              allow_plain_http=True, device_id="u-lva-1", secret=SECRET, outbox="outbox")
        assert main(["outbox", "--config", config, "retry"]) == 0
        assert capsys.readouterr().out.startswith("0 unsent; last delivery: 20")
        assert store.items.count() == 5


def test_retry_with_the_receiver_down_says_what_happened(tmp_path, queued, capsys, caplog):
    with socket.socket() as probe:           # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = write_config(tmp_path, transport="http", url=f"http://127.0.0.1:{port}/api/v1/records",
                          allow_plain_http=True, device_id="u-lva-1", secret=SECRET, outbox="outbox")
    with caplog.at_level(logging.WARNING):
        assert main(["outbox", "--config", config, "retry"]) == 3     # not all delivered: not a bug (1)
    assert "next try" not in caplog.text
    [message] = caplog.messages
    assert message.startswith("sync: not delivered: ") and message.endswith("; it stays in the outbox")
    assert capsys.readouterr().out == (f"5 unsent; last delivery: never; last error: KD-5-p1: the receiver at "
                                       f"http://127.0.0.1:{port}/api/v1/records refused the connection "
                                       "(is it running?)\n")


def test_a_named_outbox_is_listed_without_the_device_config(tmp_path, queued, capsys, monkeypatch):
    """Issue 12: `outbox list --dir X` needs no /etc/pocitadlo/config.toml and creates nothing else;
    --data finds the outbox where `pocitadlo emulate --data` keeps it."""
    monkeypatch.setattr("cli.commands.outbox.DEFAULT_CONFIG", str(tmp_path / "no-such-config.toml"))
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["outbox", "list", "--dir", str(tmp_path / "outbox")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "5 unsent; last delivery: never"
    assert main(["outbox", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "5 unsent; last delivery: never"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert main(["outbox", "--data", str(tmp_path / "elsewhere")]) == 2
    assert capsys.readouterr().err.strip() == (f"pocitadlo outbox: --data {tmp_path / 'elsewhere' / 'outbox'}: "
                                               "no outbox there (no pending/ folder)")
    assert not (tmp_path / "elsewhere").exists()


def test_cli_errors_are_one_line(tmp_path, capsys):
    config = write_config(tmp_path, outbox="outbox")
    assert main(["outbox", "--config", config, "retry"]) == 2
    assert capsys.readouterr().err.strip() == ('pocitadlo outbox: [sync] transport is "none": nothing to send to '
                                               '(use export for a USB stick)')
    assert main(["outbox", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "file not found" in capsys.readouterr().err
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    assert main(["server", "--db", str(bad), "records"]) == 2
    assert "not a usable SQLite store" in capsys.readouterr().err


def test_a_damaged_item_file_is_counted_unsent_as_the_counter_counts_it(tmp_path, queued, capsys):
    """`outbox list`, `outbox retry` and the counter's figure (Outbox.unsent) say one number: a
    damaged file is a partie the receiver has not got, so it is unsent, and list names it."""
    (tmp_path / "outbox" / "pending" / "zz-bad.json").write_bytes(b"garbage\n")
    assert main(["outbox", "list", "--dir", str(tmp_path / "outbox")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["zz-bad.json\t?\tdamaged on disk: unreadable, left in place",
                          "6 unsent; last delivery: never"]
    assert queued.unsent() == 6


def test_list_says_the_last_delivery_error_the_service_kept(tmp_path, queued, capsys):
    """A persistent 401 (a wrong secret, a device not registered) must not look like "unsent" alone:
    the service's delivery keeps its last error in the outbox, and list says it."""
    queued.keep_error("KD-5-p1: 401 unknown device 'u-lva-1'")
    assert main(["outbox", "list", "--dir", str(tmp_path / "outbox")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "5 unsent; last delivery: never; last error: KD-5-p1: 401 unknown device 'u-lva-1'")


def test_a_word_after_list_or_retry_is_refused_not_ignored(tmp_path, queued, capsys):
    for action in ("list", "retry"):
        assert main(["outbox", action, "extra", "--dir", str(tmp_path / "outbox")]) == 2
        assert capsys.readouterr().err.strip() == (f"pocitadlo outbox: {action} takes no file: 'extra' "
                                                   "(only export writes one)")


def test_add_device_prints_a_new_secret_once(tmp_path, capsys):
    db = tmp_path / "league.sqlite"
    assert main(["server", "--db", str(db), "add-device", "u-tygra-2", "--venue", "Hostinec U Lva"]) == 0
    secret = capsys.readouterr().out.splitlines()[-1]
    store = Store(db)
    try:
        assert store.devices.secret_of("u-tygra-2") == secret.encode() and len(secret) >= 32
    finally:
        store.close()


def test_an_unregistered_device_exports_its_backlog_and_the_organiser_imports_it(tmp_path, queued, capsys,
                                                                                  monkeypatch):
    """Issue 12: `outbox export` works on a device with no [sync] device_id/secret (here: no config
    file at all); it says how the organiser registers the device and imports the file, and doing
    exactly that stores every item once. A second export signs as the same device."""
    monkeypatch.setattr("cli.commands.outbox.DEFAULT_CONFIG", str(tmp_path / "no-such-config.toml"))
    stick = tmp_path / "backlog.jsonl"
    assert main(["outbox", "export", str(stick), "--dir", str(tmp_path / "outbox")]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"exported 5 item(s) to {stick}, signed as the unregistered device pocitadlo-")
    add, then = said[2].split(), said[3].split()
    assert add[:5] == ["pocitadlo", "server", "--db", "STORE", "add-device"] and then[-2:] == ["import", str(stick)]
    device = add[5]
    venue = said[2].split('--venue "')[1].split('"')[0]
    key = tmp_path / "backlog.jsonl.key"
    assert add[-2:] == ["--secret-file", str(key)] and oct(key.stat().st_mode & 0o777) == "0o600"

    db = tmp_path / "league.sqlite"
    assert main(["server", "--db", str(db), "add-device", device, "--venue", venue, "--secret-file", str(key)]) == 0
    assert main(["server", "--db", str(db), "import", str(stick)]) == 0
    assert "stored 5, already had 0, refused 0" in capsys.readouterr().out
    store = Store(db)
    try:
        assert sorted(row["device"] for row in store.items.all()) == [device] * 5
    finally:
        store.close()

    again = tmp_path / "again.jsonl"
    assert main(["outbox", "export", str(again), "--data", str(tmp_path)]) == 0
    assert f"unregistered device {device} " in capsys.readouterr().out
    assert main(["server", "--db", str(db), "import", str(again)]) == 0        # the same identity
    assert "stored 0, already had 5, refused 0" in capsys.readouterr().out


def test_a_device_with_sync_but_no_registration_exports_under_its_device_id(tmp_path, queued, capsys):
    config = write_config(tmp_path, device_id="u-lva-9", outbox="outbox")
    assert main(["outbox", "--config", config, "export", str(tmp_path / "b.jsonl")]) == 0
    assert "signed as the unregistered device u-lva-9 " in capsys.readouterr().out
