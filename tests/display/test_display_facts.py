"""What the referee must announce is on the counter at every size (RULES 1.7, 1.2, 2.2 / 8B:6f),
and no fact a spectator reads is cut short."""
import copy

import pytest
from PIL import Image

from display import fonts
from display.counter import Counter
from display.devices import open_device
from display.settings import DisplaySettings
from display_helpers import Said, matrix, segment_pages
from display_samples import MATCH_NIGHT, NAMES, RECORDS, sample

MATRICES = {"32x8": (32, 8), "64x16": (64, 16), "96x16": (96, 16), "128x32": (128, 32)}


def frames(model, settings, seconds=30.0):
    """Every distinct picture the counter shows for ``model`` over ``seconds`` (pages, blinks)."""
    counter = Counter(None, settings)
    step = min(settings.blink_seconds, settings.page_seconds)
    return {counter.render(model, i * step).image.tobytes() for i in range(int(seconds / step))}


def segment_lines(model, digits):
    settings = DisplaySettings(driver="dummy", emulate="sevensegment", digits=digits)
    counter = Counter(None, settings)
    return [counter.layout.line(counter.render(model, t), model) for t in (0.0, 3.0, 6.0, 9.0)]


def with_counter(name, **changes):
    model = copy.deepcopy(sample(name))
    model["summary"]["counter"].update(changes)
    return model


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
@pytest.mark.parametrize("flag", ["frozen", "equalising"])
def test_carom_marks_show_on_every_matrix(size, flag):
    """RULES 1.2 (frozen balls announced: 10 and 20 refused) and 1.4 (B's equalising inning) are
    visible: some page shows a picture the same state without the mark never shows."""
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    marked = frames(with_counter("carom-series", **{flag: True}), settings)
    plain = frames(with_counter("carom-series", **{flag: False}), settings)
    assert marked - plain


@pytest.mark.parametrize("digits", [8, 16])
def test_segment_board_shows_points_left_in_the_score_of_the_player_at_the_table(digits):
    """RULES 1.7 / A.6.8g: at 20 points or fewer to go, the score of the player at the table takes
    turns with -N, N the points left."""
    lines = segment_lines(sample("carom-to-go"), digits)    # A at the table with 11 of 30
    assert any(line.startswith("-19.") for line in lines)
    assert any(line.startswith(" 11.") for line in lines)


@pytest.mark.parametrize("digits", [8, 16])
def test_segment_board_shows_no_points_left_above_twenty(digits):
    lines = segment_lines(sample("carom-series"), digits)
    assert not any("-" in line for line in lines)


def _to_go(strokes: list[int]) -> dict:
    """A at the table in the first inning of a partie to 30 points, after ``strokes``."""
    from rules.board import Board

    board = Board({"game": "carom", "a": "Jan Novák", "b": "Petr Dvořák", "points_limit": 30, "innings_limit": 15})
    for value in strokes:
        board.push({"cmd": "score", "value": value})
    return {"screen": "carom", "summary": board.summary()}


def _says_left(texts, left: int) -> bool:
    """Whether the points left stand among ``texts``: ``-20`` (32x8, in the score's place) or the
    word and the number (``Z 20``)."""
    return any(text == f"-{left}" or text.endswith(f" {left}") for text in texts)


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_1_7_points_left_show_from_exactly_20_to_go_on_every_matrix(size, monkeypatch):
    """RULES 1.7 / A.6.8g: "the last 20 points to the limit" — with 20 to go the counter shows them,
    with 21 it does not (both sides of the boundary; the samples are far from it)."""
    said = Said(monkeypatch)
    twenty, twenty_one = _to_go([10]), _to_go([1] * 9)
    assert twenty["summary"]["counter"]["points_left"]["a"] == 20
    assert twenty_one["summary"]["counter"]["points_left"]["a"] == 21
    assert any(_says_left(page, 20) for page in said.pages(matrix(size), twenty))
    assert not any(_says_left(page, 21) for page in said.pages(matrix(size), twenty_one))


@pytest.mark.parametrize("digits", [8, 16])
def test_1_7_points_left_show_from_exactly_20_to_go_on_a_segment_board(digits):
    """RULES 1.7 / A.6.8g on 7-segment boards: -20 takes turns with the score at 20 to go, -21 never."""
    assert any(line.startswith("-20.") for line in segment_pages(_to_go([10]), digits))
    assert not any("-21" in line for line in segment_pages(_to_go([1] * 9), digits))


@pytest.mark.parametrize("digits", [8, 16])
@pytest.mark.parametrize("flag,mark", [("frozen", "LP"), ("equalising", "do")])
def test_segment_board_marks_take_turns_with_the_inning(digits, flag, mark):
    """RULES 1.2: frozen balls announced (LP, koule lpí); RULES 1.4: B's equalising inning (do)."""
    assert any(mark in line for line in segment_lines(with_counter("carom-series", **{flag: True}), digits))
    assert not any(mark in line for line in segment_lines(with_counter("carom-series", **{flag: False}), digits))


def _played(commands: list[dict], points_limit: int = 300) -> dict:
    """The carom screen's model after ``commands``."""
    from rules.board import Board

    board = Board({"game": "carom", "a": "Jan Novák", "b": "Petr Dvořák", "points_limit": points_limit,
                   "innings_limit": 15})
    for command in commands:
        board.push(command)
    return {"screen": "carom", "summary": board.summary()}


def _score(*values: int) -> list[dict]:
    return [{"cmd": "score", "value": value} for value in values]


MISS = [{"cmd": "miss"}]


@pytest.mark.parametrize("commands,series_page", [
    (_score(20) + MISS + _score(10) + MISS + _score(1) + MISS + _score(2, 1), " 21.Sr.  3"),    # B: 3 of 13
    (_score(20) + MISS + _score(10) + MISS + _score(10, 1), " 11.Sr. 10"),     # A: 11 of A's 31
], ids=["b-at-the-table", "a-at-the-table"])
def test_1_7_the_running_series_shows_on_the_8_digit_board(commands, series_page):
    """RULES 1.7 / A.6.8d: "the running points of the current series after each stroke". The
    8-digit board has no digit to spare: the series takes turns with the score, in the score's
    place of the player at the table, Sr (série) in the inning's."""
    lines = segment_pages(_played(commands), 8)
    assert series_page in lines
    assert any("Sr" not in line for line in lines)      # the score is still shown


@pytest.mark.parametrize("commands", [[], _score(20) + MISS, _score(10) + [{"cmd": "foul"}]],
                         ids=["before-a-stroke", "a-new-inning", "after-a-foul"])
def test_no_series_page_without_a_running_series(commands):
    """No series running (the player at the table has not scored yet): no Sr page, and never a 0."""
    model = _played(commands)
    assert not model["summary"]["counter"]["series"]
    assert not any("Sr" in line for line in segment_pages(model, 8))


def test_no_series_page_once_the_partie_is_over():
    model = _played(_score(20, 10, 20, 10), points_limit=30)     # B equalised in his series: a draw
    assert model["summary"]["finished"]
    assert not any("Sr" in line for line in segment_pages(model, 8))


@pytest.mark.parametrize("flags", [{}, {"frozen": True}, {"equalising": True}], ids=["plain", "frozen", "equalising"])
def test_the_series_page_never_hides_the_inning_two_pages_running(flags):
    """RULES 1.7: the inning (and in the last 2 innings its blinking) stays in view — the series
    page and LP or do each take the inning's place for one page at a time."""
    model = with_counter("carom-frozen", **{"frozen": False, **flags})
    lines = segment_pages(model, 8, seconds=60)
    assert any("Sr" in line for line in lines)
    hidden = [any(mark in line for mark in ("Sr", "LP", "do")) for line in lines]
    assert not any(a and b for a, b in zip(hidden, hidden[1:] + hidden[:1]))


def test_equalising_sample_shows_do_on_the_board():
    assert any("do" in line for line in segment_lines(sample("carom-equalising"), 8))


def test_small_counter_puts_the_points_left_in_place_of_the_score():
    """RULES 1.7 on 32x8: the page with the points left draws -19 (a minus, never a bare 19 or a
    Z that reads as 2) where the score of the player at the table stands."""
    settings = DisplaySettings(driver="dummy", width=32, height=8)
    counter = Counter(None, settings)
    minus = fonts.digits(3, 7).mask("-")
    shown = []
    for t in (0.0, 3.0, 6.0):
        image = counter.render(sample("carom-to-go"), t).image
        shown.append(image.crop((0, 0, 3, 7)).tobytes() == minus.convert(image.mode).tobytes())
    assert shown.count(True) == 1


def test_small_counter_series_bar_runs_from_the_player_at_the_table():
    """RULES 1.7 / A.6.8d on 32x8: the running series page underlines the middle too, so the series
    reads as the series of the player at the table (with the arrow pointing at their score)."""
    settings = DisplaySettings(driver="dummy", width=32, height=8)
    counter = Counter(None, settings)
    model = sample("carom-series")         # B at the table (13), series 13, A 11
    # pages: the inning of the limit, then the series
    bottom = [counter.render(model, t).image.crop((0, 7, 32, 8)).tobytes() for t in (0.0, 3.0)]
    assert bottom[0] != bottom[1]
    series_page = counter.render(model, 3.0).image
    assert all(series_page.getpixel((x, 7)) for x in range(14, 32))
    assert not any(series_page.getpixel((x, 7)) for x in range(0, 9))


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_eightball_shows_the_open_pocket_choice(size):
    """RULES 2.2 / 8B:6f: the shooter may name any pocket for the 8 — the counter says so (K5?)."""
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    model = sample("8ball-pocket-choice")
    assert model["summary"]["current"]["pocket_choice"]["a"]
    closed = copy.deepcopy(model)
    closed["summary"]["current"]["pocket_choice"]["a"] = False
    assert frames(model, settings) != frames(closed, settings)


class Cuts:
    """Records every text a font had to shorten."""

    def __init__(self, monkeypatch):
        self.cut = []
        fit = fonts.BitmapFont.fit

        def recording(font, text, width):
            short = fit(font, text, width)
            if short != text:
                self.cut.append(text)
            return short

        monkeypatch.setattr(fonts.BitmapFont, "fit", recording)


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_no_game_fact_is_cut_short(size, monkeypatch):
    """Spectators never read half a number or half a word: scores, innings, series, points left,
    groups and flags fit (on 8-px counters by going onto pages) in every key state."""
    cuts = Cuts(monkeypatch)
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    for name in (*RECORDS, *MATCH_NIGHT):
        frames(sample(name), settings, seconds=20.0)
    assert cuts.cut == []


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_ready_screen_keeps_the_time_whole(size, monkeypatch):
    cuts = Cuts(monkeypatch)
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    frames(dict(sample("ready"), unsent=12345), settings, seconds=10.0)
    assert "19:42" not in cuts.cut


REFUSED = "Server odmítá toto zařízení: zkontrolujte device_id a secret"


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_ready_screen_tells_a_refused_device_from_a_network_fault(size, monkeypatch):
    """The unsent count's mark is X, not !, when the receiver refuses this device, and the
    counter says what to check, word by word, where the place stands otherwise."""
    said, settings = Said(monkeypatch), matrix(size)
    refused = " ".join(text for page in said.pages(settings, dict(sample("ready"), refused=REFUSED)) for text in page)
    outage = " ".join(text for page in said.pages(settings, sample("ready")) for text in page)
    assert "X2" in refused or "odmítnuto 2" in refused
    assert "!2" in outage or "neodesl. 2" in outage
    assert "Server odmítá" in refused and "odmítá" not in outage


@pytest.mark.parametrize("digits", [8, 16])
def test_segment_board_ready_line_marks_a_refused_device_and_keeps_the_time(digits):
    assert segment_pages(dict(sample("ready"), unsent=12), digits, 3)[0].strip() == "19-42 12"
    assert segment_pages(dict(sample("ready"), unsent=12, refused=REFUSED), digits, 3)[0].strip() == (
        "19-42E12" if digits == 8 else "19-42 E12")


def test_every_sample_renders_distinctly_on_the_small_counter():
    settings = DisplaySettings(driver="dummy", width=32, height=8)
    pictures = {frozenset(frames(sample(name), settings, seconds=12.0)) for name in NAMES}
    assert len(pictures) == len(NAMES)


def test_emulator_picture_of_a_segment_board_draws_the_decimal_point(tmp_path):
    """luma's emulator drops bit 7; pocitadlo's pictures show the points that keep the score apart
    from the inning (after digit 3 and digit 5 of an 8-digit board: 11.19.11)."""
    settings = DisplaySettings(driver="capture", emulate="sevensegment", digits=8,
                               file_template=str(tmp_path / "board.png"))
    Counter(open_device(settings), settings).show(sample("carom-to-go"), 0.0)
    board = Image.open(tmp_path / "board.png").convert("RGB")
    points = [(digit * 30 + 27, 46) for digit in range(8)]
    assert [board.getpixel(point)[0] > 200 for point in points] == [False, False, True, False, True] + [False] * 3


LONG_TEXTS = [
    {"screen": "match", "home": "Sokol Dvůr Králové", "away": "Slavoj Žacléř", "points": {"home": 3, "away": 1},
     "partie": ["1. Novák 200:154 Dvořák  1:0", "2. Černý 187:200 Říha  0:1"]},
    {"screen": "prompt", "title": "Kapsa poslední půlené?", "value": "", "hint": "1–6, Zpět = zrušit"},
    {"screen": "menu", "title": "Hráč domácích", "items": ["Jan Novák", "Ondřej Šťastný"], "selected": 1},
    {"screen": "error", "code": "keypad", "text": "Klávesnice USB: odpojena, zkontrolujte kabel"},
    {"screen": "ready", "venue": "U Zlatého tága", "table": "stůl 12", "time": "20:15", "unsent": 0,
     "last_sent": "19:58"},
    {"screen": "ready", "venue": "U Zlatého tága", "table": "stůl 12", "time": "20:15", "unsent": 3,
     "last_sent": None, "refused": "Server odmítá toto zařízení: zkontrolujte device_id a secret"},
]


@pytest.mark.parametrize("size", [(64, 16), (96, 16), (128, 32)], ids=["64x16", "96x16", "128x32"])
@pytest.mark.parametrize("model", LONG_TEXTS, ids=[m["screen"] + ("-refused" if "refused" in m else "")
                                                   for m in LONG_TEXTS])
def test_long_texts_take_turns_instead_of_being_cut(size, model, monkeypatch):
    """Questions, team names, hints and partie results longer than the counter go word by word
    onto pages; the typed value and the clock stay whole."""
    cuts = Cuts(monkeypatch)
    frames(model, DisplaySettings(driver="dummy", width=size[0], height=size[1]), seconds=20.0)
    assert cuts.cut == []


def test_sixteen_digit_board_shows_each_players_balls_left_and_8_pocket():
    """RULES 2.2: B (solids) has cleared the group — the 8 goes into pocket 4 (opposite 1), shown
    as P4 on B's side; A (stripes) has 7 left, on A's side. Before groups, nothing stands there."""
    model = sample("8ball-pocket")
    assert model["summary"]["current"]["groups"] == {"a": "stripes", "b": "solids"}
    assert segment_lines(model, 16)[0] == " 0   7 0-0 P4  0."
    assert segment_lines(sample("8ball-open"), 16)[0] == " 0     0-0     0."


@pytest.mark.parametrize("size", [(64, 16), (96, 16)], ids=["64x16", "96x16"])
def test_frozen_balls_mark_shows_at_once_beside_the_inning(size, monkeypatch):
    """RULES 1.2 / B.1.7c and RULES 1.7: the referee has announced frozen balls and will refuse 10
    and 20 — LPÍ is on every picture from the moment it is announced, and it never takes the
    inning's place: the inning of the limit shows on every page the points left do not have.
    (It takes the series' place: no stroke, no new series, and the next stroke ends it.)"""
    said = Said(monkeypatch)
    settings = matrix(size)
    pages = said.pages(settings, sample("carom-frozen"))        # inning 2 of 15, 15 to go
    assert all("LPÍ" in texts for texts in pages)
    assert all("2/15" in texts or "Z 15" in texts for texts in pages)
    assert all("2/15" in a or "2/15" in b for a, b in zip(pages, pages[1:]))     # never two pages without it
    assert not any("LPÍ" in texts for texts in said.pages(settings, with_counter("carom-frozen", frozen=False)))


@pytest.mark.parametrize("digits", [8, 16])
def test_frozen_balls_take_turns_with_the_inning_on_a_segment_board(digits):
    """RULES 1.2 and 1.7: LP (frozen balls announced) takes turns with the inning, never hiding it
    for more than one page."""
    lines = segment_pages(sample("carom-frozen"), digits)
    assert any("LP" in line for line in lines)
    assert all("LP" not in a or "LP" not in b for a, b in zip(lines, lines[1:]))
    assert all(" 2" in line for line in lines if "LP" not in line and "Sr" not in line)


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_lot_draw_shows_the_whole_seed(size, monkeypatch):
    """RULES 1.6 Decision: the draw's seed is shown so both captains can verify it. The seed is
    a 32-bit number — ten digits — and is never cut (it was: "L 3544107979" on 64x16)."""
    cuts = Cuts(monkeypatch)
    model = dict(sample("lotdraw"), seed=3544107979)
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    frames(model, settings, seconds=40.0)
    assert cuts.cut == []


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_eightball_open_shot_shows_each_entered_key_at_once(size, monkeypatch):
    """A shot is entered ball by ball and closed with 0 (docs/referee.md): every entry must change
    the counter at once, or the referee cannot tell a key was taken and presses it again."""
    cuts = Cuts(monkeypatch)
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    model = copy.deepcopy(sample("8ball-in-hand"))
    pending = model["summary"]["current"]["pending"] = []
    seen = [frames(model, settings)]
    for cmd in ({"cmd": "pot", "ball": "stripe"}, {"cmd": "pot", "ball": "stripe"}, {"cmd": "pot", "ball": "solid"},
                {"cmd": "scratch"}, {"cmd": "foul"}):
        pending.append(cmd)
        seen.append(frames(model, settings))
        assert all(seen[-1] != earlier for earlier in seen[:-1]), cmd
    assert cuts.cut == []


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_a_yes_no_question_has_no_typing_cursor(size, monkeypatch):
    """"Vzdává Novák?" is answered with Enter, not typed: no "_" as on "Kapsa 8? _"."""
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    question = {"screen": "prompt", "title": "Vzdává Novák?", "value": None, "hint": "Enter = ano, jiná = ne"}
    typed = dict(question, value="")
    assert frames(question, settings) != frames(typed, settings)
    counter = Counter(None, settings)
    texts = []
    original = fonts.BitmapFont.paint

    def spy(font, paint, xy, text):
        texts.append(text)
        return original(font, paint, xy, text)
    monkeypatch.setattr(fonts.BitmapFont, "paint", spy)
    for i in range(40):
        counter.render(question, i * 0.5)
    assert texts and not any("_" in text for text in texts)


@pytest.mark.parametrize("size", MATRICES.values(), ids=MATRICES)
def test_a_bare_table_number_on_the_ready_screen_is_called_a_table(size):
    """config.toml says table = "1"; the counter says "stůl 1", not a lone "1"."""
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    bare, named = dict(sample("ready"), table="1"), dict(sample("ready"), table="stůl 1")
    assert frames(bare, settings) == frames(named, settings)


LONG_PAIRS = {"screen": "lotdraw", "seed": 3544107979, "pairs": [
    {"partie": 1, "home": "Novák", "away": "Dvořák"}, {"partie": 2, "home": "Procházka", "away": "Veselý"},
    {"partie": 3, "home": "Kubíček", "away": "Žák"}, {"partie": 4, "home": "Svoboda", "away": "Pokorný"}]}


@pytest.mark.parametrize("size", [(64, 16), (96, 16), (128, 32)], ids=["64x16", "96x16", "128x32"])
def test_lot_draw_shows_each_pair_whole_on_one_page_in_one_font(size, monkeypatch):
    """RULES 1.6: the captains read the drawn pairs — "4 Svoboda – Pokorný" on one page, one font,
    never "4 Svoboda" in one size and "-Pokorný" in another (the referee walkthrough on 64x16)."""
    from display.scene import Scene

    written, draw = [], Scene.write

    def write(self, text, box, **kw):
        written.append((text, (kw.get("font") or self.font_for(text, box[2] - box[0])).height))
        return draw(self, text, box, **kw)
    monkeypatch.setattr(Scene, "write", write)
    settings = DisplaySettings(driver="dummy", width=size[0], height=size[1])
    counter = Counter(None, settings)
    pages = []
    for i in range(12):
        written.clear()
        counter.render(LONG_PAIRS, i * settings.page_seconds)
        pages.append(list(written))
    for pair in LONG_PAIRS["pairs"]:
        wanted = f"{pair['partie']} {pair['home']} – {pair['away']}"
        rows = [page for page in pages if any(text.startswith(f"{pair['partie']} ") for text, _ in page)]
        assert rows, wanted
        for page in rows:
            start = next(n for n, (text, _) in enumerate(page) if text.startswith(f"{pair['partie']} "))
            block = page[start:start + (1 if page[start][0].endswith(pair["away"]) else 2)]
            assert " ".join(text for text, _ in block).upper() == wanted.upper()   # 3x5 font: capitals
            assert len({height for _, height in block}) == 1
    assert not any(text.startswith(("-", "–")) for page in pages for text, _ in page)
