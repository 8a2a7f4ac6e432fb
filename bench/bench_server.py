"""The receiver's figures as ratios from one run (issue 13):

1. GET /table.json with 50,000 stored partie vs with 500 (goal: within 2x), for a league whose
   seasons pile up (12 teams, ~528 partie a season) and for all 50,000 in one season; beside it
   the time to build the table and the lists of matches, and the receiver's resident memory;
2. POST latency p99 while 10 clients keep reading /table.json vs alone (goal: within 2x), over
   --posts posts each, the two alternating in 4 blocks each (a shared machine's load drifts); with
   the readers niced (the fair model: readers' CPUs are not the receiver's) and not;
3. ingestion (signature, replay check, store: a device's item answered when durable) vs a bare
   SQLite insert loop of the same durability (WAL, synchronous=FULL, one commit per item) (goal:
   at least half), the two alternating in 4 blocks each; the figures computed after the answers
   are timed apart and shown with it; beside it a device's backlog in batches (/api/v1/batch)
   and the bare loop committing once a batch;
4. every public page under 50 readers vs Caddy's static copy of it, and a device's POST meanwhile,
   and under 200 readers of the table (bench/bench_pages.py).

The receiver runs as `pocitadlo serve` in its own process; the stores for (1) are filled with
direct inserts of one real match's rows (fast), then read over HTTP.

    .venv/bin/python bench/bench_server.py [--posts 400]
"""
import argparse
import datetime as dt
import os
import platform
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))     # carom_samples
sys.path.insert(0, str(Path(__file__).resolve().parent))                       # bench_pages

import bench_pages
import carom_samples
from delivery.outbox import item_body
from delivery.sync import BATCH
from delivery.transport_http import HttpTransport
from server.ingest.receiver import Receiver
from server.league.verify import check, parse_body
from server.site import home as home_page
from server.storage.figures import SUMMED
from server.storage.store import Store
from server.tables import exports
from wire.signing import Signer

SECRET = b"bench-secret-0123456789abcdef"
VENUE = "Hostinec U Lva"
POCITADLO = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
TEAMS = [f"Tým {n:02d}" for n in range(12)]
MATCH_COLUMNS = ("match_id", "seq", "game", "season", "date", "venue", "home", "away", "points_home", "points_away",
                 "closed", "unreadable", "fixture")


def match_items(match_id: str, home: str, away: str, seed: int, date: str = "2026-11-27") -> list[bytes]:
    played, (mid, mtext, msummary) = carom_samples.match(match_id, home, away, seed=seed, date=date, venue=VENUE,
                                                   points_limit=30, innings_limit=5)
    return [item_body(pid, "partie", t, s) for pid, t, s in played] + [item_body(mid, "match", mtext, msummary)]


def fill(path: Path, partie: int, *, one_season: bool) -> None:
    """A store with ``partie`` partie: one real match stored through the receiver, then its rows
    copied with new ids, teams and dates by direct inserts."""
    store = Store(path)
    store.devices.add("bench", SECRET, venue=VENUE)
    receiver = Receiver(store)
    for body in match_items("T-0", TEAMS[0], TEAMS[1], 1):
        assert receiver.handle(Signer("bench", SECRET).sign(body), via="bench")[0] == 200
    store.close()
    db = sqlite3.connect(path)
    items = db.execute("SELECT id, kind, game, device, via, received, body, origin, venue FROM items").fetchall()
    [match_row] = [dict(zip(MATCH_COLUMNS, row)) for row in
                   db.execute(f"SELECT {', '.join(MATCH_COLUMNS)} FROM match_figures").fetchall()]
    team_rows = db.execute("SELECT * FROM team_figures").fetchall()
    pairs = [(h, a) for h in range(12) for a in range(12) if h != a]
    with db:
        for n in range(1, partie // 4):
            home, away = pairs[n % len(pairs)]
            season = "2026/27" if one_season else f"{2026 - n // len(pairs)}/{(27 - n // len(pairs)) % 100:02d}"
            mid = f"T-{n}"
            db.executemany("INSERT INTO items(id, kind, game, match_id, device, via, received, body, origin, venue) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(f"{mid}-{i}", k, g, mid, d, v, r, b, o, ve) for i, (_, k, g, d, v, r, b, o, ve)
                            in enumerate(items)])
            row = {**match_row, "match_id": mid, "seq": n * 10, "season": season, "home": TEAMS[home],
                   "away": TEAMS[away], "fixture": mid}
            db.execute(f"INSERT INTO match_figures({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                       tuple(row.values()))
            for row, team, opponent in zip(team_rows, (TEAMS[home], TEAMS[away]), (TEAMS[away], TEAMS[home])):
                db.execute(f"INSERT INTO team_figures VALUES ({', '.join('?' * len(row))})",
                           (mid, row[1], season, team, opponent, *row[5:]))
        db.execute("DELETE FROM team_totals")
        db.execute(f"INSERT INTO team_totals SELECT game, season, team, opponent, {', '.join(f'SUM({c})' for c in SUMMED)} "
                   "FROM team_figures GROUP BY game, season, team, opponent")
    db.close()


class Serve:
    """`pocitadlo serve` on a free port of 127.0.0.1, in its own process."""

    def __init__(self, db: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(POCITADLO + ["serve", "--db", str(db), "--listen", f"127.0.0.1:{self.port}"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdout.readline()         # "receiving on …": it listens

    def get(self, path: str) -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=120) as answer:
            answer.read()
        return time.perf_counter() - started

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def median(values):
    return sorted(values)[len(values) // 2]


def p99(values):
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def table_time(tmp: Path, partie: int, one_season: bool) -> dict:
    """``served``: median GET /table.json over HTTP (a kept page once built); ``built``: median
    time to build the table from the store, as after each step that computes figures; ``lists``:
    the same for the lists of matches (/ and /matches.json, one season's); ``rss``: the receiver's
    resident memory (KiB) after it served the table and the lists."""
    db = tmp / f"t{partie}-{one_season}.sqlite"
    fill(db, partie, one_season=one_season)
    server = Serve(db)
    try:
        for path in ("/table.json", "/", "/matches.json"):
            server.get(path)
        served = median([server.get("/table.json") for _ in range(60)])
        rss = resident_kib(server.proc.pid)
    finally:
        server.stop()
    store = Store(db)
    try:
        built = [timed(exports.league_table, store) for _ in range(30)]
        lists = [timed(home_page.build, store, dt.date(2026, 11, 27)) + timed(exports.matches, store) for _ in range(10)]
    finally:
        store.close()
    return {"served": served, "built": median(built), "lists": median(lists), "rss": rss}


def timed(call, *args) -> float:
    started = time.perf_counter()
    call(*args)
    return time.perf_counter() - started


def resident_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def post_latencies(server: Serve, bodies: list[bytes]) -> list[float]:
    transport = HttpTransport(f"http://127.0.0.1:{server.port}/api/v1/records", Signer("bench", SECRET), timeout=60)
    out = []
    for body in bodies:
        started = time.perf_counter()
        assert transport.send(body).delivered
        out.append(time.perf_counter() - started)
    return out


BLOCKS = 4      # the posts alone and under readers alternate in this many blocks each
WARM = 1000     # items each store takes, untimed, before ingestion is timed


def posts_under_readers(tmp: Path, posts: int, nice: int) -> tuple[tuple[float, float], tuple[float, float], float]:
    """(median, p99) of POST latency alone, then while 10 clients keep reading the table, and the
    readers' rate (answers a second). The two alternate in BLOCKS blocks each, so that the load of
    a shared machine, which drifts over a run, weighs on both alike. ``nice``: the readers' CPU
    priority (19: they take only CPU time the receiver and the posting device leave, as readers on
    their own machines would; 0: they contend with the receiver for this machine's CPUs)."""
    tmp.mkdir()
    db = tmp / "posts.sqlite"
    fill(db, 2000, one_season=True)
    alone = [b for n in range(posts // 5) for b in match_items(f"A-{n}", TEAMS[2], TEAMS[3], n)]
    loaded = [b for n in range(posts // 5) for b in match_items(f"B-{n}", TEAMS[4], TEAMS[5], n)]
    size = -(-len(alone) // BLOCKS)
    server = Serve(db)
    quiet, busy, rates = [], [], []
    try:
        for block in range(BLOCKS):
            quiet += post_latencies(server, alone[block * size:(block + 1) * size])
            # the 10 readers run in their own process, so their GIL does not slow the posting client
            readers = subprocess.Popen([sys.executable, "-c", READERS, str(server.port)], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(nice))
            try:
                readers.stdout.readline()           # "reading": every reader has had an answer
                busy += post_latencies(server, loaded[block * size:(block + 1) * size])
                readers.stdin.write("stop\n")
                readers.stdin.flush()
                rates.append(float(readers.stdout.readline()))
            finally:
                readers.terminate()
                readers.wait(30)
    finally:
        server.stop()
    return (median(quiet), p99(quiet)), (median(busy), p99(busy)), median(rates)


READERS = """
import sys, threading, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/table.json"
started = threading.Barrier(11)
answers = []
def read():
    first = True
    while True:
        urllib.request.urlopen(url, timeout=120).read()
        answers.append(1)
        if first:
            first = False
            started.wait()
for _ in range(10):
    threading.Thread(target=read, daemon=True).start()
started.wait()
since, before = time.perf_counter(), len(answers)
print("reading", flush=True)
sys.stdin.readline()
print((len(answers) - before) / (time.perf_counter() - since), flush=True)
"""


def ingestion(tmp: Path, n: int) -> dict:
    """Items per second: ``receiver`` (each item answered once it is verified and durable, as a
    POST is: ``Receiver.receive``), ``batched`` (a device's backlog, BATCH items a request:
    ``Receiver.receive_many``, every item verified and durable before its answer, one commit for
    them), ``bare`` (the bare loop, a commit per item: the same durability for items that arrive
    one at a time) and ``bare_batched`` (the bare loop, a commit per BATCH items: the batches'
    own counterpart); ``figured`` (the receiver with the figures computed after the answers:
    ``Receiver.settle`` after each block, as the served receiver's step after the answers) and
    ``checks`` (the record's replay against its summary and the field checks, server/league/verify.py,
    no store). The four alternate in BLOCKS blocks each: a commit's cost on a shared disk drifts
    (0.2-4 ms within minutes), and this way it weighs on all alike. Each store first takes WARM
    items untimed, so that its write-ahead log is past the first checkpoint: until then each commit
    also grows the log file, which costs the file system more than writing over it (the bare loop's
    commit ~175 µs then, ~135 µs after, here), and a short run would time that start."""
    def matches(prefix: str, count: int) -> list[bytes]:
        return [b for m in range(count // 5) for b in match_items(f"{prefix}-{m}", TEAMS[m % 12], TEAMS[(m + 1) % 12], m)]

    bodies, backlog = matches("I", n), matches("J", n)
    signed = [Signer("bench", SECRET).sign(b) for b in bodies]
    signed_backlog = [Signer("bench", SECRET).sign(b) for b in backlog]
    started = time.perf_counter()
    for body in bodies:
        check(parse_body(body))
    rates = {"checks": len(bodies) / (time.perf_counter() - started)}
    store = Store(tmp / "ingest.sqlite")
    store.devices.add("bench", SECRET, venue=VENUE)
    receiver = Receiver(store)
    db = sqlite3.connect(tmp / "bare.sqlite", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE items (id TEXT PRIMARY KEY, body BLOB NOT NULL)")

    def bare(keyed: list, per_commit: int) -> None:
        for first in range(0, len(keyed), per_commit):
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT INTO items VALUES (?, ?)", keyed[first:first + per_commit])
            db.execute("COMMIT")

    warm = matches("W", WARM)
    for s_ in (Signer("bench", SECRET).sign(b) for b in warm):
        assert receiver.receive(s_, via="bench", fresh_only=False)[0] == 200
    bare([(f"w-{k}", b) for k, b in enumerate(warm)], 1)
    receiver.settle()
    size = -(-len(bodies) // BLOCKS)
    spent = dict.fromkeys(("receiver", "figures", "batched", "bare", "bare_batched"), 0.0)

    def timed_as(key: str, call) -> None:
        started = time.perf_counter()
        call()
        spent[key] += time.perf_counter() - started

    def one_by_one(items: list) -> None:
        for s_ in items:
            assert receiver.receive(s_, via="bench", fresh_only=False)[0] == 200

    def in_batches(items: list) -> None:
        for first in range(0, len(items), BATCH):
            answers = receiver.receive_many(items[first:first + BATCH], via="bench", fresh_only=False)
            assert all(code == 200 and answer["status"] == "stored" for code, answer in answers)

    for block in range(BLOCKS):
        part = slice(block * size, (block + 1) * size)
        timed_as("receiver", lambda part=part: one_by_one(signed[part]))
        timed_as("figures", receiver.settle)
        timed_as("batched", lambda part=part: in_batches(signed_backlog[part]))
        receiver.settle()
        timed_as("bare", lambda part=part: bare([(f"x-{k}", bodies[k]) for k in range(len(bodies))[part]], 1))
        timed_as("bare_batched",
                 lambda part=part: bare([(f"y-{k}", backlog[k]) for k in range(len(backlog))[part]], BATCH))
    store.close()
    db.close()
    rates.update({key: len(bodies) / spent[key] for key in ("receiver", "batched", "bare", "bare_batched")})
    rates["figured"] = len(bodies) / (spent["receiver"] + spent["figures"])
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=400, help="posts timed alone and under readers, and items "
                                                                 "ingested (400: a p99 is the 4th slowest, not the 2nd)")
    parser.add_argument("--seconds", type=int, default=4, help="seconds of reading each page (bench/bench_pages.py)")
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at start")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        small, seasons, one = table_time(tmp, 500, True), table_time(tmp, 50_000, False), table_time(tmp, 50_000, True)

        def compared(key: str, scale: float, unit: str) -> str:
            return (f"500 partie {small[key] * scale:.2f} {unit}; 50,000 over ~95 seasons {seasons[key] * scale:.2f} "
                    f"{unit} (ratio {seasons[key] / small[key]:.2f}); 50,000 in one season {one[key] * scale:.2f} "
                    f"{unit} (ratio {one[key] / small[key]:.2f}")
        print(f"/table.json median: {compared('served', 1000, 'ms')}; goal <= 2)")
        print(f"  the table built from the store (once per step after the answers): {compared('built', 1000, 'ms')})")
        print(f"  the lists of matches (/ and /matches.json, the latest season's) built: {compared('lists', 1000, 'ms')})")
        print(f"  the receiver's resident memory after serving them: {compared('rss', 1 / 1024, 'MiB')})")
        for nice, how in ((19, "readers niced: their CPU is not the receiver's, as on their own machines"),
                          (0, "readers contending with the receiver for this machine's 2 CPUs")):
            quiet, busy, rate = posts_under_readers(tmp / f"nice{nice}", args.posts, nice)
            print(f"POST p99 ({how}): alone {quiet[1] * 1000:.1f} ms (median {quiet[0] * 1000:.1f}), while "
                  f"10 clients read /table.json {busy[1] * 1000:.1f} ms (median {busy[0] * 1000:.1f}) "
                  f"(ratio {busy[1] / quiet[1]:.2f}; goal <= 2); the readers got {rate:.0f} answers/s")
        bench_pages.under_readers(tmp / "pages", args.seconds)
        rate = ingestion(tmp, args.posts)
        print(f"ingestion: receiver {rate['receiver']:.0f} items/s answered (verified and durable), bare SQLite "
              f"insert loop (WAL, synchronous=FULL, a commit per item) {rate['bare']:.0f} items/s (ratio "
              f"{rate['receiver'] / rate['bare']:.2f}; goal >= 0.5); per item {1e6 / rate['receiver']:.0f} us vs "
              f"{1e6 / rate['bare']:.0f} us, of which the record's replay and checks alone {1e6 / rate['checks']:.0f} us; "
              f"with the figures computed after the answers {rate['figured']:.0f} items/s "
              f"({1e6 / rate['figured']:.0f} us an item, ratio {rate['figured'] / rate['bare']:.2f})")
        print(f"  a backlog in batches of {BATCH} (/api/v1/batch, each item durable before its answer): receiver "
              f"{rate['batched']:.0f} items/s ({1e6 / rate['batched']:.0f} us an item; ratio "
              f"{rate['batched'] / rate['bare']:.2f} to the loop's commit per item, "
              f"{rate['batched'] / rate['bare_batched']:.2f} to the loop's commit per {BATCH} items, "
              f"{rate['bare_batched']:.0f} items/s)")
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
