"""Dot-matrix layouts (MAX7219 cascades, WS2812 panels, emulators): one set of screens whose
geometry follows the counter's size. The game screens are here; the text screens are in
``text_screens``.

* 8 px high (32x8 …): scores in 3x7 digits, one 3x5 line, secondary facts on pages.
* 16–31 px high (64x16, 96x16 …): scores in digits the full height; facts in the middle column.
* 32 px and more (128x32 …): scores above a row of names; facts in the middle column.
"""
from dataclasses import dataclass
from functools import cached_property

from display import fonts
from display.layouts.base import Layout
from display.layouts.text_screens import TextScreens, wrap
from display.scene import Scene

_MIDDLE = 28    # the narrowest middle column: "12/15" in small digits, "◄13" in the big font
_TINY_GAP = 2   # 8-px counters: blank columns between a score and the fact beside it (never 19311113)


@dataclass(frozen=True)
class Geometry:
    """The counter's proportions; each worked out once (a frame asks for them a few dozen times)."""
    width: int
    height: int

    @cached_property
    def tiny(self) -> bool:
        return self.height < 16

    @cached_property
    def names(self) -> bool:
        return self.height >= 32

    @cached_property
    def digit_height(self) -> int:
        if self.tiny:
            return 7                  # row 7 underlines the player at the table
        return self.height - 8 if self.names else self.height

    @cached_property
    def digit_width(self) -> int:
        if self.tiny:
            return 3
        wanted = round(self.digit_height * 0.45)    # the proportions of a scoreboard digit
        zone = (self.width - _MIDDLE - 2) // 2       # three digits a side, the middle column between
        return max(3, min(wanted, (zone - 2) // 3))  # 64x16: 5 px, 96x16: 7, 128x32: 11

    def zone(self, digits: int = 3) -> int:
        return digits * self.digit_width + (digits - 1)


def _arrow(side: str | None) -> str:
    return "◄" if side == "a" else "►" if side == "b" else ""


def _arrowed(value, side: str | None) -> str:
    """``value`` with an arrow on the side of ``side``'s score: ◄13 for A, 13► for B."""
    return f"{_arrow(side)}{value}" if side == "a" else f"{value}{_arrow(side)}"


class MatrixLayout(TextScreens, Layout):
    def __init__(self, width: int, height: int):
        self.geometry = Geometry(width, height)
        self.big = fonts.digits(self.geometry.digit_width, self.geometry.digit_height)
        self.message_covers = self.geometry.tiny       # the message line is all of an 8-px counter

    # --- shared pieces ----------------------------------------------------------------------
    def _middle_box(self, digits=3) -> tuple[int, int]:
        """The middle column (x0, x1) between two scores of ``digits`` digits."""
        zone = self.geometry.zone(digits)
        return zone + 1, self.geometry.width - zone - 1

    def _scores(self, scene: Scene, a, b, digits=3) -> tuple[int, int]:
        """Both players' big numbers; returns the middle column (x0, x1) left between them."""
        g = self.geometry
        za, zb = (g.zone(max(digits, len(str(v)))) for v in (a, b))   # -18 may reach into an empty middle
        # 8-px counters: each score at its outer edge, so a short one keeps away from the middle's number
        scene.number(a, (0, 0, za, g.digit_height), self.big, role="a", align="left" if g.tiny else "right")
        scene.number(b, (g.width - zb, 0, g.width, g.digit_height), self.big, role="b")
        return self._middle_box(digits)

    def _underline(self, scene: Scene, side, digits=3, *, through_middle=False) -> None:
        """8-px counters: a bar under the player at the table (on under the middle, for the series)."""
        g = self.geometry
        if side in ("a", "b") and g.tiny:
            zone = g.zone(digits) + (g.width - 2 * g.zone(digits) if through_middle else 0)
            x0 = 0 if side == "a" else g.width - zone
            scene.bar((x0, g.height - 1, x0 + zone, g.height), role=side)

    def _names(self, scene: Scene, name_a: str, name_b: str, mark=None) -> None:
        """Large counters: the names under the scores; an arrow by the player at the table."""
        g = self.geometry
        if not g.names:
            return
        y0, room = g.height - 8, g.width // 2 - 1 - 5
        a, b = _short(name_a, scene, room), _short(name_b, scene, room)
        a, b = (f"{a}◄" if mark == "a" else a), (f"►{b}" if mark == "b" else b)
        scene.write(a, (0, y0, g.width // 2 - 1, g.height), role="a")
        scene.write(b, (g.width // 2 + 1, y0, g.width, g.height), align="right", role="b")

    def _middle(self, scene: Scene, x0: int, x1: int, lines: list) -> None:
        """Lines of facts in the middle column; on 8-px counters one line at a time, on pages."""
        lines = [line for line in lines if line]
        if not lines:
            return
        g = self.geometry
        if g.tiny:      # a line too wide for the middle goes word by word onto pages
            lines = [part for line in lines for part in _split(line, scene.small, x1 - x0)]
            lines, font = [lines[scene.page(len(lines))]], scene.small
        lines = [line() if callable(line) else line for line in lines]
        if not g.tiny:
            texts = [line[0] if isinstance(line, tuple) else line for line in lines]
            fits = all(scene.text.width(t) <= x1 - x0 for t in texts)
            font = scene.text if fits and len(lines) * scene.text.height <= g.digit_height else scene.small
        top = g.digit_height
        count = len(lines)
        while count > 1 and count * font.height > top:
            count -= 1
        lines = lines[:count]
        gap = 0 if count == 1 else min(2, (top - count * font.height) // (count - 1))
        y = (top - count * font.height - (count - 1) * gap) // 2
        for line in lines:
            text, role = line if isinstance(line, tuple) else (line, "text")
            if role != "hidden":
                scene.write(text, (x0, y, x1, y + font.height), align="center", role=role, font=font)
            y += font.height + gap

    def _tiny_pages(self, scene: Scene, x0: int, x1: int, lines: list, side, digits: int) -> None:
        """8-px counters: the lines in the middle one page at a time, as many words to a page as
        fit; a word too wide for the middle ("ROZSTŘEL") has the whole counter for its page."""
        pieces = [piece for line in lines if line for piece in _split(line, scene.small, x1 - x0)]
        piece = pieces[scene.page(len(pieces))] if pieces else ""
        if scene.small.width(piece) <= x1 - x0:
            self._middle(scene, x0, x1, [piece])
            return
        g = self.geometry
        scene.draw.rectangle((0, 0, g.width - 1, g.height - 1), fill=0)
        scene.write(piece, (0, 0, g.width, g.height - 1), align="center", font=scene.small)
        self._underline(scene, side, digits)

    def carom(self, scene: Scene, model: dict) -> None:
        summary = model["summary"]
        pa, pb = summary["players"]["a"], summary["players"]["b"]
        counter = summary.get("counter") or {}
        w = scene.words
        if summary.get("finished"):
            self._carom_result(scene, summary, pa, pb)
            return
        at = counter.get("at_table")
        inning = counter.get("inning", 0)
        limit = summary.get("innings_limit")
        inning_text = f"{inning}/{limit}" if limit else str(inning)

        def inning_line(text=inning_text):      # RULES 1.7: the last 2 innings blink (hidden text keeps the layout still)
            return (text, "hidden") if counter.get("last_two") and not scene.blink() else text

        series = counter.get("series", 0)
        series_text = _arrowed(series, at) if at else ""
        left = (counter.get("points_left") or {}).get(at)
        left = left if left is not None and left <= 20 else None     # RULES 1.7: the last 20 points
        marks = [w["equalising"]] if counter.get("equalising") else []
        frozen = w["frozen"] if counter.get("frozen") else ""
        # On a match night the partie number and the team score take their turn (not while frozen
        # balls are announced: that mark must show at once, and lasts only until the next stroke).
        match = [] if frozen else _match_facts(model, w)
        if self.geometry.tiny:
            self._carom_tiny(scene, summary, at, inning_line, series, left, [frozen] if frozen else marks,
                             _tiny_match(model, w) if match else "")
            return
        extras = ([f"{w['left']} {left}"] if left is not None else []) + marks
        if self.geometry.names:     # three lines; the points left, the marks and the match take turns on the third
            thirds = [frozen] if frozen else extras + match
            lines = [inning_line, (series_text, at or "text"), thirds[scene.page(len(thirds))] if thirds else ""]
        else:                   # two lines: the inning takes turns with the points left and the marks
            firsts = [inning_line] + extras
            if counter.get("last_two"):     # RULES 1.7: the last 2 innings stay in view, no names' page
                match = []
            turn = _match_turn(scene, len(firsts), bool(match))
            if turn is None:        # names take one turn in five; the partie and the match below them
                self._match_page(scene, pa.get("name", ""), pb.get("name", ""), match)
                return
            # Frozen balls (RULES 1.2) stand in the series' place, never the inning's: the series
            # cannot change before the next stroke, and that stroke ends the announcement.
            lines = [firsts[turn], frozen or (series_text, at or "text")]
        x0, x1 = self._scores(scene, pa["points"], pb["points"])
        self._names(scene, pa.get("name", ""), pb.get("name", ""), at)
        self._middle(scene, x0, x1, lines)

    def _match_page(self, scene: Scene, name_a: str, name_b: str, match: list) -> None:
        """A page of 2-row counters on a match night: the players' surnames on the top row (in
        narrow capitals when they do not fit with the text font), the partie number and the team
        score below, both on one row when they fit it, else each on its turn of this page. Two
        surnames too long for one row take a row each, and the partie and the team score have the
        next turn of this page to themselves."""
        g = self.geometry
        gap = 4
        a, b = _surname(name_a), _surname(name_b)
        font = next((f for f in (scene.text, scene.small) if f.width(a) + gap + f.width(b) <= g.width), None)
        both = "  ".join(match)
        facts = [both] if scene.font_for(both, g.width).width(both) <= g.width else match
        if font is None:
            if scene.page(2) == 0:
                scene.write(a, (0, 0, g.width, 8), role="a")
                scene.write(b, (0, 8, g.width, 16), align="right", role="b")
            else:
                rows = facts if len(facts) > 1 else ["", *facts]
                for row, fact in enumerate(rows):
                    scene.write(fact, (0, 8 * row, g.width, 8 * row + 8), align="center")
            return
        split = font.width(a) + gap // 2
        scene.write(a, (0, 0, split - 1, 8), role="a", font=font)
        scene.write(b, (split + 1, 0, g.width, 8), align="right", role="b", font=font)
        scene.write(facts[scene.page(len(facts))], (0, 8, g.width, 16), align="center")

    def _carom_tiny(self, scene: Scene, summary: dict, at, inning_line, series: int, left, marks,
                    match: str) -> None:
        """8-px counters: the scores stay at the outer edges; between them, two blank columns from
        each (so ``193 11 113`` never reads as one number), one fact a page: the inning (``1/15``
        when that fits, blinking in the last 2 innings), the series with an arrow to the player
        (the bar under the player at the table runs on under it), the marks. The points left stand
        as ``-18`` in place of the score of the player at the table. A fact too wide for the middle
        has the whole counter for its page (``1/15``, never blinking dark); on a match night the
        partie and the team score (``P2 3:5``) have one page in five."""
        pa, pb = summary["players"]["a"]["points"], summary["players"]["b"]["points"]
        w = scene.words
        of_limit = _text(inning_line())
        inning = str((summary.get("counter") or {}).get("inning", 0))
        pages: list = []        # (what the middle shows, score A, score B), or the series on the whole counter
        aside: list = []        # texts for the whole counter, one page in five at most
        middle = of_limit if self._tiny_fits(scene, pa, pb, of_limit) else inning
        if self._tiny_fits(scene, pa, pb, middle):
            pages.append((inning_line(middle), pa, pb))
        if middle != of_limit:
            aside.append(of_limit)
        if marks != [w["frozen"]] and series and at:
            arrowed = _arrowed(series, at)
            if self._tiny_fits(scene, pa, pb, arrowed):
                pages.append(((arrowed, "series"), pa, pb))
            elif self._tiny_fits(scene, pa, pb, str(series)):
                pages.append(((str(series), "series"), pa, pb))
            else:               # the series is the score in the making: it keeps its turn among the scores
                pages.append((arrowed, "series"))
        if left is not None and marks != [w["frozen"]]:
            pages.append(("", f"-{left}", pb) if at == "a" else ("", pa, f"-{left}"))
        for mark in marks:
            if self._tiny_fits(scene, pa, pb, mark):
                pages.append((mark, pa, pb))
            else:
                aside.append(mark)
        page = _tiny_turn(scene, pages or [("", pa, pb)], aside + ([match] if match else []))
        if isinstance(page, tuple) and len(page) == 3:
            text, a, b = page
            self._tiny_scores(scene, a, b, at, text)
            return
        text, series_page = (page if isinstance(page, tuple) else (page, None))
        g = self.geometry
        scene.write(text, (0, 0, g.width, g.height - 1), align="center", font=scene.small,
                    role=at if series_page else "text")
        if series_page:
            self._tiny_bar(scene, at, scene.width if at == "b" else 0, through=True)
        elif page == of_limit and (summary.get("counter") or {}).get("last_two") and scene.blink():
            scene.bar((0, g.height - 1, g.width, g.height))     # RULES 1.7: the last 2 innings, never dark

    def _tiny_slot(self, scene: Scene, a, b) -> tuple[int, int]:
        """8-px counters: the columns (x0, x1) between two scores at the outer edges, two blank
        columns kept from each."""
        return self.big.width(str(a)) + _TINY_GAP, self.geometry.width - self.big.width(str(b)) - _TINY_GAP

    def _tiny_fits(self, scene: Scene, a, b, text) -> bool:
        x0, x1 = self._tiny_slot(scene, a, b)
        return scene.small.width(_text(text)) <= x1 - x0

    def _tiny_scores(self, scene: Scene, a, b, at, text) -> None:
        """8-px counters: both scores at the outer edges, the bar under the player at the table and
        ``text`` (a text or (text, role); role "series" runs the bar on under it) between them."""
        g = self.geometry
        scene.number(a, (0, 0, g.width, g.digit_height), self.big, role="a", align="left")
        scene.number(b, (0, 0, g.width, g.digit_height), self.big, role="b")
        x0, x1 = self._tiny_slot(scene, a, b)
        words, role = text if isinstance(text, tuple) else (text, "text")
        width = scene.small.width(words)
        left = x0 + (x1 - x0 - width) // 2
        if words and role != "hidden":
            scene.write(words, (left, 0, left + width, g.digit_height), font=scene.small,
                        role=at if role == "series" else role)
        if role == "series":        # the bar runs on under the series, to its far end
            edge = left + width if at == "a" else left
        else:
            edge = self.big.width(str(a)) if at == "a" else g.width - self.big.width(str(b))
        self._tiny_bar(scene, at, edge)

    def _tiny_bar(self, scene: Scene, side, edge: int, through: bool = False) -> None:
        """The bar under the player at the table: from their edge of the counter to ``edge``
        (``through``: the whole counter, under a series that has it to itself)."""
        g = self.geometry
        if side not in ("a", "b"):
            return
        if through:
            scene.bar((0, g.height - 1, g.width, g.height), role=side)
        elif side == "a":
            scene.bar((0, g.height - 1, edge, g.height), role="a")
        else:
            scene.bar((edge, g.height - 1, g.width, g.height), role="b")

    def _carom_result(self, scene: Scene, summary: dict, pa: dict, pb: dict) -> None:
        """Page 0: the final score and who won; then the result, the averages and the highest
        series, each pair of figures on one page with its label (beside them when it fits, else
        above them; on 8-px counters the short label, ``JP`` / ``NS``): never a bare number."""
        w = scene.words
        result, forfeit = summary.get("result"), summary.get("forfeit")
        names = {"a": pa.get("name", ""), "b": pb.get("name", "")}
        if forfeit:
            headline, pointer = f"{w['forfeit']} {_surname(names[forfeit])}", _arrow(forfeit)
        elif result == "draw":
            headline, pointer = w["draw"], "="
        else:
            headline, pointer = f"{w['wins']} {_surname(names.get(result or '', ''))}", _arrow(result)
        avg_a, avg_b = pa.get("average", "0.000"), pb.get("average", "0.000")
        if self.geometry.tiny:    # one decimal (still truncated) fits two averages in 32 px
            avg_a, avg_b = avg_a[:avg_a.find(".") + 2], avg_b[:avg_b.find(".") + 2]
        width, per_page = self.geometry.width, max(1, self.geometry.height // 8)
        blocks: list[list] = [[line] for line in wrap(headline, scene, width)]
        for key, va, vb in (("average", avg_a, avg_b),
                            ("best", str(pa.get("best_series", 0)), str(pb.get("best_series", 0)))):
            above = wrap(w[key], scene, width, fits=lambda t: scene.font_for(t, width).width(t))
            if self._label_fits(scene, va, w[key], vb):         # průměr between the two figures
                blocks.append([(va, w[key], vb)])
            elif len(above) < per_page:                       # průměr on the line above them
                blocks.append([*above, (va, "", vb)])
            elif self._label_fits(scene, va, w[f"{key}_short"], vb):     # JP between them
                blocks.append([(va, w[f"{key}_short"], vb)])
            else:       # 32x8: the word, then each player's figure on their side with the short label
                short = w[f"{key}_short"]
                blocks += [[line] for line in above] + [[(f"{va} {short}", "", "")], [("", "", f"{short} {vb}")]]
        pages: list[list] = []
        for block in blocks:
            if pages and len(pages[-1]) + len(block) <= per_page:
                pages[-1] += block
            else:
                pages.append(list(block))
        page = scene.page(1 + len(pages))
        if page == 0:
            x0, x1 = self._scores(scene, pa["points"], pb["points"])
            self._names(scene, pa.get("name", ""), pb.get("name", ""))
            self._middle(scene, x0, x1, [w["end"], pointer] if not self.geometry.tiny else [pointer])
            return
        for i, row in enumerate(pages[page - 1][:per_page]):
            box = (0, i * 8, width, i * 8 + 8)
            if isinstance(row, tuple):
                self._facts(scene, box, *row)
            else:
                scene.write(row, box, align="center")

    def _facts_font(self, scene: Scene, va: str, label: str, vb: str):
        return scene.small if self.geometry.tiny else scene.font_for(f"{va} {label} {vb}", self.geometry.width)

    def _label_fits(self, scene: Scene, va: str, label: str, vb: str) -> bool:
        return self._facts_font(scene, va, label, vb).width(f"{va}  {label}  {vb}") <= self.geometry.width

    def _facts(self, scene: Scene, box, va: str, label: str, vb: str) -> None:
        """Player A's value on the left, its label (if any) in the middle, B's value on the right."""
        font = self._facts_font(scene, va, label, vb)
        scene.write(va, box, role="a", font=font)
        scene.write(vb, box, align="right", role="b", font=font)
        if label:
            scene.write(label, box, align="center", font=font)

    def eightball(self, scene: Scene, model: dict) -> None:
        """The match score large — in sets when the match has several (RULES 2.9), the games of the
        set in play small beside them — then the groups with the balls left and the flags."""
        summary = model["summary"]
        w = scene.words
        games, sets = summary.get("games") or {}, summary.get("sets") or {}
        current = summary.get("current") or {}
        names = summary.get("names") or {}
        shooter = current.get("shooter")
        several_sets = summary.get("sets_to_win", 1) > 1
        big = sets if several_sets else games
        # On a match night the names, the partie number and the team score take turns with the games
        # (not while a shot is being entered: each key shows at once).
        match = _match_facts(model, w) if not (summary.get("finished") or current.get("pending")) else []
        if not self.geometry.tiny and not self.geometry.names and _match_turn(scene, 1, bool(match)) is None:
            self._match_page(scene, names.get("a", ""), names.get("b", ""), match)   # one turn in five
            return

        def group(side):
            g = (current.get("groups") or {}).get(side)
            if not g:
                return ""
            return f"{w[g][:2]}{(current.get('left') or {}).get(g, '')}"

        groups = " ".join(p for p in (("◄" if shooter == "a" else "") + group("a"),
                                      group("b") + ("►" if shooter == "b" else "")) if p)
        flags = []
        if summary.get("finished"):
            winner = summary.get("winner")
            flags.append(f"◄{w['end']}" if winner == "a" else f"{w['end']}►" if winner == "b" else w["end"])
            groups = ""
        elif current.get("pending"):    # the shot being entered: each key shows at once
            flags.append(_pending(current["pending"], w))
        else:
            if current.get("break_shot"):
                flags.append(w["break"])
            if current.get("ball_in_hand"):
                flags.append(w["in_hand"])
            if current.get("must_choose"):
                flags.append(w["choose"])
            if current.get("open_table") and not current.get("break_shot"):
                flags.append(w["open"])
            pocket = (current.get("eight_pocket") or {}).get(shooter)
            choice = (current.get("pocket_choice") or {}).get(shooter)     # 8B:6f: may name any pocket
            if pocket or choice:
                flags.append(f"{w['pocket']}{pocket or ''}{w['pocket_choice'] if choice else ''}")
        in_set = f"{games.get('a', 0)}:{games.get('b', 0)}" if several_sets else ""
        if self.geometry.tiny:
            self._eightball_tiny(scene, big.get("a", 0), big.get("b", 0), shooter,
                                 [in_set, groups, *flags], _tiny_match(model, w) if match else "")
            return
        digits = max(1, len(str(max(big.get("a", 0), big.get("b", 0)))))
        x0, x1 = self._scores(scene, big.get("a", 0), big.get("b", 0), digits)
        self._names(scene, names.get("a", ""), names.get("b", ""), shooter)
        if several_sets:        # the games of the set in play, small beside each player's sets, kept
            top = (x0 + 2, 0, x1 - 2, scene.small.height)      # apart from them (never 1 and 0 read as 10)
            scene.write(str(games.get("a", 0)), top, role="a", font=scene.small, valign="top")
            scene.write(str(games.get("b", 0)), top, align="right", role="b", font=scene.small, valign="top")
            room = max(scene.small.width(str(games.get(side, 0))) for side in ("a", "b")) + 4
            x0, x1 = x0 + room, x1 - room
        parts = _grouped(flags, scene.small.width, x1 - x0)    # as many flags as fit, a long one word by word
        flag_line = parts[scene.page(len(parts))] if parts else ""
        third = match[scene.page(len(match))] if match and self.geometry.names else ""
        self._middle(scene, x0, x1, [groups, flag_line, third])

    def _eightball_tiny(self, scene: Scene, a, b, shooter, lines: list, match: str) -> None:
        """8-px counters: the match score at the outer edges, a bar under the shooter; between
        them, two blank columns from each, the games of the set (``2:1``), the groups and the
        flags, as many words to a page as fit; a word too wide (``ROZSTŘEL``) has the whole
        counter for its page. On a match night ``P2 3:5`` has one page in five."""
        x0, x1 = self._tiny_slot(scene, a, b)
        pieces = [piece for line in lines if line.strip("◄►")        # the bar marks the shooter here
                  for piece in _split(line, scene.small, x1 - x0)]
        fitting = [piece for piece in pieces if scene.small.width(piece) <= x1 - x0]
        aside = [piece for piece in pieces if piece not in fitting] + ([match] if match else [])
        piece = _tiny_turn(scene, fitting or [""], aside)
        if piece in fitting or not piece:
            self._tiny_scores(scene, a, b, shooter, piece)
            return
        g = self.geometry
        scene.write(piece, (0, 0, g.width, g.height - 1), align="center", font=scene.small)
        edge = self.big.width(str(a)) if shooter == "a" else g.width - self.big.width(str(b))
        self._tiny_bar(scene, shooter, edge)

def _pending(pending: list, w: dict) -> str:
    """What the referee has entered of the open shot, in entry order: "+PŮ +8" , "+2PL +FAUL"."""
    labels = {"solid": w["solids"][:2], "stripe": w["stripes"][:2], "pot8": "8", "scratch": w["scratch"],
              "foul": w["foul"], "nocushion": w["nocushion"]}
    counts: dict[str, int] = {}
    for cmd in pending:
        key = cmd.get("ball") if cmd.get("cmd") == "pot" else cmd.get("cmd")
        counts[key] = counts.get(key, 0) + 1
    return " ".join(f"+{n if n > 1 else ''}{labels.get(key, '?')}" for key, n in counts.items())


def _match_turn(scene: Scene, count: int, match: bool) -> int | None:
    """Which of ``count`` pages of the game to show now, or None for a match night's page of
    names, partie and team score: that takes one turn in at least five, so the score is on view
    at least 80 % of the time (each page of the game keeps its turns)."""
    if not match:
        return scene.turn(count)
    game = count * -(-4 // max(1, count))        # the least multiple of count that is at least 4
    if scene.shares([game, 1]):
        return None
    return scene.page(count)


def _tiny_turn(scene: Scene, pages: list, aside: list):
    """8-px counters: the page to show now of ``pages`` (they show the score), each in its turn,
    and ``aside`` (a word or the match night's facts on the whole counter): each of those one turn
    in a round where the score pages have at least four times as many, so the score is on view
    at least 80 % of the time."""
    if not aside:
        return pages[scene.page(len(pages))]
    main = len(pages) * -(-4 * len(aside) // len(pages))    # the least multiple of len(pages) >= 4 x aside
    if scene.shares([main, len(aside)]):
        return aside[scene.page(len(aside))]
    return pages[scene.page(len(pages))]


def _tiny_match(model: dict, w: dict) -> str:
    """A match night on 8-px counters: ``P2 3:5`` — the partie (8-ball: ``Z2``, the individual
    match) and the team points so far."""
    match = model.get("match") or {}
    points = match.get("points") or {}
    number = _word(w, "partie_short", model).format(n=match.get("partie", ""))
    return f"{number} {points.get('a', 0)}:{points.get('b', 0)}"


def _word(w: dict, key: str, model: dict) -> str:
    """The display's word ``key`` for the model's game: 8-ball has words of its own for some
    (an individual match, zápas, where carom has a partie)."""
    return w.get(f"{key}_{model.get('screen')}", w[key])


def _text(line) -> str:
    """The text of a middle-column line: a plain text or a (text, role) pair."""
    return line[0] if isinstance(line, tuple) else line


def _match_facts(model: dict, w: dict) -> list[str]:
    """On a match night (the model's ``match``, docs/screens.md): "2. partie" and "zápas 3:5" (the
    team points so far, the team of player A first, as the scores stand); 8-ball: "2. zápas" and
    "utkání 3:5" (its individual matches are zápasy, the team match an utkání)."""
    match = model.get("match")
    if not isinstance(match, dict) or not match.get("partie"):
        return []
    points = match.get("points") or {}
    return [_word(w, "partie_number", model).format(n=match["partie"]),
            _word(w, "match_score", model).format(a=points.get("a", 0), b=points.get("b", 0))]


def _grouped(flags: list, fits, width: int) -> list[str]:
    """Flags joined as many to a line as fit ``width``; a flag too wide alone goes on word by word
    ("BÍLÁ V RUCE" -> "BÍLÁ", "V RUCE"), never cut."""
    lines: list[str] = []
    for flag in flags:
        if lines and fits(f"{lines[-1]} {flag}") <= width:
            lines[-1] = f"{lines[-1]} {flag}"
        elif fits(flag) <= width:
            lines.append(flag)
        else:
            lines += wrap(flag, None, width, fits=fits)
    return lines


def _split(line, font, width: int) -> list:
    """A plain text line as it is when it fits ``width``, else its words, as many to a page as fit."""
    if not isinstance(line, str) or font.width(line) <= width:
        return [line]
    return wrap(line, None, width, fits=font.width) or [line]


def _surname(name: str) -> str:
    return name.split()[-1] if name.split() else name


def _short(name: str, scene: Scene, width: int) -> str:
    """The whole name if it fits, else the surname, cut to fit."""
    text = name if scene.text.width(name) <= width else _surname(name)
    return scene.text.fit(text, width)
