"""Corrections after the fact, as journalled record commands so the history stays auditable.

``{"cmd":"correct","player":P,"inning":N,"points":X}`` sets the credited points of P's completed
inning N to X. ``{"cmd":"insert","player":P,"inning":N,"points":X}`` inserts a forgotten completed
inning of P, worth X, before P's inning N (N = innings + 1 appends it).

Rules (docs/record-format.md, "Corrections"), the first two checked before anything else:
0. Never after the end (B.9.2, RULES 1.4 item 9): once the stroke that ended the partie counted,
   its result is final (``end_stands``); undoing that stroke at once reopens the partie.
1. Only between innings: refused while a series is running (``series_running``).
2. N names a completed inning of P (insert: 1 .. innings + 1); X is a whole number ≥ 0
   (``bad_argument``).
3. B.9.2: a player who reached the points limit keeps the total they were credited with. A change
   to one of their earlier innings is taken up by their last inning (``limit_kept`` if that would
   go below 0); their last inning itself cannot be changed (``limit_kept``).
4. The innings afterwards must be ones a partie can produce, else ``inconsistent``: A has as many
   innings as B or one more (A opens every round, B.4.1); nobody exceeds the innings limit; nobody
   reaches the points limit before their own last inning; once B reached it A has no later inning.
   With the cap (RULES 1.4.6) nobody is credited more than the limit (``over_limit``).
5. Whether the partie is over and its result follow from the corrected innings (rules.carom.state),
   so they are re-evaluated by construction: a correction can end the partie (B's last inning
   was really worth the limit).
"""
from rules.carom.errors import BadArgument, EndStands, Inconsistent, LimitKept, OverLimit, SeriesRunning
from rules.carom.state import PLAYERS, CaromState
from rules.core import JSONObject


def correct(state: CaromState, cmd: JSONObject) -> CaromState:
    player, inning, points = _arguments(state, cmd, appending=False)
    series = list(state.series(player))
    series[inning - 1] = points
    return _apply(state, player, tuple(series), inning - 1, "correct")


def insert(state: CaromState, cmd: JSONObject) -> CaromState:
    player, inning, points = _arguments(state, cmd, appending=True)
    series = list(state.series(player))
    series.insert(inning - 1, points)
    return _apply(state, player, tuple(series), inning - 1, "insert")


def allowed(state: CaromState, name: str = "a correction") -> None:
    """Raise unless a correction may be entered now, whatever it says: not after the end (B.9.2,
    RULES 1.4 item 9), not while a series runs."""
    if state.finished:
        raise EndStands(f"the partie has ended: its result stands (B.9.2, RULES 1.4 item 9), so {name} "
                        "of an earlier inning is refused; a mis-keyed ending stroke is undone at once")
    if state.running:
        raise SeriesRunning(f"{name} is not accepted while a series is running; "
                            "enter it after the inning ends")


def _arguments(state: CaromState, cmd: JSONObject, *, appending: bool) -> tuple[str, int, int]:
    name = cmd["cmd"]
    allowed(state, name)
    player = cmd.get("player")
    if player not in PLAYERS:
        raise BadArgument(f'{name} needs "player": "a" or "b", not {player!r}')
    done = state.innings(player)
    highest = done + 1 if appending else done
    inning = cmd.get("inning")
    if highest == 0:
        raise BadArgument(f"{player.upper()} has no completed inning to correct")
    if type(inning) is not int or not 1 <= inning <= highest:
        raise BadArgument(f"{name}: {player.upper()} has {done} completed innings, so \"inning\" "
                          f"must be 1 to {highest}, not {inning!r}")
    points = cmd.get("points")
    if type(points) is not int or points < 0:
        raise BadArgument(f'{name} needs "points": a whole number of at least 0, not {points!r}')
    return player, inning, points


def _apply(state: CaromState, player: str, series: tuple[int, ...], index: int,
           name: str) -> CaromState:
    series = _keep_limit(state, player, series, index, name)
    new = state.with_series(player, series)
    check_course(new)
    return new


def _keep_limit(state: CaromState, player: str, series: tuple[int, ...], index: int,
                name: str) -> tuple[int, ...]:
    """B.9.2: the limit a player reached stays credited; their last inning takes up a change."""
    if not state.reached_limit(player):
        return series
    last = state.innings(player) - 1
    total = state.completed_points(player)
    if index > last:
        return series          # an inning after the one that reached the limit: check_course refuses
    if index == last and name == "correct":
        if series[index] != state.series(player)[index]:
            raise LimitKept(f"{player.upper()} reached the points limit in their last inning and "
                            f"keeps {total} (B.9.2); correct an earlier inning instead",
                            why="last_inning", player=player, total=total)
        return series
    kept = total - sum(series[:-1])
    if kept < 0:
        raise LimitKept(f"{player.upper()} reached the points limit and keeps {total} (B.9.2); "
                        f"this change would leave {kept} for their last inning",
                        why="below_zero", player=player, total=total)
    return series[:-1] + (kept,)


def check_course(state: CaromState) -> None:
    """Raise unless the completed innings are ones a partie could have produced (RULES 1.4)."""
    settings = state.settings
    limit = settings.points_limit
    a, b = state.innings("a"), state.innings("b")
    if b > a:
        raise Inconsistent(f"B would have more innings than A ({b} to {a}); "
                           "A opens every round (B.4.1)", why="b_ahead", player="b")
    if a > b + 1:
        raise Inconsistent(f"A would have {a} innings to B's {b}; the players alternate (B.4.1)",
                           why="a_ahead", player="a")
    for player in PLAYERS:
        series = state.series(player)
        who = player.upper()
        if len(series) > settings.innings_limit:
            raise Inconsistent(f"{who} would have {len(series)} innings, more than the "
                               f"innings limit {settings.innings_limit} (RULES 1.4.2)",
                               why="innings_limit", player=player, limit=settings.innings_limit)
        if sum(series[:-1]) >= limit:
            raise Inconsistent(f"{who} would reach the points limit {limit} before their last "
                               "inning, where the partie would have ended (RULES 1.4)",
                               why="limit_early", player=player, limit=limit)
        if settings.cap_points_at_limit and sum(series) > limit:
            raise OverLimit(f"{who} would be credited {sum(series)} points, more than the "
                            f"limit {limit} (RULES 1.4.6)", why="over", player=player,
                            points=sum(series), limit=limit)
    if state.reached_limit("b") and a > b:
        raise Inconsistent("B reached the points limit, which ended the partie; "
                           "A cannot have a later inning (RULES 1.4.3)", why="b_reached", player="a")
