"""`pocitadlo render --night FILE`: the night journal given for a league partie's number and the team
points before it. A journal that does not hold the record's match is refused, never silently
ignored (the picture would show a partie without its match)."""
import json

import pytest

from cli.main import main
from firmware_host.journal import Journal

HEADER = {"game": "carom", "a": "Novák", "b": "Dvořák", "points_limit": 200, "innings_limit": 15}


def record(path, **header) -> str:
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False)
                              for line in ({**HEADER, **header}, {"cmd": "score", "value": 10})) + "\n",
                    encoding="utf-8")
    return str(path)


def night(path, match_id: str) -> str:
    with Journal.open(path) as journal:
        journal.append({"ev": "match", "id": match_id, "game": "carom", "date": "2026-11-11", "home": "Sokol Dvůr",
                        "away": "Jiskra Hořice", "present": {}, "partie_count": 4})
    return str(path)


@pytest.fixture
def league_partie(tmp_path):
    return record(tmp_path / "partie.jsonl", match={"id": "m1"}, partie=1)


def test_a_night_holding_the_match_draws_it(tmp_path, league_partie):
    png = tmp_path / "o.png"
    assert main(["render", league_partie, "--night", night(tmp_path / "n.jsonl", "m1"), "--png", str(png)]) == 0
    assert png.stat().st_size > 0


def test_a_night_without_the_records_match_is_refused(tmp_path, league_partie, capsys):
    png = tmp_path / "o.png"
    assert main(["render", league_partie, "--night", night(tmp_path / "n.jsonl", "m2"), "--png", str(png)]) == 2
    err = capsys.readouterr().err
    assert "--night" in err and "n.jsonl" in err and "'m1'" in err and len(err.splitlines()) == 1
    assert not png.exists()


def test_a_night_for_a_partie_of_no_match_is_refused(tmp_path, capsys):
    plain = record(tmp_path / "plain.jsonl")
    assert main(["render", plain, "--night", night(tmp_path / "n.jsonl", "m1"), "--png", str(tmp_path / "o.png")]) == 2
    assert "names no match" in capsys.readouterr().err


@pytest.mark.parametrize("fields", [{"match": "m1", "partie": 1}, {"match": {"id": 7}}, {"match": {"id": "m1"}, "partie": "x"}],
                         ids=["match-text", "id-number", "partie-text"])
def test_a_header_with_a_malformed_match_is_drawn_as_its_partie(tmp_path, fields):
    """The rule core does not read ``match``: a header whose match is malformed still draws, beside a
    night journal too, and never ends in a traceback."""
    partie = record(tmp_path / "partie.jsonl", **fields)
    night(tmp_path / "night.jsonl", "m1")
    assert main(["render", partie, "--png", str(tmp_path / "o.png")]) == 0
