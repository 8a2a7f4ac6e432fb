"""``pocitadlo replay FILE``: print the state after a record as one JSON object."""
import json

HELP = "print the state after a partie record (JSON Lines) as one JSON object"


MAX_INDENT = 16


def _indent(text: str) -> int:
    """0-16 spaces (a huge indent ran out of memory, a negative one was taken as none)."""
    import argparse

    if not text.isdigit() or int(text) > MAX_INDENT:
        raise argparse.ArgumentTypeError(f"expected 0 to {MAX_INDENT} spaces, got {text[:20]!r}")
    return int(text)


def configure(parser) -> None:
    parser.add_argument("record", help="the record file (.jsonl); - reads standard input")
    parser.add_argument("--indent", type=_indent, default=None, help=f"pretty-print with this indent (0-{MAX_INDENT})")


def run(args) -> int:
    from cli.commands import read_record

    result = read_record(args.record)
    print(json.dumps(result.summary(), ensure_ascii=False, indent=args.indent))
    return 0
