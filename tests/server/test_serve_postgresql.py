"""`pocitadlo serve` on PostgreSQL, end to end (docs/server.md, "PostgreSQL: a federation on several
receivers"): real receiver processes, a device delivering its outbox over HTTP, the tables read
back; two receivers on one database taking the same items at once store each once and answer
the same tables (RULES 1.6, 1.8); the same two behind Caddy with deploy/Caddyfile.federation.

Caddy is Debian's package (`apt-get install caddy`): without it the Caddy test skips, saying so;
with POCITADLO_REQUIRE_CADDY=1 (CI) that is a failure."""
import http.client
import json
import re
import ssl
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from caddy_helpers import caddy_in_front, caddy_root_certificate

import carom_samples
from cli.main import main
from delivery.outbox import Outbox
from delivery.transport_http import HttpTransport
from league_live_helpers import Events, follow, page_state, snap
from server.ingest.receiver import Receiver
from server.storage.store import Store
from sync_helpers import deliver_all, records_url, wait_for
from wire.signing import Signer

ROOT = Path(__file__).resolve().parents[2]
POCITADLO = [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
VENUE = "Hostinec U Lva"
DEVICES = {"u-lva-1": b"lva-one-secret-0123456789abc", "u-lva-2": b"lva-two-secret-0123456789abc"}

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def league(postgresql, tmp_path):
    """A fresh PostgreSQL database with the venue's two counters registered through the CLI."""
    url = postgresql()
    for device, secret in DEVICES.items():
        (tmp_path / f"{device}.secret").write_bytes(secret)
        assert main(["server", "--db", url, "add-device", device, "--venue", VENUE,
                     "--secret-file", str(tmp_path / f"{device}.secret")]) == 0
    return url


@contextmanager
def serve(url: str, log: Path, *options: str):
    """`pocitadlo serve --db URL` as its own process on a free port of 127.0.0.1; yields the port,
    the line it printed and the process."""
    with open(log, "w") as errors:
        process = subprocess.Popen(POCITADLO + ["serve", "--db", url, "--listen", "127.0.0.1:0", *options],
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
    try:
        line = process.stdout.readline()        # "receiving on http://127.0.0.1:PORT/…; store URL"
        listening = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert listening, log.read_text()
        yield int(listening.group(1)), line, process
    finally:
        process.terminate()
        process.wait(30)


def get(port: int, path: str, tls: ssl.SSLContext | None = None) -> tuple[int, bytes]:
    conn = (http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=tls) if tls else
            http.client.HTTPConnection("127.0.0.1", port, timeout=30))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def get_json(port: int, path: str, tls: ssl.SSLContext | None = None):
    status, body = get(port, path, tls)
    assert status == 200, path
    return json.loads(body)


def match_outbox(directory: Path, match_id: str, home: str, away: str, seed: int) -> Outbox:
    """A device's outbox holding a carom league match: four partie, then the match item."""
    played, (mid, mtext, msummary) = carom_samples.match(match_id, home, away, seed=seed, venue=VENUE,
                                                   points_limit=20, innings_limit=3)
    outbox = Outbox(directory)
    for pid, text, summary in played:
        outbox.add(pid, "partie", text, summary)
    outbox.add(mid, "match", mtext, msummary)
    return outbox


def test_serve_on_postgresql_stores_a_device_s_match_and_shows_it_in_the_table(league, tmp_path):
    """RULES 1.6 and 1.8 through the real `pocitadlo serve` process on a PostgreSQL database."""
    outbox = match_outbox(tmp_path / "outbox", "KD-PG-1", "Lvi", "Orli", seed=3)
    with serve(league, tmp_path / "serve.log") as (port, line, _):
        assert "postgresql+psycopg://" in line
        deliver_all(outbox, HttpTransport(records_url(port), Signer("u-lva-1", DEVICES["u-lva-1"]), timeout=30))
        assert outbox.pending() == [] and outbox.held() == []
        table = get_json(port, "/table.json")
        record = get_json(port, "/matches/KD-PG-1.json")
    assert {row["team"] for row in table["rows"]} == {"Lvi", "Orli"}
    assert sum(row["partie"] for row in table["rows"]) == 8          # four partie, counted for each side
    assert record["closed"] is True and len(record["partie"]) == 4
    assert record["points"] == {side: sum(p[side]["team_points"] or 0 for p in record["partie"])
                                for side in ("home", "away")}
    store = Store(league)
    try:
        assert store.items.count() == 5
    finally:
        store.close()


MATCHES = [("KD-A", "Lvi", "Orli", 1), ("KD-B", "Sokoli", "Vlci", 2), ("KD-C", "Orli", "Sokoli", 3),
           ("KD-D", "Vlci", "Lvi", 4)]


def test_two_receivers_on_one_postgresql_take_the_same_items_at_once_and_store_each_once(league, tmp_path):
    """Every match is delivered by two devices at once, one to each receiver process (as a
    round-robin proxy in front would split them): each item is stored once, answered "stored" by
    one receiver and "duplicate" by the other, and both receivers answer the same tables and list
    as a store that took the items one by one."""
    with serve(league, tmp_path / "a.log") as (port_a, *_), serve(league, tmp_path / "b.log") as (port_b, *_):
        outboxes, threads = [], []
        for match_id, home, away, seed in MATCHES:
            for device, port in (("u-lva-1", port_a), ("u-lva-2", port_b)):
                outbox = match_outbox(tmp_path / device / match_id, match_id, home, away, seed)
                transport = HttpTransport(records_url(port), Signer(device, DEVICES[device]), timeout=60)
                outboxes.append(outbox)
                threads.append(threading.Thread(target=deliver_all, args=(outbox, transport)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert all(o.pending() == [] and o.held() == [] for o in outboxes)
        answers = [get_json(port, path) for port in (port_a, port_b)
                   for path in ("/table.json", "/matches.json")]
    assert_every_item_stored_once(league)
    logs = (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
    assert "ERROR" not in logs and logs.count(" duplicate ") == 5 * len(MATCHES)   # no 500 retried
    table_a, list_a, table_b, list_b = answers
    assert (table_a, list_a) == (table_b, list_b)
    reference = one_by_one(tmp_path / "reference.sqlite", outboxes[::2])
    assert table_a["rows"] == reference["rows"]
    assert sorted(m["match"] for m in list_a) == [m[0] for m in MATCHES] and all(m["closed"] for m in list_a)


def assert_every_item_stored_once(url: str) -> None:
    """Every match's five items are in the store once, and nothing was refused."""
    store = Store(url)
    try:
        stored = [row["id"] for row in store.items.all()]
        refusals = store.refusals.latest()
    finally:
        store.close()
    assert len(stored) == len(set(stored)) == 5 * len(MATCHES) and refusals == []


def one_by_one(path: Path, outboxes) -> dict:
    """The carom table of a SQLite store that took the delivered items one at a time."""
    from server.tables import exports

    store = Store(path)
    store.devices.add("u-lva-1", DEVICES["u-lva-1"], venue=VENUE)
    receiver = Receiver(store)
    try:
        for outbox in outboxes:
            for body in sorted((outbox.directory / "delivered").glob("*.json")):
                signed = Signer("u-lva-1", DEVICES["u-lva-1"]).sign(body.read_bytes())
                assert receiver.handle(signed, via="test", fresh_only=False)[0] == 200
        return exports.league_table(store)
    finally:
        store.close()


def test_two_receivers_behind_caddy_keep_one_season_through_one_killed(league, tmp_path):
    """Issue 26: two `serve` processes on one PostgreSQL behind Caddy (HTTPS, ``tls internal``)
    with deploy/Caddyfile.federation. A season's items reach both receivers in turn while readers
    read the table, a zápis page and /live; receiver A is killed mid-way. Every item is stored
    once and every device's outbox emptied; a reader saw nothing but answers (a 502 at most for
    the one request it had at A when A died); the table, the list and the zápis pages are the
    same from B, from a receiver started afresh and through Caddy, and a reference store's
    (RULES 1.8). The live board is the database's: /live is the same from A and B asked
    directly and through Caddy, a snapshot posted to A reaches a stream open on B, and after A
    died B, the receiver started afresh and Caddy show the snapshot posted then."""
    with serve(league, tmp_path / "a.log", "--proxy", "127.0.0.1") as (port_a, _, process_a), \
            serve(league, tmp_path / "b.log", "--proxy", "127.0.0.1") as (port_b, *_), \
            caddy_in_front(tmp_path, "Caddyfile.federation", {"127.0.0.1:8081": port_a, "127.0.0.1:8082": port_b},
                           tls=True) as port:
        root = str(caddy_root_certificate(tmp_path))
        tls = ssl.create_default_context(cafile=root)
        outboxes = []

        def deliver(matches) -> None:
            for match_id, home_team, away_team, seed in matches:
                outboxes.append(match_outbox(tmp_path / match_id, match_id, home_team, away_team, seed))
                deliver_all(outboxes[-1], HttpTransport(f"https://127.0.0.1:{port}/api/v1/records",
                                                        Signer("u-lva-1", DEVICES["u-lva-1"]), timeout=60, ca_file=root))

        live = HttpTransport(f"https://127.0.0.1:{port}/api/v1/live", Signer("u-lva-2", DEVICES["u-lva-2"]),
                             timeout=60, ca_file=root)
        deliver(MATCHES[:2])
        assert live.post(snap(VENUE, seq=1, points=(3, 1)))[0] == 200
        boards = [page_state(get(p, "/live", t)[1]) for p, t in ((port_a, None), (port_b, None), (port, tls), (port, tls))]
        assert all(board == boards[0] for board in boards) and [t["seq"] for t in boards[0]] == [1]
        events = Events(port_b)             # a stream on B, a snapshot posted to A
        try:
            assert [t["seq"] for t in events.next()[1]] == [1]
            to_a = HttpTransport(f"http://127.0.0.1:{port_a}/api/v1/live", Signer("u-lva-2", DEVICES["u-lva-2"]),
                                 timeout=60)
            assert to_a.post(snap(VENUE, seq=2, points=(4, 1)))[0] == 200
            follow(events, {}, lambda board: [t["seq"] for t in board.values()] == [2])
        finally:
            events.close()
        stop, seen = threading.Event(), {path: [] for path in ("/table.json", "/matches/KD-A.html", "/live")}

        def read(path: str) -> None:
            while not stop.is_set():
                seen[path].append(get(port, path, tls)[0])
        readers = [threading.Thread(target=read, args=(path,)) for path in seen]
        for reader in readers:
            reader.start()
        try:
            deliver(MATCHES[2:3])
            process_a.kill()
            process_a.wait(30)
            deliver(MATCHES[3:])
            assert live.post(snap(VENUE, seq=3, points=(5, 2)))[0] == 200
        finally:
            stop.set()
            for reader in readers:
                reader.join(60)
        [shown] = page_state(get(port, "/live", tls)[1])
        assert shown["seq"] == 3 and shown["summary"]["players"]["a"]["points"] == 5

        def pages(*where) -> list:
            return [[get(p, path, t) for path in ("/table.json", "/matches.json", *match_pages)] for p, t in where]
        match_pages = [f"/matches/{m[0]}.html" for m in MATCHES]
        with serve(league, tmp_path / "c.log") as (port_c, *_):
            reference = one_by_one(tmp_path / "reference.sqlite", outboxes)
            same = wait_for(lambda: (answers := pages((port_b, None), (port_c, None), (port, tls)))[0] == answers[1]
                            == answers[2] and json.loads(answers[0][0][1])["rows"] == reference["rows"])
            assert same, pages((port_b, None), (port_c, None), (port, tls))
            boards = [page_state(get(p, "/live", t)[1]) for p, t in ((port_b, None), (port_c, None), (port, tls))]
            assert boards[0] == boards[1] == boards[2] == [shown]
    assert all(o.pending() == [] and o.held() == [] for o in outboxes)
    for path, statuses in seen.items():
        assert statuses and set(statuses) <= {200, 502} and statuses.count(502) <= 1, (path, statuses)
    stored_by = [(tmp_path / f"{r}.log").read_text().count(" stored ") for r in ("a", "b")]
    assert min(stored_by) > 0, stored_by                       # both receivers took posts
    assert_every_item_stored_once(league)
