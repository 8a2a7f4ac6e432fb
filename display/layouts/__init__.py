"""Layouts: how each screen model is laid out on a counter of a given size and kind, all behind
the one interface of ``Layout`` (display/layouts/base.py)."""
from display.layouts.base import Layout
from display.layouts.matrix import MatrixLayout
from display.layouts.segment import SegmentLayout

__all__ = ["Layout", "MatrixLayout", "SegmentLayout", "layout_for"]


def layout_for(settings) -> Layout:
    """The layout for ``settings`` (a DisplaySettings): 7-segment boards or dot matrices."""
    if settings.is_segment:
        return SegmentLayout(settings.digits)
    return MatrixLayout(*settings.size)
