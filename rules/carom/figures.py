"""Figures of a carom partie: averages and team points (RULES 1.5, A.5.3-A.5.5, A.6.9c)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:       # fractions (and decimal) imported at the first average, not at the start
    from collections.abc import Mapping
    from fractions import Fraction

TEAM_POINTS = {"win": 2, "draw": 1, "loss": 0}     # A.5.3-A.5.5 defaults; a competition may set others


def average(points: int, innings: int) -> Fraction:
    """The exact average points ÷ innings; 0 innings → 0. Compare these, never the text (1.5)."""
    from fractions import Fraction

    return Fraction(points, innings) if innings else Fraction(0)


def average_text(value: Fraction) -> str:
    """Three decimals, truncated not rounded, as carom federations print it: 40/3 → "13.333"."""
    return _thousandths_text((value.numerator * 1000) // value.denominator)   # floor = truncation for ≥ 0


def points_average_text(points: int, innings: int) -> str:
    """``average_text(average(points, innings))`` without building the fraction: the counter's
    summary says both players' averages after every stroke."""
    return _thousandths_text(points * 1000 // innings if innings else 0)


def _thousandths_text(thousandths: int) -> str:
    return f"{thousandths // 1000}.{thousandths % 1000:03d}"


def team_points(result: str | None, player: str, points: Mapping[str, int] = TEAM_POINTS) -> int | None:
    """Team points one player's partie brings (A.5.3-A.5.5): ``points`` "win", "draw", "loss"
    (by default 2, 1, 0: the header's ``win_points``, ``draw_points``, ``loss_points``); None
    while unfinished."""
    if result is None:
        return None
    if result == "draw":
        return points["draw"]
    return points["win"] if result == player else points["loss"]
