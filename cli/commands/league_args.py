"""What the league's ``pocitadlo server`` actions share in their arguments (league_admin.py, league_schedule.py)."""


def group(sub, name: str, what: str):
    parser = sub.add_parser(name, help=what)
    return parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=type(parser))


def in_season(parser):
    parser.add_argument("--season", required=True, help="like 2026/27")
    parser.add_argument("--competition", choices=("carom", "8ball"), default="carom")
    return parser
