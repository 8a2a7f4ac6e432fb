"""The receiver's public pages under readers, as ratios from one run (issue 26, item 16 and the
concurrency section); bench/bench_server.py runs it (or alone: ``bench/bench_pages.py``):

1. per page, 50 readers (wrk, keep-alive) of the receiver vs of Caddy serving a static copy of the
   same bytes: the receiver's answers a second over Caddy's (goal: at least 0.5); then a device
   posting a match's items one after the other during another such run: its POST p99 vs alone
   (goal: at most 5);
2. a device's POST p99 while 200 readers read /table.json vs alone (goal: at most 5).

The store holds a season of a 12-team league (132 fixtures on the schedule, half of them played
by two venues' devices): its pages are what a league night reads. `pocitadlo serve` runs in its
own process; wrk (Debian's package) and Caddy (likewise) in theirs. Readers and receiver share
this machine's CPUs: the ratios, not the rates, are the figures.

    .venv/bin/python bench/bench_pages.py [--seconds 4]
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))     # carom_samples

import carom_samples
from delivery.outbox import item_body
from delivery.transport_http import HttpTransport
from server.ingest.receiver import Receiver
from server.storage.store import Store
from wire.signing import Signer

SECRET = b"bench-secret-0123456789abcdef"
SEASON = "2026/27"
VENUES = ["Hostinec U Lva", "Hospoda U Koule"]
TEAMS = [f"Tým {n:02d}" for n in range(12)]
POCITADLO = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
READERS, MANY_READERS = 50, 200


def device_of(venue: str) -> str:
    return f"dev-{VENUES.index(venue)}"


def season_store(path: Path) -> list[str]:
    """A store with a 12-team carom season, half of it played; the public pages to read."""
    store = Store(path)
    try:
        store.league.add_season(SEASON)
        store.league.set_rules(SEASON, "carom", {"points_limit": 30, "innings_limit": 5})   # match_items' short partie
        for venue in VENUES:
            store.league.add_venue(venue, "po,út,st,čt")
            store.devices.add(device_of(venue), SECRET, venue=venue)
        for n, team in enumerate(TEAMS):
            store.league.add_team(SEASON, "carom", team, venue=VENUES[n % 2], captain=f"{team} hráč 1",
                                  phone="+420 777 123 456", days="")
            for number in range(1, 5):
                store.league.add_player(SEASON, "carom", team, f"{team} hráč {number}")
        store.fixtures.generate(SEASON, "carom", lot="bench")
        fixtures = store.fixtures.of(SEASON, "carom")
        receiver = Receiver(store)
        for seed, fixture in enumerate(fixtures[:len(fixtures) // 2]):
            signer = Signer(device_of(fixture["venue"]), SECRET)
            for body in match_items(fixture, seed):
                assert receiver.receive(signer.sign(body), via="bench", fresh_only=False)[0] == 200
        receiver.settle()
    finally:
        store.close()
    team, player = quote(TEAMS[1], safe=""), quote(f"{TEAMS[1]} hráč 2", safe="")
    return ["/", "/table.html", "/table.json", f"/matches/{fixtures[0]['id']}.html", "/schedule", "/players.html",
            "/rankings.html", f"/teams/{team}.html", f"/players/{player}.html", "/rules.html"]


def match_items(fixture: dict, seed: int, match_id: str | None = None, *, again: bool = False) -> list[bytes]:
    """A match of ``fixture``'s teams at its venue; ``again``: one more after the fixture was
    written (a fixture takes one result), so off the schedule, after the season: a friendly."""
    date, named = ("2027-07-01", None) if again else (fixture["date"], fixture["id"])
    played, (mid, text, summary) = carom_samples.match(match_id or fixture["id"], fixture["home"], fixture["away"],
                                                       seed=seed, date=date, venue=fixture["venue"],
                                                       points_limit=30, innings_limit=5, fixture=named)
    return [item_body(pid, "partie", t, s) for pid, t, s in played] + [item_body(mid, "match", text, summary)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running:
    """A process serving on a free port of 127.0.0.1, until ``stop``."""

    def __init__(self, command: list[str], port: int, **options):
        self.port = port
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{command[0]} did not listen")

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=120) as answer:
            return answer.read()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def serve(db: Path) -> Running:
    port = free_port()
    return Running(POCITADLO + ["serve", "--db", str(db), "--listen", f"127.0.0.1:{port}"], port)


def caddy_static(folder: Path, pages: dict[str, bytes]) -> tuple[Running, dict[str, str]]:
    """Caddy's file server on a static copy of each page (its bytes as the receiver answered them)."""
    copies = {}
    for n, (path, body) in enumerate(pages.items()):
        (folder / f"page{n}").write_bytes(body)
        copies[path] = f"/page{n}"
    port = free_port()
    config = folder / "Caddyfile"
    config.write_text(f"{{\n\tadmin off\n}}\nhttp://127.0.0.1:{port} {{\n\troot * {folder}\n\tfile_server\n}}\n")
    home = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}
    return Running(["caddy", "run", "--adapter", "caddyfile", "--config", str(config)], port,
                   env={**os.environ, **home}), copies


def wrk(port: int, path: str, connections: int, seconds: int) -> float:
    """Answers a second of ``connections`` keep-alive readers of ``path`` (wrk, 2 threads, niced:
    readers' CPUs are their own, not the server's, so they take only what the server leaves)."""
    done = subprocess.run(["nice", "-n", "19", "wrk", "-t2", f"-c{connections}", f"-d{seconds}s",
                           f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, timeout=seconds + 60)
    found = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    if found is None:
        raise RuntimeError(done.stdout + done.stderr)
    return float(found.group(1))


def reading(port: int, path: str, connections: int, seconds: int) -> threading.Thread:
    """wrk's readers in a thread of their own (not started)."""
    return threading.Thread(target=wrk, args=(port, path, connections, seconds))


class Device:
    """A device posting a match's items one after the other to the receiver, each timed."""

    def __init__(self, port: int, fixtures: list[dict]):
        self.port, self.fixtures, self.played = port, fixtures, 0

    def posts(self, count: int) -> list[float]:
        out = []
        while len(out) < count:
            fixture = self.fixtures[self.played % len(self.fixtures)]
            self.played += 1
            transport = HttpTransport(f"http://127.0.0.1:{self.port}/api/v1/records",
                                      Signer(device_of(fixture["venue"]), SECRET), timeout=120)
            for body in match_items(fixture, self.played, match_id=f"{fixture['id']}-b{self.played}",
                                    again=self.played > len(self.fixtures)):
                started = time.perf_counter()
                assert transport.send(body).delivered
                out.append(time.perf_counter() - started)
        return out[:count]

    def posts_while(self, busy: threading.Thread) -> list[float]:
        out = []
        busy.start()
        while busy.is_alive():
            out += self.posts(5)
        busy.join()
        return out

    def compared(self, reading: list[threading.Thread]) -> tuple[float, float]:
        """(p99 alone, p99 while readers read): posts alone and under each reading in turn
        (a shared machine's load drifts; this way it weighs on both alike)."""
        alone: list[float] = []
        busy: list[float] = []
        for readers in reading:
            busy += self.posts_while(readers)
            alone += self.posts(max(20, len(busy) // len(reading)))
        return p99(alone), p99(busy)


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def unplayed(db: Path) -> list[dict]:
    store = Store(db)
    try:
        return [f for f in store.fixtures.of(SEASON, "carom") if not f["closed"]]
    finally:
        store.close()


def under_readers(tmp: Path, seconds: int) -> None:
    tmp.mkdir(exist_ok=True)
    if not (shutil.which("wrk") and shutil.which("caddy")):
        print("pages under readers: needs wrk and caddy (apt-get install wrk caddy); skipped")
        return
    db = tmp / "season.sqlite"
    paths = season_store(db)
    receiver = serve(db)
    static = tmp / "static"
    static.mkdir()
    try:
        bodies = {path: receiver.get(path) for path in paths}
        caddy, copies = caddy_static(static, bodies)
        device = Device(receiver.port, unplayed(db))
        try:
            for path in paths:
                served = wrk(receiver.port, path, READERS, seconds)
                static = wrk(caddy.port, copies[path], READERS, seconds)
                alone, busy = device.compared([reading(receiver.port, path, READERS, seconds)])
                print(f"{path} ({len(bodies[path]) / 1024:.0f} KiB), {READERS} readers: receiver {served:.0f}/s, "
                      f"Caddy's static copy {static:.0f}/s (ratio {served / static:.2f}; goal >= 0.5); a device's "
                      f"POST p99 meanwhile {busy * 1000:.1f} ms, alone {alone * 1000:.1f} ms (ratio "
                      f"{busy / alone:.2f}; goal <= 5)")
            alone, busy = device.compared([reading(receiver.port, "/table.json", MANY_READERS, seconds)
                                           for _ in range(3)])
            print(f"POST p99 while {MANY_READERS} clients read /table.json: {busy * 1000:.1f} ms (alone "
                  f"{alone * 1000:.1f} ms; ratio {busy / alone:.2f}; goal <= 5)")
        finally:
            caddy.stop()
    finally:
        receiver.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4, help="seconds of reading per page and server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        under_readers(Path(folder), args.seconds)


if __name__ == "__main__":
    main()
