"""``pocitadlo run --config FILE``: the scoreboard service (what systemd starts on the Pi).

A config error is logged, shown on the counter and the service then waits for the file to
change (its mtime and ctime are polled every few seconds: a chmod is a change too) instead of
exiting into a restart loop. A config file that is not there at all (or not readable by the
service's user) is one line and exit 2 on a terminal — a mistyped --config, not a mistake to
wait out — but under systemd (NOTIFY_SOCKET) it is waited out like any config error: exiting
would restart into the same fault until the start limit and leave the counter dark, though a
sudo cp of a 0600 file or a chown slip is a venue's everyday mistake.

Start order: the config, then the counter is lit (the venue and the table) before the rest is
imported and built — rule cores, the night's journal, sync, the keypads — so the counter is lit
in a fraction of the start (docs/install.md, "Boot ordering"); systemd hears STATUS=counter lit
then — only when a frame reached a display; else STATUS=counter dark and why (e.g. the missing
/dev/spidevX.Y and how to switch SPI on).
"""
import os
import sys
import time

from cli import dataclass_bytecode
from cli.commands.boot import DARK, LIT, ErrorCounter, boot_model, service_log

HELP = "run the scoreboard service (keypad → rule core → journal → counter → outbox)"
DEFAULT_CONFIG = "/etc/pocitadlo/config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_LOG_LEVEL = "INFO"
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
CONFIG_POLL = 3.0            # seconds between looks at a broken config file
BUILT = "scoring, counter built"            # STATUS once the counter is up too (after READY)


def configure(parser) -> None:
    parser.add_argument("--config", default=DEFAULT_CONFIG, help=f"the config file (default {DEFAULT_CONFIG})")
    parser.add_argument("--log-level", default=DEFAULT_LOG_LEVEL, choices=LOG_LEVELS)


def light(path) -> tuple:
    """The start's first step: the counter lit raw when it can be (a MAX7219 chain: no luma, no
    Pillow, no logging yet) and systemd told so; (notifier, early counter, boot model, lit raw?).
    cli.launcher calls it before the command line is parsed, then ``run`` with its result."""
    from cli.state_dir import state_directory
    from config import toml_files
    from firmware_host.notify import Notifier

    toml_files.keep_parses_in(state_directory())     # under systemd: the config's and league's parses
    notifier = Notifier.from_env()
    early = ErrorCounter(path)              # lit before the config's full load and everything after
    model = boot_model(path)
    raw = early.light_raw(model)
    if raw:
        notifier.status(LIT)                # the log's line follows once logging is imported
    return notifier, early, model, raw


def run(args, lit: tuple | None = None) -> int:
    """``lit``: what ``light`` gave for this config earlier in this process (cli.launcher)."""
    if not os.environ.get("NOTIFY_SOCKET"):     # a terminal: missing or unreadable, one line, exit 2 (cli.main)
        with open(args.config, "rb"):
            pass
    if lit is None or lit[1].path != args.config:
        lit = light(args.config)
    notifier, early, model, raw = lit
    setup_logging(args.log_level, now=not raw)      # a chain lit raw: at the first record, or the counter's build
    if raw:
        _log_lit(args.log_level)
    from cli.lean_dataclasses import import_dataclasses

    import_dataclasses()                    # before the first dataclass: without inspect
    dataclass_bytecode.install()            # ... and its methods compiled at install, not now
    if not raw:                             # through luma (a chain lit raw: taken over after READY)
        if early.show(model):
            _say_lit(notifier, args.log_level)
        else:
            _say_dark(notifier, early.fault)
        early.remember(model)               # for the next start's light_raw
    config = load_or_wait(args.config, notifier, show_error=early.show, turn_page=early.tick)
    counter = early.hand_over(config.parts["display"])
    if counter is not None:
        if raw:                             # lit through luma for a config error meanwhile
            early.remember(model, counter=counter)
        return serve(config, notifier=notifier, counter=counter)
    return serve(config, notifier=notifier, build_display=True, adopt=early.adopt,
                 on_built=lambda built: early.remember(model, counter=built),
                 light=lambda: early.hand_over(config.parts["display"]) if early.show(model) else None)


def _say_lit(notifier, level: str) -> None:
    notifier.status(LIT)
    _log_lit(level)


def _log_lit(level: str) -> None:
    """The lit counter's line in the log (`journalctl -b -o short-monotonic` gives its time since
    power-on): the one line of a start that goes well before READY=1, so written as logging would
    write it at ``level`` (setup_logging) without importing logging, unless something did already."""
    if "logging" in sys.modules:
        service_log().info(LIT)
    elif LOG_LEVELS.index(level) <= LOG_LEVELS.index("INFO") and sys.stderr is not None:
        sys.stderr.write(LOG_FORMAT % {"levelname": "INFO", "name": "pocitadlo", "message": LIT} + "\n")
        sys.stderr.flush()


def _say_dark(notifier, why) -> None:
    """No frame reached a display: say so and why (the service scores anyway and retries it)."""
    notifier.status(f"{DARK}: {why}")
    service_log().error("%s: %s; scoring goes on, the display is retried", DARK, why)


def setup_logging(level: str, *, now: bool = True) -> None:
    """Logging at ``level``: set up ``now``, or at the service's first record (delivery.logs)."""
    from delivery import logs

    def setup():
        import logging

        logging.basicConfig(level=getattr(logging, level), format=LOG_FORMAT)

    logs.set_up(setup)
    if now:
        logs.ensure()


def load_or_wait(path, notifier, *, poll: float = CONFIG_POLL, sleep=time.sleep, show_error=None,
                 turn_page=None, clock=time.monotonic):
    """The loaded config (its league file checked too); while broken, show why — the file, the
    section and the option, on as many of the counter's pages as it takes — and wait for a fix.

    ``show_error(model)`` draws the error; ``turn_page()`` turns its page when due and returns
    when the picture next changes (``clock`` time) or None: the wait wakes for each page as well
    as every ``poll`` seconds."""
    from config.options import ConfigError
    from firmware_host.league import load_league
    from firmware_host.settings import load

    error_counter = ErrorCounter(path)
    show_error = show_error or error_counter.show
    announced = False
    watched = [path]                   # the config, and its league file once known
    while True:
        stamps = {p: _stamp(p) for p in watched}
        try:
            config = load(path)
            check_data_dir(config)
            if config.device.league:
                watched = [path, config.device.league]
                stamps.setdefault(config.device.league, _stamp(config.device.league))
                check_league(config, load_league)
            error_counter.close()
            return config
        except ConfigError as exc:
            service_log().error("config error, waiting for a fixed file: %s", exc)
            show_error(error_model(exc))
            page_due = turn_page() if turn_page is not None else None
            if not announced:
                notifier.ready(f"config error: {exc}")     # READY, so systemd does not kill us
                announced = True
            notifier.status(f"config error: {exc}")
            while {p: _stamp(p) for p in stamps} == stamps:
                notifier.watchdog()
                sleep(poll if page_due is None else min(poll, max(0.0, page_due - clock())))
                page_due = turn_page() if turn_page is not None else None


def error_model(exc) -> dict:
    """The counter's screen for a config error: the file's name, the section, the option and the
    fault (the log has the whole path), and where it is, for boards that show a word at a time."""
    where = f"[{exc.section}]" + (f" {exc.option}" if exc.option else "") if exc.section else ""
    text = ": ".join(part for part in (os.path.basename(exc.path), where, exc.problem) if part)
    return {"screen": "error", "code": "config", "text": text, "where": where}


def check_league(config, load_league) -> None:
    """The league file [device] league names must be there and readable; its own errors name it."""
    from config.load import ConfigFileError
    from config.options import ConfigError

    try:
        load_league(config.device.league)
    except ConfigFileError as exc:
        raise ConfigError(config.path, "device", "league", exc.args[0]) from None


def check_data_dir(config) -> None:
    """[device] data_dir must be a folder the service can write: the journal lives there."""
    from config.options import ConfigError

    folder = config.device.data_dir
    try:
        os.makedirs(folder, exist_ok=True)
        _make_a_file_in(folder)
    except OSError as exc:
        raise ConfigError(config.path, "device", "data_dir",
                          f"cannot keep the journal in {folder}: {exc.strerror or exc}") from None


def _make_a_file_in(folder) -> None:
    """Make and drop a file in ``folder``: an unnamed one (O_TMPFILE) where the filesystem has them,
    so tempfile (random, shutil, ...) is not imported at every start; else tempfile's."""
    import errno

    try:
        os.close(os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600))
    except OSError as exc:
        if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR):
            raise
        import tempfile

        tempfile.TemporaryFile(dir=folder).close()


def _stamp(path):
    """What tells a file changed: its content (mtime) or who may read it (ctime: chmod, chown)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_ctime_ns


def assemble(config, *, display_stream=None, keypad_stream=None, pin_factory=None,
             clock=None, on_durable=None, counter=None, build_display=False, adopt=False, on_built=None):
    """Build the service and its parts from a loaded config; return (service, devices, syncer).

    ``clock``: the one clock (clock.SystemClock unless given) — the night's time of day and dates,
    the outbox's and the signer's timestamps, and the monotonic deadlines of keys and screens.
    ``counter``: one already lit (light_counter); its device is the service's first.
    ``build_display``: without ``counter``, the counter is built after READY (DisplayLink.build),
    not here: luma and Pillow are imported while keys are taken; ``adopt``: its first device takes a
    chain display.boot_frame lit over as it is; ``on_built(counter)``: called in that build."""
    from clock import SystemClock
    from delivery.sync import Syncer
    from firmware_host.league import EMPTY, load_league
    from firmware_host.league_keeper import LeagueKeeper
    from firmware_host.match_night import Night
    from firmware_host.notify import Notifier
    from firmware_host.service import Refresh, Service
    from input.referee import Referee

    clock = clock or SystemClock()
    game = config.device.game
    keypad = config.parts["keypad"]
    display = config.parts["display"]
    syncer = Syncer.from_settings(config.parts["sync"], clock=clock)
    league = load_league(config.device.league) if config.device.league else EMPTY
    keeper = LeagueKeeper.from_config(config, league, syncer.signer, clock)
    night = Night(config, league, outbox=syncer.outbox, status=syncer.status, clock=clock,
                  on_record=syncer.retry_now, keeper=keeper)       # a new record: deliver it now
    link = display_link(display, counter, stream=display_stream, build=build_display, adopt=adopt,
                        on_built=on_built)
    referee = Referee(game, keypad.keymap(game), clock.monotonic, language=config.device.language,
                      bounce=keypad.debounce, long_press=keypad.long_press)
    service = Service(night, link, referee=referee, notifier=Notifier.from_env(), clock=clock.monotonic,
                      on_durable=on_durable)
    # the partie journal's zero room grows after a frame, not between a key and its frame
    service.observers.append(lambda _model: night.partie is not None and night.partie.top_up())
    # the loop sleeps up to a minute on the ready screen: a delivery redraws its backlog at once
    syncer.on_delivered = lambda: service.post(Refresh("delivered"))
    devices = open_keypads(keypad, service, clock=clock.monotonic, pin_factory=pin_factory, stream=keypad_stream)
    return service, devices, syncer


def display_link(settings, counter=None, *, stream=None, build=False, adopt=False, on_built=None):
    """The service's DisplayLink (see assemble): the lit ``counter``'s device opened first, or a
    counter built now, or (``build``) one built after READY with the driver's modules imported."""
    from display.devices import open_device, preload
    from firmware_host.display_link import DisplayLink

    lit = [counter.device] if counter is not None and counter.device is not None else []
    adopting = [adopt]

    def opener():
        return lit.pop() if lit else open_device(settings, stream=stream, adopt=adopting.pop() if adopting else False)

    def make():
        from delivery.logs import ensure

        ensure()                        # logging set up before luma and Pillow, which log through it
        from display.counter import Counter

        built = Counter(None, settings)
        if on_built is not None:
            on_built(built)
        preload(settings)
        return built

    if counter is None and build:
        return DisplayLink(None, opener, make_counter=make)
    return DisplayLink(counter or make(), opener)


def open_keypads(settings, service, **kw) -> list:
    """Start every configured keypad; one that cannot be opened is an error screen, not a crash."""
    from dataclasses import replace

    from input.devices import open_devices
    from input.events import DeviceStatus

    started = []
    for kind in settings.devices:
        try:
            devices = open_devices(replace(settings, devices=(kind,)), **kw)
        except Exception as exc:       # noqa: BLE001 — gpiozero/evdev errors of many kinds
            service_log().error("keypad %s cannot be opened: %s", kind, exc)
            service.post(DeviceStatus(kind, False, str(exc)))
            continue
        for device in devices:
            device.start(service.post)
            started.append(device)
    return started


def assemble_or_wait(config, notifier=None, *, poll: float = CONFIG_POLL, sleep=time.sleep, light=None, **kw):
    """``assemble``, but a storage fault while the journals are opened (the SD card full, gone
    read-only, a torn tail that cannot be cut) is shown on the counter and retried every ``poll``
    seconds — never an exit, which under systemd would only restart into the same fault until the
    start limit and leave the counter dark. Nothing is lost by waiting: nothing was accepted yet.
    ``light()``: a counter to say it on when the service's is to be built after READY
    (``build_display``), which is then not built later but taken."""
    from input.messages import storage_text

    announced = False
    while True:
        try:
            return assemble(config, **kw)
        except OSError as exc:
            where = exc.filename or config.device.data_dir
            text = f"{where}: {exc.strerror or exc}"
            service_log().error("storage fault, retrying every %.0f s: %s", poll, text)
            if kw.get("counter") is None and kw.get("build_display") and light is not None:
                kw["counter"], kw["build_display"] = light(), False
            _show_on(kw.get("counter"), {"screen": "error", "code": "storage",
                                         "text": storage_text(exc, config.device.language)})
            if notifier is not None:
                if not announced:
                    notifier.ready(f"storage fault: {text}")     # READY, so systemd does not kill us
                    announced = True
                notifier.status(f"storage fault: {text}")
                notifier.watchdog()
            sleep(poll)


def _show_on(counter, model: dict) -> None:
    if counter is None or counter.device is None:
        return
    try:
        counter.show(model, time.monotonic())
    except Exception as exc:       # noqa: BLE001 — no display either: the log has it
        service_log().error("cannot show the %s screen on the counter: %s", model.get("screen"), exc)


def rollback_notice(language: str, prefix: str | None = None) -> str | None:
    """What the counter says after systemd/install.sh went back to this version because the new
    one did not report READY (its rollback.txt beside the versions, /opt/pocitadlo; logged too)."""
    import sys

    path = os.path.join(os.path.dirname(prefix or sys.prefix), "rollback.txt")
    try:
        with open(path, encoding="utf-8") as fh:
            facts = dict(line.strip().split("=", 1) for line in fh if "=" in line)
    except (OSError, ValueError):
        return None
    from display.text import texts

    service_log().warning("upgrade rolled back: %s did not report READY within %s s, back on %s (%s)",
                facts.get("failed"), facts.get("seconds"), facts.get("back_on"), path)
    return texts(language)["rolled_back"].format(version=facts.get("back_on", "?"))


def settle_memory() -> None:
    """Everything the start made (modules, fonts, the night read back) lives as long as the service:
    frozen out of the garbage collector's sight, a full collection during the night walks only
    what came since — on a Pi-class core it would otherwise hold a keypress for tens of ms. No
    collection first: the start's own young collections leave no garbage to speak of (0 of 26,000
    objects found unreachable here), and a full one cost 3 % of the start's instructions."""
    import gc

    gc.freeze()


def serve(config, *, notifier=None, stop_on_end=None, observe=None, **kw) -> int:
    """Run the service until stopped (SIGTERM/SIGINT); close devices and sync on the way out.

    ``stop_on_end``: a Stop event posted when a keypad's input ends (the emulator's "q");
    ``observe``: service → a callback told each new screen model (the emulator's key line).
    """
    import _signal  # type: ignore[import-not-found]  # no stub; signal.py makes enums (~2 % of the start)
    import threading

    from firmware_host.service import Stop
    from input.terminal import TerminalKeys

    service, devices, syncer = assemble_or_wait(config, notifier, **kw)

    def display_built():                        # a counter built after READY: its objects frozen too
        settle_memory()
        if service.notifier:
            service.notifier.status(BUILT)

    service.after_display = display_built
    said = rollback_notice(config.device.language)
    if said:
        service.message(said, "warn")
    for device in devices:
        if stop_on_end is not None and isinstance(device, TerminalKeys):
            device.on_end = lambda: service.post(stop_on_end)
    if notifier is not None:
        service.notifier = notifier
    if observe is not None:
        service.observers.append(observe(service))
    keeper = service.night.keeper              # the league from the receiver: fetched in the background

    def deliver_and_fetch():
        """After READY: delivery and the league's fetch (http.client, ssl, the CA certificates:
        about a second on a Pi Zero 2 W-class core) do not hold up the first key."""
        syncer.start()
        if keeper is not None:
            keeper.start()

    service.after_ready = deliver_and_fetch
    live = None
    if config.parts["live"].enabled:           # the live page: listens after the first frame
        from firmware_host.live.server import attach
        live = attach(config, service)
    pusher = None
    if config.parts["live"].push:              # snapshots to the league's /live
        from firmware_host.live.push import attach_push
        pusher = attach_push(config, service, signer=syncer.signer)
    settle_memory()
    # post from a thread: the handler may interrupt the loop while it holds the queue's lock
    previous = _signal.signal(_signal.SIGTERM, lambda *_: threading.Thread(
        target=service.post, args=(Stop("SIGTERM"),), daemon=True).start())
    try:
        service.run()
    finally:
        _signal.signal(_signal.SIGTERM, previous)
        for device in devices:
            device.close()
        syncer.stop()
        if keeper is not None:
            keeper.stop()
        if live is not None:
            live.stop()
        if pusher is not None:
            pusher.stop()
        if service.notifier:
            service.notifier.stopping()
    return 0
