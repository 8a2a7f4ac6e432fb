"""Fixtures of the end-to-end tests."""
from argparse import Namespace

import pytest

from admin_http_helpers import TOKEN
from cli.commands import serve
from cli.main import UserError
from server.http_server import ReceiverServer
from server.receiver import Receiver
from server.store import Store


@pytest.fixture
def receiver_on(tmp_path):
    """``start(db, clock)``: the receiver as `pocitadlo serve --admin-token-file` runs it (the
    store's league answers the devices' fetch; the web admin opens with TOKEN)."""
    running = []

    def start(db: str, clock) -> ReceiverServer:
        token = tmp_path / "admin.token"
        token.write_text(TOKEN, encoding="utf-8")
        store = Store(db, clock=clock)
        args = Namespace(cert=None, key=None, listen="127.0.0.1:0", admin_token_file=str(token))
        server = serve._listen(args, "127.0.0.1", 0, Receiver(store), ReceiverServer, UserError)
        server.start(poll_interval=0.02)
        running.append((server, store))
        return server

    yield start
    for server, store in running:
        server.shutdown()
        server.server_close()
        store.close()
