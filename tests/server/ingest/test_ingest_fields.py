"""Finding 2: ingestion validates every field a page reads (422), and every page survives a stored
item it cannot read — shown as such, the rest intact."""
import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carom_samples
from cli.main import main
from rules.errors import RuleError
from server.league.item_fields import surrogate_escape
from server.league.verify import parse_body
from server.site import home as home_page
from server.site import pages
from server.tables import exports, figures


def carom_partie(item_id="KD-1-p1", number=1, match=None, a="Novák", b="Dvořák"):
    match = match or {"id": "KD-1", "home": "Lvi", "away": "Orli", "venue": "Hostinec U Lva"}
    # played with a stand-in for player a, then renamed: the rule core refuses a record whose name
    # is no valid Unicode, and the receiver must refuse such an item whoever built it
    text, summary = carom_samples.partie(item_id, "Player-A", b, seed=number, match=match, number=number,
                                   points_limit=20, innings_limit=3)
    text = text.replace('"Player-A"', json.dumps(a, ensure_ascii=False), 1)
    summary = json.loads(json.dumps(summary).replace("Player-A", json.dumps(a)[1:-1]))
    # escaped as ASCII, so a crafted lone surrogate travels as the JSON escape an attacker would send
    return json.dumps({"id": item_id, "kind": "partie", "record": text, "summary": summary}).encode()


def match_item(**fields):
    summary = {"id": "KD-1", "home": "Lvi", "away": "Orli", "venue": "Hostinec U Lva", "date": "2026-11-27",
               "game": "carom", "points": {"home": 0, "away": 0}, "partie": [], **fields}
    return json.dumps({"id": "KD-1", "kind": "match", "record": "{}\n", "summary": summary}).encode()


@pytest.mark.postgresql_once
@pytest.mark.parametrize("body, reason", [
    (match_item(home="\ud800"), "not valid Unicode"),                       # a lone surrogate in a team
    (carom_partie(a="Nov\ud800k"), "not valid Unicode"),                     # ... in a player's name
    (match_item(away="x" * 201), "1 to 200 characters"),
    (match_item(venue="U Lva\n<script>"), "printable"),
    (match_item(partie=["KD-1-p1", "<img src=x>"]), "a partie id of the match"),
    (match_item(fixture="../fixtures"), 'the match "fixture"'),                # issue 16: the fixture played
    (carom_partie(match={"id": "KD-1", "home": "Lvi", "away": "Orli", "fixture": 7}), 'match "fixture"'),
    (carom_partie(number="2"), "partie number"),                              # partie "2" beside 1
    (carom_partie(number=True), "partie number"),
    (carom_partie(number=None), "partie number"),                           # a match's partie has one
    (match_item(points={"home": True, "away": False}), '"points"'),         # "True : False" on the zápis
    (match_item(points={"home": 10 ** 30, "away": 0}), '"points"'),
    (match_item(points={"home": -5, "away": 8}), '"points"'),
    (match_item(points={"home": 1.5, "away": 0}), '"points"'),
    (match_item(seed=True), 'the match "seed"'),
    (match_item(seed=-1), 'the match "seed"'),
    (match_item(seed=10 ** 30), 'the match "seed"'),
    (carom_partie(match={"id": "KD-1", "home": "Lvi", "away": "Orli", "seed": "x"}), 'match "seed"'),
    (match_item(table="1\n2"), 'the match "table"'),
    (match_item(table=7), 'the match "table"'),
    (json.dumps({"id": "\ud800", "kind": "match", "record": "", "summary": {}}).encode(), '"id" must be'),
    (json.dumps({"id": "a b/../c", "kind": "match", "record": "", "summary": {}}).encode(), '"id" must be'),
])
def test_a_field_pages_could_not_show_is_refused_with_422(client, store, body, reason):
    status, answer = client.post(body)
    assert status == 422 and reason in answer["reason"], answer
    assert store.items.count() == 0
    assert store.refusals.latest()[-1]["status"] == 422        # the refusal itself was stored fine


def header_with(text: str) -> bytes:
    """A partie whose header carries ``"note": text`` (no page shows it, and no summary)."""
    body = json.loads(carom_partie())
    header, rest = body["record"].split("\n", 1)
    body["record"] = header[:-1] + ',"note":"' + text + '"}\n' + rest
    return json.dumps(body).encode()


@pytest.mark.postgresql_once
@pytest.mark.parametrize("body", [
    header_with("\\ud800"),                                                  # the record's own escape
    header_with("\\ud800").replace(b"\\\\ud800", b"\\u005cud800"),           # ... its backslash escaped
    header_with("\\uDC00").replace(b"\\\\uDC00", b"\\u005CuDC00"),
])
def test_a_lone_surrogate_however_spelled_in_the_header_is_refused(client, store, body):
    """A surrogate is spelled only as a \\ud… escape, whether in the body or in the record inside it;
    no escape in the body (the last two) does not mean none in the record."""
    assert b"\\u005" not in body or (b"\\ud" not in body and b"\\uD" not in body)
    status, answer = client.post(body)
    assert status == 422 and "line 1: holds text that is not valid Unicode" in answer["reason"], answer
    assert store.items.count() == 0


def test_a_backslash_u_d_that_is_no_surrogate_is_stored(client, store):
    """Text that only looks like an escape ("\\\\ud800" is a backslash and "ud800") is fine."""
    body = json.loads(carom_partie(a="Nov\\udák"))
    assert client.post(json.dumps(body).encode())[0] == 200


def test_partie_numbers_1_and_2_are_whole_numbers_and_the_match_lists_in_order(client):
    """RULES 1.6: the zápis lists partie by number."""
    assert client.post(carom_partie("KD-1-p2", 2))[0] == 200
    assert client.post(carom_partie("KD-1-p1", 1))[0] == 200
    record = json.loads(client.get("/matches/KD-1.json")[1])
    assert [p["number"] for p in record["partie"]] == [1, 2]


PAGES = ["/", "/matches.json", "/table.json", "/table.html", "/table-8ball.json", "/table-8ball.html",
         "/matches/KD-1.json", "/matches/KD-1.html"]


@pytest.mark.parametrize("broken", [
    b'{"id": "KD-1-p9", "kind": "partie", "record": "{\\"a\\": 1}", "summary": {"players": 7}}',
    b'not json at all',
    b'{"id": "KD-1-p9", "kind": "partie", "record": "{\\"match\\": {\\"id\\": \\"KD-1\\"}, \\"partie\\": \\"2\\", '
    b'\\"home\\": \\"a\\"}", "summary": {"players": {"a": {"points": "x"}}}}',
])
def test_every_page_survives_an_unreadable_stored_item(client, store, items, tmp_path, capsys, broken):
    """An item stored before ingestion checked every field: listed as unreadable, the rest intact."""
    for body in items():
        assert client.post(body)[0] == 200
    store.items.put("KD-1-p9", "partie", broken, device="u-lva-1", via="legacy", game="carom", match_id="KD-1")
    figures.refresh(store, "KD-1")          # the match's figures, recomputed as after any stored item
    for path in PAGES:
        status, data = client.get(path)
        assert status == 200, (path, data[:200])
    record = json.loads(client.get("/matches/KD-1.json")[1])
    assert record["unreadable"] == ["KD-1-p9"] and len(record["partie"]) == 4
    assert "Nečitelné záznamy: 1 (organizátor je musí zkontrolovat)" in client.get("/matches/KD-1.html")[1].decode()
    assert json.loads(client.get("/table.json")[1])["unreadable"] == ["KD-1-p9"]
    assert main(["server", "--db", store.path, "table"]) == 0
    assert main(["server", "--db", store.path, "match", "KD-1", "--html"]) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(home=st.text(max_size=250), away=st.text(max_size=5), number=st.one_of(st.integers(), st.text(max_size=3)))
def test_whatever_names_arrive_every_page_renders(receiver, sign, home, away, number):
    """Invariant: a name or number is either refused (422) or stored, and every page then renders."""
    bodies = [match_item(id="KD-1", home=home, away=away or "Orli")]
    try:
        bodies.append(carom_partie("KD-2-p1", number, match={"id": "KD-2", "home": home, "away": "Orli",
                                                              "venue": "Hostinec U Lva"}))
    except RuleError:          # the rule core itself refuses such a header: nothing to post
        pass
    for body in bodies:
        status, answer = receiver.handle(sign("u-lva-1").sign(body), via="test")
        assert status in (200, 409, 422), answer
    store = receiver.store
    home_page.build(store, dt.date(2026, 11, 27))
    pages.table(exports.league_table(store))
    for match_id in ("KD-1", "KD-2"):
        record = exports.match_record(store, match_id)
        if record is not None:
            pages.match(record)


@given(st.lists(st.sampled_from(["\\\\", "\\u005c", "\\u005C", "u", "d", "D", "\\u0075", "\\u0064", "\\u0044", "x",
                                 '\\"', "\\n", "\\ud800", "\\uDC00"]), max_size=12))
def test_a_body_without_a_backslash_u_holds_a_record_without_one_too(tokens):
    """The record's own search for a surrogate escape is saved when the body has no "\\u" at all:
    however the body spells the record's text, no "\\ud" appears in it then."""
    text = '{"id":"x","kind":"partie","record":"' + "".join(tokens) + '","summary":{}}'
    parsed = parse_body(text.encode())
    assert parsed.escaped == surrogate_escape(text)
    assert parsed.unicode_escape or not surrogate_escape(parsed.record)
