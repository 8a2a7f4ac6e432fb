"""``pocitadlo outbox``: list the backlog, retry it now, or export it to a file (USB stick).

The outbox is found as the service keeps it: ``--dir`` names it, ``--data`` names a data folder
laid out as ``pocitadlo emulate --data`` lays it (DATA/outbox), else ``[sync] outbox`` of
``--config``. Listing or exporting a named outbox needs no config file; retry reads ``[sync]``
for the transport, export for the signing secret — a device not registered yet (no ``[sync]``
device_id and secret) signs with an identity of its own (delivery/export_identity.py) and the
export says how the organiser registers it and imports the file. A named folder that holds no outbox is refused, not made into a new empty
one, and the configured one is not touched then.
"""
import json
import os

from cli.commands.run import DEFAULT_CONFIG

HELP = "list the finished partie not yet delivered, retry now, or export them to a file"


def configure(parser) -> None:
    parser.add_argument("action", nargs="?", choices=("list", "retry", "export"), default="list",
                        help="list (default), retry (send now; refused ones too), export FILE")
    parser.add_argument("file", nargs="?", help="export: the file to write (JSON Lines, signed)")
    parser.add_argument("--config", default=DEFAULT_CONFIG, help=f"the device's config file ({DEFAULT_CONFIG})")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--dir", help="the outbox directory (default: [sync] outbox)")
    where.add_argument("--data", help="a data folder as `pocitadlo emulate --data` keeps it (its outbox/)")


def _settings(args):
    from config.load import read_toml
    from config.options import Section
    from delivery.settings import read

    return read(Section(read_toml(args.config).get("sync", {}), "sync", args.config))


def _settings_for(args, named):
    """[sync] of --config; for an export of a named outbox, none when there is no config file."""
    if named and args.action == "export" and not os.path.exists(args.config):
        return None
    return _settings(args)


def _folder(args) -> tuple[str, str] | None:
    """(option, outbox folder) named on the command line, if one is."""
    if args.dir:
        return "--dir", args.dir
    if args.data:
        return "--data", os.path.join(args.data, "outbox")
    return None


def run(args) -> int:
    from cli.main import UserError
    from delivery.outbox import PENDING, Outbox

    if args.file and args.action != "export":
        raise UserError(f"{args.action} takes no file: {args.file!r} (only export writes one)")
    named = _folder(args)
    settings = None if named and args.action == "list" else _settings_for(args, named)
    if named and not os.path.isdir(os.path.join(named[1], PENDING)):
        # a mistyped folder is refused, not made into a new empty outbox
        raise UserError(f"{named[0]} {named[1]}: no outbox there (no {PENDING}/ folder)")
    if named:
        outbox = Outbox(named[1])
    else:
        assert settings is not None         # only a named outbox goes without [sync]
        outbox = Outbox(settings.outbox)
    if args.action == "export":
        return _export(args, settings, outbox, UserError)
    if args.action == "retry":
        return _retry(settings, outbox, UserError)
    items, damaged = outbox.backlog()
    for item in items:
        said = f"unsent\t{len(item.body)} B" if item.state == PENDING else f"refused: {item.why}"
        print(f"{item.id}\t{item.kind}\t{said}")
    for path in damaged:
        print(f"{os.path.basename(path)}\t?\tdamaged on disk: unreadable, left in place")
    print(_summary(len(items) + len(damaged), outbox.last_delivery(), outbox.last_error()))
    return 0


def _summary(unsent: int, last_delivery: str | None, last_error: str | None) -> str:
    """The last line of list and retry."""
    return (f"{unsent} unsent; last delivery: {last_delivery or 'never'}"
            + (f"; last error: {last_error}" if last_error else ""))


def _export(args, settings, outbox, UserError) -> int:
    from cli.commands import output_file
    from wire.signing import Signer

    if not args.file:
        raise UserError("export needs a file to write, e.g. pocitadlo outbox export /media/usb/backlog.jsonl")
    output_file(args.file, "export")
    if settings is not None and settings.secret is not None and settings.device_id:
        count = outbox.export(args.file, Signer(settings.device_id, settings.secret))
        print(f"exported {count} item(s) to {args.file}; on the receiver: pocitadlo server --db STORE import {args.file}")
        return 0
    return _export_unregistered(args, settings, outbox, UserError)


def _export_unregistered(args, settings, outbox, UserError) -> int:
    """No [sync] device_id and secret: sign with the outbox's own export identity, and write its
    secret beside the file so the organiser can register the device and import it."""
    from delivery.export_identity import export_identity, write_private
    from wire.signing import Signer

    try:
        device_id, secret = export_identity(outbox.directory, settings.device_id if settings else None)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    count = outbox.export(args.file, Signer(device_id, secret))
    key = f"{args.file}.key"
    write_private(key, secret.decode("utf-8") + "\n")
    venue = _venue_of(outbox) or "VENUE"
    print(f"exported {count} item(s) to {args.file}, signed as the unregistered device {device_id} "
          f"(its secret: {key})")
    print("on the receiver, once for this device:")
    print(f'  pocitadlo server --db STORE add-device {device_id} --venue "{venue}" --secret-file {key}')
    print(f"then: pocitadlo server --db STORE import {args.file}")
    return 0


def _venue_of(outbox) -> str | None:
    """The venue the backlog's records name (what the device is registered for)."""
    for item in outbox.pending() + outbox.held():
        summary = item.content.get("summary") or {}
        venue = summary.get("venue") or (summary.get("match") or {}).get("venue")
        if not venue and item.kind == "partie":
            venue = json.loads(item.content["record"].splitlines()[0]).get("venue")
        if venue:
            return venue
    return None


def _retry(settings, outbox, UserError) -> int:
    from cli.main import NOT_ALL_DONE
    from delivery.sync import Syncer, transport_for

    transport = transport_for(settings)
    if transport is None:
        raise UserError("[sync] transport is \"none\": nothing to send to (use export for a USB stick)")
    outbox.retry_held()
    syncer = Syncer(outbox, transport)
    try:
        syncer.send_all()
    finally:
        transport.close()
    status = syncer.status()
    print(_summary(status["unsent"], status["last_delivery"], status["last_error"]))
    return 0 if status["unsent"] == 0 else NOT_ALL_DONE
