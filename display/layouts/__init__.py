"""Layouts: how each screen model is laid out on a counter of a given size and kind."""
from display.layouts.matrix import MatrixLayout
from display.layouts.segment import SegmentLayout


def layout_for(settings):
    """The layout for ``settings`` (a DisplaySettings): 7-segment boards or dot matrices."""
    if settings.is_segment:
        return SegmentLayout(settings.digits)
    return MatrixLayout(*settings.size)
