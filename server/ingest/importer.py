"""Importing a backlog file carried from a venue on a USB stick (``pocitadlo outbox export``).

Each line is a signed item (device, timestamp, nonce, signature, body). The signature is checked
against the registered device as for a post; the timestamp window and nonce are not (the file is
days old by design), and the stored-id rules still make a second import harmless. The figures
of the matches imported are computed once, after the last line.
"""
from wire.signing import Signed


def import_backlog(receiver, path) -> dict:
    """Feed every line to the receiver; return counts and the refusals (line number, status, reason)."""
    counts: dict = {"stored": 0, "duplicate": 0, "refused": []}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                signed = Signed.from_line(line)
            except ValueError as exc:      # not even a signed line: the refusal log names the line
                status, _ = receiver.refuse_unsigned(f"line {number}: {exc}", via="import", remote=str(path))
                counts["refused"].append({"line": number, "status": status, "reason": str(exc)})
                continue
            status, answer = receiver.receive(signed, via="import", remote=str(path), fresh_only=False)
            if status == 200:
                counts[answer["status"]] += 1
            else:
                counts["refused"].append({"line": number, "status": status, "reason": answer["reason"]})
    receiver.settle()           # the figures of every match imported, in one step
    return counts
