"""The match night as a pure fold, like ``rules.board.Board`` for a partie.

A night is a sequence of decisions, each an event dict:

    {"ev": "match", "id", "game", "date", "home", "away", "present", "partie_count", ["captains"], ["forfeit"],
     ["fixture"], ["adopted"], ["win_points"]}          (captains: each team's, chosen after attendance,
                                                        A.6.1; adopted: an orphaned partie file played on;
                                                        win_points: the competition's team points of a
                                                        partie won where not the game's default, A.5.3,
                                                        RULES 2.9: the forfeit's score)
    {"ev": "lot", "seed", "pairs"}                      the carom lot draw (RULES 1.6)
    {"ev": "closed", "partie", "summary", ["record"]}   a partie closed: its line of the match
    {"ev": "sign", "side", "captain", "at"}             a captain confirms the zápis (A.6.9d)
    {"ev": "object", "side", "captain", "kind", "partie", "at"}   or records an objection instead
                                                        (A.6.3: "referee" | "scoring"; A.6.5:
                                                        "interrupted"; partie: its number or null)
    {"ev": "unsigned", "side", "at"}                    the referee's escape: nobody signs for the side
    {"ev": "interrupt", "partie", "reason", "captain", "at", ["in_play"]}   the match cannot go on (A.6.5):
                                                        interrupted at partie ``partie`` for ``reason``,
                                                        the home captain confirming; ``in_play``: the
                                                        line so far of the partie being played
    {"ev": "end"}                                       the match closed and sent
    {"ev": "abandon"}                                   a match set up wrongly, given up before its
                                                        first partie was closed; nothing is sent
    {"ev": "reopen"}                                    the last decision that can still be taken
                                                        back (closed, end, abandon) is taken back
    {"ev": "final"}                                     the decisions since the last one are final:
                                                        their records are in the outbox
    {"ev": "set_aside", "partie"}                       an unfinished partie file no match owns (its
                                                        match's line lost) moved to the archive

Closing a partie, closing the match, abandoning it and interrupting it can be taken back until the next stroke
(docs/referee.md "Taking back"): the state keeps the night as it stood before each such decision
(``previous``), ``reopen`` returns to it and ``final`` forgets it. Nothing is deleted: the
decision and its taking back are both journalled.

``apply(state, event) -> state`` folds them; the match-level arithmetic (team points of a
partie, the match result, the lot draw, the first break) comes from the game's registry entry
(rules.games). No file, clock or text.
"""
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import JSONObject
from rules.games import game_for

SIDES = ("home", "away")
OBJECTIONS = ("referee", "scoring", "interrupted")      # A.6.3 (referee, scorer), A.6.5
# Why a match is interrupted at the table (A.6.5): a dispute that stops it, an equipment failure,
# an injury or illness, the venue's closing time, another reason.
INTERRUPTIONS = ("dispute", "equipment", "injury", "closing", "other")


class NightEventError(ValueError):
    """An event that cannot be applied to the night as it stands (e.g. a lot without a match)."""


class UnknownEvent(NightEventError):
    """An event kind this version does not know."""


@dataclass(frozen=True)
class Match:
    """What the ``match`` event decided, and what followed."""
    id: str
    game: str
    date: str
    home: str | None = None          # team names; None for a single partie outside a league
    away: str | None = None
    present: dict[str, list[str]] = field(default_factory=dict)
    partie_count: int = 1
    seed: int | None = None
    pairs: tuple[JSONObject, ...] | None = None   # the lot draw (carom): {"partie", "home", "away"} each
    closed: tuple[JSONObject, ...] = ()           # the lines of closed partie, in order
    records: tuple[tuple[JSONObject, JSONObject], ...] = ()   # (header, facts) of each closed carom partie, for RULES 1.6
    forfeit: str | None = None       # "home"/"away": the team that did not turn up (A.3.7)
    answers: tuple[JSONObject, ...] = ()          # each captain's answer to the zápis: sign/object/unsigned events
    fixture: str | None = None       # the id of the league's fixture it was set up from
    adopted: str | None = None       # the id of the one partie file this match took over (an orphan)
    captains: dict[str, str] = field(default_factory=dict)    # side -> the captain chosen after attendance (A.6.1)
    interrupted: JSONObject | None = None   # A.6.5: {"partie", "reason", "captain", "at", ["in_play"]}
    win_points: int | None = None    # the competition's team points of a partie won; None: the game's

    @property
    def league(self) -> bool:
        return self.home is not None

    @property
    def number(self) -> int:
        """The number of the partie to play next (1-based)."""
        return len(self.closed) + 1

    @property
    def over(self) -> bool:
        """Every partie is closed (or the match was forfeited or interrupted): the result is next."""
        return bool(self.forfeit) or self.interrupted is not None or len(self.closed) >= self.partie_count

    @property
    def abandonable(self) -> bool:
        """A match set up wrongly can be given up until its first partie is closed: a league
        match (teams, attendance), after which the partie records' corrections are the way; a
        single partie (picked by mistake) too, but only before its first stroke, which the night
        checks (this fold does not see the partie's strokes): a partie played is never dropped."""
        return not self.closed and not self.forfeit and self.interrupted is None

    @property
    def needs_lot(self) -> bool:
        """A league match of a game whose pairs are drawn (carom, RULES 1.6) without its lot draw yet."""
        drawn = game_for(self.game).draw_lot is not None
        return drawn and self.league and self.pairs is None and not self.forfeit

    @property
    def signing_sides(self) -> tuple[str, ...]:
        """The teams whose captain answers the zápis (A.6.9d): both in a league match, the one
        that turned up in a forfeited one (A.3.7), none for a single partie."""
        if not self.league:
            return ()
        return tuple(side for side in SIDES if side != self.forfeit)

    def team(self, side: str) -> str:
        """The name of the team playing as ``side`` ("home"/"away") in a league match."""
        name = self.home if side == "home" else self.away
        if name is None:
            raise ValueError("a single partie has no teams")
        return name

    def answer(self, side: str) -> JSONObject | None:
        return next((a for a in self.answers if a["side"] == side), None)

    @property
    def awaiting(self) -> str | None:
        """The team whose captain answers next (home first), once the result is known; None
        when nobody is to sign (yet, or any more)."""
        if not self.over:
            return None
        return next((side for side in self.signing_sides if self.answer(side) is None), None)

    @property
    def signed_off(self) -> bool:
        """The result is known and every captain has answered: the match item may go."""
        return self.over and self.awaiting is None

    def partie_id(self, number: int) -> str:
        return self.adopted or f"{self.id}-p{number}"


TAKE_BACK = ("closed", "end", "abandon", "interrupt")     # the decisions that can be taken back until final


@dataclass(frozen=True)
class NightState:
    """A match night's facts: the match in play and the decision that can still be taken back."""
    match: Match | None = None
    previous: "NightState | None" = None   # the night before ``decision``, while it can be taken back
    decision: str | None = None            # one of TAKE_BACK: the last decision not yet final

    def held(self) -> list[tuple[str, Match]]:
        """The decisions not yet final, oldest first, each with the match as it stood before it."""
        out: list[tuple[str, Match]] = []
        state = self
        while state.previous is not None:
            assert state.decision is not None and state.previous.match is not None     # _decided, on a match
            out.append((state.decision, state.previous.match))
            state = state.previous
        return out[::-1]


def _decided(state: NightState, kind: str, match: Match | None) -> NightState:
    """``state`` after a decision that can be taken back until it is final."""
    return NightState(match, previous=state, decision=kind)


def apply(state: NightState, event: JSONObject) -> NightState:
    """The night after ``event``; raise NightEventError if it cannot be applied."""
    kind = event.get("ev")
    try:
        if kind == "match":
            return NightState(_match(event))
        if kind == "set_aside":
            return state
        if kind in ("end", "abandon"):
            if state.match is None:
                raise NightEventError(f"{kind} without a match")
            return _decided(state, kind, None)
        if kind == "reopen":
            if state.previous is None:
                raise NightEventError("nothing to take back")
            return state.previous
        if kind == "final":
            return NightState(state.match)
        if kind not in ("lot", "closed", "interrupt", *ANSWERS):
            raise UnknownEvent(f"unknown event {kind!r}")
        match = state.match
        if match is None:
            raise NightEventError(f"event {event!r} cannot be applied (no match)")
        if kind == "lot":
            return NightState(replace(match, seed=event["seed"], pairs=tuple(event["pairs"])))
        if kind == "closed":
            record = event.get("record")
            records = match.records + ((record["header"], record["summary"]),) if record else match.records
            return _decided(state, kind, replace(match, closed=match.closed + (event["summary"],), records=records))
        if kind == "interrupt":
            return _decided(state, kind, replace(match, interrupted=_interruption(match, event)))
        # an answer: it goes with the result, so a closing taken back takes it too
        return replace(state, match=replace(match, answers=match.answers + (_answer(match, event),)))
    except (KeyError, TypeError, AttributeError) as exc:
        raise NightEventError(f"event {event!r} cannot be applied ({exc!r})") from None


ANSWERS = ("sign", "object", "unsigned")


def _match(event: JSONObject) -> Match:
    """The match a ``match`` event sets up; NightEventError for a captain who is not among the
    players present for their team (A.6.1)."""
    match = Match(event["id"], event["game"], event["date"], event.get("home"), event.get("away"),
                  dict(event.get("present", {})), event["partie_count"], forfeit=event.get("forfeit"),
                  fixture=event.get("fixture"), adopted=event.get("adopted"),
                  captains=dict(event.get("captains") or {}), win_points=event.get("win_points"))
    for side, captain in match.captains.items():
        if side not in SIDES or captain not in (match.present.get(side) or ()):
            raise NightEventError(f"the captain {captain!r} of {side!r} is not among the players present (A.6.1)")
    return match


def _answer(match: Match, event: JSONObject) -> JSONObject:
    """A captain's answer to the zápis (A.6.9d, A.6.3, A.6.5) as the match keeps it, or
    NightEventError when it does not fit the match as it stands."""
    side = event["side"]
    if not match.over or side not in match.signing_sides or match.answer(side) is not None:
        raise NightEventError(f"no answer of {side!r} is awaited now")
    answer: JSONObject = {"ev": event["ev"], "side": side, "at": event.get("at")}
    if event["ev"] == "unsigned":
        return answer
    captain = event["captain"]
    if not isinstance(captain, str) or not captain:
        raise NightEventError(f"a captain's name is needed, got {captain!r}")
    present = match.present.get(side)
    if present and captain not in present:           # A.6.1: a member of the team in the match
        raise NightEventError(f"{captain!r} is not among the players present for {side}")
    chosen = match.captains.get(side)
    if chosen is not None and captain != chosen:     # A.6.1: the captain chosen after attendance answers
        raise NightEventError(f"the captain of {side} is {chosen!r}, not {captain!r}")
    answer["captain"] = captain
    if event["ev"] == "object":
        kind, partie = event["kind"], event.get("partie")
        if kind not in OBJECTIONS:
            raise NightEventError(f"an objection is one of {OBJECTIONS}, got {kind!r}")
        if partie is not None and (isinstance(partie, bool) or partie not in range(1, len(match.closed) + 1)):
            raise NightEventError(f"no closed partie {partie!r} to object to")
        answer.update(kind=kind, partie=partie)
    return answer


def _interruption(match: Match, event: JSONObject) -> JSONObject:
    """What an ``interrupt`` event records of the match (A.6.5), or NightEventError when it does not
    fit the match as it stands: a league match still being played, a known reason."""
    if not match.league or match.over:
        raise NightEventError("only a league match still being played can be interrupted")
    if event["reason"] not in INTERRUPTIONS:
        raise NightEventError(f"an interruption's reason is one of {INTERRUPTIONS}, got {event['reason']!r}")
    if event["partie"] != match.number:
        raise NightEventError(f"the match is at partie {match.number}, not {event['partie']!r}")
    kept = {key: event.get(key) for key in ("partie", "reason", "captain", "at")}
    if event.get("in_play") is not None:
        kept["in_play"] = dict(event["in_play"])
    return kept


def interrupt_event(match: Match, reason: str, captain: str | None, at: str,
                    in_play: JSONObject | None = None) -> JSONObject:
    """A.6.5: the match cannot go on; interrupted at the partie it is at, for ``reason``
    (INTERRUPTIONS), confirmed by the home team's ``captain``; ``in_play``: the line so far of the
    partie being played (partie_line of its header and summary), if one was."""
    event: JSONObject = {"ev": "interrupt", "partie": match.number, "reason": reason, "captain": captain, "at": at}
    if in_play is not None:
        event["in_play"] = {key: in_play[key] for key in ("id", "home", "away", "score")}
    return event


def sign_event(side: str, captain: str, at: str) -> JSONObject:
    """A.6.9d: the captain of ``side`` confirms the zápis."""
    return {"ev": "sign", "side": side, "captain": captain, "at": at}


def object_event(side: str, captain: str, kind: str, partie: int | None, at: str) -> JSONObject:
    """A.6.3 / A.6.5: the captain of ``side`` objects instead of signing; ``partie``: the one it
    concerns, or None for the whole match."""
    return {"ev": "object", "side": side, "captain": captain, "kind": kind, "partie": partie, "at": at}


def unsigned_event(side: str, at: str) -> JSONObject:
    """The referee's escape (a captain gone home, or refusing): the match goes unsigned by ``side``,
    so a match is never stuck unsent."""
    return {"ev": "unsigned", "side": side, "at": at}


def captains(match: Match) -> JSONObject:
    """What the match item carries of the captains' answers (docs/record-format.md): signatures,
    objections and the sides left unsigned, in the order they were given."""
    out: dict[str, list[Any]] = {"signatures": [], "objections": [], "unsigned": []}
    for answer in match.answers:
        if answer["ev"] == "sign":
            out["signatures"].append({key: answer[key] for key in ("side", "captain", "at")})
        elif answer["ev"] == "object":
            out["objections"].append({key: answer[key] for key in ("side", "captain", "kind", "partie", "at")})
        else:
            out["unsigned"].append(answer["side"])
    return out


# -- the match's rules ---------------------------------------------------------

def partie_count(game: str, configured: int | None = None) -> int:
    """Partie in a match: the game's own number (carom: 4, A.3.6), or the league's where the config
    sets it (8-ball's individual matches, RULES 2.9)."""
    return game_for(game).partie_per_match if configured is None else configured


def min_players(game: str) -> int:
    """Players a team needs present (carom: 4, A.3.5; 8-ball asks for one)."""
    return game_for(game).players_per_team


def match_event(match_id: str, game: str, date: str, partie_count: int, *, home: str | None = None,
                away: str | None = None, present: dict[str, list[str]] | None = None, forfeit: str | None = None,
                fixture: str | None = None, captains: dict[str, str] | None = None,
                win_points: int | None = None) -> JSONObject:
    """The ``match`` event: a single partie (no teams), a league match with the captains chosen
    after attendance (A.6.1), or one a team did not come to (``forfeit``: its side; nobody is
    present then, A.3.7). ``win_points``: the competition's team points of a partie won (A.5.3,
    RULES 2.9), kept only where it is not the game's own (the forfeit's score counts it)."""
    event: JSONObject = {"ev": "match", "id": match_id, "game": game, "date": date}
    if home is not None:
        event.update(home=home, away=away, present={} if forfeit else dict(present or {}))
        if captains and not forfeit:
            event["captains"] = dict(captains)
    event["partie_count"] = partie_count
    if forfeit:
        event["forfeit"] = forfeit
    if fixture:
        event["fixture"] = fixture
    if win_points is not None and win_points != game_for(game).win_points:
        event["win_points"] = win_points
    return event


def adopt_event(header: JSONObject, date: str) -> JSONObject:
    """The ``match`` event that takes over an orphaned partie file (its match's line lost in both
    copies of the night journal): a one-partie match outside the league whose partie is that file,
    so it can be played on and closed; its record keeps the league match it was part of."""
    return {"ev": "match", "id": header["id"], "game": header["game"], "date": header.get("date", date),
            "partie_count": 1, "adopted": header["id"]}


def lot_event(match: Match, seed: int) -> JSONObject:
    """The lot draw of the match's pairs from its seed (carom: RULES 1.6 Decision)."""
    draw_lot = game_for(match.game).draw_lot
    if draw_lot is None:
        raise NightEventError(f"{match.game} draws no lot")
    pairs = draw_lot(match.present["home"], match.present["away"], seed)
    return {"ev": "lot", "seed": seed, "pairs": [p.as_dict() for p in pairs]}


def partie_header(match: Match, a: str, b: str, home: str | None, rules: JSONObject, place: JSONObject) -> JSONObject:
    """The record header of the next partie: players, rules, ``place`` (id-free device fields).
    A team-point rule (A.5.3-A.5.5, RULES 2.9) is written only where it is not the game's default,
    so a partie of a competition with the default team points has the header it always had."""
    number = match.number
    header: JSONObject = {"game": match.game, "a": a, "b": b}
    defaults = game_for(match.game).team_point_defaults
    header.update({key: value for key, value in rules.items() if key not in defaults or value != defaults[key]})
    first_break = game_for(match.game).first_break
    if first_break is not None:
        header["first_break"] = first_break(home, number)      # 8-ball: 8B:2b
    header.update({"id": match.partie_id(number), **place, "date": match.date})
    if match.league:
        header["match"] = {"id": match.id, "home": match.home, "away": match.away}
        if match.seed is not None:
            header["match"]["seed"] = match.seed
        if match.fixture is not None:
            header["match"]["fixture"] = match.fixture
        header["partie"] = number
        header["home"] = home
    return header


def closed_event(number: int, header: JSONObject, summary: JSONObject) -> JSONObject:
    """The ``closed`` event of a finished partie: its line, and what the game's match result
    reads of it (carom: RULES 1.6) where the game keeps such facts."""
    event: JSONObject = {"ev": "closed", "partie": number, "summary": partie_line(header, summary)}
    facts = game_for(header["game"]).match_facts
    if facts is not None and header.get("home"):
        event["record"] = {"header": {"home": header["home"]}, "summary": facts(summary)}
    return event


def partie_line(header: JSONObject, summary: JSONObject) -> JSONObject:
    """What the match result needs of a partie: names, score, team points by side, and who
    forfeited it ("home"/"away") when one did."""
    game = game_for(header["game"])
    home_side = header.get("home") or "a"
    away_side = "b" if home_side == "a" else "a"
    by_side = game.partie_points(summary) or {"a": 0, "b": 0}
    figure = game.score(summary)
    line: JSONObject = {"id": header["id"], "home": header[home_side], "away": header[away_side],
                        "score": f"{figure[home_side]}:{figure[away_side]}",
                        "team_points": {"home": by_side[home_side], "away": by_side[away_side]}}
    if summary.get("forfeit") in ("a", "b"):        # RULES 1.4.8 / 8B: the zápis marks a forfeited partie
        line["forfeit"] = "home" if summary["forfeit"] == home_side else "away"
    return line


def forfeit_points(match: Match) -> JSONObject:
    """A team that did not come loses every partie (A.3.7, RULES 2.9): the team present gets the
    points of each partie won (the competition's, A.5.3, else the game's)."""
    won = game_for(match.game).win_points if match.win_points is None else match.win_points
    full = match.partie_count * won
    return {"home": 0, "away": full} if match.forfeit == "home" else {"home": full, "away": 0}


def points(match: Match) -> JSONObject:
    """The team points so far: the closed partie summed, or the forfeit's (A.3.7, RULES 2.9)."""
    if match.forfeit:
        return forfeit_points(match)
    return {side: sum(line["team_points"][side] for line in match.closed) for side in SIDES}


def result(match: Match, records: Iterable[tuple[JSONObject, JSONObject]] | None = None) -> JSONObject:
    """The match result: the game's own from the facts kept of each closed partie (carom, RULES
    1.6; ``records``: (header, facts) of each, default the ones the night kept), else the closed
    partie's team points summed (8-ball: individual matches won, RULES 2.9)."""
    if match.forfeit:
        return {"points": forfeit_points(match), "finished": True, "forfeit": match.forfeit, "partie": []}
    own = game_for(match.game).match_result
    if own is not None:
        return own(match.records if records is None else records)
    return {"points": points(match), "finished": len(match.closed) >= match.partie_count, "forfeit": None,
            "partie": list(match.closed)}


def match_summary(match: Match, place: JSONObject,
                  records: Iterable[tuple[JSONObject, JSONObject]] | None = None) -> JSONObject:
    """The match record sent to the league (docs/sync.md): the receiver groups the match by the
    ids of its partie lines."""
    summary: JSONObject = {"id": match.id, "game": match.game, "date": match.date, **place,
               "home": match.home, "away": match.away, "seed": match.seed,
               "partie_ids": [line["id"] for line in match.closed]}
    summary.update(result(match, records))
    if match.fixture is not None:       # the league's fixture played: the receiver links the result to it
        summary["fixture"] = match.fixture
    if match.interrupted is not None:   # A.6.5: for the organiser to rule on
        summary["interrupted"] = dict(match.interrupted)
    if match.league:
        if match.captains:
            summary["captains"] = dict(match.captains)
        summary.update(captains(match))
    summary["partie"] = [dict(line, id=pid) for line, pid in zip(summary["partie"], summary["partie_ids"])]
    return summary
