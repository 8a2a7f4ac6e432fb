"""Hypothesis strategies for carom headers and referee command sequences, shared by
tests/rules/test_carom_properties.py and tests/rules/test_board_summary_after.py."""
from hypothesis import strategies as st

headers = st.fixed_dictionaries({
    "game": st.just("carom"), "a": st.just("Novák"), "b": st.just("Dvořák"),
    "points_limit": st.integers(1, 60), "innings_limit": st.integers(1, 5),
    "cap_points_at_limit": st.booleans(),
})

strokes = st.one_of(
    st.builds(lambda v: {"cmd": "score", "value": v}, st.sampled_from([1, 2, 10, 20])),
    st.just({"cmd": "miss"}), st.just({"cmd": "foul"}),
)
rarer = st.one_of(
    st.just({"cmd": "frozen"}), st.just({"cmd": "undo"}), st.just({"cmd": "redo"}),
    st.builds(lambda v: {"cmd": "score", "value": v}, st.sampled_from([0, 7, "10", None])),
    st.builds(lambda p: {"cmd": "forfeit", "by": p}, st.sampled_from(["a", "b", "c"])),
    st.builds(lambda c, p, n, x: {"cmd": c, "player": p, "inning": n, "points": x},
              st.sampled_from(["correct", "insert"]), st.sampled_from(["a", "b"]),
              st.integers(0, 6), st.integers(-1, 70)),
    st.just({"cmd": "jump"}),
)
commands = st.lists(st.one_of(strokes, strokes, strokes, rarer), max_size=80)
