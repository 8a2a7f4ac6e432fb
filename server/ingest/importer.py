"""Importing a backlog file carried from a venue on a USB stick (``pocitadlo outbox export``).

Each line is a signed item (device, timestamp, nonce, signature, body). The signature is checked
against the registered device as for a post; the timestamp window and nonce are not (the file is
days old by design), and the stored-id rules still make a second import harmless. Each BATCH
lines are stored with one commit (``Receiver.receive_many``: each item still answered as if
alone), so a season's archive does not wait for the disk once per item; the figures of the
matches imported are computed once, after the last line.

A batch holds the store's writer while its items are checked (each partie replayed to its
summary; 0.5-1.5 ms an item on a 2-core machine, quiet or loaded): BATCH is small enough that a
receiver serving devices on the same database makes a device's post wait for one batch at most.
A larger one gains nothing measurable (docs/server.md, "Figures computed after the answer").
"""
from wire.signing import Signed

BATCH = 50          # lines stored with one commit


def import_backlog(receiver, path) -> dict:
    """Feed every line to the receiver; return counts and the refusals (line number, status, reason)."""
    counts: dict = {"stored": 0, "duplicate": 0, "refused": []}
    batch: list[tuple[int, Signed]] = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                batch.append((number, Signed.from_line(line)))
            except ValueError as exc:      # not even a signed line: the refusal log names the line
                status, _ = receiver.refuse_unsigned(f"line {number}: {exc}", via="import", remote=str(path))
                counts["refused"].append({"line": number, "status": status, "reason": str(exc)})
            if len(batch) == BATCH:
                _stored(receiver, path, batch, counts)
                batch = []
    _stored(receiver, path, batch, counts)
    counts["refused"].sort(key=lambda refused: refused["line"])
    receiver.settle()           # the figures of every match imported, in one step
    return counts


def _stored(receiver, path, batch: list[tuple[int, Signed]], counts: dict) -> None:
    """Store a batch of signed lines with one commit, counting each line's answer."""
    if not batch:
        return
    answers = receiver.receive_many([signed for _, signed in batch], via="import", remote=str(path), fresh_only=False)
    for (number, _), (status, answer) in zip(batch, answers):
        if status == 200:
            counts[answer["status"]] += 1
        else:
            counts["refused"].append({"line": number, "status": status, "reason": answer["reason"]})
