"""``pocitadlo render RECORD --size 64x16 --png out.png``: draw the counter after a record."""
HELP = "draw the wall counter after a partie record, as PNG (or an animated GIF of blinking states)"

KINDS = ("max7219", "sevensegment", "ws2812")


def _size(text: str) -> tuple[int, int]:
    import argparse

    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 64x16, got {text!r}") from None
    if not (8 <= width <= 512 and 8 <= height <= 256):
        raise argparse.ArgumentTypeError(f"size {text} is out of range (8x8 to 512x256)")
    return width, height


def _scale(text: str) -> int:
    import argparse

    if not text.isdigit() or not 1 <= int(text) <= 32:
        raise argparse.ArgumentTypeError(f"expected a whole number of pixels from 1 to 32, got {text!r}")
    return int(text)


def configure(parser) -> None:
    parser.add_argument("record", help="the record file (.jsonl); - reads standard input")
    parser.add_argument("--size", type=_size, default=(64, 16), help="matrix size WIDTHxHEIGHT (default 64x16)")
    parser.add_argument("--driver", choices=KINDS, default="max7219", help="the kind of counter drawn")
    parser.add_argument("--digits", type=int, choices=(8, 16), default=8, help="digits of a 7-segment board")
    parser.add_argument("--language", "--lang", choices=("cs", "en"), default="cs",
                        help="language of the counter (as `pocitadlo keycard --language`)")
    parser.add_argument("--png", help="write the picture to this PNG file")
    parser.add_argument("--gif", help="write an animated GIF (blinking and pages) to this file")
    parser.add_argument("--night", metavar="FILE", default=None,
                        help="the night journal of a league partie's match, for its partie number and the team "
                             "points so far (default: night.jsonl beside the record, if there is one)")
    parser.add_argument("--pixels", action="store_true",
                        help="plain square pixels (--scale each) instead of luma's picture of round LEDs")
    parser.add_argument("--scale", type=_scale, default=4, help="with --pixels: pixels per LED (default 4)")


def run(args) -> int:
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # luma.emulator imports pygame

    from cli.commands import output_file, read_record
    from cli.main import UserError

    if not args.png and not args.gif:
        raise UserError("say where to write the picture: --png FILE and/or --gif FILE")
    _check_size(args, UserError)
    for option, path in (("--png", args.png), ("--gif", args.gif)):
        if path:
            output_file(path, option)
    replay = read_record(args.record)
    model = partie_model(replay.board, args.record, args.night)
    if args.png:
        draw_png(args, model)
    if args.gif:
        draw_gif(args, model)
    return 0


def _check_size(args, UserError) -> None:
    """The config's check of a MAX7219 counter's size, for --size."""
    from display.settings import max7219_fault

    fault = max7219_fault(*args.size) if args.driver == "max7219" else None
    if fault:
        raise UserError(f"--size {args.size[0]}x{args.size[1]}: {fault[1]}")


def partie_model(board, record: str, night: str | None = None) -> dict:
    """The partie's screen model as the live counter shows it (firmware_host.night_screens): on a
    league match night with its ``match`` — the partie number and the team points before it, from
    the night journal (``night``, else night.jsonl beside ``record``: the data dir's journal/ or an
    archive's folder)."""
    import os

    from cli.main import UserError
    from firmware_host.night_screens import partie_model as live_model

    header, asked = board.header, night is not None
    wanted = match_id(header)
    if asked and wanted is None:
        raise UserError(f"--night {night}: the record is no league partie (its header names no match)")
    if night is None and record != "-" and wanted is not None:
        beside = os.path.join(os.path.dirname(os.path.abspath(record)), "night.jsonl")
        night = beside if os.path.exists(beside) else None
    match = _match_before(night, header) if night else None
    if asked and match is None:
        raise UserError(f"--night {night}: holds no match {wanted!r}, the record's")
    return live_model(board, match)


def match_id(header: dict) -> str | None:
    """The id of the league match a partie's header names; None for a friendly partie (or a
    header whose ``match`` is no object with a text id: the rule core does not read it)."""
    match = header.get("match")
    wanted = match.get("id") if isinstance(match, dict) else None
    return wanted if isinstance(wanted, str) else None


def _match_before(path: str, header: dict):
    """The match of ``header`` from the night journal at ``path`` as it stood when the partie
    started: the partie closed before it (None when the journal does not hold that match)."""
    from dataclasses import replace

    from cli.commands import read_text
    from cli.main import UserError
    from firmware_host.journal import read_lines
    from rules import night as rules_night
    from rules.record import strip_meta

    wanted, number = match_id(header), header.get("partie")
    number = number if type(number) is int and number >= 1 else 1
    state, found = rules_night.NightState(), None
    lines = read_lines(read_text(path, "--night").encode("utf-8"), path).lines
    if not lines:
        raise UserError(f"--night {path}: not a night journal (not one line of it reads)")
    for line in lines:
        try:
            state = rules_night.apply(state, strip_meta(line))
        except rules_night.NightEventError:
            continue
        if state.match is not None and state.match.id == wanted:
            found = state.match
    if found is None:
        return None
    return replace(found, closed=found.closed[:number - 1], records=found.records[:number - 1])


def _settings(args, driver: str, target: str):
    from display.settings import DisplaySettings

    width, height = args.size
    # luma's LED picture draws every lit LED red, which suits MAX7219 modules but not RGB panels.
    pixels = args.pixels or args.driver == "ws2812"
    transform = ("identity" if args.scale > 1 else "none") if pixels else "led_matrix"
    return DisplaySettings(driver=driver, emulate=args.driver, width=width, height=height,
                           digits=args.digits, language=args.language, emulator_scale=max(1, args.scale),
                           emulator_transform=transform, file_template=target.replace("{", "{{").replace("}", "}}"))


def draw_png(args, model) -> None:
    """The counter showing ``model`` (a screen model) as a PNG at ``args.png`` (docs/make_images.py too)."""
    from display.counter import Counter
    from display.devices import open_device

    settings = _settings(args, "capture", args.png)
    Counter(open_device(settings), settings).show(model, 0.0)


def draw_gif(args, model) -> None:
    """The counter showing ``model`` as an animated GIF at ``args.gif``: one frame per blink
    half-period over a whole cycle of pages (at least one blink)."""
    from display.counter import Counter
    from display.devices import open_device

    settings = _settings(args, "gifanim", args.gif)
    device = open_device(settings)
    counter = Counter(device, settings)
    cycle = max(2 * settings.blink_seconds, _cycle_pages(counter, model, settings) * settings.page_seconds)
    steps = round(cycle / settings.blink_seconds)
    try:
        for step in range(steps):
            device.display(counter.render(model, step * settings.blink_seconds).image)
        device.write_animation()
    finally:
        device._images.clear()      # luma writes again at exit: written already, or failed already


def _cycle_pages(counter, model, settings) -> int:
    """Pages until the picture repeats. A page may have pages of its own (``Scene.turn``: a match
    night's names take turns with the partie and the team score), which only that page's frames
    count, so every page of the cycle found so far is asked."""
    from math import lcm

    pages, index = 1, 0
    while index < pages:
        pages = lcm(pages, counter.render(model, index * settings.page_seconds).pages)
        index += 1
    return pages

