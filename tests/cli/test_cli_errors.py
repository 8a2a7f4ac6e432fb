"""Bad input at every subcommand, as venue staff and league organisers produce it.

The standard: one line on stderr that names the file or option and the fault, exit status 2,
never a traceback; Ctrl-C is exit status 130. Every case runs the console script's main() in a
process of its own, forked from one that imported it (tests/cli/forked_cli.py), in one shared
temporary folder, so the file stays fast; some run again as the real script, which must answer alike.
"""
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main

POCITADLO = str(Path(sys.executable).with_name("pocitadlo"))
FORKED = Path(__file__).with_name("forked_cli.py")
GOOD = ('{"game":"carom","a":"Novák","b":"Dvořák","points_limit":200,"innings_limit":15}\n'
        '{"cmd":"score","value":10}\n{"cmd":"miss"}\n')
SECRET = "cli-errors-secret-0123456789"

FILES = {
    "good.jsonl": GOOD.encode(),
    "league.jsonl": GOOD.replace('"innings_limit":15}', '"innings_limit":15,"match":{"id":"m1"},"partie":2}', 1).encode(),
    "empty.jsonl": b"",
    "binary.bin": bytes(range(128, 256)) * 2,
    "latin2.jsonl": GOOD.splitlines()[0].encode() + b"\n" + '{"cmd":"miss","x":"Dvořák"}\n'.encode("cp1250"),
    "badjson.jsonl": b'{"game":"carom",\n',
    "deep.jsonl": b"[" * 100_000 + b"\n",
    "badcrc.jsonl": b'{"game":"carom","a":"A","b":"B"}\n{"cmd":"miss","crc":"00000000"}\n',
    "snooker.jsonl": b'{"game":"snooker","a":"A","b":"B"}\n',
    "format2.jsonl": b'{"game":"carom","a":"A","b":"B","format":2}\n',
    "broken.toml": b"[device\ngame = ",
    "nodevice.toml": b'[keypad]\nlong_press = 1.0\n',
    "keys_ok.txt": b"\n3\n",
    "keys_typo.txt": b"\n3\n12z\n",
    "short_secret": b"short\n",
    "secret": SECRET.encode(),
}


def config_text(d: Path, **sync) -> str:
    lines = ['[device]', 'venue = "Test"', 'table = "1"', 'game = "carom"', 'name = "t"', '[sync]']
    lines += [f'{key} = "{value}"' for key, value in sync.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_errors")
    for name, data in FILES.items():
        (d / name).write_bytes(data)
    (d / "adir").mkdir()
    (d / "none.toml").write_text(config_text(d, transport="none", outbox=d / "outbox"), encoding="utf-8")
    (d / "signed.toml").write_text(config_text(d, transport="none", outbox=d / "outbox", device_id="t",
                                               secret=SECRET), encoding="utf-8")
    (d / "nosecret.toml").write_text(config_text(d, transport="http", url="https://x.example/api",
                                                 device_id="t", secret_file=d / "missing_secret"), encoding="utf-8")
    return d


def env_for(d: Path) -> dict:
    return dict(os.environ, HOME=str(d / "home"), XDG_DATA_HOME=str(d / "home" / "data"),
                XDG_STATE_HOME=str(d / "home" / "state"), PYGAME_HIDE_SUPPORT_PROMPT="1", STATE_DIRECTORY="")


# (id, argv with {d} for the shared folder and {busy} for a port in use, stdin file or None, words in the message)
CASES = [
    ("no-command", [], None, ["COMMAND"]),
    ("unknown-command", ["dance"], None, ["'dance'"]),
    # replay: the record names the file and the line
    ("replay-missing", ["replay", "{d}/missing.jsonl"], None, ["missing.jsonl", "No such file"]),
    ("replay-folder", ["replay", "{d}/adir"], None, ["adir", "directory"]),
    ("replay-empty", ["replay", "{d}/empty.jsonl"], None, ["empty.jsonl", "no header"]),
    ("replay-binary", ["replay", "{d}/binary.bin"], None, ["binary.bin", "line 1", "not UTF-8"]),
    ("replay-not-utf8-line", ["replay", "{d}/latin2.jsonl"], None, ["latin2.jsonl", "line 2", "not UTF-8"]),
    ("replay-bad-json", ["replay", "{d}/badjson.jsonl"], None, ["badjson.jsonl", "line 1", "not valid JSON"]),
    ("replay-deep-json", ["replay", "{d}/deep.jsonl"], None, ["deep.jsonl", "nested too deeply"]),
    ("replay-bad-checksum", ["replay", "{d}/badcrc.jsonl"], None, ["badcrc.jsonl", "line 2", "checksum"]),
    ("replay-unknown-game", ["replay", "{d}/snooker.jsonl"], None, ["snooker.jsonl", "unknown game 'snooker'"]),
    ("replay-bad-format", ["replay", "{d}/format2.jsonl"], None, ["format2.jsonl", "format 2"]),
    ("replay-stdin-binary", ["replay", "-"], "binary.bin", ["standard input", "not UTF-8"]),
    ("replay-bad-indent", ["replay", "{d}/good.jsonl", "--indent", "x"], None, ["--indent", "'x'"]),
    # render
    ("render-size-small", ["render", "{d}/good.jsonl", "--size", "10x3", "--png", "{d}/o.png"], None,
     ["--size", "10x3", "out of range"]),
    ("render-size-not-max7219", ["render", "{d}/good.jsonl", "--size", "64x15", "--png", "{d}/o.png"], None,
     ["--size 64x15", "MAX7219 modules are 8x8: must be a multiple of 8, got 15"]),
    ("render-size-text", ["render", "{d}/good.jsonl", "--size", "abc", "--png", "{d}/o.png"], None,
     ["--size", "'abc'"]),
    ("render-png-no-folder", ["render", "{d}/good.jsonl", "--png", "{d}/nodir/x.png"], None,
     ["--png", "nodir/x.png", "does not exist"]),
    ("render-gif-no-folder", ["render", "{d}/good.jsonl", "--gif", "{d}/nodir/x.gif"], None,
     ["--gif", "nodir/x.gif", "does not exist"]),
    ("render-png-is-folder", ["render", "{d}/good.jsonl", "--png", "{d}/adir"], None, ["--png", "adir", "folder"]),
    ("render-scale", ["render", "{d}/good.jsonl", "--pixels", "--scale", "0", "--png", "{d}/o.png"], None,
     ["--scale", "'0'"]),
    ("render-no-output", ["render", "{d}/good.jsonl"], None, ["--png FILE"]),
    ("render-night-garbage", ["render", "{d}/league.jsonl", "--night", "{d}/badjson.jsonl", "--png", "{d}/o.png"], None,
     ["--night", "badjson.jsonl", "not a night journal"]),
    ("render-night-empty", ["render", "{d}/league.jsonl", "--night", "{d}/empty.jsonl", "--png", "{d}/o.png"], None,
     ["--night", "empty.jsonl", "not a night journal"]),
    ("render-bad-record", ["render", "{d}/badcrc.jsonl", "--png", "{d}/o.png"], None, ["badcrc.jsonl", "checksum"]),
    # keycard
    ("keycard-broken-config", ["keycard", "--png", "{d}/k.png", "--config", "{d}/broken.toml"], None,
     ["broken.toml", "not valid TOML"]),
    ("keycard-missing-config", ["keycard", "--png", "{d}/k.png", "--config", "{d}/missing.toml"], None,
     ["missing.toml", "not found"]),
    ("keycard-binary-config", ["keycard", "--png", "{d}/k.png", "--config", "{d}/binary.bin"], None,
     ["binary.bin", "not UTF-8"]),
    ("keycard-config-folder", ["keycard", "--png", "{d}/k.png", "--config", "{d}/adir"], None, ["adir", "cannot read"]),
    ("keycard-config-no-device", ["keycard", "--png", "{d}/k.png", "--config", "{d}/nodevice.toml"], None,
     ["nodevice.toml", "[device]", "missing"]),
    ("keycard-png-no-folder", ["keycard", "--png", "{d}/nodir/k.png"], None, ["--png", "does not exist"]),
    ("keycard-png-is-folder", ["keycard", "--png", "{d}/adir"], None, ["--png", "adir", "folder"]),
    ("keycard-bad-game", ["keycard", "--png", "{d}/k.png", "--game", "snooker"], None, ["--game", "'snooker'"]),
    # emulate
    ("emulate-keys-missing", ["emulate", "--data", "{d}/emu", "--keys", "{d}/missing.txt"], None,
     ["--keys", "missing.txt", "cannot read"]),
    ("emulate-keys-folder", ["emulate", "--data", "{d}/emu", "--keys", "{d}/adir"], None, ["--keys", "adir", "cannot read"]),
    ("emulate-keys-binary", ["emulate", "--data", "{d}/emu", "--keys", "{d}/binary.bin"], None,
     ["--keys", "binary.bin", "not UTF-8"]),
    ("emulate-keys-unknown", ["emulate", "--data", "{d}/emu", "--keys", "{d}/keys_typo.txt"], None,
     ["--keys", "keys_typo.txt", "line 3 column 3", "'z' is no key"]),
    ("emulate-frames-on-a-file", ["emulate", "--data", "{d}/emu", "--keys", "{d}/keys_ok.txt",
                                  "--frames", "{d}/good.jsonl/frames"], None, ["--frames", "not a folder"]),
    ("emulate-data-is-a-file", ["emulate", "--data", "{d}/good.jsonl", "--keys", "{d}/keys_ok.txt"], None,
     ["--data", "good.jsonl", "not a folder"]),
    ("emulate-broken-config", ["emulate", "--data", "{d}/emu", "--keys", "{d}/keys_ok.txt",
                               "--config", "{d}/broken.toml"], None, ["broken.toml", "not valid TOML"]),
    ("emulate-missing-config", ["emulate", "--data", "{d}/emu", "--keys", "{d}/keys_ok.txt",
                                "--config", "{d}/missing.toml"], None, ["missing.toml", "not found"]),
    ("emulate-frames-without-keys", ["emulate", "--frames", "{d}/frames"], None, ["--frames needs --keys"]),
    # outbox
    ("outbox-missing-config", ["outbox", "--config", "{d}/missing.toml"], None, ["missing.toml", "not found"]),
    # run: a mistyped --config is no config error to wait out (issue 24: it waited for ever)
    ("run-missing-config", ["run", "--config", "{d}/missing.toml"], None, ["pocitadlo run", "missing.toml",
                                                                          "No such file"]),
    ("run-config-is-a-folder", ["run", "--config", "{d}/adir"], None, ["pocitadlo run", "adir", "directory"]),
    ("outbox-broken-config", ["outbox", "--config", "{d}/broken.toml"], None, ["broken.toml", "not valid TOML"]),
    ("outbox-binary-config", ["outbox", "--config", "{d}/binary.bin"], None, ["binary.bin", "not UTF-8"]),
    ("outbox-missing-secret", ["outbox", "--config", "{d}/nosecret.toml"], None,
     ["nosecret.toml", "secret_file", "cannot read"]),
    ("outbox-missing-dir", ["outbox", "--config", "{d}/none.toml", "--dir", "{d}/no_outbox"], None,
     ["--dir", "no_outbox", "no outbox"]),
    ("outbox-dir-is-a-file", ["outbox", "--config", "{d}/none.toml", "--dir", "{d}/good.jsonl"], None,
     ["--dir", "good.jsonl", "no outbox"]),
    ("outbox-export-no-file", ["outbox", "export", "--config", "{d}/signed.toml"], None, ["export needs a file"]),
    ("outbox-export-no-folder", ["outbox", "export", "{d}/nodir/b.jsonl", "--config", "{d}/signed.toml"], None,
     ["export", "nodir/b.jsonl", "does not exist"]),
    ("outbox-export-to-folder", ["outbox", "export", "{d}/adir", "--config", "{d}/signed.toml"], None,
     ["export", "adir", "folder"]),
    # (an export without [sync] device_id and secret is no error since issue 12: tests/cli/test_sync_cli.py)
    ("outbox-retry-nowhere", ["outbox", "retry", "--config", "{d}/none.toml"], None, ['transport is "none"']),
    # serve
    ("serve-db-not-sqlite", ["server", "--db", "{d}/good.jsonl", "devices"], None, ["good.jsonl", "not a usable SQLite"]),
    ("serve-db-no-folder", ["server", "--db", "{d}/nodir/l.sqlite", "add-device", "x", "--venue", "Hostinec U Lva"], None,
     ["nodir/l.sqlite", "not a usable SQLite"]),
    ("serve-db-missing", ["server", "--db", "{d}/typo.sqlite", "devices"], None, ["--db", "typo.sqlite", "no such store"]),
    ("serve-port-in-use", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:{busy}"], None,
     ["--listen", "127.0.0.1:{busy}", "in use"]),
    ("serve-port-range", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:99999"], None,
     ["--listen", "99999"]),
    ("serve-listen-no-host", ["serve", "--db", "{d}/league.sqlite", "--listen", ":8080"], None, ["--listen", "':8080'"]),
    ("serve-cert-missing", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:0", "--cert", "{d}/no.pem"],
     None, ["--cert", "no.pem", "no such file"]),
    ("serve-cert-not-pem", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:0", "--cert",
                            "{d}/good.jsonl"], None, ["--cert", "good.jsonl", "not a usable PEM"]),
    ("serve-cert-folder", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:0", "--cert", "{d}/adir"],
     None, ["--cert", "adir", "folder"]),
    ("serve-key-without-cert", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:0", "--key",
                                "{d}/good.jsonl"], None, ["--key needs --cert"]),
    ("serve-ca-not-pem", ["serve", "--db", "{d}/league.sqlite", "--listen", "127.0.0.1:0", "--forward",
                          "https://127.0.0.1:9/api/v1/records", "--gateway-id", "g", "--gateway-secret-file",
                          "{d}/secret", "--ca-file", "{d}/good.jsonl"], None, ["--ca-file", "good.jsonl", "PEM"]),
    ("serve-forward-not-url", ["serve", "--db", "{d}/league.sqlite", "--forward", "ftp://x", "--gateway-id", "g",
                               "--gateway-secret-file", "{d}/secret"], None, ["--forward", "ftp://x"]),
    ("serve-import-missing", ["server", "--db", "{d}/league.sqlite", "import", "{d}/missing.jsonl"], None,
     ["missing.jsonl", "No such file"]),
    ("serve-import-folder", ["server", "--db", "{d}/league.sqlite", "import", "{d}/adir"], None, ["adir", "directory"]),
    ("serve-import-binary", ["server", "--db", "{d}/league.sqlite", "import", "{d}/binary.bin"], None,
     ["import", "binary.bin", "not UTF-8"]),
    ("serve-device-id-empty", ["server", "--db", "{d}/league.sqlite", "add-device", "", "--venue", "Hostinec U Lva"], None,
     ["argument id", "''"]),
    ("serve-device-id-space", ["server", "--db", "{d}/league.sqlite", "add-gateway", "u lva"], None,
     ["argument id", "'u lva'"]),
    ("serve-secret-no-folder", ["server", "--db", "{d}/league.sqlite", "add-device", "x", "--venue", "Hostinec U Lva",
                                "--secret-file", "{d}/nodir/secret"], None, ["nodir/secret", "cannot write the new secret"]),
    ("serve-secret-short", ["server", "--db", "{d}/league.sqlite", "add-device", "x", "--venue", "Hostinec U Lva", "--secret-file",
                            "{d}/short_secret"], None, ["short_secret", "at least"]),
    ("serve-secret-binary", ["server", "--db", "{d}/league.sqlite", "add-device", "x", "--venue", "Hostinec U Lva", "--secret-file",
                             "{d}/binary.bin"], None, ["binary.bin", "cannot read the secret"]),
    ("serve-no-match", ["server", "--db", "{d}/league.sqlite", "match", "nope"], None, ["no match 'nope'"]),
    ("serve-baudrate", ["serve", "--db", "{d}/league.sqlite", "--serial", "/dev/null", "--baudrate", "-5"], None,
     ["--baudrate", "'-5'"]),
]


@pytest.fixture(scope="module")
def results(workdir):
    """Every case run once (tests/cli/forked_cli.py: the script's main() in a process of its own,
    forked from one that imported it); the port in use is held open by this process meanwhile."""
    env = env_for(workdir)
    made = subprocess.run([POCITADLO, "server", "--db", str(workdir / "league.sqlite"), "add-device", "dev1",
                           "--venue", "Hostinec U Lva", "--secret-file", str(workdir / "secret")],
                          env=env, capture_output=True)
    assert made.returncode == 0, made.stderr
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]

    def fill(text: str) -> str:
        return text.format(d=workdir, busy=port)

    cases = [[name, [fill(arg) for arg in argv], str(workdir / stdin) if stdin else None]
             for name, argv, stdin, _ in CASES]
    (workdir / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (workdir / "forked").mkdir()
    try:
        done = subprocess.run([sys.executable, str(FORKED), str(workdir / "cases.json"), str(workdir / "forked")],
                              env=env, capture_output=True, timeout=300)
    finally:
        busy.close()
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    out = {name: tuple(result) for name, result in json.loads(done.stdout).items()}
    return out, fill, env


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_naming_the_fault_and_exit_status_2(results, case):
    out, fill, _ = results
    name, _, _, words = case
    status, stdout, stderr = out[name]
    assert "Traceback" not in stdout + stderr, stderr
    assert status == 2, (status, stderr)
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("pocitadlo"), stderr
    for word in words:
        assert fill(word) in lines[0], (word, lines[0])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["no-command", "replay-stdin-binary", "keycard-broken-config", "emulate-keys-unknown",
                                  "outbox-missing-secret", "serve-db-missing"])
def test_the_real_script_answers_as_its_forked_main_did(results, workdir, name):
    """The cases run forked from one process (above); some of them again as the installed
    console script, a fresh interpreter: the same status and the same words."""
    out, fill, env = results
    _, argv, stdin, _ = next(case for case in CASES if case[0] == name)
    data = (workdir / stdin).read_bytes() if stdin else b""
    done = subprocess.run([POCITADLO, *map(fill, argv)], input=data, env=env, capture_output=True, timeout=60)
    assert (done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")) == out[name]


@pytest.mark.slow
def test_bad_input_changes_nothing(results, workdir):
    """Refused commands made no outbox, store, frames or pictures where they were refused."""
    for made in ("nodir", "no_outbox", "typo.sqlite", "o.png", "k.png", "frames", "b.jsonl", "adir.tmp"):
        assert not (workdir / made).exists(), made
    assert list((workdir / "adir").iterdir()) == []
    assert (workdir / "good.jsonl").read_bytes() == FILES["good.jsonl"]


def start_and_interrupt(argv, env, ready: bytes, stream: str):
    """Start the command, wait until it prints ``ready`` on ``stream``, send SIGINT; (status, all output)."""
    child = subprocess.Popen([POCITADLO, *argv], env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        pipe = child.stdout if stream == "stdout" else child.stderr
        seen = b""
        while ready not in seen:
            line = pipe.readline()
            assert line, seen
            seen += line
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, (seen + out + err).decode(errors="replace")


def test_ctrl_c_stops_the_receiver_with_status_130_and_no_traceback(workdir):
    status, output = start_and_interrupt(["serve", "--db", str(workdir / "league.sqlite"), "--listen", "127.0.0.1:0"],
                                         env_for(workdir), b"receiving on", "stdout")
    assert status == 130 and "Traceback" not in output, output


def test_ctrl_c_while_run_waits_for_a_fixed_config_is_status_130_and_no_traceback(workdir):
    """`run` with a broken config shows the error and waits (by design); Ctrl-C there is a clean stop."""
    status, output = start_and_interrupt(["run", "--config", str(workdir / "broken.toml")], env_for(workdir),
                                         b"config error", "stderr")
    assert status == 130 and "Traceback" not in output, output
    assert "broken.toml" in output


def test_a_closed_output_pipe_ends_quietly(workdir):
    read, write = os.pipe()
    os.close(read)                       # the reader is gone before anything is written
    done = subprocess.run([POCITADLO, "replay", str(workdir / "good.jsonl")], stdout=write,
                          stderr=subprocess.PIPE, env=env_for(workdir))
    os.close(write)
    assert done.returncode == 0 and done.stderr == b""


def test_a_bug_is_one_line_pointing_at_the_traceback_in_the_crash_log(tmp_path, monkeypatch, capsys):
    from cli.commands import replay

    def broken(args):
        raise ValueError("a bug in the code")

    monkeypatch.setattr(replay, "run", broken)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("POCITADLO_DEBUG", raising=False)
    assert main(["replay", "x.jsonl"]) == 1
    err = capsys.readouterr().err
    log = tmp_path / "pocitadlo" / "crash.log"
    assert err.splitlines() == [f"pocitadlo replay: internal error (ValueError: a bug in the code); this is a bug, "
                                f"please report it — the traceback is in {log}"]
    assert "Traceback" in log.read_text(encoding="utf-8") and "a bug in the code" in log.read_text(encoding="utf-8")


def test_debug_shows_the_traceback_of_a_bug(monkeypatch):
    from cli.commands import replay

    def broken(args):
        raise ValueError("a bug in the code")

    monkeypatch.setattr(replay, "run", broken)
    with pytest.raises(ValueError, match="a bug in the code"):
        main(["--debug", "replay", "x.jsonl"])


def test_registering_a_device_again_says_whether_its_old_secret_still_works(tmp_path, capsys):
    db = str(tmp_path / "league.sqlite")
    assert main(["server", "--db", db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva"]) == 0
    assert capsys.readouterr().out.startswith("registered device u-lva-1;")
    assert main(["server", "--db", db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva"]) == 0
    assert capsys.readouterr().out.startswith("re-registered device u-lva-1 (its secret unchanged;")
    assert main(["server", "--db", db, "add-device", "u-lva-1", "--venue", "Hostinec U Lva", "--rotate"]) == 0
    assert capsys.readouterr().out.startswith("re-registered device u-lva-1 with a new secret (its old secret no "
                                              "longer works);")


def test_a_console_that_cannot_show_czech_gets_escapes_not_a_crash(workdir):
    done = subprocess.run([POCITADLO, "replay", str(workdir / "good.jsonl")], capture_output=True,
                          env=dict(env_for(workdir), PYTHONIOENCODING="ascii"))
    assert done.returncode == 0 and done.stderr == b""
    assert b"Nov\\xe1k" in done.stdout
