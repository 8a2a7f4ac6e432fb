"""Importing a backlog file carried from a venue on a USB stick (``pocitadlo outbox export``).

Each line is a signed item (device, timestamp, nonce, signature, body). The signature is checked
against the registered device as for a post; the timestamp window and nonce are not (the file is
days old by design), and the stored-id rules still make a second import harmless. Each BATCH
lines are stored with one commit (``Receiver.receive_many``: each item still answered as if
alone), so a season's archive does not wait for the disk once per item; the figures of the
matches imported are computed once, after the last line.

The items' content (each partie replayed to its summary, most of an item's work) is checked in
worker processes, AHEAD batches ahead of the one being stored (server/ingest/prechecks.py), so
that a batch holds the store's writer only for the checks that read the store and its writes:
BATCH is small enough that a receiver serving devices on the same database makes a device's
post wait for one batch at most. A larger one gains nothing measurable (docs/server.md,
"Ingestion").
"""
from collections import deque
from concurrent.futures import Future

from server.ingest.prechecks import Prechecks
from wire.signing import Signed

BATCH = 50          # lines stored with one commit
AHEAD = 2           # batches whose items are being checked in a worker while one is stored
IN_PLACE = 2        # the first batches are checked in place (a worker takes ~0.3 s to start)


def import_backlog(receiver, path, *, prechecks: Prechecks | None = None) -> dict:
    """Feed every line to the receiver; return counts and the refusals (line number, status, reason).
    The items of the next batches are checked in worker processes (``prechecks``: by default one
    per CPU but this one) while this one is stored."""
    counts: dict = {"stored": 0, "duplicate": 0, "refused": []}
    ahead = prechecks or Prechecks()
    try:
        pending: deque[tuple[list[tuple[int, Signed]], Future | None]] = deque()
        for index, batch in enumerate(_batches(receiver, path, counts)):
            worth_a_worker = index >= IN_PLACE      # a short file is done before a worker would start
            pending.append((batch, ahead.submit([signed.body for _, signed in batch]) if worth_a_worker else None))
            if len(pending) > AHEAD:
                _stored(receiver, path, pending.popleft(), ahead, counts)
        while pending:
            _stored(receiver, path, pending.popleft(), ahead, counts)
    finally:
        if prechecks is None:
            ahead.close()
    counts["refused"].sort(key=lambda refused: refused["line"])
    receiver.settle()           # the figures of every match imported, in one step
    return counts


def _batches(receiver, path, counts: dict):
    """The file's signed lines, BATCH at a time (a line not even signed is refused here)."""
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
                yield batch
                batch = []
    if batch:
        yield batch


def _stored(receiver, path, pending: tuple[list[tuple[int, Signed]], Future | None], ahead: Prechecks,
            counts: dict) -> None:
    """Store a batch of signed lines with one commit (their items checked ahead by its future
    if that is done: the receiver does not wait for a worker, it checks in place), counting each
    line's answer."""
    batch, future = pending
    bodies = [signed.body for _, signed in batch]
    answers = receiver.receive_many([signed for _, signed in batch], via="import", remote=str(path),
                                    fresh_only=False, checked=ahead.results_if_done(bodies, future))
    for (number, _), (status, answer) in zip(batch, answers):
        if status == 200:
            counts[answer["status"]] += 1
        else:
            counts["refused"].append({"line": number, "status": status, "reason": answer["reason"]})
