"""The identity a backlog export is signed with on a device not registered at the receiver yet.

A device without ``[sync] device_id`` and ``secret`` has nothing to sign ``pocitadlo outbox
export`` with, yet its records must reach the league (a new venue, a counter set up before its
registration). The first such export makes a device id (``[sync] device_id`` if given, else
``pocitadlo-`` and 6 hex digits) and a secret, keeps them in the outbox folder
(``export-identity.json``, readable by its owner only) so later exports sign the same way, and
the export writes the secret beside the file for the organiser: ``pocitadlo server add-device ID
--venue V --secret-file FILE.key`` registers the device with it, then ``server import FILE``
checks every line as usual (docs/sync.md, "USB stick").
"""
import json
import os
import secrets

IDENTITY = "export-identity.json"


def export_identity(folder: str | os.PathLike[str], device_id: str | None = None) -> tuple[str, bytes]:
    """(device id, secret) kept in ``folder``; made and kept on the first call."""
    path = os.path.join(folder, IDENTITY)
    try:
        with open(path, encoding="utf-8") as fh:
            kept = json.load(fh)
        return str(kept["device_id"]), str(kept["secret"]).encode("utf-8")
    except FileNotFoundError:
        pass
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not an export identity ({exc}); move it away to make a new one") from None
    device_id = device_id or f"pocitadlo-{secrets.token_hex(3)}"
    secret = secrets.token_urlsafe(32)
    write_private(path, json.dumps({"device_id": device_id, "secret": secret}) + "\n")
    return device_id, secret.encode("utf-8")


def write_private(path: str | os.PathLike[str], text: str) -> None:
    """``text`` into a new file only its owner can read, fsync'd."""
    tmp = f"{path}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
