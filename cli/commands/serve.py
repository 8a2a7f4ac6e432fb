"""``pocitadlo serve``: the league's receiver (HTTP(S) and/or serial), its devices, imports and exports."""
import os
from contextlib import contextmanager

HELP = "run the league's receiver; register devices, import a backlog file, export match records and the table"


def _device_id(text: str) -> str:
    import argparse

    if not text or len(text) > 100 or not text.isprintable() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"a device id is 1 to 100 printable characters without spaces, got {text!r}")
    return text


def _baudrate(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) < 50:
        raise argparse.ArgumentTypeError(f"expected a serial speed such as 115200, got {text!r}")
    return int(text)


def configure(parser) -> None:
    parser.add_argument("--db", default="league.sqlite", help="the SQLite store (league.sqlite)")
    parser.add_argument("--listen", default="127.0.0.1:8080", help="HOST:PORT for HTTP(S) (127.0.0.1:8080); "
                                                                  "'off' for none")
    parser.add_argument("--cert", help="TLS certificate (PEM): serve HTTPS")
    parser.add_argument("--key", help="TLS private key (PEM), if not in --cert")
    parser.add_argument("--serial", metavar="PORT", help="also listen on a serial port (or pyserial URL)")
    parser.add_argument("--baudrate", type=_baudrate, default=115200)
    once = parser.add_mutually_exclusive_group()
    once.add_argument("--add-device", metavar="ID", type=_device_id,
                      help="register a device (prints a new secret unless --secret-file gives one) and exit")
    once.add_argument("--add-gateway", metavar="ID", type=_device_id,
                      help="register a venue gateway that may relay records signed by registered devices "
                           "(like --add-device)")
    once.add_argument("--devices", action="store_true", help="list the registered devices and exit")
    once.add_argument("--import", dest="import_file", metavar="FILE",
                      help="store a backlog file exported with `pocitadlo outbox export` and exit")
    once.add_argument("--match", metavar="ID", help="print a match record (zápis) and exit")
    once.add_argument("--table", action="store_true", help="print the league table (--game) and exit")
    once.add_argument("--records", action="store_true", help="list the stored records and exit")
    parser.add_argument("--secret-file", help="--add-device/--add-gateway: the secret (as in its [sync] secret_file)")
    gateway = parser.add_argument_group("gateway: pass every stored record on to the league's receiver")
    gateway.add_argument("--forward", metavar="URL", help="the league's receiver, https://…/api/v1/records")
    gateway.add_argument("--gateway-id", type=_device_id, help="this gateway's id as registered there (--add-gateway)")
    gateway.add_argument("--gateway-secret-file", help="this gateway's secret")
    gateway.add_argument("--ca-file", help="PEM file of the CA to trust for the league's receiver")
    gateway.add_argument("--allow-plain-http", action="store_true", help="allow an http:// --forward URL (LAN)")
    parser.add_argument("--html", action="store_true", help="--match/--table: printable HTML instead of JSON")
    parser.add_argument("--game", choices=("carom", "8ball"), default="carom", help="--table: which league (carom)")


def run(args) -> int:
    import json
    import logging

    from cli.main import UserError
    from server import exports, pages
    from server.receiver import Receiver
    from server.store import Store

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    import sqlite3

    reading = args.devices or args.match or args.table or args.records
    if reading and not os.path.exists(args.db):
        raise UserError(f"--db {args.db}: no such store (it is made by `pocitadlo serve` or --add-device)")
    serving = not (reading or args.import_file or args.add_device is not None or args.add_gateway is not None)
    if serving:
        _check_listen(args, UserError)

    try:
        store = Store(args.db)
    except sqlite3.Error as exc:
        raise UserError(f"{args.db}: not a usable SQLite store ({exc})") from None
    receiver = Receiver(store)
    try:
        if args.add_device is not None or args.add_gateway is not None:
            return _add_device(args, store, UserError)
        if args.devices:
            for device in store.devices():
                print(f"{device['id']}\t{device['role']}\t{device['added']}\t{device['note']}")
            return 0
        if args.import_file:
            from server.importer import import_backlog

            try:
                counts = import_backlog(receiver, args.import_file)
            except UnicodeDecodeError as exc:
                raise UserError(f"--import {args.import_file}: not UTF-8 text ({exc.reason})") from None
            for refusal in counts["refused"]:
                print(f"line {refusal['line']}: refused ({refusal['status']}): {refusal['reason']}")
            print(f"stored {counts['stored']}, already had {counts['duplicate']}, refused {len(counts['refused'])}")
            return 0 if not counts["refused"] else 1
        if args.match or args.table:
            data = exports.match_record(store, args.match) if args.match else exports.league_table(store, args.game)
            if data is None:
                raise UserError(f"no match {args.match!r} in {args.db}")
            table_page = pages.eightball_table if args.game == "8ball" else pages.table
            render = (pages.match if args.match else table_page) if args.html else None
            print(render(data) if render else json.dumps(data, ensure_ascii=False, indent=1))
            return 0
        if args.records:
            for row in store.items():
                print(f"{row['id']}\t{row['kind']}\t{row['game']}\t{row['match_id'] or '-'}\t{row['device']}\t{row['received']}")
            return 0
        return _serve(args, receiver, UserError)
    finally:
        store.close()


def _add_device(args, store, UserError) -> int:
    import secrets

    name, role = (args.add_device, "device") if args.add_device is not None else (args.add_gateway, "gateway")
    again = "re-" if store.role_of(name) else ""
    registered = f"{again}registered {role} {name}" + (" (its old secret no longer works)" if again else "")
    if args.secret_file:
        secret = _read_secret(args.secret_file, UserError)
        store.add_device(name, secret, role=role)
        print(registered)
    else:
        secret = secrets.token_urlsafe(32)
        store.add_device(name, secret.encode("utf-8"), role=role)
        where = "the device's [sync] secret_file" if role == "device" else "the gateway's --gateway-secret-file"
        print(f"{registered}; its secret (shown once, put it in {where}):")
        print(secret)
    return 0


def _read_secret(path, UserError) -> bytes:
    from pathlib import Path

    from delivery.settings import MIN_SECRET

    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the secret ({getattr(exc, 'strerror', None) or exc})") from None
    if len(secret) < MIN_SECRET:
        raise UserError(f"{path}: the secret must be at least {MIN_SECRET} characters long")
    return secret.encode("utf-8")


def _check_listen(args, UserError) -> None:
    if args.listen == "off" and not (args.serial or args.forward):
        raise UserError("--listen off needs --serial PORT or --forward URL")
    if args.listen != "off":
        host, _, port = args.listen.rpartition(":")
        if not host or not port.isdigit() or int(port) > 65535:
            raise UserError(f"--listen must be HOST:PORT (port 0 to 65535), got {args.listen!r}")
    if args.key and not args.cert:
        raise UserError("--key needs --cert (the certificate it belongs to)")


def _forwarder(args, receiver, UserError):
    """The gateway's Syncer for --forward (None without it); a new record wakes it."""
    if not args.forward:
        return None
    from server.forward import forwarder

    if not args.forward.startswith(("https://", "http://")):
        raise UserError(f"--forward must be an https:// URL, got {args.forward!r}")
    if args.forward.startswith("http://") and not args.allow_plain_http:
        raise UserError("--forward http:// sends results unencrypted; use https:// or add --allow-plain-http")
    if not args.gateway_id or not args.gateway_secret_file:
        raise UserError("--forward needs --gateway-id and --gateway-secret-file (registered with --add-gateway)")
    secret = _read_secret(args.gateway_secret_file, UserError)
    _existing_file("--ca-file", args.ca_file, UserError)
    with _tls_errors("--ca-file", args.ca_file, UserError):
        syncer = forwarder(receiver.store, args.forward, args.gateway_id, secret, ca_file=args.ca_file)
    receiver.on_stored = syncer.wake
    return syncer


def _serve(args, receiver, UserError) -> int:
    import threading

    host, _, port = args.listen.rpartition(":")
    syncer = _forwarder(args, receiver, UserError)
    stop = threading.Event()
    serial_thread = None
    if args.serial:
        from server.serial_listener import SerialListener

        serial_thread, stop = SerialListener(receiver, args.serial, baudrate=args.baudrate).start()
    forward_thread = syncer.start() if syncer else None
    where = ([f"serial {args.serial}"] if args.serial else []) + ([f"forwarding to {args.forward} ({syncer.status()['unsent']} to send)"] if syncer else [])
    try:
        if args.listen == "off":
            print(f"{', '.join(where)}; store {args.db}", flush=True)
            (serial_thread or forward_thread).join()
            return 0
        from server.http_server import ReceiverServer

        server = _listen(args, host, int(port), receiver, ReceiverServer, UserError)
        scheme = "https" if args.cert else "http"
        print(f"receiving on {scheme}://{host}:{server.port}/api/v1/records"
              + "".join(f", {w}" for w in where) + f"; store {args.db}", flush=True)
        try:
            server.serve_forever()
        finally:
            server.server_close()
    finally:
        stop.set()
        if syncer:
            syncer.stop()
    return 0


def _listen(args, host, port, receiver, ReceiverServer, UserError):
    """The HTTP(S) server on --listen; a port in use or a bad certificate is a user error naming it."""
    for option, path in (("--cert", args.cert), ("--key", args.key)):
        _existing_file(option, path, UserError)
    with _tls_errors("--cert", " / ".join(f for f in (args.cert, args.key) if f), UserError):
        try:
            return ReceiverServer((host, port), receiver, certfile=args.cert, keyfile=args.key)
        except OSError as exc:
            if exc.filename is not None or type(exc).__module__ == "ssl":
                raise
            raise UserError(f"--listen {args.listen}: cannot listen there ({exc.strerror or exc})") from None


def _existing_file(option, path, UserError) -> None:
    if path is not None and not os.path.isfile(path):
        raise UserError(f"{option} {path}: " + ("is a folder, not a file" if os.path.isdir(path) else "no such file"))


@contextmanager
def _tls_errors(option, files, UserError):
    """A certificate, key or CA file that TLS cannot use: one line naming the option and the file(s)."""
    import ssl

    try:
        yield
    except ssl.SSLError as exc:
        raise UserError(f"{option} {files}: not a usable PEM file ({exc.reason or exc})") from None
