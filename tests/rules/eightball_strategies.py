"""Hypothesis strategies for 8-ball command sequences through the Board, shared by
tests/rules/test_eightball_properties.py and tests/rules/test_rules_audit_eightball.py."""
from eightball_helpers import HEADER
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rules.board import Board
from rules.errors import IllegalCommand

pockets = st.one_of(st.integers(1, 6), st.none(), st.sampled_from([0, 7, "2"]))
commands = st.one_of(
    st.builds(lambda ball, pocket: {"cmd": "pot", "ball": ball, **({} if pocket is None else {"pocket": pocket})},
              st.sampled_from(["solid", "stripe", "eight"]), pockets),
    st.builds(lambda p: {"cmd": "pot8", "pocket": p}, st.integers(1, 6)),
    st.just({"cmd": "scratch"}),
    st.builds(lambda c: {"cmd": "foul"} if c is None else {"cmd": "foul", "code": c},
              st.sampled_from([None, "b", "c", "e", "a", "z"])),
    st.just({"cmd": "nocushion"}),
    st.just({"cmd": "shot"}),
    st.builds(lambda g: {"cmd": "choose", "group": g}, st.sampled_from(["solids", "stripes"])),
    st.builds(lambda p: {"cmd": "pocket8", "pocket": p}, st.integers(1, 6)),
    st.just({"cmd": "stalemate"}),
    st.builds(lambda w: {"cmd": "game", "winner": w}, st.sampled_from(["a", "b"])),
    st.just({"cmd": "undo"}),
    st.just({"cmd": "redo"}),
    # any JSON value in any argument of any command
    st.builds(lambda name, key, value: {"cmd": name, key: value},
              st.sampled_from(["pot", "pot8", "foul", "choose", "pocket8", "game", "forfeit", "jump"]),
              st.sampled_from(["ball", "pocket", "code", "group", "winner", "by"]),
              st.one_of(st.none(), st.booleans(), st.integers(-2, 8), st.floats(0, 7), st.text(max_size=3),
                        st.lists(st.integers(), max_size=2),
                        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))),
)
# Most of a sequence is whole shots (a choice if due, pots with pockets, maybe a foul or the 8, then
# "shot") so that racks get played far enough to reach the 8; odd commands come in between.
choice = st.lists(st.builds(lambda g: {"cmd": "choose", "group": g}, st.sampled_from(["solids", "stripes"])),
                  max_size=1)
pot_with_pocket = st.builds(lambda ball, p: {"cmd": "pot", "ball": ball, "pocket": p},
                            st.sampled_from(["solid", "stripe"]), st.integers(1, 6))
extras = st.lists(st.sampled_from([{"cmd": "scratch"}, {"cmd": "foul"}, {"cmd": "pot8", "pocket": 1},
                                   {"cmd": "pot8", "pocket": 5}]), max_size=1)
whole_shot = st.tuples(choice, st.lists(pot_with_pocket, max_size=4), extras).map(
    lambda t: [*t[0], *t[1], *t[2], {"cmd": "shot"}])
chunk = st.one_of(whole_shot, whole_shot, whole_shot, commands.map(lambda c: [c]))


def flatten(chunks: list[list[dict]]) -> list[dict]:
    return [c for part in chunks for c in part]


forfeits = st.lists(st.sampled_from([{"cmd": "forfeit", "by": "a"}, {"cmd": "undo"}, {"cmd": "shot"}]),
                    max_size=3)
# A forfeit ends the match, so it comes only at the end of a sequence.
random_play = st.tuples(st.lists(chunk, min_size=10, max_size=60).map(flatten), forfeits).map(
    lambda t: t[0] + t[1])


@st.composite
def referee_play(draw):
    """A sequence a referee could enter: it follows the table (choose when due, pots of balls still
    there, the 8 mostly once the group is cleared), with an odd command now and then."""
    board = Board(HEADER)
    cmds = []
    for _ in range(draw(st.integers(20, 160))):
        cur = board.summary()["current"]
        if board.finished:
            break
        if cur["must_choose"]:
            cmd = {"cmd": "choose", "group": draw(st.sampled_from(["solids", "stripes"]))}
        else:
            own = cur["groups"][cur["shooter"]]
            cleared = own is not None and cur["left"][own] == 0
            options = [{"cmd": "shot"}] * 3 + [{"cmd": "pot", "ball": ball, "pocket": p}
                                               for ball, group in (("solid", "solids"), ("stripe", "stripes"))
                                               if cur["left"][group] for p in (1, 2, 6)]
            options += [{"cmd": "pot8", "pocket": p} for p in range(1, 7)] * (2 if cleared else 0)
            options += [{"cmd": "scratch"}, {"cmd": "foul"}, {"cmd": "undo"}]
            cmd = draw(st.one_of(st.sampled_from(options), st.sampled_from(options), st.sampled_from(options),
                                 st.sampled_from(options), commands))
        try:
            board.push(cmd)
        except IllegalCommand:
            pass
        cmds.append(cmd)
    return cmds


sequences = st.one_of(random_play, referee_play())
header = st.fixed_dictionaries({"games_to_win": st.integers(1, 3), "sets_to_win": st.integers(1, 2)})
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(extra: dict, cmds: list[dict]):
    """Push every command; yield (board, cmd, state before, accepted) after each."""
    board = Board({**HEADER, **extra})
    for cmd in cmds:
        before = board.state
        try:
            board.push(cmd)
        except IllegalCommand:
            assert board.state is before       # a refusal changes nothing
            yield board, cmd, before, False
        else:
            yield board, cmd, before, True
