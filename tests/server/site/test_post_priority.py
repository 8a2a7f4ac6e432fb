"""A device's POST goes ahead of the readers (server/site/group_commit.py ``_stored``): stored on the event loop
when it is the only post in flight and the SQLite writer is free, in the thread pool when another
thread writes (or on PostgreSQL, or with other devices' posts: tests/server/ingest/test_group_commit.py),
so that a lock held elsewhere never stops the pages. Waits here are hang bounds, never speed
assertions."""
import http.client
import threading

from sync_helpers import post_json

HANG = 60          # seconds: only a hung receiver takes this long


def _post(port, body, sign):
    return post_json(port, "/api/v1/records", body, sign("u-lva-1").sign(body).headers(), timeout=HANG)


def _get_status(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_device_item_is_stored_on_the_event_loop_when_the_sqlite_writer_is_free(receiver, items, sign,
                                                                                serving):
    threads = []
    receiver.on_stored = lambda: threads.append(threading.current_thread().name)
    with serving(receiver) as server:
        for body in items()[:2]:
            status, answer = _post(server.port, body, sign)
            assert (status, answer["status"]) == (200, "stored")
    if receiver.store.dialect == "sqlite":
        assert threads == ["receiver-http"] * 2         # the thread that runs the event loop
    else:
        assert len(threads) == 2 and "receiver-http" not in threads


def test_while_another_thread_writes_a_post_waits_off_the_loop_and_pages_are_answered(
        receiver, store, items, sign, serving):
    holding, release, entered = threading.Event(), threading.Event(), threading.Event()
    receive = receiver.receive_posts

    def handling(*args, **kwargs):
        entered.set()
        return receive(*args, **kwargs)

    def hold_the_writer():
        with store.transaction():
            holding.set()
            release.wait(HANG)

    receiver.receive_posts = handling
    answers = []
    with serving(receiver) as server:
        writer = threading.Thread(target=hold_the_writer)
        writer.start()
        holding.wait(HANG)
        body = items()[0]
        poster = threading.Thread(target=lambda: answers.append(_post(server.port, body, sign)))
        poster.start()
        try:
            assert entered.wait(HANG)              # the POST is in, waiting for the writer
            assert _get_status(server.port, "/table.json") == 200 and poster.is_alive()
        finally:
            release.set()
            writer.join(HANG)
            poster.join(HANG)
    assert answers and answers[0][0] == 200 and answers[0][1]["status"] == "stored"
