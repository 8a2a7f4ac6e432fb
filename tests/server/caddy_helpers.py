"""Debian's Caddy in front of the tests' receivers, running one of deploy/'s Caddyfiles as shipped,
with the example host name replaced by a free port of 127.0.0.1 (plain HTTP, or HTTPS with
``tls internal``) and the receivers' ports put in.

Without Caddy installed a test that needs it skips, saying so; with POCITADLO_REQUIRE_CADDY=1 (CI)
that is a failure."""
import os
import shutil
import socket
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from sync_helpers import wait_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_HOST = "vysledky.example-liga.cz {"
EXAMPLE_LOG = "/var/log/caddy/pocitadlo.log"


def caddy_command() -> str:
    caddy = shutil.which("caddy")
    if caddy is None:
        why = "Caddy is not installed (apt-get install caddy)"
        if os.environ.get("POCITADLO_REQUIRE_CADDY") == "1":
            pytest.fail(f"POCITADLO_REQUIRE_CADDY=1 but {why}")
        pytest.skip(why)
    return caddy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


@contextmanager
def caddy_in_front(tmp_path: Path, caddyfile: str, upstreams: dict[str, int], *, tls: bool = False):
    """deploy/``caddyfile`` run by Caddy on a free port of 127.0.0.1; ``upstreams``: the example
    addresses in it ("127.0.0.1:8080") and the ports of the receivers that take their place.
    ``tls``: HTTPS with Caddy's own CA (``tls internal``). Yields Caddy's port."""
    caddy, port = caddy_command(), free_port()
    text = (ROOT / "deploy" / caddyfile).read_text(encoding="utf-8")
    site = f"https://127.0.0.1:{port} {{\n\ttls internal" if tls else f"http://127.0.0.1:{port} {{"
    replacements = {EXAMPLE_HOST: site, EXAMPLE_LOG: str(tmp_path / "caddy-access.log"),
                    **{example: f"127.0.0.1:{ours}" for example, ours in upstreams.items()}}
    for example, ours in replacements.items():
        assert example in text, example
        text = text.replace(example, ours)
    config = tmp_path / "Caddyfile"
    # no admin endpoint; with tls internal, no attempt to install Caddy's CA in the system's store
    config.write_text("{\n\tadmin off\n\tskip_install_trust\n}\n" + text, encoding="utf-8")
    home = tmp_path / "caddy-home"
    environment = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                   "XDG_CONFIG_HOME": str(home / "config")}
    with open(tmp_path / "caddy.log", "w") as log:
        process = subprocess.Popen([caddy, "run", "--adapter", "caddyfile", "--config", str(config)],
                                   stdout=log, stderr=log, env=environment, cwd=tmp_path)
    try:
        assert wait_for(lambda: listening(port) or process.poll() is not None) and process.poll() is None, \
            (tmp_path / "caddy.log").read_text()
        yield port
    finally:
        process.terminate()
        process.wait(30)


def caddy_root_certificate(tmp_path: Path) -> Path:
    """The root certificate of the CA Caddy made for ``tls internal`` (in its data folder)."""
    found = list((tmp_path / "caddy-home").rglob("pki/authorities/local/root.crt"))
    assert found, "Caddy made no local CA"
    return found[0]
