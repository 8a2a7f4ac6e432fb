"""``pocitadlo keycard --png FILE``: a printable key reference card from the active key map."""

HELP = "draw a printable card of the referee's keys (from the [keypad] key map) as a PNG"


def configure(parser) -> None:
    parser.add_argument("--png", required=True, metavar="FILE", help="the PNG file to write")
    parser.add_argument("--game", choices=("carom", "8ball"), default=None,
                        help="whose key map (default: [device] game of --config, else carom)")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="the device's config file (default: built-in key maps)")
    parser.add_argument("--language", choices=("cs", "en"), default=None,
                        help="card language (default: [device] language, else cs)")


def run(args) -> int:
    from cli.commands import output_file
    from input.keycard import render
    from input.settings import KeypadSettings

    output_file(args.png, "--png")
    settings, game, language = KeypadSettings(), "carom", "cs"
    if args.config:
        from firmware_host.settings import load
        config = load(args.config)
        settings = config.parts["keypad"]
        game, language = config.device.game, config.device.language
    game = args.game or game
    language = args.language or language
    image = render(settings.keymap(game), settings, language)
    image.save(args.png, format="PNG")
    print(f"{args.png}: {game} key card, {image.width}x{image.height} px")
    return 0
