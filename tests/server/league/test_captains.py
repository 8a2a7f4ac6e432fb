"""The captains' answers at the receiver (server/league/captains.py): a match item's signatures (A.6.9d),
objections (A.6.3, A.6.5) and unsigned sides are checked at ingestion (422) and shown on the zápis
page, HTML (escaped) and JSON; an item from before them stays valid."""
import json

import pytest

import carom_samples
from delivery.outbox import item_body

AT = "2026-11-27T22:10:00+01:00"
SIGNED = {"signatures": [{"side": "home", "captain": "Lvi hráč 1", "at": AT}],
          "objections": [{"side": "away", "captain": "Orli hráč 2", "kind": "referee", "partie": 3, "at": AT}],
          "unsigned": []}


def post_match(client, captains=None, match_id="KD-1"):
    """The four partie, then the match item carrying ``captains``; the match item's answer."""
    played, (mid, text, summary) = carom_samples.match(match_id, "Lvi", "Orli", seed=1, points_limit=20, innings_limit=3)
    for pid, ptext, psummary in played:
        assert client.post(item_body(pid, "partie", ptext, psummary))[0] == 200
    summary = {**summary, **(captains or {})}
    return client.post(item_body(mid, "match", text, summary))


def test_a_6_9d_signatures_and_a_6_3_objections_reach_the_zapis_page(client):
    assert post_match(client, SIGNED)[0] == 200
    record = json.loads(client.get("/matches/KD-1.json")[1])
    assert record["signatures"] == SIGNED["signatures"] and record["objections"] == SIGNED["objections"]
    assert record["unsigned"] == [] and record["interrupted"] is False
    html = client.get("/matches/KD-1.html")[1].decode()
    assert "Podpisy kapitánů" in html and "Lvi hráč 1" in html and "podepsal" in html
    assert "námitka: rozhodnutí rozhodčího (A.6.3)" in html and "partie 3" in html
    assert "přerušeno" not in html


def test_a_6_5_an_interrupted_match_objection_marks_the_match_interrupted(client):
    captains = {"objections": [{"side": "home", "captain": "Lvi hráč 1", "kind": "interrupted", "partie": None,
                                "at": AT}], "unsigned": ["away"]}
    assert post_match(client, captains)[0] == 200
    record = json.loads(client.get("/matches/KD-1.json")[1])
    assert record["interrupted"] is True and record["unsigned"] == ["away"]
    html = client.get("/matches/KD-1.html")[1].decode()
    assert "přerušeno (A.6.5)" in html and "Utkání bylo přerušeno (A.6.5)" in html
    assert "celé utkání" in html and "nepodepsáno" in html


def test_a_hostile_captain_name_is_escaped_on_the_page(client):
    hostile = '<script>alert("x")</script>'
    captains = {"signatures": [{"side": "home", "captain": hostile, "at": AT}]}
    assert post_match(client, captains)[0] == 200
    html = client.get("/matches/KD-1.html")[1].decode()
    assert hostile not in html and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert json.loads(client.get("/matches/KD-1.json")[1])["signatures"][0]["captain"] == hostile


def test_a_match_item_from_before_the_captains_signed_stays_valid(client):
    assert post_match(client)[0] == 200
    record = json.loads(client.get("/matches/KD-1.json")[1])
    assert (record["signatures"], record["objections"], record["unsigned"]) == ([], [], [])
    assert "Podpisy kapitánů" not in client.get("/matches/KD-1.html")[1].decode()


def sig(**fields):
    return {"side": "home", "captain": "Lvi hráč 1", "at": AT, **fields}


def obj(**fields):
    return {"side": "away", "captain": "Orli hráč 1", "kind": "scoring", "partie": 1, "at": AT, **fields}


@pytest.mark.postgresql_once
@pytest.mark.parametrize("captains, reason", [
    ({"signatures": {"side": "home"}}, "list of at most 2"),
    ({"signatures": [sig(), sig(side="away"), sig()]}, "list of at most 2"),
    ({"signatures": ["Lvi hráč 1"]}, "must be an object"),
    ({"signatures": [sig(side="guests")]}, "\"home\" or \"away\""),
    ({"signatures": [sig(captain=None)]}, "captain"),
    ({"signatures": [sig(captain="x" * 201)]}, "1 to 200 characters"),
    ({"signatures": [sig(captain="Novák\n<b>")]}, "printable"),
    ({"signatures": [sig(captain="Nov\ud800k")]}, "not valid Unicode"),
    ({"signatures": [sig(at=17)]}, "time"),
    ({"objections": [obj(kind="weather")]}, "\"kind\" must be one of"),
    ({"objections": [obj(partie="2")]}, "whole number"),
    ({"objections": [obj(partie=0)]}, "whole number"),
    ({"objections": [obj(partie=True)]}, "whole number"),
    ({"unsigned": ["nobody"]}, "\"home\" or \"away\""),
    ({"signatures": [sig()], "unsigned": ["home"]}, "answers the zápis once"),
    ({"signatures": [sig(side="away")], "objections": [obj()]}, "answers the zápis once"),
])
def test_a_malformed_answer_is_refused_with_422_and_nothing_of_it_is_stored(client, store, captains, reason):
    played, (mid, text, summary) = carom_samples.match("KD-1", "Lvi", "Orli", seed=1, points_limit=20, innings_limit=3)
    body = json.dumps({"id": mid, "kind": "match", "record": text, "summary": {**summary, **captains}}).encode()
    status, answer = client.post(body)
    assert status == 422 and reason in answer["reason"], answer
    assert store.items.count() == 0


def test_the_8ball_zapis_shows_the_answers_too(client):
    """RULES 2.9 record with A.6.9d signatures: "zápas n" names the individual match objected to."""
    played, (mid, text, summary) = carom_samples.eightball_match("KB-1", "Koule", "Tágo", ["h", "w"], venue="Hostinec U Lva",
                                                 games_to_win=1, sets_to_win=1)
    for pid, ptext, psummary in played:
        assert client.post(item_body(pid, "partie", ptext, psummary))[0] == 200
    summary = {**summary, "signatures": [sig(captain="Koule hráč 1")],
               "objections": [obj(captain="Tágo hráč 2", partie=2)]}
    assert client.post(item_body(mid, "match", text, summary))[0] == 200
    record = json.loads(client.get("/matches/KB-1.json")[1])
    assert record["game"] == "8ball" and [s["captain"] for s in record["signatures"]] == ["Koule hráč 1"]
    html = client.get("/matches/KB-1.html")[1].decode()
    assert "Podpisy kapitánů" in html and "zápas 2" in html and "námitka: zápis (A.6.3)" in html
