"""Dot-matrix layouts (MAX7219 cascades, WS2812 panels, emulators): one set of screens whose
geometry follows the counter's size. The game screens are here; the text screens are in
``text_screens``.

* 8 px high (32x8 …): scores in 3x7 digits, one 3x5 line, secondary facts on pages.
* 16–31 px high (64x16, 96x16 …): scores in digits the full height; facts in the middle column.
* 32 px and more (128x32 …): scores above a row of names; facts in the middle column.
"""
from dataclasses import dataclass

from display import fonts
from display.layouts.base import Layout
from display.layouts.text_screens import TextScreens, wrap
from display.scene import Scene

_MIDDLE = 28    # the narrowest middle column: "12/15" in small digits, "◄13" in the big font


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int

    @property
    def tiny(self) -> bool:
        return self.height < 16

    @property
    def names(self) -> bool:
        return self.height >= 32

    @property
    def digit_height(self) -> int:
        if self.tiny:
            return 7                  # row 7 underlines the player at the table
        return self.height - 8 if self.names else self.height

    @property
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
        if self.geometry.tiny:
            self._carom_tiny(scene, summary, at, inning_line, series, left, [frozen] if frozen else marks)
            return
        extras = ([f"{w['left']} {left}"] if left is not None else []) + marks
        # On a match night the partie number and the team score take their turn (not while frozen
        # balls are announced: that mark must show at once, and lasts only until the next stroke).
        match = [] if frozen else _match_facts(model, w)
        if self.geometry.names:     # three lines; the points left, the marks and the match take turns on the third
            thirds = [frozen] if frozen else extras + match
            lines = [inning_line, (series_text, at or "text"), thirds[scene.page(len(thirds))] if thirds else ""]
        else:                   # two lines: the inning takes turns with the points left and the marks
            firsts = [inning_line] + extras
            if counter.get("last_two"):     # RULES 1.7: the last 2 innings stay in view, no names' page
                match = []
            turn = scene.turn(len(firsts) + bool(match))
            if turn == len(firsts):     # names alternate with the scores; the partie and the match below
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
        small capitals when they do not fit with their diacritics), the partie number and the team
        score below. Two surnames too long for one row take a row each, and the partie and the team
        score have the next turn of this page to themselves."""
        g = self.geometry
        gap = 4
        a, b = _surname(name_a), _surname(name_b)
        font = next((f for f in (scene.text, scene.small) if f.width(a) + gap + f.width(b) <= g.width), None)
        if font is None:
            if scene.page(2) == 0:
                scene.write(a, (0, 0, g.width, 8), role="a")
                scene.write(b, (0, 8, g.width, 16), align="right", role="b")
            else:
                for row, fact in enumerate(match):
                    scene.write(fact, (0, 8 * row, g.width, 8 * row + 8), align="center")
            return
        split = font.width(a) + gap // 2
        scene.write(a, (0, 0, split - 1, 8), role="a", font=font)
        scene.write(b, (split + 1, 0, g.width, 8), align="right", role="b", font=font)
        both = ", ".join(match)
        line = both if scene.font_for(both, g.width).width(both) <= g.width else match[scene.page(len(match))]
        scene.write(line, (0, 8, g.width, 16), align="center")

    def _carom_tiny(self, scene: Scene, summary: dict, at, inning_line, series: int, left, marks) -> None:
        """8-px counters: the scores stay; between them the inning, then the series (the bar under
        the player at the table runs on under it), then the points left — as ``-18`` in place of
        the score of the player at the table — and the marks, each a page. The inning of the limit
        (``1/15``, RULES 1.7) stands in the middle when it fits there, else the bare inning does
        and ``1/15`` has a page of the whole counter next to it."""
        pa, pb = summary["players"]["a"]["points"], summary["players"]["b"]["points"]
        digits = min(3, max(2, *(len(str(v)) for v in (summary.get("points_limit") or 0, pa, pb))))
        x0, x1 = self._middle_box(digits)
        inning = str((summary.get("counter") or {}).get("inning", 0))
        of_limit = _text(inning_line())
        in_middle = of_limit if scene.small.width(of_limit) <= x1 - x0 else inning
        pages = ["inning"] + (["limit"] if in_middle != of_limit else [])
        if marks == [scene.words["frozen"]]:      # until the next stroke: the mark and the inning only
            pages += marks
        else:
            pages += (["series"] if series and at else []) + (["left"] if left is not None else []) + marks
        page = pages[scene.page(len(pages))]
        if page == "left":
            pa, pb = (f"-{left}", pb) if at == "a" else (pa, f"-{left}")
        text = inning_line(in_middle) if page == "inning" else str(series) if page == "series" else page
        if page == "series" and scene.small.width(_arrowed(series, at)) <= x1 - x0:
            text = _arrowed(series, at)
        if page == "limit":
            text = inning_line()
        if page not in ("inning", "left") and scene.small.width(_text(text)) > x1 - x0:
            # a series of 100, "12/15" or a mark too wide for the middle has the whole counter for its page
            text = _arrowed(series, at) if page == "series" else text
            if not isinstance(text, tuple):
                scene.write(text, (0, 0, self.geometry.width, self.geometry.height - 1), align="center",
                            font=scene.small)
            self._underline(scene, at, digits, through_middle=page == "series")
            return
        self._scores(scene, pa, pb, digits)
        self._underline(scene, at, digits, through_middle=page == "series")
        if page != "left":
            self._middle(scene, x0, x1, [text if isinstance(text, tuple) else (text, "text")])

    def _carom_result(self, scene: Scene, summary: dict, pa: dict, pb: dict) -> None:
        """Page 0: the final score and who won; then the result, averages and highest series."""
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
        rows: list = wrap(headline, scene, self.geometry.width)
        for facts in ((avg_a, w["average"], avg_b),
                      (str(pa.get("best_series", 0)), w["best"], str(pb.get("best_series", 0)))):
            if not self._label_fits(scene, *facts):     # two bare numbers: say first what they are
                rows += wrap(facts[1], scene, self.geometry.width)
            rows.append(facts)
        per_page = max(1, self.geometry.height // 8)
        pages = [rows[i:i + per_page] for i in range(0, len(rows), per_page)]
        page = scene.page(1 + len(pages))
        if page == 0:
            x0, x1 = self._scores(scene, pa["points"], pb["points"])
            self._names(scene, pa.get("name", ""), pb.get("name", ""))
            self._middle(scene, x0, x1, [w["end"], pointer] if not self.geometry.tiny else [pointer])
            return
        for i, row in enumerate(pages[page - 1]):
            box = (0, i * 8, self.geometry.width, i * 8 + 8)
            if isinstance(row, tuple):
                self._facts(scene, box, *row)
            else:
                scene.write(row, box, align="center")

    def _facts_font(self, scene: Scene, va: str, label: str, vb: str):
        return scene.small if self.geometry.tiny else scene.font_for(f"{va} {label} {vb}", self.geometry.width)

    def _label_fits(self, scene: Scene, va: str, label: str, vb: str) -> bool:
        return self._facts_font(scene, va, label, vb).width(f"{va} {label} {vb}") <= self.geometry.width

    def _facts(self, scene: Scene, box, va: str, label: str, vb: str) -> None:
        """Player A's value on the left, a label in the middle (when it fits), B's value on the right."""
        font = self._facts_font(scene, va, label, vb)
        scene.write(va, box, role="a", font=font)
        scene.write(vb, box, align="right", role="b", font=font)
        if self._label_fits(scene, va, label, vb):
            scene.write(label, box, align="center", font=font)

    def eightball(self, scene: Scene, model: dict) -> None:
        summary = model["summary"]
        w = scene.words
        games, sets = summary.get("games") or {}, summary.get("sets") or {}
        current = summary.get("current") or {}
        names = summary.get("names") or {}
        shooter = current.get("shooter")
        # On a match night the names, the partie number and the team score take turns with the games
        # (not while a shot is being entered: each key shows at once).
        match = _match_facts(model, w) if not (summary.get("finished") or current.get("pending")) else []
        if match and not self.geometry.tiny and not self.geometry.names and scene.turn(2):
            self._match_page(scene, names.get("a", ""), names.get("b", ""), match)   # names alternate with games
            return
        digits = max(1, len(str(max(games.get("a", 0), games.get("b", 0)))))
        x0, x1 = self._scores(scene, games.get("a", 0), games.get("b", 0), digits)
        self._underline(scene, shooter, digits)
        self._names(scene, names.get("a", ""), names.get("b", ""), shooter)

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
        several_sets = summary.get("sets_to_win", 1) > 1
        if self.geometry.tiny:
            set_text = f"{sets.get('a', 0)}:{sets.get('b', 0)}" if several_sets else ""
            self._tiny_pages(scene, x0, x1, [set_text, groups] + _grouped(flags, scene.small.width, x1 - x0),
                             shooter, digits)
            return
        if several_sets:        # sets won, small beside each player's games (as on tennis boards)
            top = (x0, 0, x1, scene.small.height)
            scene.write(str(sets.get("a", 0)), top, role="a", font=scene.small, valign="top")
            scene.write(str(sets.get("b", 0)), top, align="right", role="b", font=scene.small, valign="top")
            x0, x1 = x0 + 5, x1 - 5
        parts = _grouped(flags, scene.small.width, x1 - x0)    # as many flags as fit, a long one word by word
        flag_line = parts[scene.page(len(parts))] if parts else ""
        third = match[scene.page(len(match))] if match and self.geometry.names else ""
        self._middle(scene, x0, x1, [groups, flag_line, third])

def _pending(pending: list, w: dict) -> str:
    """What the referee has entered of the open shot, in entry order: "+PŮ +8" , "+2PL +FAUL"."""
    labels = {"solid": w["solids"][:2], "stripe": w["stripes"][:2], "pot8": "8", "scratch": w["scratch"],
              "foul": w["foul"], "nocushion": w["nocushion"]}
    counts: dict[str, int] = {}
    for cmd in pending:
        key = cmd.get("ball") if cmd.get("cmd") == "pot" else cmd.get("cmd")
        counts[key] = counts.get(key, 0) + 1
    return " ".join(f"+{n if n > 1 else ''}{labels.get(key, '?')}" for key, n in counts.items())


def _text(line) -> str:
    """The text of a middle-column line: a plain text or a (text, role) pair."""
    return line[0] if isinstance(line, tuple) else line


def _match_facts(model: dict, w: dict) -> list[str]:
    """On a match night (the model's ``match``, docs/screens.md): "2. partie" and "zápas 3:5" (the
    team points so far, the team of player A first, as the scores stand)."""
    match = model.get("match")
    if not isinstance(match, dict) or not match.get("partie"):
        return []
    points = match.get("points") or {}
    return [w["partie_number"].format(n=match["partie"]),
            w["match_score"].format(a=points.get("a", 0), b=points.get("b", 0))]


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
