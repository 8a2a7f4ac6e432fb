"""One 8-ball shot: the referee's inputs gather in ``Rack.pending`` until ``shot`` closes it.

Inputs are checked as they arrive (``add_input``); ``close_shot`` applies RULES 2.3–2.7.
Pending entries are tuples: ("pot", group, pocket|None), ("pot8", pocket), ("scratch",),
("foul", code|None), ("nocushion",).
"""
from dataclasses import dataclass, replace

from rules.core import JSONObject
from rules.eightball.state import (
    GROUPS,
    POCKETS,
    BadArgument,
    Entry,
    Rack,
    Refused,
    State,
    credit,
    end_game,
    other,
    other_group,
    rerack,
)

BALL_GROUP = {"solid": "solids", "stripe": "stripes"}
# 8B:3 letters the referee may give with a foul. "a" (cue ball potted) is entered as scratch,
# "p" (illegal break) as nocushion, "r" is the counting rule, not a foul.
FOUL_CODES = ("b", "c", "d", "e", "f", "g", "h", "ch", "i", "j", "k", "l", "m", "n", "o")
REDIRECTED_CODES = {
    "a": "a potted cue ball (8B:3a) is entered as {\"cmd\":\"scratch\"}",
    "p": "an illegal break (8B:3p) is entered as {\"cmd\":\"nocushion\"}",
    "r": "8B:3r is not a foul: several fouls in one shot count once anyway",
}


@dataclass(frozen=True)
class Shot:
    """What the referee entered for one shot, order aside."""
    pots: tuple[tuple[str, int | None], ...] = ()   # (group, pocket|None) per object ball potted
    eight: int | None = None  # pocket of the 8, if potted
    scratch: bool = False
    fouls: tuple[str | None, ...] = ()             # foul codes (None for a plain foul)
    nocushion: bool = False

    @classmethod
    def of(cls, pending: tuple[Entry, ...]) -> "Shot":
        return cls(
            pots=tuple(e[1:] for e in pending if e[0] == "pot"),
            eight=next((e[1] or 0 for e in pending if e[0] == "pot8"), None),    # 0: on the break, no pocket
            scratch=("scratch",) in pending,
            fouls=tuple(e[1] for e in pending if e[0] == "foul"),
            nocushion=("nocushion",) in pending,
        )

    @property
    def foul(self) -> bool:
        return self.scratch or bool(self.fouls)

    @property
    def anything_potted(self) -> bool:
        return bool(self.pots) or self.eight is not None

    def potted(self, group: str) -> int:
        return sum(1 for g, _ in self.pots if g == group)


def pocket_arg(cmd: JSONObject, required: bool) -> int | None:
    pocket = cmd.get("pocket")
    if pocket is None:
        if required:
            raise Refused("say which pocket (1-6) the ball dropped into", code="pocket_required")
        return None
    if type(pocket) is not int or pocket not in POCKETS:
        raise Refused(f"pocket must be 1 to 6, not {pocket!r}", code="bad_pocket")
    return pocket


def check_no_choice_pending(rack: Rack) -> None:
    if rack.must_choose:
        raise Refused("both groups dropped: choose solids or stripes before the next shot (RULES 2.4)",
                      code="must_choose")


# -- gathering -----------------------------------------------------------------------

def add_input(state: State, cmd: JSONObject) -> State:
    """Add one input (pot, pot8, scratch, foul, nocushion) to the open shot, checked."""
    rack = state.rack
    check_no_choice_pending(rack)
    entry = _ENTRY[cmd["cmd"]](rack, Shot.of(rack.pending), cmd)
    return replace(state, rack=replace(rack, pending=rack.pending + (entry,)))


def _pot_entry(rack: Rack, shot: Shot, cmd: JSONObject) -> Entry:
    ball = cmd.get("ball")
    group = BALL_GROUP.get(ball) if isinstance(ball, str) else None
    if group is None:
        raise BadArgument(f"ball must be \"solid\" or \"stripe\", not {ball!r}")
    _check_not_after_nocushion(shot)
    remaining = rack.left_of(group) - shot.potted(group)
    if remaining <= 0:
        raise Refused(f"no {group} are left on the table", code="no_balls_left")
    return ("pot", group, pocket_arg(cmd, required=remaining == 1))


def _pot8_entry(rack: Rack, shot: Shot, cmd: JSONObject) -> Entry:
    _check_not_after_nocushion(shot)
    if shot.eight is not None:
        raise Refused("the 8 is already entered for this shot", code="already_entered")
    # RULES 2.3 (8B:2d): the 8 on the break re-racks whatever its pocket, so none is asked for there
    return ("pot8", pocket_arg(cmd, required=not rack.break_shot))


def _scratch_entry(rack: Rack, shot: Shot, cmd: JSONObject) -> Entry:
    if shot.scratch:
        raise Refused("the scratch is already entered for this shot", code="already_entered")
    return ("scratch",)


def _foul_entry(rack: Rack, shot: Shot, cmd: JSONObject) -> Entry:
    code = cmd.get("code")
    if code is not None and not isinstance(code, str):
        raise BadArgument(f"foul code must be an 8B:3 letter, not {code!r}")
    if code in REDIRECTED_CODES:
        raise BadArgument(REDIRECTED_CODES[code])
    if code is not None and code not in FOUL_CODES:
        raise BadArgument(f"foul code must be one of the 8B:3 letters {', '.join(FOUL_CODES)}, not {code!r}")
    own = rack.group_of(rack.shooter)
    if rack.open_shot and code in ("b", "e"):
        raise Refused("8B:6d: on this shot any ball may be hit first without a foul", code="not_a_foul")
    if code == "b" and own is None:
        raise Refused("the table is open: no ball is the opponent's yet (8B:3b)", code="not_a_foul")
    if code == "e" and own is not None and rack.left_of(own) == 0:
        raise Refused("the group is cleared: the 8 is the ball to hit (8B:3e)", code="not_a_foul")
    return ("foul", code)


def _nocushion_entry(rack: Rack, shot: Shot, cmd: JSONObject) -> Entry:
    if not rack.break_shot:
        raise Refused("nocushion is for a break shot only (RULES 2.3)", code="not_break")
    if shot.anything_potted:
        raise Refused("a break that potted a ball is legal (RULES 2.3)", code="nocushion_with_pot")
    if shot.nocushion:
        raise Refused("nocushion is already entered for this shot", code="already_entered")
    return ("nocushion",)


def _check_not_after_nocushion(shot: Shot) -> None:
    if shot.nocushion:
        raise Refused("nocushion says nothing was potted on this break; undo it first",
                      code="nocushion_with_pot")


_ENTRY = {
    "pot": _pot_entry,
    "pot8": _pot8_entry,
    "scratch": _scratch_entry,
    "foul": _foul_entry,
    "nocushion": _nocushion_entry,
}
INPUT_COMMANDS = tuple(_ENTRY)


# -- closing --------------------------------------------------------------------------

def close_shot(state: State) -> State:
    """``shot``: apply the gathered inputs; an empty shot is a miss."""
    check_no_choice_pending(state.rack)
    shot = Shot.of(state.rack.pending)
    rack = replace(state.rack, pending=())
    if rack.break_shot:
        return _close_break(state, rack, shot)
    return _close_play(state, rack, shot)


def _close_break(state: State, rack: Rack, shot: Shot) -> State:
    # RULES 2.3: the 8 on the break (8B:2d) or an illegal break (8B:6e): the same player re-breaks.
    if shot.eight is not None or shot.nocushion:
        return rerack(state)
    rack = _drop(rack, shot)
    rack = _visit_goes_on(replace(rack, break_shot=False), shot)
    # RULES 2.4 / 8B:6d: an empty break gives the incoming player an open first shot.
    return replace(state, rack=replace(rack, open_shot=not shot.pots))


def _close_play(state: State, before: Rack, shot: Shot) -> State:
    rack = _drop(before, shot)
    if shot.eight is not None:
        reason = eight_reason(state, before, shot)
        winner = before.shooter if reason == "eight" else other(before.shooter)
        return end_game(state, _count_foul(rack, shot), winner, reason)
    return replace(state, rack=replace(_visit_goes_on(rack, shot), open_shot=False))


def eight_reason(state: State, before: Rack, shot: Shot) -> str:
    """RULES 2.7: how a shot that potted the 8 ends the game; the first loss that applies names it."""
    own = before.group_of(before.shooter)
    if own is None or before.left_of(own) > 0:
        return "eight_early"
    if shot.scratch:
        return "eight_scratch"
    if shot.fouls:
        return "eight_foul"
    if shot.potted(other_group(own)):
        return "eight_with_opponent_ball"
    if shot.eight != before.eight_pocket(state.settings, own):
        return "eight_wrong_pocket"
    return "eight"


def _drop(rack: Rack, shot: Shot) -> Rack:
    """Take the potted object balls off; remember where each group's last ball went and who potted
    it (RULES 2.2, 8B:6f: the shooter pots the opponent's last ball into a middle pocket — with or
    without a foul on that shot, RULES 2.2 sets no such condition)."""
    left, last_pocket, last_by = list(rack.left), list(rack.last_pocket), list(rack.last_by)
    for group, pocket in shot.pots:
        i = GROUPS.index(group)
        left[i] -= 1
        if left[i] == 0:
            last_pocket[i] = pocket
            last_by[i] = rack.shooter
    return replace(rack, left=tuple(left), last_pocket=tuple(last_pocket), last_by=tuple(last_by))


def _count_foul(rack: Rack, shot: Shot) -> Rack:
    # 8B:3r: several fouls in one shot count once.
    return replace(rack, fouls=credit(rack.fouls, rack.shooter)) if shot.foul else rack


def _visit_goes_on(rack: Rack, shot: Shot) -> Rack:
    """After a shot without the 8: fouls (2.6), groups (2.4) and whether the shooter continues (2.5)."""
    shooter = rack.shooter
    rack = replace(rack, ball_in_hand=False)
    if shot.foul:
        return replace(_count_foul(rack, shot), shooter=other(shooter), ball_in_hand=True)
    dropped = {group for group, _ in shot.pots}
    own = rack.group_of(shooter)
    if own is None and len(dropped) == 2:
        return replace(rack, must_choose=True)
    if own is None and dropped:
        (own,) = dropped
        rack = assign_group(rack, shooter, own)
    if own in dropped:
        return rack
    return replace(rack, shooter=other(shooter))


def assign_group(rack: Rack, player: str, group: str) -> Rack:
    return replace(rack, group_a=group if player == "a" else other_group(group), must_choose=False)

