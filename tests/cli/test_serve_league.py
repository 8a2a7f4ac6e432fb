"""`pocitadlo serve` answers the devices' league fetch from its store's league (issue 16):
``league_document(store, venue, today)``, asked with the receiver's own date."""
from argparse import Namespace

from cli.commands import serve
from cli.main import UserError
from league_fetch_helpers import LVA, fetcher_for, league_document
from server.http_server import ReceiverServer
from server.ingest.receiver import Receiver
from server.storage.store import Store
from sync_helpers import DEVICE, SECRET


def test_serve_hands_the_stores_league_to_the_devices(tmp_path, evening, monkeypatch):
    store, asked = Store(tmp_path / "league.sqlite", clock=evening), []

    def the_league(of, venue, today, days: int = 28):
        asked.append((of, venue, today))
        return league_document(today) if venue == LVA else None
    monkeypatch.setattr("server.tables.league_document.league_document", the_league)
    store.devices.add(DEVICE, SECRET, venue=LVA)
    args = Namespace(cert=None, key=None, listen="127.0.0.1:0", admin_token_file=None, proxy=None)
    server = serve._listen(args, "127.0.0.1", 0, Receiver(store), ReceiverServer, UserError)
    server.start(poll_interval=0.02)
    try:
        answer = fetcher_for(server.port, evening).fetch()
    finally:
        server.shutdown()
        server.server_close()
        store.close()
    assert answer.venue == LVA and asked == [(store, LVA, evening.today())]
    assert [f["date"] for f in answer.document["fixtures"]] == [evening.today().isoformat()]
