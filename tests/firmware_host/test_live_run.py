"""`pocitadlo run` with [live] enabled: the page comes up after the first frame, goes with SIGTERM;
a port already taken is one log line and the counter goes on."""
import os
import signal
import socket
import subprocess
import sys

from live_helpers import get, until


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(tmp_path, port: int) -> subprocess.Popen:
    """`pocitadlo run` with [live] on ``port``; its log goes to tmp_path/log."""
    config = tmp_path / "config.toml"
    config.write_text('[device]\nvenue = "Hospoda U Lva"\ntable = "3"\ndata_dir = "data"\n'
                      '[display]\ndriver = "dummy"\n[keypad]\ndevices = ["terminal"]\n[sync]\noutbox = "outbox"\n'
                      f'[live]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n', encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    env.pop("NOTIFY_SOCKET", None)
    with open(tmp_path / "log", "w") as log:
        return subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config)],
                                stdin=subprocess.DEVNULL, stderr=log, env=env)


def answer(address):
    try:
        return get(address, "/state.json")
    except OSError:
        return None


def test_run_serves_the_live_state_and_stops_on_sigterm(tmp_path):
    address = ("127.0.0.1", free_port())
    child = start(tmp_path, address[1])
    try:
        status, headers, body = until(lambda: answer(address), "the live page is up", limit=30)
    finally:
        child.send_signal(signal.SIGTERM)
        code = child.wait(20)
    assert status == 200 and b'"view":"ready"' in body and b'"table":"3"' in body
    assert code == 0, (tmp_path / "log").read_text()


def test_a_taken_port_is_logged_and_the_counter_goes_on(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        child = start(tmp_path, taken.getsockname()[1])
        try:
            said = "live page off, scoring goes on: cannot listen on 127.0.0.1:"
            until(lambda: said in (tmp_path / "log").read_text(), "the log says why", limit=30)
        finally:
            child.send_signal(signal.SIGTERM)
            code = child.wait(20)
    assert code == 0 and "Traceback" not in (tmp_path / "log").read_text()
