"""The receiver's CPU work per item for single posts, in process, counted as instructions (a
script, not a test): what issue 26's ingestion goal asks of the receiver, measured without this
host's drift.

    nice -n 10 .venv/bin/python bench/ingest_cpu.py [--devices 1 4] [--items 200] [--parts]

The path is bench_ingest.py's ``in_process``: the devices as coroutines, each posting its signed
items one after the other to a ``GroupCommit`` over a ``Receiver`` on SQLite (WAL,
synchronous=FULL) on a real disk under ``--dir``, each answered once durable; the figures step
after the answers is not counted. After ``--warm`` items (the write-ahead log grown, the
caches filled), ``--items`` items are counted by valgrind's callgrind (this script run again
under it with ``--count``): the event loop's thread while inside ``functools.reduce`` around the
posting, and the group commit's thread while inside ``functools.reduce`` around each
``Receiver.receive_posts`` (nothing else of the path calls it). The same instructions every run,
whatever the machine's load; the group sizes follow valgrind's thread scheduling, so they are
printed (posts a commit).

``--parts``: each part of an item's handling counted alone, in a run of its own (the part
wrapped in ``functools.reduce``, nothing else counted): the inclusive instructions per item of
the receiver's main functions.
"""
import argparse
import functools
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

TOGGLE = "functools_reduce"     # CPython's C function of functools.reduce (callgrind --toggle-collect)
WHOLE = "whole"


def counted(function):
    """``function`` run inside ``functools.reduce``, where callgrind counts."""
    def run(*args, **kwargs):
        return functools.reduce(lambda _, __: function(*args, **kwargs), [None], None)
    return run


def _wrap(owner, name: str, wrapper) -> None:
    setattr(owner, name, wrapper(getattr(owner, name)))


class _Committing:
    """The SQLite writer connection with its ``commit`` counted (a C object's method cannot be
    patched); everything else passes through."""

    def __init__(self, connection):
        self._connection = connection
        self.commit = counted(connection.commit)

    def __getattr__(self, name):
        return getattr(self._connection, name)


PARTS = ("receive_posts", "commit", "authenticate", "parse_body", "check", "store", "items.put", "sql")


def count_part(receiver, part: str) -> None:
    """Wrap ``part`` of the receiver's work (one of PARTS) in ``counted``."""
    from server.ingest import receiver as receiving
    from server.storage.database import Database

    store = receiver.store
    wrappers = {
        "receive_posts": lambda: _wrap(receiver, "receive_posts", counted),
        "commit": lambda: setattr(store.database, "_writer", _Committing(store.database._writer)),
        "authenticate": lambda: _wrap(receiver, "_authenticate", counted),
        "parse_body": lambda: _wrap(receiving, "parse_body", counted),
        "check": lambda: _wrap(receiving, "_checked", counted),
        "store": lambda: _wrap(receiver, "_store", counted),
        "items.put": lambda: _wrap(store.items, "put", counted),
        "sql": lambda: (_wrap(Database, "execute", counted), _wrap(Database, "execute_many", counted)),
    }
    wrappers[part]()


def count(directory: Path, devices: int, items: int, warm: int, part: str) -> None:
    """The run under valgrind: ``warm`` items, then ``items`` items counted (``part``: WHOLE, or
    one of PARTS). Prints the commits the counted items took."""
    from bench_ingest import SECRET, bodies, post_all, registered
    from server.ingest.receiver import Receiver
    from server.site.group_commit import GroupCommit
    from server.storage.store import Store
    from wire.signing import Signer

    db = directory / "ingest.sqlite"
    registered(db, devices)
    store = Store(db)
    try:
        receiver = Receiver(store)
        group = GroupCommit(receiver)
        per_device = -(-(warm + items) // devices)
        texts = [bodies(f"C{devices}-{n}", per_device) for n in range(devices)]
        signers = [Signer(f"dev-{n}", SECRET) for n in range(devices)]
        cut = -(-warm // devices)
        post_all(group, [[signer.sign(b) for b in t[:cut]] for signer, t in zip(signers, texts)])
        posts = [[signer.sign(b) for b in t[cut:]] for signer, t in zip(signers, texts)]
        if part == WHOLE:
            main = threading.main_thread()
            posting = receiver.receive_posts
            on_thread = counted(posting)
            receiver.receive_posts = lambda *a, **k: (posting if threading.current_thread() is main else on_thread)(*a, **k)
            before = group.groups
            counted(post_all)(group, posts)
        else:
            count_part(receiver, part)
            before = group.groups
            post_all(group, posts)
        print(f"commits {group.groups - before} items {sum(map(len, posts))}")
    finally:
        store.close()


def instructions(devices: int, items: int, warm: int, part: str, directory: str,
                 keep: Path | None = None) -> tuple[float, float]:
    """(instructions per item, posts per commit) of ``count`` run under callgrind (``keep``: its
    output kept there, for callgrind_annotate)."""
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        out = keep or Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")      # the same dicts every run
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--compress-strings=no", "--collect-atstart=no",
                              f"--toggle-collect={TOGGLE}", sys.executable, str(Path(__file__).resolve()),
                              "--count", "--devices", str(devices), "--items", str(items), "--warm", str(warm),
                              "--part", part, "--dir", tmp],
                             check=True, env=env, capture_output=True, text=True)
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
    words = run.stdout.split()
    commits, stored = int(words[words.index("commits") + 1]), int(words[words.index("items") + 1])
    return int(totals[0].split()[1]) / stored, stored / commits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--items", type=int, default=200, help="items counted (all devices together)")
    parser.add_argument("--warm", type=int, default=160, help="items stored before counting")
    parser.add_argument("--parts", action="store_true", help="also each part counted alone")
    parser.add_argument("--dir", default="/var/tmp", help="where the store goes (a real disk)")
    parser.add_argument("--keep", type=Path, help="keep the whole count's callgrind output here (DEVICES appended)")
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)    # the run under valgrind
    parser.add_argument("--part", default=WHOLE, help=argparse.SUPPRESS)
    args = parser.parse_args()
    import warnings
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    if args.count:
        [devices] = args.devices
        count(Path(args.dir), devices, args.items, args.warm, args.part)
        return
    names = [WHOLE] + (list(PARTS) if args.parts else [])
    for devices in args.devices:
        for name in names:
            keep = Path(f"{args.keep}.{devices}") if args.keep and name == WHOLE else None
            per_item, per_commit = instructions(devices, args.items, args.warm, name, args.dir, keep)
            label = "instructions per item" if name == WHOLE else f"  {name}"
            print(f"{devices} device{'s' if devices > 1 else ''}, {label}: {per_item:,.0f}"
                  f" ({per_commit:.1f} posts a commit)", flush=True)


if __name__ == "__main__":
    main()
