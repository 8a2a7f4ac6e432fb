"""``pocitadlo emulate``: the whole scoreboard in a terminal — no hardware needed.

The same service as ``pocitadlo run``: the counter is drawn as LED dots in the terminal and the
keyboard is the referee's keypad (q or Ctrl-C quits; the terminal is always restored).
``--keys FILE --frames DIR`` plays a scripted key sequence headless, on a script clock, and
writes every frame as a PNG (demos, tests).
"""
import os
import sys
from pathlib import Path

from input.terminal import QUIT  # a few constants and the standard library: no weight at start

HELP = "the scoreboard in this terminal: LED counter drawn with text, keyboard as keypad"
BUNDLED = Path(__file__).resolve().parents[2] / "config" / "examples" / "emulator.toml"
SCRIPT_KEY_GAP = 0.25     # script seconds between two scripted keys


def configure(parser) -> None:
    parser.add_argument("--config", default=None, help=f"config file (default: the bundled {BUNDLED.name})")
    parser.add_argument("--data", default=None, help="data dir for journal and outbox "
                        "(default: ~/.local/share/pocitadlo)")
    parser.add_argument("--keys", default=None, help="play this key script (terminal key letters) headless")
    parser.add_argument("--frames", default=None, help="with --keys: write each frame as a PNG here")


def default_data_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "pocitadlo")


def emulator_config(args):
    """The config with the emulator's data dir, outbox and devices."""
    from dataclasses import replace

    from firmware_host.settings import load

    config = load(args.config or BUNDLED)
    data = os.path.abspath(args.data or default_data_dir())
    parts = dict(config.parts)
    parts["sync"] = replace(parts["sync"], outbox=os.path.join(data, "outbox"))
    parts["keypad"] = replace(parts["keypad"], devices=("terminal",))
    if args.frames:
        parts["display"] = replace(parts["display"], driver="capture",
                                   file_template=os.path.join(os.path.abspath(args.frames), "frame_{0:06}.png"))
    elif args.keys is None:
        parts["display"] = replace(parts["display"], driver="terminal")
    else:
        parts["display"] = replace(parts["display"], driver="dummy")
    return replace(config, device=replace(config.device, data_dir=data), parts=parts)


def run(args) -> int:
    import logging

    from cli.commands import output_dir
    from cli.main import UserError

    if args.frames and not args.keys:
        raise UserError("--frames needs --keys (a key script to play)")
    if args.frames:
        require_emulator_extra(UserError)
    script = key_script(args.keys) if args.keys else None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config = emulator_config(args)
    output_dir(config.device.data_dir, "--data")
    # interactive: the log goes to a file, so it does not scribble over the counter
    log_file = None if args.keys else os.path.join(config.device.data_dir, "emulate.log")
    logging.basicConfig(level=logging.WARNING, filename=log_file,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.frames:
        output_dir(args.frames, "--frames")
    if script is not None:
        return play(config, script)
    return interactive(config)


def require_emulator_extra(UserError) -> None:
    """PNG frames are drawn by luma.emulator (the [emulator] extra, not installed on a Pi): without
    it, say so at once rather than play the script and write no frame."""
    try:
        import luma.emulator.device  # noqa: F401 — only whether it imports
    except ImportError as exc:
        raise UserError(f"--frames needs luma.emulator, which is not installed ({exc}): "
                        "pip install 'pocitadlo[emulator]'") from None


def key_script(path) -> str:
    """The key script's text; a character that is no key is refused (a typo would silently go missing)."""
    from cli.commands import read_text
    from cli.main import UserError
    from input.terminal import CHARS, HOLD_PREFIX

    script = read_text(path, "--keys")
    for number, line in enumerate(script.split("\n"), start=1):
        for column, char in enumerate(line, start=1):
            if char not in CHARS and char != HOLD_PREFIX:
                raise UserError(f"--keys {path}: line {number} column {column}: {char!r} is no key "
                                f"(keys: 0-9 + - * / = # . , a-d space Tab Esc; a line break is Enter; "
                                f"{HOLD_PREFIX} before a key holds it)")
    return script


def interactive(config) -> int:
    from cli.commands.run import serve
    from firmware_host.service import Stop

    keys = QuitStream(sys.stdin)
    row = help_row(config)
    # clear once (the terminal device redraws in place from the top), the key help below it;
    # the cursor hidden, so it does not blink somewhere in the counter
    sys.stdout.write(f"{HIDE_CURSOR}\x1b[2J\x1b[{row};1H{key_help(config)}\x1b[H")
    try:
        return serve(config, keypad_stream=keys, display_stream=sys.stdout, stop_on_end=Stop("quit"),
                     observe=emulator_observer(config, row, sys.stdout))
    except KeyboardInterrupt:
        return 0
    finally:
        # every way out: the shell carries on below the key help, with its cursor back
        sys.stdout.write(leave_drawing(row))
        sys.stdout.flush()


HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


def help_row(config) -> int:
    """The terminal row (1-based) of the key help: a blank line below the counter's text lines."""
    return config.parts["display"].size[1] // 2 + 2


def leave_drawing(row: int) -> str:
    """Colours reset, the cursor on the line below the key help (``row``) and shown again."""
    return f"\x1b[0m\x1b[{row + 1};1H{SHOW_CURSOR}"


def key_line(config):
    """The key line of the active key map in the device's language (input/key_line.py)."""
    from input.key_line import KeyLine

    return KeyLine(config.parts["keypad"].keymap(config.device.game), config.device.language)


def key_help(config, service=None, model=None) -> str:
    """The key line for the screen shown: ``model`` on ``service`` (its night's overlay, partie and
    decisions); without them, the ready screen's."""
    line = key_line(config)
    if service is None:
        return line(model or {"screen": "ready"})
    night = service.night
    match = night.match
    take_back = night.can_take_back() or (night.phase == "result" and bool(match.forfeit))
    return line(model, night.slot.overlay, night.board, take_back=take_back,
                abandonable=night.abandonable(),
                signing=bool(match is not None and match.awaiting))


def emulator_observer(config, row: int, stream):
    """The emulator's service observer: the key line rewritten on each screen, and the counter
    drawn again (or said too small) as soon as the window is resized, not at the next frame."""
    writer = help_writer(config, row, stream)

    def observe(service):
        redraw_on_resize(service)
        return writer(service)
    return observe


def redraw_on_resize(service) -> None:
    """SIGWINCH posts a redraw (from a thread: the handler may interrupt the loop holding the
    queue's lock, as serve does for SIGTERM)."""
    import signal
    import threading

    from firmware_host.service import Refresh

    signal.signal(signal.SIGWINCH, lambda *_: threading.Thread(
        target=service.post, args=(Refresh("resize", redraw=True),), daemon=True).start())


def help_writer(config, row: int, stream):
    """A service observer that rewrites the key line whenever the screen changes."""
    def observe(service):
        def write(model: dict) -> None:
            stream.write(f"\x1b[{row};1H\x1b[J{key_help(config, service, model)}\x1b[H")   # J: a wrapped line too
            stream.flush()
        return write
    return observe


class QuitStream:
    """stdin as the terminal keypad sees it, ending at "q" (so the keypad's on_end stops the service)."""

    def __init__(self, stream):
        self.stream = stream

    def fileno(self) -> int:
        return self.stream.fileno()

    def read(self, n: int = 1) -> str:
        char = self.stream.read(n)
        return "" if char == QUIT else char


def script_clock():
    """A clock that starts now, in this machine's zone, and moves only when the script says so:
    long presses and blinks are reproducible, records carry tonight's date."""
    from clock import ManualClock, SystemClock

    now = SystemClock().now()
    return ManualClock(now, zone=now.tzinfo)


class ScriptPlayer:
    """The service driven by a key script on a script clock (``--keys``; the acceptance tests,
    which give it a ManualClock of their own)."""

    def __init__(self, config, clock=None):
        from dataclasses import replace

        from cli.commands.run import assemble
        from input.debounce import held_for

        self.clock = clock or script_clock()
        parts = dict(config.parts, keypad=replace(config.parts["keypad"], devices=()))
        self.service, _, self.syncer = assemble(replace(config, parts=parts), clock=self.clock)
        self.hold = held_for(config.parts["keypad"].long_press)
        self.service.display.start(self.clock.monotonic())
        self.service.show()

    def key(self, key: str, held: bool = False) -> dict:
        """Press and release one key (held: longer than a long press); the screen model right after
        the release, with any message the key raised."""
        from input.events import KeyEvent

        service = self.service
        service.handle(KeyEvent(key, True, self.clock.monotonic(), "script", debounced=True))
        _advance(service, self.clock, self.hold if held else 0.05)
        service.handle(KeyEvent(key, False, self.clock.monotonic(), "script", debounced=True))
        shown = service.display.model
        _advance(service, self.clock, SCRIPT_KEY_GAP)
        return shown

    def play(self, script: str) -> list[dict]:
        """Every key of ``script`` (terminal key letters); the model shown after each."""
        from input.terminal import keys_in

        return [self.key(key, held) for key, held in keys_in(script)]


def play(config, script: str) -> int:
    """Feed the key script through the referee and the service on a script clock; print a summary."""
    import json

    player = ScriptPlayer(config)
    player.play(script)
    service = player.service
    counter = service.display.counter
    print(json.dumps({"screen": service.screen(), "frames": counter.frames,
                      "journal_bytes": service.night.partie_bytes}, ensure_ascii=False))
    return 0


def _advance(service, clock, seconds: float) -> None:
    """Move the script clock (a clock.ManualClock), running every deadline that falls due on the way."""
    end = clock.monotonic() + seconds
    for _ in range(10_000):
        due = [d for d in (service.display.deadline, service.referee.deadline()) if d is not None]
        step = min([d for d in due if d <= end], default=None)
        clock.advance(max(0.0, (step if step is not None else end) - clock.monotonic()))
        service.tick()
        if step is None:
            return
