"""``pocitadlo replay FILE``: print the state after a record as one JSON object."""
import json

HELP = "print the state after a partie record (JSON Lines) as one JSON object"


def configure(parser) -> None:
    parser.add_argument("record", help="the record file (.jsonl); - reads standard input")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")


def run(args) -> int:
    from cli.commands import read_record

    result = read_record(args.record)
    print(json.dumps(result.summary(), ensure_ascii=False, indent=args.indent))
    return 0
