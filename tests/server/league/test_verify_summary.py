"""A partie item's summary against its record's replay (server/league/verify.py, docs/sync.md): the first
replayed key whose posted value differs is named, as when every replayed value was compared after a
JSON round trip (as the device's JSON carries it)."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import carom_samples
from rules.record import replay_lines
from server.league.errors import Refused
from server.league.verify import Parsed, check

TEXT, SUMMARY = carom_samples.partie("KD-1-p1", "Novák", "Dvořák", seed=3, points_limit=20, innings_limit=3)
REPLAYED = json.loads(json.dumps(replay_lines(TEXT.splitlines()).summary()))
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=3),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner,
                                                                                         max_size=3),
                           max_leaves=6)


def checked(summary: dict) -> str | None:
    """None when accepted, else the refusal's reason (always a 422)."""
    try:
        check(Parsed("KD-1-p1", "partie", TEXT, summary))
    except Refused as refused:
        assert refused.status == 422
        return refused.reason
    return None


def first_difference(posted: dict) -> str | None:
    """The key the comparison after a JSON round trip names (the definition)."""
    replayed = {k: v for k, v in REPLAYED.items() if k != "rejected" or "rejected" in posted}
    return next((key for key, value in replayed.items() if posted.get(key, ()) != value), None)


def test_the_posted_summary_is_accepted_with_metadata_and_without_rejected():
    assert checked(SUMMARY) is None
    assert checked({**{k: v for k, v in SUMMARY.items() if k != "rejected"}, "device": "KD-stul-1"}) is None


@pytest.mark.parametrize("key", ["players", "result", "counter", "rejected"])
def test_a_changed_value_is_named(key):
    assert f'"{key}" differs' in checked({**SUMMARY, key: "changed"})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(REPLAYED) + ["device"]), JSON_VALUES), max_size=3),
       st.sets(st.sampled_from(sorted(REPLAYED)), max_size=2))
def test_the_key_named_is_the_first_that_differs_after_a_round_trip(changes, dropped):
    posted = {k: v for k, v in {**SUMMARY, **dict(changes)}.items() if k not in dropped}
    key = first_difference(posted)
    reason = checked(posted)
    assert (reason is None) == (key is None), (reason, key)
    assert key is None or f'"{key}" differs' in reason
