"""``pocitadlo server …``: administer the league's receiver store (``pocitadlo serve`` runs it).

    add-device ID --venue V   register a counter of a venue (prints a new secret unless --secret-file)
    add-gateway ID            register a venue gateway that relays records signed by devices
    devices                   list the registered devices and gateways
    remove-device ID          unregister a device or gateway (lost, stolen, its venue left): refused from then on
    import FILE               store a backlog file exported with `pocitadlo outbox export`
    table [--competition C] [--season S] [--html]
                              the league table
    match ID [--html]         a match record (zápis)
    records                   the stored records
    refusals                  the refusal log: counts by reason and the latest refusals
    season, venue(s), team(s), player, fixture, schedule, postpone, no-show, withdraw-no-show
                              the league's administration (cli/commands/league_admin.py, league_schedule.py)
"""
import os

from cli.commands import league_admin

HELP = "administer the league's receiver: the league, devices, backlog imports, tables, match records, refusals"


def device_id(text: str) -> str:
    import argparse

    if not text or len(text) > 100 or not text.isprintable() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"a device id is 1 to 100 printable characters without spaces, got {text!r}")
    return text


def _venue(text: str) -> str:
    import argparse

    if not text.strip() or len(text) > 200 or not text.isprintable():
        raise argparse.ArgumentTypeError(f"a venue is 1 to 200 printable characters, got {text!r}")
    return text


def configure(parser) -> None:
    from rules.games import game_names

    parser.add_argument("--db", default="league.sqlite",
                        help="the receiver's store: a SQLite file (league.sqlite) or a postgresql+psycopg:// URL")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    add = sub.add_parser("add-device", help="register a counter of a venue")
    add.add_argument("id", type=device_id)
    add.add_argument("--venue", type=_venue, required=True,
                     help="the venue it scores at, exactly as its matches name it (its records are accepted "
                          "only for matches at this venue)")
    add.add_argument("--secret-file", help="the secret (as in its [sync] secret_file); a file that does not exist yet "
                                          "gets a new one; default: a new one, printed")
    gateway = sub.add_parser("add-gateway", help="register a venue gateway (relays devices' signatures)")
    gateway.add_argument("id", type=device_id)
    gateway.add_argument("--secret-file", help="the secret (its --gateway-secret-file); a file that does not exist "
                                              "yet gets a new one; default: a new one, printed")
    for parser_ in (add, gateway):
        parser_.add_argument("--rotate", action="store_true",
                             help="give one already registered a new secret (its old one stops working)")
    sub.add_parser("devices", help="list the registered devices and gateways")
    remove = sub.add_parser("remove-device", help="unregister a device or gateway (lost, stolen, its venue left the "
                                                  "league): its posts and league fetches are refused from then on; "
                                                  "what it delivered stays")
    remove.add_argument("id", type=device_id)
    backlog = sub.add_parser("import", help="store a backlog file exported with `pocitadlo outbox export`")
    backlog.add_argument("file")
    table = sub.add_parser("table", help="print the league table (JSON, or --html)")
    table.add_argument("--competition", "--game", dest="competition", choices=game_names(), default=game_names()[0])
    table.add_argument("--season", help="like 2026/27 (default: the latest with a match, as the site's table)")
    table.add_argument("--html", action="store_true", help="printable HTML instead of JSON")
    match = sub.add_parser("match", help="print a match record (zápis)")
    match.add_argument("id")
    match.add_argument("--html", action="store_true", help="printable HTML instead of JSON")
    sub.add_parser("records", help="list the stored records")
    sub.add_parser("refusals", help="the refusal log: counts by reason, then the latest refusals")
    for action in sub.choices.values():      # --db also after the action: `server devices --db liga.sqlite`
        _db_option(action)
    league_admin.configure(sub, _db_option)


def _db_option(parser):
    import argparse

    parser.add_argument("--db", default=argparse.SUPPRESS, help="the receiver's store (league.sqlite)")
    return parser


def open_store(db: str, *, must_exist: bool):
    """The receiver's store at ``db``; a missing or unusable one is a user error naming it."""
    import sqlite3

    from sqlalchemy.exc import SQLAlchemyError

    from cli.commands import user_error
    from server.storage.database import shown
    from server.storage.store import Store

    if must_exist and "://" not in db and not os.path.exists(db):
        raise user_error(f"--db {db}: no such store (it is made by `pocitadlo serve` or `server add-device`)")
    try:
        return Store(db)
    except (sqlite3.Error, SQLAlchemyError) as exc:
        what = "SQLite store" if "://" not in db else "database"
        reason = getattr(exc, "orig", None) or exc
        raise user_error(f"{shown(db)}: not a usable {what} ({str(reason).splitlines()[0]})") from None


def read_secret(path, what: str = "the secret") -> bytes:
    from pathlib import Path

    from cli.commands import user_error
    from delivery.settings import MIN_SECRET

    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise user_error(f"{path}: cannot read {what} ({getattr(exc, 'strerror', None) or exc})") from None
    if len(secret) < MIN_SECRET:
        raise user_error(f"{path}: {what} must be at least {MIN_SECRET} characters long")
    return secret.encode("utf-8")


def run(args) -> int:
    import logging

    # an import prints what it stored and each refusal itself: a line per item would bury them
    quiet = args.action == "import"
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    from server.tables import figures

    creating = ("add-device", "add-gateway", "import", *league_admin.CREATING)
    store = open_store(args.db, must_exist=args.action not in creating)
    try:
        figures.bring_up_to_date(store)     # a store from before figures, or with items left pending
        league_admin.check_season(args, store)
        if args.action in league_admin.NAMES:
            done = league_admin.run(args, store)
            figures.settle(store)           # the figures a league change made due (an expulsion, a rule)
            return done
        return ACTIONS[args.action](args, store)
    finally:
        store.close()


def _add(args, store) -> int:
    """Register a device or gateway. One registered already keeps its secret unless ``--rotate``
    (a new secret stops the old one working: the counter is refused until it has the new one);
    a ``--secret-file`` that does not exist yet gets a new secret written to it (0600)."""
    import secrets

    from cli.commands import user_error

    role = "device" if args.action == "add-device" else "gateway"
    venue = league_admin.check_venue(store, getattr(args, "venue", None))
    given = args.secret_file and os.path.exists(args.secret_file)
    old = store.devices.get(args.id)
    if given:
        secret = read_secret(args.secret_file)
    elif old and not args.rotate and not args.secret_file:
        secret = old[1]                     # registered again (another venue, say): the secret stays
    else:
        secret = secrets.token_urlsafe(32).encode("utf-8")
    rotating = old is not None and old[1] != secret
    if rotating and not args.rotate:
        raise user_error(f"{args.id} is registered already, with another secret; add --rotate to give it a new "
                         "one (its old secret then stops working until the new one is on it)")
    if args.secret_file and not given:
        _write_secret(args.secret_file, secret)
    store.devices.add(args.id, secret, role=role, venue=venue)
    registered = ("re-registered" if old else "registered") + f" {role} {args.id}"
    if rotating:
        registered += " with a new secret (its old secret no longer works)"
    where = "the device's [sync] secret_file" if role == "device" else "the gateway's --gateway-secret-file"
    if args.secret_file and not given:
        print(f"{registered}; its new secret is in {args.secret_file} (copy it to {where})")
    elif args.secret_file:
        print(registered + (" (its secret unchanged)" if old and not rotating else ""))
    elif old and not rotating:
        print(f"{registered} (its secret unchanged; --rotate gives it a new one)")
    else:
        print(f"{registered}; its secret (shown once, put it in {where}):")
        print(secret.decode("utf-8"))
    return 0


def _write_secret(path: str, secret: bytes) -> None:
    """A new secret into a new file only the owner may read (never over an existing one)."""
    from cli.commands import user_error

    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise user_error(f"{path}: cannot write the new secret ({exc.strerror})") from None
    with os.fdopen(handle, "wb") as file:
        file.write(secret + b"\n")


def _columns(rows, keys) -> int:
    """One line per row, its ``keys`` tab-separated ("-" for none)."""
    for row in rows:
        print("\t".join("-" if row[key] is None else str(row[key]) for key in keys))
    return 0


def _devices(args, store) -> int:
    return _columns(store.devices.all(), ("id", "role", "venue", "added", "note"))


def _remove(args, store) -> int:
    """Unregister a device, kept in the audit log with who did it and, as the web admin's changes,
    in Czech (the web admin's text for it); the command line prints its English line."""
    from cli.commands import user_error
    from server.league.admin_fields import LeagueError
    from server.site import language
    from server.site.admin_web import device_removed

    try:
        with store.transaction():
            gone = store.devices.remove(args.id)
            venue = f" of {gone['venue']}" if gone["venue"] else ""
            done = (f"removed {gone['role']} {gone['id']}{venue}: its posts and league fetches are refused from now "
                    "on; what it delivered stays")
            store.audit.add(_who(), "remove-device", language.in_language(device_removed(gone), language.CZECH))
    except LeagueError as exc:
        raise user_error(f"remove-device: {exc} (`server devices` lists them)") from None
    print(done)
    return 0


def _who() -> str:
    """The audit log's "who" of a command line change: the user running it."""
    import getpass

    try:
        return f"command line, {getpass.getuser()}"
    except (KeyError, OSError):     # no user name anywhere (a container's bare uid)
        return "command line, ?"


def _import(args, store) -> int:
    from cli.commands import user_error
    from cli.main import NOT_ALL_DONE
    from server.ingest.importer import import_backlog
    from server.ingest.receiver import Receiver

    try:
        counts = import_backlog(Receiver(store), args.file)
    except UnicodeDecodeError as exc:
        raise user_error(f"import {args.file}: not UTF-8 text ({exc.reason})") from None
    for refusal in counts["refused"]:
        print(f"line {refusal['line']}: refused ({refusal['status']}): {refusal['reason']}")
    print(f"stored {counts['stored']}, already had {counts['duplicate']}, refused {len(counts['refused'])}")
    return 0 if not counts["refused"] else NOT_ALL_DONE


def _table(args, store) -> int:
    from server.site import pages
    from server.tables import exports

    data = exports.league_table(store, args.competition, args.season)
    return _print(data, pages.league_table if args.html else None)


def _match(args, store) -> int:
    from cli.commands import user_error
    from server.site import pages
    from server.tables import exports

    data = exports.match_record(store, args.id)
    if data is None:
        raise user_error(f"no match {args.id!r} in {args.db}")
    return _print(data, pages.match if args.html else None)


def _print(data, render) -> int:
    import json

    print(render(data) if render else json.dumps(data, ensure_ascii=False, indent=1))
    return 0


def _records(args, store) -> int:
    return _columns(store.items.all(), ("id", "kind", "game", "match_id", "device", "received"))


def _refusals(args, store) -> int:
    import json

    print(json.dumps(store.refusals.report(), ensure_ascii=False, indent=1))
    return 0


ACTIONS = {"add-device": _add, "add-gateway": _add, "devices": _devices, "remove-device": _remove, "import": _import,
           "table": _table, "match": _match, "records": _records, "refusals": _refusals}
