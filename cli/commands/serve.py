"""``pocitadlo serve``: the league's receiver (HTTP(S) and/or serial), its devices, imports and exports."""
import os
from contextlib import contextmanager
from functools import partial

HELP = "run the league's receiver (HTTP(S) and/or serial; `pocitadlo server …` administers its store)"


def _baudrate(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) < 50:
        raise argparse.ArgumentTypeError(f"expected a serial speed such as 115200, got {text!r}")
    return int(text)


def _address(text: str) -> str:
    import argparse
    import ipaddress

    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an IP address such as 127.0.0.1, got {text!r}") from None


def configure(parser) -> None:
    from cli.commands.server import device_id

    parser.add_argument("--db", default="league.sqlite",
                        help="the store: a SQLite file (league.sqlite) or a postgresql+psycopg:// URL")
    parser.add_argument("--listen", default="127.0.0.1:8080", help="HOST:PORT for HTTP(S) (127.0.0.1:8080); "
                                                                  "'off' for none")
    parser.add_argument("--cert", help="TLS certificate (PEM): serve HTTPS")
    parser.add_argument("--key", help="TLS private key (PEM), if not in --cert")
    parser.add_argument("--serial", metavar="PORT", help="also listen on a serial port (or pyserial URL)")
    parser.add_argument("--baudrate", type=_baudrate, default=115200)
    parser.add_argument("--admin-token-file", help="a file holding the token that opens the admin views "
                                                   "(/refusals.json, the record list); without it they stay shut")
    parser.add_argument("--proxy", action="append", type=_address, metavar="ADDRESS",
                        help="a proxy in front (Caddy: 127.0.0.1) whose X-Forwarded-For/-Proto name the client; "
                             "repeat for several; without it such headers are ignored")
    gateway = parser.add_argument_group("gateway: pass every stored record on to the league's receiver")
    gateway.add_argument("--forward", metavar="URL", help="the league's receiver, https://…/api/v1/records")
    gateway.add_argument("--gateway-id", type=device_id, help="this gateway's id as registered there (add-gateway)")
    gateway.add_argument("--gateway-secret-file", help="this gateway's secret")
    gateway.add_argument("--ca-file", help="PEM file of the CA to trust for the league's receiver")
    gateway.add_argument("--allow-plain-http", action="store_true", help="allow an http:// --forward URL (LAN)")


def run(args) -> int:
    import logging

    from cli.commands.server import open_store
    from cli.main import UserError
    from server import quiet_logs
    from server.ingest.receiver import Receiver

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    quiet_logs.install()        # also for a serial listener or a gateway without HTTP
    _check_listen(args, UserError)
    store = open_store(args.db, must_exist=False)
    try:
        receiver = Receiver(store)
        try:
            return _serve(args, receiver, UserError)
        finally:
            receiver.settle()       # the figures of the last items answered (else: at the next start)
    finally:
        store.close()


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
    from server.ingest.forward import forwarder

    if not args.forward.startswith(("https://", "http://")):
        raise UserError(f"--forward must be an https:// URL, got {args.forward!r}")
    if args.forward.startswith("http://") and not args.allow_plain_http:
        raise UserError("--forward http:// sends results unencrypted; use https:// or add --allow-plain-http")
    if not args.gateway_id or not args.gateway_secret_file:
        raise UserError("--forward needs --gateway-id and --gateway-secret-file (registered with `pocitadlo server add-gateway`)")
    from cli.commands.server import read_secret

    secret = read_secret(args.gateway_secret_file)
    _existing_file("--ca-file", args.ca_file, UserError)
    with _tls_errors("--ca-file", args.ca_file, UserError):
        syncer = forwarder(receiver.store, args.forward, args.gateway_id, secret, ca_file=args.ca_file)
    receiver.on_stored = syncer.wake
    return syncer


def _serve(args, receiver, UserError) -> int:
    import threading

    from server.storage.database import shown

    host, _, port = args.listen.rpartition(":")
    syncer = _forwarder(args, receiver, UserError)
    stop = threading.Event()
    serial_thread = None
    if args.serial:
        from server.ingest.serial_listener import SerialListener

        serial_thread, stop = SerialListener(receiver, args.serial, baudrate=args.baudrate).start()
    forward_thread = syncer.start() if syncer else None
    where = ([f"serial {args.serial}"] if args.serial else []) + ([f"forwarding to {args.forward} ({syncer.status()['unsent']} to send)"] if syncer else [])
    try:
        if args.listen == "off":
            print(f"{', '.join(where)}; store {shown(args.db)}", flush=True)
            waited = serial_thread or forward_thread
            assert waited is not None        # _check: --listen off needs --serial or --forward
            waited.join()
            return 0
        from server.http_server import ReceiverServer

        server = _listen(args, host, int(port), receiver, ReceiverServer, UserError)
        scheme = "https" if args.cert else "http"
        # said once uvicorn runs and handles SIGINT/SIGTERM itself: a Ctrl-C before that would
        # land in its start-up and leave a traceback
        listening = (f"receiving on {scheme}://{host}:{server.port}/api/v1/records"
                     + "".join(f", {w}" for w in where) + f"; store {shown(args.db)}")
        try:
            server.serve_forever(on_started=lambda: print(listening, flush=True))
        finally:
            server.server_close()
    finally:
        stop.set()
        if syncer:
            syncer.stop()
    return 0


def _listen(args, host, port, receiver, ReceiverServer, UserError):
    """The HTTP(S) server on --listen; a port in use or a bad certificate is a user error naming it."""
    from server.tables.league_document import league_document

    for option, path in (("--cert", args.cert), ("--key", args.key)):
        _existing_file(option, path, UserError)
    with _tls_errors("--cert", " / ".join(f for f in (args.cert, args.key) if f), UserError):
        try:
            return ReceiverServer((host, port), receiver, certfile=args.cert, keyfile=args.key,
                                  admin_token=_admin_token(args), proxies=args.proxy,
                                  # the devices' league fetch, from the league the store keeps (issue 16)
                                  league_source=partial(league_document, receiver.store))
        except OSError as exc:
            if exc.filename is not None or type(exc).__module__ == "ssl":
                raise
            raise UserError(f"--listen {args.listen}: cannot listen there ({exc.strerror or exc})") from None


def _admin_token(args) -> str | None:
    from cli.commands.server import read_secret

    if not args.admin_token_file:
        return None
    return read_secret(args.admin_token_file, "the admin token (--admin-token-file)").decode("utf-8")


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
