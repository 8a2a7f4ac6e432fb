"""Ingestion through the served receiver, as ratios to a bare SQLite loop from the same run (issue
26's concurrency section):

1. single posts of 1, 4 and 16 devices at once, each posting its items one after the other and
   answered once each is durable (`pocitadlo serve` on SQLite, which commits the posts arriving
   together at once: server/site/group_commit.py; the devices in processes of their own): items
   a second over the bare loop's, a commit per item (WAL, synchronous=FULL), measured just before
   and just after (goal: at least 0.5);
   the receiver's process's CPU an item and the devices' (from /proc: they share the machine's
   CPUs); the same devices posting to a receiver that stores nothing (the same uvicorn, guard
   and Starlette, answering each post as the receiver would at once): the ceiling of the served
   rate on this machine, whatever the receiver's own work;
   the same in process: the devices as coroutines handing their posts to the receiver's group
   commit, with no HTTP and no device process (the receiver's own work, as issue 26's 0.30-0.37
   were measured), answered, and with the figures step after the answers;
2. `pocitadlo server import` of a backlog file vs the same bare loop (goal: at least 0.5).

    .venv/bin/python bench/bench_ingest.py [--items 800] [--backlog 25000 (0: no import)]
"""
import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))     # carom_samples
sys.path.insert(0, str(Path(__file__).resolve().parent))

import carom_samples
from bench_pages import Running, free_port
from delivery.outbox import item_body
from server.storage.store import Store
from wire.signing import Signer

SECRET = b"bench-secret-0123456789abcdef"
VENUE = "Hostinec U Lva"
POCITADLO = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
DEVICES = (1, 4, 16)

POSTER = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from delivery.transport_http import HttpTransport
from wire.signing import Signer
url, device, secret, go = sys.argv[2], sys.argv[3], sys.argv[4].encode(), sys.argv[5]
bodies = [line.encode() for line in sys.stdin.read().splitlines()]
transport = HttpTransport(url, Signer(device, secret), timeout=300)
print("ready", flush=True)
while not os.path.exists(go):           # every device starts at once
    time.sleep(0.001)
for body in bodies:
    assert transport.send(body).delivered
print("done", flush=True)
"""


# a receiver that stores nothing: the served receiver's HTTP (server/http_server.py's uvicorn with
# the guard, Starlette), answering each post at once as the receiver answers a stored item
NOTHING = """
import json, socket, sys, time
sys.path.insert(0, sys.argv[1])
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Route
from server.app import Front
from server.guard import guarded
from server.site.answers import JSONAnswer

async def post(request):
    item_id = json.loads(await request.body())["id"]
    return JSONAnswer({"code": 200, "status": "stored", "id": item_id, "reason": "stored", "server_time": time.time()})

app = Starlette(routes=[Route("/api/v1/records", post, methods=["POST"])])
config = uvicorn.Config(Front(app), lifespan="off", access_log=False, log_level="warning", server_header=False,
                        http=guarded(), timeout_keep_alive=5)
uvicorn.Server(config).run(sockets=[socket.create_server(("127.0.0.1", int(sys.argv[2])), backlog=2048)])
"""


def cpu_seconds(pid: int) -> float:
    """The user and system CPU a process has used (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bodies(prefix: str, count: int) -> list[bytes]:
    out: list[bytes] = []
    for m in range(-(-count // 5)):
        played, (mid, text, summary) = carom_samples.match(f"{prefix}-{m}", "Lvi", "Orli", seed=m, venue=VENUE,
                                                           points_limit=30, innings_limit=5)
        out += [item_body(pid, "partie", t, s) for pid, t, s in played] + [item_body(mid, "match", text, summary)]
    return out[:count]


def bare_loop(path: Path, items: list[bytes]) -> float:
    """Items a second of the bare loop: a commit per item (WAL, synchronous=FULL), after a warm-up."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE items (id TEXT PRIMARY KEY, body BLOB NOT NULL)")
    for n, body in enumerate(items[:200]):
        db.execute("INSERT INTO items VALUES (?, ?)", (f"w-{n}", body))
    started = time.perf_counter()
    for n, body in enumerate(items):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO items VALUES (?, ?)", (f"x-{n}", body))
        db.execute("COMMIT")
    rate = len(items) / (time.perf_counter() - started)
    db.close()
    return rate


def registered(path: Path, devices: int) -> None:
    store = Store(path)
    try:
        for n in range(devices):
            store.devices.add(f"dev-{n}", SECRET, venue=VENUE)
    finally:
        store.close()


def posting(tmp: Path, devices: int, per_device: int, *, nothing: bool = False) -> tuple[float, float, float]:
    """Items a second that ``devices`` devices posting at once get stored by `pocitadlo serve`
    (``nothing``: answered by a receiver that stores nothing), and the CPU an item of the
    receiver's process and of the devices' (seconds)."""
    db = tmp / f"served-{devices}.sqlite"
    port = free_port()
    root = str(Path(__file__).resolve().parent.parent)
    if nothing:
        server = Running([sys.executable, "-c", NOTHING, root, str(port)], port)
    else:
        registered(db, devices)
        server = Running(POCITADLO + ["serve", "--db", str(db), "--listen", f"127.0.0.1:{port}"], port)
    go = tmp / f"go-{devices}-{nothing}"
    try:
        posters = []
        for n in range(devices):
            proc = subprocess.Popen([sys.executable, "-c", POSTER, root, f"http://127.0.0.1:{port}/api/v1/records",
                                     f"dev-{n}", SECRET.decode(), str(go)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            proc.stdin.write("\n".join(b.decode() for b in bodies(f"D{devices}-{n}", per_device)))
            proc.stdin.close()
            posters.append(proc)
        for proc in posters:
            assert proc.stdout.readline() == "ready\n"
        receiver_cpu, devices_cpu = cpu_seconds(server.proc.pid), sum(cpu_seconds(p.pid) for p in posters)
        started = time.perf_counter()
        go.touch()
        for proc in posters:
            assert proc.stdout.readline() == "done\n"
        elapsed = time.perf_counter() - started
        receiver_cpu = cpu_seconds(server.proc.pid) - receiver_cpu
        devices_cpu = sum(cpu_seconds(p.pid) for p in posters) - devices_cpu
        for proc in posters:
            proc.wait(60)
        items = devices * per_device
        return items / elapsed, receiver_cpu / items, devices_cpu / items
    finally:
        server.stop()


def post_all(group, posts: list[list]) -> None:
    """Every device posting its signed items one after the other to ``group`` (a GroupCommit),
    all at once, each answered once stored."""
    async def device(signed: list) -> None:
        for one in signed:
            with group.posting():
                answers = await group.store([one], "127.0.0.1")
            assert answers[0][1]["status"] == "stored", answers

    async def everyone() -> None:
        await asyncio.gather(*(device(signed) for signed in posts))

    asyncio.run(everyone())


def in_process(tmp: Path, devices: int, per_device: int) -> tuple[float, float]:
    """Items a second that ``devices`` devices posting at once get stored by the receiver's group
    commit in this process (no HTTP): answered, and answered with their figures computed."""
    from server.ingest.receiver import Receiver
    from server.site.group_commit import GroupCommit

    db = tmp / f"in-process-{devices}.sqlite"
    registered(db, devices)
    store = Store(db)
    try:
        receiver = Receiver(store)
        group = GroupCommit(receiver)
        posts = [[Signer(f"dev-{n}", SECRET).sign(body) for body in bodies(f"P{devices}-{n}", per_device)]
                 for n in range(devices)]
        started = time.perf_counter()
        post_all(group, posts)
        answered = time.perf_counter() - started
        receiver.settle()
        figured = time.perf_counter() - started
    finally:
        store.close()
    return devices * per_device / answered, devices * per_device / figured


def importing(tmp: Path, items: list[bytes]) -> float:
    """Items a second of `pocitadlo server import` of a backlog file of ``items`` (figures included)."""
    db, backlog = tmp / "import.sqlite", tmp / "backlog.jsonl"
    registered(db, 1)
    signer = Signer("dev-0", SECRET)
    backlog.write_text("".join(json.dumps(signer.sign(b).to_json(), ensure_ascii=False) + "\n" for b in items),
                       encoding="utf-8")
    started = time.perf_counter()
    subprocess.run(POCITADLO + ["server", "--db", str(db), "import", str(backlog)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return len(items) / (time.perf_counter() - started)


def bracketed(tmp: Path, name: str, items: list[bytes], measure) -> tuple[float, tuple[float, float]]:
    """``measure()``'s rate and the bare loop's just before and just after it: a commit's wait for
    this shared machine's disk drifts within seconds (here 0.2 to 3 ms), and the ratio is to
    their mean."""
    before = bare_loop(tmp / f"bare-{name}-before.sqlite", items)
    rate = measure()
    return rate, (before, bare_loop(tmp / f"bare-{name}-after.sqlite", items))


def compared(rate: float, bare: tuple[float, float]) -> str:
    mean = sum(bare) / 2
    return (f"{rate:.0f} items/s ({1e6 / rate:.0f} µs an item) vs the bare loop's {bare[0]:.0f} before and "
            f"{bare[1]:.0f} after ({1e6 / mean:.0f} µs an item, a commit each): ratio {rate / mean:.2f} "
            f"(goal >= 0.5)")


def run(tmp: Path, items: int, backlog_items: int) -> None:
    tmp.mkdir(exist_ok=True)
    for devices in DEVICES:
        per_device = max(10, items // devices)
        cpu: dict[str, tuple[float, float]] = {}

        def served(devices=devices, per_device=per_device, cpu=cpu, nothing=False) -> float:
            rate, receiver, posters = posting(tmp, devices, per_device, nothing=nothing)
            cpu["nothing" if nothing else "served"] = (receiver, posters)
            return rate

        rate, bare = bracketed(tmp, f"posts-{devices}", bodies("B", items), served)
        print(f"single posts, {devices} device{'s' if devices > 1 else ''} at once, stored and answered: "
              f"{compared(rate, bare)}; CPU an item: the receiver's {cpu['served'][0] * 1e6:.0f} µs, "
              f"the devices' {cpu['served'][1] * 1e6:.0f} µs")
        rate, bare = bracketed(tmp, f"nothing-{devices}", bodies("B", items), lambda: served(nothing=True))
        print(f"  … to a receiver that stores nothing (its HTTP alone; the ceiling): {rate:.0f} items/s, ratio "
              f"{rate / (sum(bare) / 2):.2f}; CPU an item: its {cpu['nothing'][0] * 1e6:.0f} µs, "
              f"the devices' {cpu['nothing'][1] * 1e6:.0f} µs")
        (answered, figured), bare = bracketed(tmp, f"in-process-{devices}", bodies("B", items),
                                              lambda devices=devices: in_process(tmp, devices, max(10, items // devices)))
        print(f"  … in process (no HTTP, no device processes), answered: {compared(answered, bare)}; "
              f"with the figures after: {1e6 / figured:.0f} µs an item, ratio {figured / (sum(bare) / 2):.2f}")
    if backlog_items:
        backlog = bodies("I", backlog_items)
        imported, bare = bracketed(tmp, "import", backlog, lambda: importing(tmp, backlog))
        print(f"pocitadlo server import of {len(backlog)} items (figures included): {compared(imported, bare)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=800, help="items posted by the devices together")
    parser.add_argument("--backlog", type=int, default=25_000, help="items of the imported backlog (issue 26's; 0: none)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    with tempfile.TemporaryDirectory() as folder:
        run(Path(folder), args.items, args.backlog)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
