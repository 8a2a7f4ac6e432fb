"""Group commit: the posts of devices sending at once stored together, one commit for them all.

A device's post (``POST /api/v1/records``, ``/api/v1/batch``) waits for its items to be durable
before its answer. Posts that arrive while a commit is under way wait for the next, and that
one stores them all in one transaction and makes them durable with one commit
(``Receiver.receive_posts``): sixteen devices posting at once share a wait for the disk instead
of queueing for sixteen. Each post is still answered with its own items' answers (stored,
duplicate, refused: as if posted alone), and only once the commit that holds them returned; a
post whose handling fails is undone alone (a 500 for it), a commit that fails answers each post
of its group with a 500 and stores none of them (their devices send them again). A device posting
alone is not held back: its post is stored at once, in a group of one.

A group runs on a thread of its own (the group commit's: one group at a time, as the writer
takes them), so that the event loop keeps reading the next posts (and serving the pages) while
it is checked and committed: the posts that arrive meanwhile are the next group. Its own thread,
not Starlette's pool (anyio's ``to_thread``), whose hand-over cost ~30 µs an item more with four
devices posting at once (bench/bench_ingest.py in process, groups of four: a median of 535 µs an
item against 504, six paired runs), and where a group would wait behind the pages being built.
A post alone, while no other post is in flight (``posting``: from its headers to its answer) and
the SQLite writer is free, is stored on the event loop instead: a device posting alone goes
ahead of the readers queued on the loop, with no hand-over to a thread and back and no contest
for the interpreter's lock with them (the loop waits for that one commit); after one turn of the
loop (the posts that arrive in it join it, as a group), it is stored in its own handler's call,
with no task and future to hand it to (~80 k instructions an item, bench/ingest_cpu.py). Run on the loop
whatever the traffic, a commit blocked the next devices' posts from even being read until it
ended: four devices posting at once were stored ~1.5x slower, nearly every post in a group of
one. A group takes at most GROUP_ITEMS items (at least one post): a commit, and the wait of the
posts in it, stay bounded however many devices post.
"""
import asyncio
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

log = logging.getLogger("pocitadlo.server")

GROUP_ITEMS = 256       # items at most in one commit (a post of more — a batch is 64 at most — goes alone)


class Failed:
    """A post's answer when it could not be stored: the receiver answers 500, the device retries."""

    def __init__(self, error: BaseException):
        self.error = error


class GroupCommit:
    def __init__(self, receiver, *, via: str = "http"):
        self.receiver, self.via = receiver, via
        self._waiting: list[tuple[list, str | None, asyncio.Future]] = []
        self._committing: asyncio.Task | None = None
        self._in_flight = 0
        self._thread: ThreadPoolExecutor | None = None     # the groups' thread (``_on_thread``)
        self.groups = 0         # commits made (a post's answer waits for one)

    async def store(self, signed: list, remote: str | None) -> list[tuple[int, dict]] | Failed:
        """The receiver's answers for the post's items once they are durable, or Failed."""
        if self._alone():
            await asyncio.sleep(0)      # the posts that come with it in this turn of the loop join it
        if self._alone():
            with self.receiver.store.writing_now() as now:
                if now:                 # alone: its group of one stored at once, no task to hand it to
                    return self._answered([(signed, remote, None)])[0]
        future = asyncio.get_running_loop().create_future()
        self._waiting.append((signed, remote, future))
        if self._committing is None:
            self._committing = asyncio.ensure_future(self._commit())
        return await asyncio.shield(future)     # a post whose client left is stored all the same

    async def _commit(self) -> None:
        """Commit group after group while posts wait (one commit at a time)."""
        group: list = []
        try:
            while self._waiting:
                group = self._next_group()
                try:
                    results = await self._stored([(signed, self.via, remote) for signed, remote, _ in group])
                except Exception as exc:     # noqa: BLE001 — logged, the group answered 500
                    results = self._failed(group, exc)
                self.groups += 1
                for (_, _, future), result in zip(group, _answers(results)):
                    future.set_result(result)
        finally:
            self._committing = None
            stopped, self._waiting = group + self._waiting, []
            for _, _, future in stopped:        # not done: stopped midway (the server shutting down)
                if not future.done():
                    future.set_result(Failed(RuntimeError("the receiver stopped before the commit")))

    def _alone(self) -> bool:
        """The one post in flight, with no commit running and none waiting."""
        return self._in_flight == 1 and self._committing is None and not self._waiting

    def _answered(self, group: list) -> list:
        """The group stored on the event loop, at once: each post's answers, or Failed."""
        try:
            results = self.receiver.receive_posts([(signed, self.via, remote) for signed, remote, _ in group])
        except Exception as exc:     # noqa: BLE001 — logged, the group answered 500
            results = self._failed(group, exc)
        self.groups += 1
        return _answers(results)

    @staticmethod
    def _failed(group: list, exc: Exception) -> list:
        """Logged; every post of the group is answered 500."""
        log.exception("a commit of %d post(s) failed: none of them is stored", len(group))
        return [exc] * len(group)

    @contextmanager
    def posting(self):
        """Around a post's whole handling, from its headers to its answer: the posts in flight,
        which tell a device posting alone from devices posting at once."""
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1

    async def _stored(self, posts: list) -> list:
        """``Receiver.receive_posts(posts)``: on the groups' thread, or, for a post alone while no
        other is in flight and the SQLite writer is free, on the event loop."""
        if len(posts) == 1 and self._in_flight <= 1:
            with self.receiver.store.writing_now() as now:
                if now:
                    return self.receiver.receive_posts(posts)
        return await self._on_thread(posts)

    async def _on_thread(self, posts: list) -> list:
        """``receive_posts(posts)`` on the groups' thread (started at the first group, shut down
        with this object). A cancel (the server stopping) answers the group's posts as stopped
        at once while the thread finishes the group, as with starlette's ``run_in_threadpool``."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="group-commit")
            weakref.finalize(self, self._thread.shutdown, wait=False)
        return await asyncio.get_running_loop().run_in_executor(self._thread, self.receiver.receive_posts, posts)

    def _next_group(self) -> list:
        """The posts waiting longest, up to GROUP_ITEMS items (at least one post)."""
        taken, items = 0, 0
        for signed, _, _ in self._waiting:
            if taken and items + len(signed) > GROUP_ITEMS:
                break
            taken, items = taken + 1, items + len(signed)
        group, self._waiting = self._waiting[:taken], self._waiting[taken:]
        return group


def _answers(results: list) -> list:
    return [Failed(result) if isinstance(result, BaseException) else result for result in results]
