"""Readable from across the bar (issue 24): fields that never run into each other, no page that
leaves the counter dark, the score on view on a match night, figures with their labels, and
8-ball's match score in sets."""
import copy
import re

import pytest

from display import fonts
from display.counter import Counter
from display_helpers import MATRICES, matrix, segment_pages
from display_samples import sample

BIG_32X8 = fonts.digits(3, 7)


def carom(points_a: int, points_b: int, inning: int, *, series: int = 0, at: str = "b", **counter) -> dict:
    """A league carom state (limit 200/15) with the scores, inning and series given."""
    model = copy.deepcopy(sample("carom-league-end"))
    summary = model["summary"]
    summary["players"]["a"]["points"], summary["players"]["b"]["points"] = points_a, points_b
    summary["counter"].update(inning=inning, series=series, at_table=at, points_left={}, **counter)
    return model


class Drawn:
    """What each font drew, render by render: (font height, text) — the big digits are the tallest."""

    def __init__(self, monkeypatch):
        self.texts: list[tuple[int, str]] = []
        original = fonts.BitmapFont.paint

        def spy(font, paint, xy, text):
            self.texts.append((font.height, text))
            return original(font, paint, xy, text)
        monkeypatch.setattr(fonts.BitmapFont, "paint", spy)

    def pages(self, settings, model, seconds=60.0):
        counter = Counter(None, settings)
        out = []
        for t in range(0, int(seconds), int(settings.page_seconds)):
            self.texts = []
            counter.render(model, float(t))
            out.append(list(self.texts))
        return out


def blank_columns(image, x0: int, x1: int, rows: int = 7) -> bool:
    return not any(image.getpixel((x, y)) for x in range(x0, x1) for y in range(rows))


@pytest.mark.parametrize("points_a,points_b", [(193, 113), (185, 111), (100, 199), (99, 113), (193, 13)])
@pytest.mark.parametrize("inning", [1, 9, 10, 11, 15, 19])
def test_32x8_keeps_two_blank_columns_between_each_score_and_the_middle(points_a, points_b, inning, monkeypatch):
    """`193 11 113` read as 19311113: on every page that shows both scores, the two columns beside
    each score's digits are dark, and the inning between them is there (RULES 1.7: after each
    inning, points and innings)."""
    drawn = Drawn(monkeypatch)
    settings = matrix((32, 8))
    model = carom(points_a, points_b, inning)
    counter = Counter(None, settings)
    wa, wb = BIG_32X8.width(str(points_a)), BIG_32X8.width(str(points_b))
    inning_shown = False
    for t in range(0, 30, 3):
        drawn.texts = []
        image = counter.render(model, float(t)).image
        texts = [text for _, text in drawn.texts]
        if str(points_a) in texts and str(points_b) in texts:
            assert blank_columns(image, wa, wa + 2) and blank_columns(image, 32 - wb - 2, 32 - wb), texts
            inning_shown |= any(text.split("/")[0] == str(inning) for text in texts[2:])
    assert inning_shown


@pytest.mark.parametrize("points_a,points_b", [(20, 30), (185, 111)])
def test_32x8_series_in_the_middle_carries_its_marker(points_a, points_b):
    """The middle field shows the inning and, on its page, the series: the series always with its
    marker — the arrow to the player's score where it fits, and the bar under the player at the
    table running on under it — so inning 9 and series 9 never look the same."""
    counter = Counter(None, matrix((32, 8)))
    model = carom(points_a, points_b, 9, series=9, at="b")
    pictures = {counter.render(model, float(t)).image.tobytes(): counter.render(model, float(t)).image
                for t in range(0, 30, 3)}
    with_series = [image for image in pictures.values()
                   if all(image.getpixel((x, 7)) for x in range(16, 32))]       # the bar under the middle
    assert with_series and len(pictures) >= 2
    inning_only = [image for image in pictures.values() if image not in with_series]
    assert inning_only and not any(image.getpixel((16, 7)) for image in inning_only)


@pytest.mark.parametrize("points_a,points_b,inning,expected", [
    (193, 113, 11, "193.11.113"), (185, 111, 2, "185. 2.111"), (9, 113, 14, "  9.14.113")])
def test_8_digit_board_keeps_the_fields_apart_with_points(points_a, points_b, inning, expected):
    """8 digits hold 3 + 2 + 3: two decimal points that are always lit separate the inning from the
    scores (193.11.113), on every page and in both phases of a blink."""
    lines = set(segment_pages(carom(points_a, points_b, inning), 8))
    assert lines == {expected}


def test_16_digit_board_keeps_the_series_apart_from_the_inning():
    """16 digits: A's series 175 and the inning 15 never read as 17515."""
    lines = segment_pages(carom(185, 111, 15, series=175, at="a"), 16)
    assert set(lines) == {"185. 175.15.    111"}


@pytest.mark.parametrize("digits", [8, 16])
def test_segment_board_shows_the_sets_with_a_sign_between_them(digits):
    """8-ball with several sets (RULES 2.9): one set each reads 1-1, never 11."""
    model = copy.deepcopy(sample("8ball-won"))
    model["summary"]["sets"] = {"a": 1, "b": 1}
    assert all("1-1" in line for line in segment_pages(model, digits))


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
@pytest.mark.parametrize("model", [carom(185, 111, 14, last_two=True), carom(11, 13, 14, last_two=True),
                                   sample("carom-last-two")], ids=["3-digit", "2-digit", "sample"])
def test_the_last_two_innings_never_leave_the_counter_dark(size, model):
    """RULES 1.7: the last 2 innings blink — the inning, never the whole counter: in the dark half
    of a blink at least half of what was lit stays lit (the scores, or 14/15 on a page of its own)."""
    counter = Counter(None, matrix(size))
    for t in range(0, 30, 3):
        lit, dark = (lit_leds(counter.render(model, t + phase).image) for phase in (0.0, 0.5))
        assert lit and dark * 2 >= lit, t


def lit_leds(image) -> int:
    return image.width * image.height - image.histogram()[0]


MATCH_NIGHT = ["carom-match-night", "8ball-match-night"]


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
@pytest.mark.parametrize("name", MATCH_NIGHT)
def test_match_night_keeps_the_score_on_view_four_fifths_of_the_time(size, name, monkeypatch):
    """The names, the partie and the team score take at most one page in five (or stand beside
    the score): both scores in big digits on at least 80 % of the pages — and the partie number
    and the team score do come round, on 32x8 too (P2 3:5)."""
    drawn = Drawn(monkeypatch)
    settings = matrix(size)
    model = sample(name)
    summary = model["summary"]
    big = sets_or_games(summary)
    pages = drawn.pages(settings, model, seconds=300.0)
    tallest = max(height for page in pages for height, _ in page)
    on_view = [page for page in pages if [text for height, text in page if height == tallest][:2]
               == [str(big["a"]), str(big["b"])]]
    assert len(on_view) >= 0.8 * len(pages)
    said = " ".join(text for page in pages for _, text in page)
    assert "3:5" in said
    assert re.search(r"\b2\b", said.replace(".", " ").replace("P2", "2").replace("Z2", "2"))


def sets_or_games(summary: dict) -> dict:
    """The big numbers: carom's points; 8-ball's sets when the match has several, else its games."""
    if summary["game"] == "carom":
        return {side: summary["players"][side]["points"] for side in ("a", "b")}
    return summary["sets"] if summary.get("sets_to_win", 1) > 1 else summary["games"]


@pytest.mark.parametrize("size", [(64, 16), (96, 16), (128, 32), (32, 8)], ids=["64x16", "96x16", "128x32", "32x8"])
@pytest.mark.parametrize("name", ["carom-draw", "carom-win", "carom-forfeit"])
def test_end_of_partie_figures_come_with_their_labels(size, name, monkeypatch):
    """RULES 1.5: the averages and the highest series are on a page together with what they are
    (průměr / nejvyšší série beside or above them; on 32x8 JP / NS beside each): a page never
    shows a bare number that is not the final score."""
    drawn = Drawn(monkeypatch)
    summary = sample(name)["summary"]
    players = summary["players"]
    labels = {"average": ("průměr", "JP"), "best": ("nejvyšší série", "NS")}
    for page in drawn.pages(matrix(size), sample(name)):
        texts = [text for _, text in page]
        said = " ".join(texts).upper()
        if "KONEC" in said or any(t in texts for t in "◄►="):     # page 0: the final score
            continue
        for side in ("a", "b"):
            average = players[side]["average"]
            if any(t.split()[0] == average[:len(t.split()[0])] and "." in t for t in texts if t.split()):
                assert any(label.upper() in said for label in labels["average"]), texts
        assert all(re.search(r"[^\d.\s]", t) for t in texts) or any(
            label.upper() in said for pair in labels.values() for label in pair), texts


@pytest.mark.parametrize("size", [(64, 16), (128, 32)], ids=["64x16", "128x32"])
def test_eightball_match_score_in_sets_is_large(size, monkeypatch):
    """RULES 2.9: a match of several sets is won in sets — they are the big digits; the games of
    the set in play are the small ones beside them."""
    model = copy.deepcopy(sample("8ball-won"))
    model["summary"]["sets"] = {"a": 1, "b": 0}
    model["summary"]["games"] = {"a": 2, "b": 3}
    drawn = Drawn(monkeypatch)
    page = drawn.pages(matrix(size), model, seconds=1.0)[0]
    tallest = max(height for height, _ in page)
    assert [text for height, text in page if height == tallest] == ["1", "0"]
    assert "2" in [text for height, text in page if height < tallest]
    assert "3" in [text for height, text in page if height < tallest]


ZAPIS = {"screen": "match", "home": "Sokol Dvůr", "away": "Jiskra Hořice", "points": {"home": 8, "away": 0},
         "partie": ["1. Procházka 120:102 Němec (2:0)", "2. Černý 120:0 Pokorný (2:0)",
                    "3. Dvořák 20:0 Veselý, vzdal Veselý (2:0)", "4. Svoboda 120:0 Horák (2:0)"]}


@pytest.mark.parametrize("size", [(64, 16), (96, 16), (128, 32)], ids=["64x16", "96x16", "128x32"])
def test_the_zapis_shows_every_partie_whole_and_never_a_bare_figure(size, monkeypatch):
    """The captains read the zápis on the counter: each partie's words all come round (the forfeit's
    mark too), none cut, and no page shows a figure alone — "(2:0)" with nothing that says whose."""
    drawn = Drawn(monkeypatch)
    pages = drawn.pages(matrix(size), ZAPIS, seconds=60.0)
    said = " ".join(text for page in pages for _, text in page).upper().split()
    for line in ZAPIS["partie"]:
        assert all(word.upper() in said for word in line.split()), line
    for page in pages:
        assert any(re.search(r"[^\d:().\s]", text) for _, text in page), page
