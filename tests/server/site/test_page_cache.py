"""Tables and lists are built once per change of the store (server/site/page_cache.py), and a change
made through any receiver on the same database — another process on one PostgreSQL — makes
every receiver build them again (the store's generation, migration 0004): this receiver's own
items at once, another receiver's once the generation it read is older than FRESH seconds."""
import json
import threading

from conftest import Client, match_items, serving
from server.ingest.receiver import Receiver
from server.site.page_cache import FRESH, PageCache
from server.storage.store import Store
from sync_helpers import wait_for


def test_a_page_is_built_once_per_generation_and_again_when_it_moves():
    cache, builds = PageCache(), []

    def build():
        builds.append(1)
        return f"page {len(builds)}"

    assert [cache.page("/table.json", 0, build) for _ in range(3)] == ["page 1"] * 3
    assert cache.page("/table.json", 1, build) == "page 2"
    assert cache.page("/table.json", 0, build) == "page 2"      # a reader that saw an older generation
    assert len(builds) == 2


def test_readers_of_a_page_being_built_wait_for_that_one_build():
    cache, entered, release, builds = PageCache(), threading.Event(), threading.Event(), []

    def slow_build():
        builds.append(1)
        entered.set()
        release.wait(10)
        return "table"

    first = threading.Thread(target=cache.page, args=("/table.json", 5, slow_build))
    first.start()
    entered.wait(10)
    answers = []
    waiting = [threading.Thread(target=lambda: answers.append(cache.page("/table.json", 5, slow_build)))
               for _ in range(4)]
    for t in waiting:
        t.start()
    release.set()
    for t in (first, *waiting):
        t.join(10)
    assert answers == ["table"] * 4 and len(builds) == 1


def test_the_kept_pages_are_bounded_the_least_recently_asked_go_first():
    cache = PageCache(kept=2)
    for path in ("/a", "/b", "/a", "/c"):
        cache.page(path, 0, lambda path=path: path)
    assert cache.page("/a", 0, lambda: "/a again") == "/a"       # asked since /b: kept
    assert cache.page("/b", 0, lambda: "/b again") == "/b again"  # /c pushed it out
    assert cache.built == 4


def test_a_table_kept_by_one_receiver_shows_what_another_receiver_stored(store, store_place, sign):
    """RULES 1.8: the table read from receiver A includes a match posted to receiver B, which
    shares A's database (SQLite file or PostgreSQL); A had the table kept from before."""
    other = Store(store_place)
    try:
        with serving(Receiver(store)) as a, serving(Receiver(other)) as b:
            reader, writer = Client(a.port), Client(b.port)
            assert json.loads(reader.get("/table.json")[1])["rows"] == []
            assert reader.get("/")[0] == 200
            for body in match_items("KD-1"):
                assert writer.post(body)[1]["status"] == "stored"
            # A trusts the generation it read for FRESH seconds: it shows B's items after that
            assert wait_for(lambda: len(json.loads(reader.get("/table.json")[1])["rows"]) == 2)
            teams = {row["team"] for row in json.loads(reader.get("/table.json")[1])["rows"]}
            assert teams == {"Lvi", "Orli"}
            assert [m["match"] for m in json.loads(reader.get("/matches.json")[1])] == ["KD-1"]
            assert json.loads(reader.get("/matches/KD-1.json")[1])["closed"] is True
    finally:
        other.close()


def test_a_table_changes_with_an_item_posted_to_the_same_receiver(client):
    before = client.get("/table.json")
    for body in match_items("KD-2"):
        client.post(body)
    after = client.get("/table.json")
    assert json.loads(before[1])["rows"] == [] and len(json.loads(after[1])["rows"]) == 2


def test_a_kept_page_is_answered_without_the_database_only_while_its_generation_is_fresh():
    cache = PageCache()
    cache.page("/table.json", 7, lambda: "table")
    assert cache.kept_now("/table.json", 0, now=100.0) is None           # no generation read yet
    cache.confirm(7, 0, when=100.0)
    assert cache.kept_now("/table.json", 0, now=100.0 + FRESH / 2) == "table"
    assert cache.kept_now("/table.json", 1, now=100.0 + FRESH / 2) is None   # a change made here since
    assert cache.kept_now("/table.json", 0, now=100.0 + 2 * FRESH) is None   # another receiver's, maybe
    cache.confirm(8, 0, when=101.0)
    assert cache.kept_now("/table.json", 0, now=101.0) is None           # kept from generation 7


def test_A_3_7_a_no_show_recorded_after_the_table_was_kept_shows_in_it_at_once(store, client):
    """The league's own data moves the store's generation: the kept table is built again after
    an organiser records a no-show (A.3.7: the match forfeited 8 : 0 to the opponent)."""
    from league_admin_helpers import SEASON, fixture_between, set_up_league

    from server.tables import figures

    set_up_league(store)
    store.fixtures.generate(SEASON, "carom")
    path = f"/table.json?season={SEASON.replace('/', '%2F')}"
    assert {row["team"]: row["points"] for row in json.loads(client.get(path)[1])["rows"]} == \
        {"Jiskra": 0, "Lvi": 0, "Orli": 0, "Sokoli": 0}              # every team from the first day
    store.fixtures.no_show(fixture_between(store, "Orli", "Sokoli")["id"], "Orli")
    figures.settle(store)           # as the organiser's commands do after a change (cli, admin)
    table = {row["team"]: row for row in json.loads(client.get(path)[1])["rows"]}
    assert table["Sokoli"]["points"] == 8 and table["Sokoli"]["matches_won"] == 1


def test_a_kept_page_answered_in_front_of_the_routes_is_the_answer_as_built(client):
    """A fresh kept page is answered before routing (server/site/routes.py ``Front``), keyed by path and
    query string: the same status, type, length and bytes as when it was built, and nosniff."""
    for body in match_items("KD-1"):
        client.post(body)
    for path in ("/table.json", "/table.json?season=2019/20", "/table.html", "/matches/KD-1.html"):
        built, kept = client.request("GET", path), client.request("GET", path)
        for status, headers, _ in (built, kept):
            headers = {k.lower(): v for k, v in headers.items()}
            assert status == 200 and headers["x-content-type-options"] == "nosniff"
            assert int(headers["content-length"]) == len(built[2])
        assert kept[0] == built[0] and kept[2] == built[2]
        assert {k.lower(): v for k, v in kept[1].items()}["content-type"] == \
            {k.lower(): v for k, v in built[1].items()}["content-type"]
    assert json.loads(client.get("/table.json")[1])["rows"] != []
    assert json.loads(client.get("/table.json?season=2019/20")[1])["rows"] == []
