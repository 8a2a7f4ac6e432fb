"""What takes turns on the counter and what never hides what (issue 12): the match night's facts,
the innings limit on 32x8, messages, words a spectator reads, and pages that turn on the injected
clock with a picture drawn only when it changes."""
import copy

import pytest

from display.counter import Counter
from display.settings import DisplaySettings
from display_helpers import Said, matrix, segment_pages
from display_samples import sample

TWO_ROWS = {"64x16": (64, 16), "96x16": (96, 16)}


def flat(pages):
    return [text for texts in pages for text in texts]


@pytest.mark.parametrize("size", TWO_ROWS.values(), ids=TWO_ROWS)
def test_match_night_names_partie_and_team_score_take_turns_with_the_scores(size, monkeypatch):
    """A.3.6 / RULES 1.6 on 2-row counters: the players' names alternate with the scores, with the
    partie number and the team score (A's team first) under them; the score pages stay."""
    said = Said(monkeypatch)
    pages = said.pages(matrix(size), sample("carom-match-night"))      # Novák 11 : Dvořák 13, inning 1/15
    names = [texts for texts in pages if "Novák" in texts and "Dvořák" in texts]
    assert any("2. partie" in " ".join(texts) for texts in names)
    assert any("zápas 3:5" in " ".join(texts) for texts in names)
    scores = [texts for texts in pages if "11" in texts and "13" in texts]
    assert scores and all("1/15" in texts for texts in scores)
    assert all(a in scores or b in scores for a, b in zip(pages, pages[1:]))     # never two name pages running
    assert not any("partie" in text for text in flat(said.pages(matrix(size), sample("carom-series"))))


@pytest.mark.parametrize("size", TWO_ROWS.values(), ids=TWO_ROWS)
def test_match_night_names_give_way_to_the_last_two_innings(size, monkeypatch):
    """RULES 1.7 / A.6.8f: in the last 2 innings the blinking inning is on every page (lit half the
    time), the names' page waits for the next partie."""
    model = dict(sample("carom-last-two"), match={"partie": 3, "partie_count": 4, "points": {"a": 4, "b": 0}})
    said = Said(monkeypatch)
    pages = said.pages(matrix(size), model)
    assert all("2/3" in texts for texts in pages)
    assert not any("partie" in text for text in flat(pages))


@pytest.mark.parametrize("a,b", [("Jaroslav Procházka", "Petr Veselý"), ("Jaroslav Procházka", "Karel Pokorný")])
def test_match_night_names_are_never_cut(a, b, monkeypatch):
    """A long surname beside a short one keeps every letter (small capitals share the row); two
    long ones take a row each, and the partie and the team score still come round."""
    model = copy.deepcopy(sample("carom-match-night"))
    model["summary"]["players"]["a"]["name"], model["summary"]["players"]["b"]["name"] = a, b
    said = Said(monkeypatch)
    texts = flat(said.pages(matrix((64, 16)), model, seconds=60.0))
    assert a.split()[-1] in texts and b.split()[-1] in texts
    assert "2. partie" in texts and "zápas 3:5" in texts


def test_match_night_on_128x32_keeps_the_names_and_the_inning_and_adds_partie_and_score(monkeypatch):
    """RULES 1.7 and 1.6 on 128x32: the names and the inning on every page; the partie number and
    the team score take turns on the third line."""
    said = Said(monkeypatch)
    pages = said.pages(matrix((128, 32)), sample("carom-match-night"))
    assert all({"Jan Novák", "►Dvořák", "1/15", "11", "13"} <= set(texts) for texts in pages)
    assert any("2. partie" in texts for texts in pages) and any("zápas 3:5" in texts for texts in pages)


@pytest.mark.parametrize("size", [(64, 16), (128, 32)], ids=["64x16", "128x32"])
def test_8ball_match_night_shows_the_partie_and_team_score(size, monkeypatch):
    """RULES 2.9: the individual match (zápas) being played and the matches won so far in the team
    match (utkání) — 8-ball's own words, not carom's partie."""
    said = Said(monkeypatch)
    texts = flat(said.pages(matrix(size), sample("8ball-match-night"), seconds=60.0))
    assert "2. zápas" in texts and "utkání 3:5" in texts
    assert not any("partie" in text for text in texts)
    assert any("Růžička" in text for text in texts) and any("Šťastný" in text for text in texts)


def test_match_night_facts_in_english(monkeypatch):
    said = Said(monkeypatch)
    texts = flat(said.pages(matrix((64, 16), language="en"), sample("carom-match-night")))
    assert "partie 2" in texts and "match 3:5" in texts


@pytest.mark.parametrize("size", TWO_ROWS.values(), ids=TWO_ROWS)
def test_frozen_balls_show_at_once_on_a_match_night_too(size, monkeypatch):
    """RULES 1.2: LPÍ is on every picture while announced: the names' page waits for the next stroke."""
    model = copy.deepcopy(sample("carom-match-night"))
    model["summary"]["counter"]["frozen"] = True
    said = Said(monkeypatch)
    assert all("LPÍ" in texts and "1/15" in texts for texts in said.pages(matrix(size), model))


def test_32x8_shows_the_inning_of_the_limit_on_a_page_of_its_own_when_the_middle_is_narrow(monkeypatch):
    """RULES 1.7 / A.6.8e-f on 32x8 with 3-digit scores (a 200-point league partie): the middle holds
    the bare inning, and "2/15" (not "2") has the whole counter on the next page."""
    said = Said(monkeypatch)
    pages = said.pages(matrix((32, 8)), sample("carom-league-end"))
    assert ["2/15"] in pages
    assert ["185", "111", "2"] in pages


def test_32x8_shows_the_inning_of_the_limit_in_the_middle_when_it_fits(monkeypatch):
    """RULES 1.7 on 32x8 with 2-digit scores: "1/3" between the scores."""
    said = Said(monkeypatch)
    pages = said.pages(matrix((32, 8)), sample("carom-to-go"))
    assert ["11", "0", "1/3"] in pages and not any("1" == texts[-1] for texts in pages)


def test_32x8_inning_of_the_limit_blinks_in_the_last_two_innings(monkeypatch):
    """RULES 1.7 / A.6.8f: the last 2 innings blink, "3/3" as well."""
    said = Said(monkeypatch)
    counter = Counter(None, matrix((32, 8)))
    model = sample("carom-last-two")
    lit, dark = said.at(counter, model, 0.0), said.at(counter, model, 0.5)
    assert any("/3" in text for text in lit) and not any("/3" in text for text in dark)


def message_turns(settings, seconds=30.0):
    """(time, message part or None) at every deadline of a long refusal over the carom-series state."""
    counter = Counter(None, settings)
    drawn = []
    original = counter.layout.message

    def spy(scene, message, part=0):
        drawn[-1] = part
        return original(scene, message, part)
    counter.layout.message = spy
    model = dict(sample("carom-series"), message={"text": "Partie neskončila (vzdání v menu)", "level": "warn"})
    now, turns = 0.0, []
    drawn.append(None)
    deadline = counter.show(model, now)
    turns.append((now, drawn[-1]))
    while deadline is not None and now < seconds:
        now = deadline
        drawn.append(None)
        deadline = counter.tick(now)
        if counter.renders > len(turns):
            turns.append((now, drawn[-1]))
    return turns


@pytest.mark.parametrize("layout", [dict(width=32, height=8), dict(emulate="sevensegment", digits=8)],
                         ids=["32x8", "7seg8"])
def test_a_message_covering_the_counter_takes_turns_with_the_score(layout):
    """RULES 1.7: where a message covers the whole counter, the score and the inning come back
    between its parts — never hidden for more than one part (message_seconds at most)."""
    settings = DisplaySettings(driver="dummy", message_seconds=3.0, **layout)
    turns = message_turns(settings)
    said = [(t, part) for t, part in turns if part is not None]
    assert said and said[0][0] == 0.0
    for (t0, p0), (t1, p1) in zip(turns, turns[1:]):
        assert not (p0 is not None and p1 is not None and p0 != p1), "two parts with no score between"
        if p0 is not None:
            assert t1 - t0 <= settings.message_seconds
    assert turns[-1][1] is None                     # then the score stays


def test_a_message_on_the_bottom_line_of_64x16_is_said_part_after_part():
    """64x16: the message line leaves the inning in view, so its parts follow each other."""
    turns = message_turns(matrix((64, 16), message_seconds=3.0))
    parts = [part for _, part in turns if part is not None]
    assert parts == sorted(set(parts)) and len(parts) >= 2


@pytest.mark.parametrize("name,words", [
    ("8ball-in-hand", ["BÍLÁ", "RUCE", "OTEVŘENÝ", "STŮL"]), ("8ball-open", ["ROZSTŘEL"]),
    ("carom-draw", ["průměr", "nejvyšší", "série"])])
@pytest.mark.parametrize("size", [(32, 8), (64, 16), (96, 16), (128, 32)], ids=["32x8", "64x16", "96x16", "128x32"])
def test_spectators_read_words_not_abbreviations(name, words, size, monkeypatch):
    """Ball in hand (8B:4), open table (RULES 2.4), the break (RULES 2.3), the average and the
    highest series (RULES 1.5) in words, never BIH / OTEV / ROZB / PR; on 32x8, where no word fits
    beside a figure, the word has its page and each figure then keeps the short label (JP, NS)
    the key card explains, never a bare number."""
    said = Said(monkeypatch)
    text = " ".join(flat(said.pages(matrix(size), sample(name), seconds=60.0)))
    assert all(word.upper() in text.upper() for word in words), text
    assert not {"BIH", "OTEV", "ROZB", "PR"} & set(text.split())
    if size != (32, 8):
        assert not {"JP", "NS"} & set(text.split())


def test_spectators_read_english_words_too(monkeypatch):
    said = Said(monkeypatch)
    text = " ".join(flat(said.pages(matrix((128, 32), language="en"), sample("8ball-in-hand"), seconds=60.0)))
    assert "BALL IN HAND" in text and "OPEN TABLE" in text


@pytest.mark.parametrize("size", [(32, 8), (64, 16), (128, 32)], ids=["32x8", "64x16", "128x32"])
def test_pages_turn_on_the_injected_clock_and_only_a_changed_picture_is_drawn(size, clock):
    """Pi Zero 2 W: the service sleeps until the counter's deadline (the injected clock's time); at
    each deadline the picture changes, a show of the same model or a tick before the deadline draws
    nothing, and no deadline is ever now or past (no busy loop)."""
    settings = matrix(size)
    counter = Counter(None, settings)
    model = sample("carom-match-night")
    start = clock.monotonic()
    deadline = counter.show(model, start)
    drawn = counter.renders
    while clock.monotonic() < start + 60:
        assert deadline is not None and deadline > clock.monotonic()
        clock.advance((deadline - clock.monotonic()) / 2)          # woken early: a key, a ping
        assert counter.show(copy.deepcopy(model), clock.monotonic()) == deadline
        assert counter.renders == drawn
        clock.advance(deadline - clock.monotonic())
        before = counter.render(model, clock.monotonic() - 0.001).image.tobytes()
        deadline = counter.tick(clock.monotonic())
        assert counter.renders == drawn + 1
        drawn = counter.renders
        assert counter.render(model, clock.monotonic()).image.tobytes() != before


def test_a_still_picture_is_drawn_once_however_often_it_is_shown(clock):
    counter = Counter(None, matrix((64, 16)))
    model = sample("carom-series")
    for _ in range(5):
        assert counter.show(copy.deepcopy(model), clock.monotonic()) is None
        clock.advance(7.0)
    assert counter.renders == 1


@pytest.mark.parametrize("digits", [8, 16])
def test_segment_board_inning_and_marks_on_the_match_night_model(digits):
    """The 7-segment boards keep their line on a match night (no room for the match's facts)."""
    assert segment_pages(sample("carom-match-night"), digits) == segment_pages(sample("carom-series"), digits)
