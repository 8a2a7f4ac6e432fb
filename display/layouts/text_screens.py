"""The screens that are lines of text (ready, menu, prompt, lot draw, match, error, key test) and
the message line over any screen, on dot-matrix counters. Mixed into ``MatrixLayout``, whose
``geometry``, ``_scores`` and ``_middle`` they use. Text that does not fit takes turns (pages)
word by word rather than being cut; the part a line keeps whole is its right-hand one.
"""
from typing import Any, Callable

from display.scene import Scene


class TextScreens:
    geometry: Any                                   # MatrixLayout's Geometry, as are these two
    _scores: Callable[..., tuple[int, int]]
    _middle: Callable[..., None]

    def _text_lines(self, scene: Scene, lines: list) -> None:
        """Full-width lines (text, or (left, right) pairs); more than fit go onto pages."""
        lines = [line for line in lines if line]
        g = self.geometry
        line_h = 8
        per_page = max(1, g.height // line_h)
        pages = [lines[i:i + per_page] for i in range(0, len(lines), per_page)] or [[]]
        for row, line in enumerate(pages[scene.page(len(pages))]):
            box = (0, row * line_h, g.width, row * line_h + line_h)
            if isinstance(line, tuple):     # (left, right): the right one is kept whole
                left, right = line
                rw = scene.write(right, box, align="right") if right else 0
                scene.write(left, (0, box[1], g.width - rw - 2, box[3]))
            else:
                scene.write(line, box, align="center")

    # --- screens ----------------------------------------------------------------------------

    def ready(self, scene: Scene, model: dict) -> None:
        """The place, then the time with what waits to be sent; the time is never shortened."""
        w = scene.words
        unsent = model.get("unsent") or 0
        last = model.get("last_sent")
        time = str(model.get("time") or "")
        refused = str(model.get("refused") or "")     # the receiver refuses this device: not the network
        mark = "X" if refused else "!"
        if unsent:
            status = [f"{w['refused' if refused else 'unsent']} {unsent}", f"{mark}{unsent}"]
        else:
            status = [f"{w['sent']} {last}", f"✓{last}"] if last else [""]
        table = str(model.get("table") or "")
        if table.isdigit():         # a lone "1" at the top of the counter says nothing to the staff
            table = f"{w['table']} {table}"
        place = [str(p) for p in (model.get("venue"), table) if p]
        if self.geometry.tiny:      # no room for a second time beside the clock
            status = [f"{mark}{unsent}"] if unsent else [""]
        room = self.geometry.width - scene.font_for(time, self.geometry.width).width(time) - 2
        line = (next((s for s in status if scene.font_for(s, room).width(s) <= room), status[-1]),
                time)       # the right part of a line is kept whole
        width = self.geometry.width
        if self.geometry.tiny:      # what to do (refused) comes before where the counter stands
            said = message_parts(refused, scene, width) if refused else wrap(" ".join(place), scene, width)
            self._text_lines(scene, [line, *said])
            return
        together = " ".join(place)
        if place and scene.text.width(together) > width:
            together = place[scene.page(len(place))]     # venue and table take turns, in the big font
        self._text_lines(scene, [turn(refused, scene, width) if refused else together or w["ready"], line])

    def menu(self, scene: Scene, model: dict) -> None:
        items = list(model.get("items") or [])
        selected = model.get("selected") or 0
        rows = max(1, self.geometry.height // 8)
        width = self.geometry.width
        title = turn(str(model.get("title", "")), scene, width)
        if not items:
            self._text_lines(scene, [title])
            return
        selected = min(max(selected, 0), len(items) - 1)
        if rows == 1:           # the chosen item, a long one word by word
            self._text_lines(scene, [turn("►" + str(items[selected]), scene, width)])
            return
        shown = rows - 1
        first = min(max(0, selected - shown + 1), max(0, len(items) - shown))
        lines = [title]
        for i in range(first, min(len(items), first + shown)):
            lines.append(turn("►" + str(items[i]), scene, width) if i == selected else " " + str(items[i]))
        for row, line in enumerate(lines):
            scene.write(line, (0, row * 8, width, row * 8 + 8), align="center" if row == 0 else "left")

    def prompt(self, scene: Scene, model: dict) -> None:
        """The question (word by word when long) with the value typed so far kept whole on its right."""
        width = self.geometry.width
        if model.get("value") is None:          # a yes/no question: nothing to type, no cursor
            line: str | tuple[str, str] = turn(str(model.get("title", "")), scene, width)
        else:
            value = f"{model.get('value') or ''}_"
            room = width - scene.font_for(value, width).width(value) - 2
            line = (turn(str(model.get("title", "")), scene, room), value)
        if self.geometry.tiny:
            self._text_lines(scene, [line])
        else:
            self._text_lines(scene, [line, turn(str(model.get("hint", "")), scene, width)])

    def lotdraw(self, scene: Scene, model: dict) -> None:
        w = scene.words
        width = self.geometry.width
        # the seed whole (captains check it): beside the word when both fit, else in pieces
        lines = message_parts(f'{w["lot"]} {model.get("seed", "")}', scene, width)
        pairs = model.get("pairs") or []
        if self.geometry.tiny:      # one 3x5 line: the pairs go on word by word
            for pair in pairs:
                line = f"{pair.get('partie', '')} {pair.get('home', '')}-{pair.get('away', '')}"
                if scene.small.width(line) > width:
                    line = f"{pair.get('partie', '')} {pair.get('home', '')} -{pair.get('away', '')}"
                lines += wrap(line, scene, width, fits=scene.small.width)
            self._text_lines(scene, lines)
            return
        self._blocks(scene, [[(line, None, "center")] for line in lines] + _pair_blocks(scene, pairs, width))

    def _blocks(self, scene: Scene, blocks: list) -> None:
        """Blocks of rows (text, font or None, align) onto pages; a block is never split between two."""
        per_page = max(1, self.geometry.height // 8)
        pages: list[list] = [[]]
        for block in blocks:
            if pages[-1] and len(pages[-1]) + len(block) > per_page:
                pages.append([])
            pages[-1] += block
        for row, (text, font, align) in enumerate(pages[scene.page(len(pages))][:per_page]):
            box = (0, row * 8, self.geometry.width, row * 8 + 8)
            if align == "pair":         # (left, right): the right one is kept whole
                left, right = text
                rw = scene.write(right, box, align="right") if right else 0
                scene.write(left, (0, box[1], box[2] - rw - 2, box[3]))
            else:
                scene.write(text, box, align=align, font=font)

    def match(self, scene: Scene, model: dict) -> None:
        points = model.get("points") or {}
        if self.geometry.tiny:
            x0, x1 = self._scores(scene, points.get("home", 0), points.get("away", 0), 1)
            self._middle(scene, x0, x1, [":"])
            return
        width, per_page = self.geometry.width, self.geometry.height // 8
        teams: list = []
        for side in ("home", "away"):
            score = str(points.get(side, 0))
            room = width - scene.font_for(score, width).width(score) - 2
            teams.append(((turn(str(model.get(side, "")), scene, room), score), None, "pair"))
        # each partie's line in one font, on one page where it fits one: never "(2:0)" alone on the next
        self._blocks(scene, [teams] + [block for line in model.get("partie") or []
                                       for block in _page_blocks(scene, str(line), width, per_page)])

    def error(self, scene: Scene, model: dict) -> None:
        """The fault's title, then its text on as many pages as it takes: a config error names the
        file, the section and the option (a path too long for a line goes on in pieces, not cut)."""
        w = scene.words
        code = str(model.get("code", ""))
        title = f"{w['error']} {w.get(f'error_{code}', code)}".strip()     # CHYBA klávesnice, not CHYBA keypad
        width = self.geometry.width
        self._text_lines(scene, wrap(title, scene, width) + whole_lines(str(model.get("text", "")), scene, width))

    def keytest(self, scene: Scene, model: dict) -> None:
        w = scene.words
        key = model.get("key")
        key = str(key) if key else w["press_key"] + "…"
        self._text_lines(scene, [key] if self.geometry.tiny else [model.get("device") or w["key"], key])

    def unknown(self, scene: Scene, model: dict) -> None:
        self._text_lines(scene, [f"? {model.get('screen')}"])

    def message(self, scene: Scene, message: dict, part: int = 0) -> int:
        """A transient line over the bottom of the screen (all of it on 8-px counters). A message
        too long for the line is said in parts (whole words), never cut: this draws part ``part``
        and returns how many parts there are."""
        g = self.geometry
        top = 0 if g.tiny else g.height - 8
        error = message.get("level") in ("warn", "error")
        scene.draw.rectangle((0, top, g.width - 1, g.height - 1), fill=scene.fill["text"] if error else 0)
        parts = message_parts(str(message.get("text", "")), scene, g.width)
        text = parts[min(part, len(parts) - 1)]
        font = scene.font_for(text, g.width)
        text = font.fit(text, g.width)
        x = max(0, (g.width - font.width(text)) // 2)
        y = top + (g.height - top - font.height) // 2
        font.draw(scene.draw, (x, y), text, 0 if error else scene.fill["text"])
        return len(parts)


def _pair_blocks(scene: Scene, pairs: list, width: int) -> list:
    """Each drawn pair as one block of rows in one font (the one with diacritics when the pair fits
    it): "4 Svoboda – Pokorný" on a line, or "4 Svoboda –" over "Pokorný" (right) when that is too
    wide. A captain reads the pair as one thing, never in two sizes or "-Pokorný" on its own."""
    def rows(home, away, font):
        if font.width(f"{home} – {away}") <= width:
            return [(f"{home} – {away}", font, "center")]
        return [(f"{home} –", font, "left"), (away, font, "right")]

    blocks = []
    for pair in pairs:
        home, away = f"{pair.get('partie', '')} {pair.get('home', '')}", str(pair.get("away", ""))
        fitting = (rows(home, away, font) for font in (scene.text, scene.small))
        blocks.append(next((r for r in fitting if all(font.width(t) <= width for t, font, _ in r)),
                           rows(home, away, scene.small)))
    return blocks


def _page_blocks(scene: Scene, text: str, width: int, rows: int) -> list[list]:
    """``text`` wrapped at words into rows of one font, centred, as blocks of a page each: one
    block in the text font when that takes no more than ``rows`` rows, else in the narrow one; a
    text too long even for that goes on over pages, its last row never a lone word or figure."""
    for font in (scene.text, scene.small):
        lines = wrap(text, None, width, fits=font.width)
        if len(lines) <= rows and all(font.width(line) <= width for line in lines):
            return [[(line, font, "center") for line in lines]]
    words = lines[-2].split() if len(lines) > 1 else []
    if len(lines[-1].split()) == 1 and len(words) > 1 and font.width(f"{words[-1]} {lines[-1]}") <= width:
        lines[-2:] = [" ".join(words[:-1]), f"{words[-1]} {lines[-1]}"]
    return [[(line, font, "center") for line in lines[i:i + rows]] for i in range(0, len(lines), rows)]


def turn(text: str, scene: Scene, width: int) -> str:
    """``text`` if it fits ``width`` in either font, else the part of it (whole words) whose turn it is now."""
    parts = wrap(text, scene, width, fits=lambda t: scene.font_for(t, width).width(t)) or [""]
    return parts[scene.page(len(parts))]


def message_parts(text: str, scene: Scene, width: int) -> list[str]:
    """A message as the parts that each fit ``width`` (in either font): whole words where they fit."""
    def fits(t):
        return scene.font_for(t, width).width(t)
    return [piece for line in wrap(text, scene, width, fits=fits) for piece in _chunks(line, fits, width)] or [""]


def whole_lines(text: str, scene: Scene, width: int) -> list[str]:
    """``text`` wrapped in the counter's text font (``wrap``), a word too long for a line in either
    font going on in pieces instead of being cut."""
    def fits(t):
        return scene.font_for(t, width).width(t)
    return [piece for line in wrap(text, scene, width) for piece in _chunks(line, fits, width)]


def _chunks(text: str, fits, width: int) -> list[str]:
    """``text`` as it is if it fits ``width``, else in pieces of as many characters as fit (a word
    longer than the whole line — on the 32x8 counter — goes on letter by letter, not cut)."""
    pieces = []
    while fits(text) > width and len(text) > 1:
        n = max(1, max(k for k in range(1, len(text) + 1) if k == 1 or fits(text[:k]) <= width))
        pieces.append(text[:n])
        text = text[n:]
    return pieces + [text]


def wrap(text: str, scene: Scene | None, width: int, fits=None) -> list[str]:
    """Words onto lines that fit ``width`` (measured by ``fits``, by default in the counter's text
    font, so that the lines keep one size); a word too long for a line gets one to itself."""
    if fits is None:
        assert scene is not None        # the counter's font, or the measure given
        fits = scene.text.width
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if fits(candidate) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    return lines + ([current] if current else [])
