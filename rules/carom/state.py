"""A carom partie as an immutable value, and everything that follows from it (RULES 1.1-1.5).

The state holds only facts: the credited series of every completed inning of each player, the
credited points of the inning in progress, the frozen-balls announcement and a forfeit. Who is at
the table, whether the partie is over and who won are derived from them, so a correction of past
innings (rules.carom.corrections) re-evaluates the end of the partie by construction.
"""
from dataclasses import dataclass
from typing import NamedTuple

from rules.carom.figures import TEAM_POINTS

PLAYERS = ("a", "b")


def other(player: str) -> str:
    return "b" if player == "a" else "a"


@dataclass(frozen=True)
class Settings:
    """One partie's settings, from the record header (league defaults: RULES 1.4, A.5.1, A.5.2)."""

    a: str
    b: str
    points_limit: int = 200
    innings_limit: int = 15
    cap_points_at_limit: bool = True   # RULES 1.4.6
    win_points: int = TEAM_POINTS["win"]      # team points of a partie won, drawn, lost (A.5.3-A.5.5):
    draw_points: int = TEAM_POINTS["draw"]    # the competition's, in the header when they differ
    loss_points: int = TEAM_POINTS["loss"]    # from these

    def name(self, player: str) -> str:
        return self.a if player == "a" else self.b

    def team_points(self) -> dict[str, int]:
        """The team points of a partie won, drawn, lost (rules.carom.figures.team_points)."""
        return {"win": self.win_points, "draw": self.draw_points, "loss": self.loss_points}


class CaromState(NamedTuple):
    """Immutable, as a tuple is: a replay builds one per record line, and a named tuple is built
    three times faster than a frozen dataclass (``_replace`` stands for ``dataclasses.replace``)."""

    settings: Settings
    series_a: tuple[int, ...] = ()   # credited points of each completed inning of A, in order
    series_b: tuple[int, ...] = ()
    running: int = 0                 # credited points of the inning in progress
    frozen: bool = False             # frozen balls announced (RULES 1.2)
    forfeit: str | None = None       # who abandoned the partie (RULES 1.4.8)

    # -- facts per player ------------------------------------------------
    def series(self, player: str) -> tuple[int, ...]:
        return self.series_a if player == "a" else self.series_b

    def innings(self, player: str) -> int:
        """Completed innings."""
        return len(self.series(player))

    def completed_points(self, player: str) -> int:
        return sum(self.series(player))

    def points(self, player: str) -> int:
        """Credited points, the running series included."""
        return self.points_when(player, self.at_table)

    def points_when(self, player: str, at_table: str | None) -> int:
        """``points(player)`` with ``at_table`` as read already (a summary reads it once)."""
        running = self.running if at_table == player else 0
        return self.completed_points(player) + running

    def reached_limit(self, player: str) -> bool:
        return self.completed_points(player) >= self.settings.points_limit

    # -- the course of the partie ------------------------------------------
    @property
    def turn(self) -> str:
        """Whose inning is in progress (or would be): A opens every round (RULES 1.1)."""
        return "a" if len(self.series_a) == len(self.series_b) else "b"

    @property
    def finished(self) -> bool:
        if self.forfeit is not None:
            return True
        done = len(self.series_a)
        if done == 0 or done != len(self.series_b):
            return False     # B.4.1: the partie ends only when both had the same number of innings
        settings = self.settings        # the innings limit, or either player's limit reached
        return (done >= settings.innings_limit or sum(self.series_a) >= settings.points_limit
                or sum(self.series_b) >= settings.points_limit)

    @property
    def at_table(self) -> str | None:
        return None if self.finished else self.turn

    @property
    def equalising(self) -> bool:
        """B's equalising inning after A reached the points limit (RULES 1.4.1)."""
        return self.equalising_when(self.at_table)

    def equalising_when(self, at_table: str | None) -> bool:
        """``equalising`` with ``at_table`` as read already."""
        return at_table == "b" and self.reached_limit("a")

    @property
    def result(self) -> str | None:
        """"a", "b", "draw", or None while the partie goes on (RULES 1.4.3-1.4.5, 1.4.8)."""
        if not self.finished:
            return None
        if self.forfeit is not None:
            return other(self.forfeit)
        a_reached, b_reached = self.reached_limit("a"), self.reached_limit("b")
        if a_reached:
            return "draw" if b_reached else "a"      # 1.4.4, B.9.4
        if b_reached:
            return "b"                               # 1.4.3
        a, b = self.completed_points("a"), self.completed_points("b")
        return "draw" if a == b else ("a" if a > b else "b")   # 1.4.5, B.9.5

    @property
    def innings_left(self) -> int:
        """Innings left for the player at the table, the current one included (0 once over)."""
        return self.innings_left_when(self.at_table)

    def innings_left_when(self, at_table: str | None) -> int:
        """``innings_left`` with ``at_table`` as read already."""
        if at_table is None:
            return 0
        if self.equalising_when(at_table):
            return 1
        return self.settings.innings_limit - self.innings(at_table)

    # -- building new states -----------------------------------------------
    def with_series(self, player: str, series: tuple[int, ...]) -> "CaromState":
        if player == "a":
            return self._replace(series_a=tuple(series))
        return self._replace(series_b=tuple(series))

    def with_stroke(self, value: int) -> "CaromState":
        """After a stroke of ``value`` by the player at the table (one the rules allow): its points,
        capped at the points limit if the settings say so (1.4.6), added to the inning in progress,
        which reaching the limit ends at once (1.4.1, 1.4.3); frozen balls no longer announced.
        Called for most lines of a replay: one state built, each reading taken once."""
        series_a, series_b, settings = self.series_a, self.series_b, self.settings
        a_turn = len(series_a) == len(series_b)        # self.turn == "a"
        limit = settings.points_limit
        done = sum(series_a if a_turn else series_b)   # self.completed_points(self.turn)
        credited = min(value, limit - done - self.running) if settings.cap_points_at_limit else value
        running = self.running + credited
        new = CaromState(settings, series_a, series_b, running, False, self.forfeit)
        return new if done + running < limit else new.close_inning()

    def close_inning(self) -> "CaromState":
        """End the inning in progress: its series is counted for the player at the table (1.3)."""
        if self.turn == "a":
            return CaromState(self.settings, self.series_a + (self.running,), self.series_b, 0, False, self.forfeit)
        return CaromState(self.settings, self.series_a, self.series_b + (self.running,), 0, False, self.forfeit)
