"""Helpers for the display tests: what a counter says, page by page."""
from display import fonts
from display.counter import Counter
from display.settings import DisplaySettings

MATRICES = {"32x8": (32, 8), "64x16": (64, 16), "96x16": (96, 16), "128x32": (128, 32)}


def matrix(size, **options) -> DisplaySettings:
    return DisplaySettings(driver="dummy", width=size[0], height=size[1], **options)


class Said:
    """The texts the counter's fonts draw, render by render (what a spectator can read)."""

    def __init__(self, monkeypatch):
        self.texts: list[str] = []
        original = fonts.BitmapFont.paint

        def spy(font, paint, xy, text):
            self.texts.append(text)
            return original(font, paint, xy, text)
        monkeypatch.setattr(fonts.BitmapFont, "paint", spy)

    def at(self, counter: Counter, model: dict, now: float) -> list[str]:
        """The texts of ``model``'s picture at ``now`` (the message included when one is due)."""
        self.texts = []
        counter.render(model, now)
        return self.texts

    def pages(self, settings, model: dict, seconds: float = 30.0) -> list[list[str]]:
        """The texts of each page over ``seconds``, taken while a blinking part is lit."""
        counter = Counter(None, settings)
        return [self.at(counter, model, t) for t in range(0, int(seconds), int(settings.page_seconds))]


def segment_pages(model: dict, digits: int, seconds: float = 30.0) -> list[str]:
    """A 7-segment board's line on each page."""
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=digits)
    counter = Counter(None, settings)
    return [counter.layout.line(counter.render(model, float(t)), model)
            for t in range(0, int(seconds), int(settings.page_seconds))]
