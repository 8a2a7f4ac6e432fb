"""`pocitadlo server import` (server/ingest/importer.py): a backlog stored a batch per commit,
each line still answered as if alone, the figures computed once at the end."""
import json

from conftest import match_items, register_devices, signer
from server.ingest import importer
from server.ingest.receiver import Receiver
from server.storage.store import Store
from server.tables import exports


def test_a_backlog_is_stored_a_batch_per_commit_each_line_answered_alone(tmp_path, monkeypatch):
    """Issue 26: a season's archive imported at 0.06 of a bare SQLite loop, a commit per item."""
    bodies = match_items("KD-1", seed=1) + match_items("KD-2", seed=2)
    lines = [json.dumps(signer("u-lva-1").sign(body).to_json(), ensure_ascii=False) for body in bodies]
    lines.insert(3, "not a signed line")
    lines.append(lines[0])                                      # carried in twice: a duplicate
    backlog = tmp_path / "backlog.jsonl"
    backlog.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(importer, "BATCH", 4)
    store = register_devices(Store(tmp_path / "league.sqlite"))
    try:
        receiver, commits = Receiver(store), []
        receive_many = receiver.receive_many
        monkeypatch.setattr(receiver, "receive_many",
                            lambda signed, **options: commits.append(len(signed)) or receive_many(signed, **options))
        counts = importer.import_backlog(receiver, backlog)
        table = exports.league_table(store)
    finally:
        store.close()
    assert commits == [4, 4, 3]                                 # one transaction (one commit) a batch
    assert (counts["stored"], counts["duplicate"]) == (10, 1)
    assert [(r["line"], r["status"]) for r in counts["refused"]] == [(4, 400)]
    assert sum(row["partie"] for row in table["rows"]) == 16    # both matches' figures, computed at the end
