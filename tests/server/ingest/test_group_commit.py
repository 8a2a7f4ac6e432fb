"""Group commit (server/site/group_commit.py, ``Receiver.receive_posts``): the posts of devices
sending at once stored in one transaction and made durable by one commit, each answered with its
own items' answers, and none before the commit that holds it returned (issue 26)."""
import asyncio
import json
import threading

import pytest

from conftest import LVA, SECRETS, Client, match_items, register_devices, serving, signer
from server.ingest.receiver import Receiver
from server.site import group_commit
from server.site.group_commit import Failed, GroupCommit
from server.storage.store import Store
from wire.signing import Signer

BOUND = 30      # seconds a test waits for a thread at most (a hang bound, not a timing)


@pytest.fixture
def sqlite_receiver(tmp_path):
    store = register_devices(Store(tmp_path / "league.sqlite"))
    yield Receiver(store)
    store.close()


class GatedCommits:
    """The store's write connection, its COMMIT held at a gate: ``entered`` is set when a commit
    reaches it, which then waits for ``opened`` (or fails with ``fail``)."""

    def __init__(self, connection):
        self._connection = connection
        self.entered, self.opened = threading.Event(), threading.Event()
        self.fail: Exception | None = None

    def commit(self):
        self.entered.set()
        assert self.opened.wait(BOUND)
        if self.fail is not None:
            failing, self.fail = self.fail, None
            raise failing
        self._connection.commit()

    def __getattr__(self, name):
        return getattr(self._connection, name)


def gated(receiver) -> GatedCommits:
    gate = GatedCommits(receiver.store.database._writer)
    receiver.store.database._writer = gate
    return gate


def post(device: str, body: bytes) -> list:
    return [signer(device).sign(body)]


def statuses(result) -> list[tuple[int, str]]:
    assert not isinstance(result, Failed), result
    return [(code, answer["status"]) for code, answer in result]


def test_posts_waiting_for_a_commit_share_the_next_and_none_is_answered_before_it_returned(sqlite_receiver):
    """A post arriving while a commit is under way waits for the next; the posts that waited
    are stored by one commit; no answer leaves before the commit holding its item returned."""
    receiver = sqlite_receiver
    group, gate = GroupCommit(receiver), gated(receiver)
    bodies = [match_items(f"G-{n}", seed=n)[0] for n in range(5)]

    def posting(numbered):
        return [asyncio.ensure_future(group.store(post("u-lva-1", body), f"10.0.0.{n}")) for n, body in numbered]

    async def run():
        loop = asyncio.get_running_loop()
        first = posting(enumerate(bodies[:2]))          # together: committed in the thread pool
        assert await loop.run_in_executor(None, gate.entered.wait, BOUND)      # their commit under way
        waiting = posting(enumerate(bodies[2:], start=2))
        await asyncio.sleep(0)          # each of them queued behind the commit
        assert not any(post.done() for post in first + waiting)
        assert receiver.store.items.count() == 0               # not durable: not answered
        gate.opened.set()
        return await asyncio.gather(*first), await asyncio.gather(*waiting)

    first, waiting = asyncio.run(run())
    assert [statuses(result) for result in first + waiting] == [[(200, "stored")]] * 5
    assert group.groups == 2            # the first two, then the three that waited, together
    assert receiver.store.items.count() == 5 and receiver.received == 5


def test_a_failed_commit_answers_every_post_of_its_group_500_and_a_retry_stores_each_once(sqlite_receiver):
    """A commit that fails (a full disk) leaves none of its group stored and answers each post
    with a failure (a 500: the devices send them again); sent again, each is stored once."""
    receiver = sqlite_receiver
    group, gate = GroupCommit(receiver), gated(receiver)
    bodies = [match_items(f"F-{n}", seed=n)[0] for n in range(3)]
    gate.opened.set()
    gate.fail = OSError("disk full")

    async def together():
        return await asyncio.gather(*(group.store(post("u-lva-1", body), None) for body in bodies))

    failed = asyncio.run(together())
    assert all(isinstance(result, Failed) for result in failed) and group.groups == 1
    assert receiver.store.items.count() == 0 and receiver.received == 0
    assert [statuses(result) for result in asyncio.run(together())] == [[(200, "stored")]] * 3
    assert [statuses(result) for result in asyncio.run(together())] == [[(200, "duplicate")]] * 3
    assert receiver.store.items.count() == 3


def test_a_refused_item_or_a_failing_post_does_not_touch_the_others_of_its_group(receiver, monkeypatch):
    """One commit, each post on its own: a refused item is answered with its refusal (and
    logged), a post that fails (a bug) is undone alone, savepoint and all, and the others are
    stored — on SQLite and PostgreSQL."""
    good, forged, poison, other = (match_items(f"R-{n}", seed=n)[0] for n in range(4))
    handle = receiver._handle

    def buggy(signed, *args):
        answer = handle(signed, *args)          # stored, then the bug: the post must be undone
        if signed.body == poison:
            raise RuntimeError("a bug")
        return answer

    monkeypatch.setattr(receiver, "_handle", buggy)
    group = GroupCommit(receiver)

    async def together():
        return await asyncio.gather(
            group.store(post("u-lva-1", good), None),
            group.store([Signer("u-lva-1", b"not-the-secret-0123456789").sign(forged)], "10.0.0.9"),
            group.store(post("u-lva-1", poison), None),
            group.store(post("u-lva-1", other), None))

    stored, refused, failed, also = asyncio.run(together())
    assert group.groups == 1
    assert statuses(stored) == statuses(also) == [(200, "stored")]
    assert statuses(refused) == [(401, "refused")] and "bad signature" in refused[0][1]["reason"]
    assert isinstance(failed, Failed) and str(failed.error) == "a bug"
    ids = [json.loads(body)["id"] for body in (good, forged, poison, other)]
    assert [receiver.store.items.body(i) is not None for i in ids] == [True, False, False, True]
    assert receiver.store.refusals.latest()[-1]["remote"] == "10.0.0.9" and receiver.received == 2


def test_a_group_takes_a_bounded_number_of_items(sqlite_receiver, monkeypatch):
    monkeypatch.setattr(group_commit, "GROUP_ITEMS", 2)
    group = GroupCommit(sqlite_receiver)
    bodies = [match_items(f"B-{n}", seed=n)[0] for n in range(3)]

    async def together():
        return await asyncio.gather(*(group.store(post("u-lva-1", body), None) for body in bodies))

    assert [statuses(result) for result in asyncio.run(together())] == [[(200, "stored")]] * 3
    assert group.groups == 2


def test_a_post_alone_is_stored_on_the_event_loop_and_one_among_others_in_flight_in_the_thread_pool(
        sqlite_receiver):
    """A device posting alone goes ahead of the readers on the loop; while other posts are in
    flight (being read, or answered), the loop stays free to read them."""
    group, threads = GroupCommit(sqlite_receiver), []
    sqlite_receiver.on_stored = lambda: threads.append(threading.current_thread())
    first, second = (match_items(f"L-{n}", seed=n)[0] for n in range(2))

    async def run():
        with group.posting():
            assert statuses(await group.store(post("u-lva-1", first), None)) == [(200, "stored")]
        with group.posting(), group.posting():
            assert statuses(await group.store(post("u-lva-1", second), None)) == [(200, "stored")]

    asyncio.run(run())
    assert threads[0] is threading.current_thread() and threads[1] is not threading.current_thread()


def test_a_post_alone_is_stored_at_once_and_a_failed_commit_answers_it_500(sqlite_receiver):
    """A post alone (the only one in flight, no commit under way) is stored in the call itself,
    with no task to hand it to: answered once durable, a failed commit (a full disk) answered
    with a failure and nothing stored, the same post sent again stored once."""
    receiver = sqlite_receiver
    group, gate = GroupCommit(receiver), gated(receiver)
    gate.opened.set()
    body = match_items("A-1", seed=1)[0]

    async def alone():
        with group.posting():
            stored = asyncio.ensure_future(group.store(post("u-lva-1", body), None))
            for _ in range(2):
                await asyncio.sleep(0)      # two steps of the handler: stored and answered in them
            assert stored.done() and group._committing is None
            return stored.result()

    gate.fail = OSError("disk full")
    failed = asyncio.run(alone())
    assert isinstance(failed, Failed) and str(failed.error) == "disk full"
    assert receiver.store.items.count() == 0 and receiver.received == 0
    assert statuses(asyncio.run(alone())) == [(200, "stored")]
    assert statuses(asyncio.run(alone())) == [(200, "duplicate")]
    assert group.groups == 3 and receiver.store.items.count() == 1


def test_devices_posting_at_once_are_each_answered_and_every_item_is_stored_once(sqlite_receiver):
    """Six devices post their matches item by item at once (over HTTP): each item is answered
    "stored" with its own id, every item is stored exactly once, and sent again each is a
    duplicate."""
    receiver, devices = sqlite_receiver, [f"u-lva-g{n}" for n in range(6)]
    for device in devices:
        receiver.store.devices.add(device, SECRETS["u-lva-1"], venue=LVA)
    matches = {device: match_items(f"C-{n}", seed=n) for n, device in enumerate(devices)}
    start = threading.Barrier(len(devices))

    def posting(client, device, answers):
        start.wait(BOUND)
        for body in matches[device]:
            status, _, data = client.request("POST", "/api/v1/records", body,
                                             Signer(device, SECRETS["u-lva-1"]).sign(body).headers())
            answers.append((status, json.loads(data)))

    def round_of_posts():
        answers = {device: [] for device in devices}
        threads = [threading.Thread(target=posting, args=(client, device, answers[device])) for device in devices]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(BOUND)
        return answers

    with serving(receiver) as server:
        client = Client(server.port)
        first, again = round_of_posts(), round_of_posts()
    for device, bodies in matches.items():
        ids = [json.loads(body)["id"] for body in bodies]
        assert [(s, a["status"], a["id"]) for s, a in first[device]] == [(200, "stored", i) for i in ids]
        assert [(s, a["status"], a["id"]) for s, a in again[device]] == [(200, "duplicate", i) for i in ids]
        assert [receiver.store.items.body(i) for i in ids] == bodies
    assert receiver.store.items.count() == 30 and receiver.received == 30


def test_two_receivers_storing_the_same_items_in_another_order_do_not_deadlock(postgresql):
    """Two receivers on one PostgreSQL, each committing a group of two posts that the other also
    got, in the other order (two devices delivering the same match, one to each): each group's
    first item in, both would wait for the other's uncommitted second — PostgreSQL's deadlock,
    one post answered 500 (issue 26, a CI run). The items' lock (Store.lock_items) makes the
    second group wait for the first's commit: both answered 200, each item stored once."""
    place = postgresql()
    stores = [register_devices(Store(place)) for _ in range(2)]
    first, second = match_items("D-1", seed=3)[:2]
    both_in = threading.Barrier(2)
    results: dict = {}

    def after_the_first_put(store):
        put = store.items.put
        calls = []

        def holding(*args, **kwargs):
            done = put(*args, **kwargs)
            calls.append(1)
            if len(calls) == 1:
                try:
                    both_in.wait(3)     # without the lock both get here; with it, the other waits
                except threading.BrokenBarrierError:
                    pass
            return done
        store.items.put = holding

    def group(n, bodies):
        results[n] = Receiver(stores[n]).receive_posts([(post("u-lva-1", body), "http", f"10.0.0.{n}")
                                                       for body in bodies])
    try:
        for store in stores:
            after_the_first_put(store)
        threads = [threading.Thread(target=group, args=(0, [first, second])),
                   threading.Thread(target=group, args=(1, [second, first]))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(BOUND)
        answers = [statuses(result) for n in (0, 1) for result in results[n]]
        assert sorted(answers) == [[(200, "duplicate")], [(200, "duplicate")], [(200, "stored")], [(200, "stored")]]
        assert stores[0].items.count() == 2
    finally:
        for store in stores:
            store.close()
