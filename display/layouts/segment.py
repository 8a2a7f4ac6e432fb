"""7-segment digit boards (MAX7219 with 8 or 16 digits): each screen becomes one line of text.

8 digits:  ``AAA.II.BBB`` — points A | inning | points B, kept apart by two decimal points that are
always lit (the inning blanks while blinking in the last 2 innings).
16 digits: ``AAA. SSS.II.SSS BBB`` — the running series stands on the side of the player at the
table, a decimal point after that player's score.
8-ball: ``GG S-S GG`` (several sets; the sets as ``1-0``), 16 digits ``GG  LL S-S LL GG`` — each
player's balls left (``P4`` once their group is cleared: the 8 goes into pocket 4) beside their games.
Pages (carom, both): at 20 points or fewer to go, the score of the player at the table takes turns with
``-18`` (points left), and ``do`` (B's equalising inning) with the inning. ``LP`` (frozen balls
announced, until the next stroke) takes turns with the inning, which it never hides for more than a page.
8 digits, a series running: ``175.Sr.111`` takes turns with the score — the series in the score's
place of the player at the table, ``Sr`` (série) in the inning's (RULES 1.7: the running series).
"""
import re

from display.layouts.base import Layout
from display.scene import Scene

_FROZEN = "LP"         # koule lpí: frozen balls announced (RULES 1.2)
_EQUALISING = "do"     # dohrávka: B's equalising inning
_SERIES = "Sr"         # série: the running series, 8 digits (RULES 1.7)


def _balls_left(current: dict, side: str) -> str:
    """A player's balls left on the table beside their games (blank before groups); once their
    group is cleared, the pocket their 8 must go into: ``P4`` (RULES 2.2)."""
    group = (current.get("groups") or {}).get(side)
    if not group:
        return ""
    left = (current.get("left") or {}).get(group, 0)
    pocket = (current.get("eight_pocket") or {}).get(side)
    return f"P{pocket}" if not left and pocket else str(left)


def _mark(text: str, marked: bool) -> str:
    return f"{text}." if marked else text


class SegmentLayout(Layout):
    """Each screen method returns the board's text (``.`` lights the previous digit's decimal point)."""

    message_covers = True

    def __init__(self, digits: int):
        self.digits = digits

    def line(self, scene: Scene, model: dict) -> str:
        """The text for the board."""
        return self.screen(model)(scene, model)

    def draw(self, scene: Scene, model: dict) -> None:
        _segments(scene, self.line(scene, model))

    def message(self, scene: Scene, message: dict, part: int = 0) -> int:
        """The message, as much of it as the digits hold, in place of the screen: one part."""
        scene.draw.rectangle((0, 0, scene.width - 1, scene.height - 1), fill=0)
        _segments(scene, self.fit(str(message.get("text", ""))[:self.digits]))
        return 1

    def fit(self, text: str) -> str:
        plain = text.replace(".", "")
        while len(plain) > self.digits:
            text = text[1:] if text[0] != "." else text[2:]
            plain = text.replace(".", "")
        return " " * (self.digits - len(plain)) + text

    def carom(self, scene: Scene, model: dict) -> str:
        summary = model["summary"]
        pa, pb = summary["players"]["a"], summary["players"]["b"]
        counter = summary.get("counter") or {}
        at = counter.get("at_table")
        left = (counter.get("points_left") or {}).get(at)
        pages = ["inning"] + (["left"] if left is not None and left <= 20 else [])     # RULES 1.7
        pages += ["equalising"] if counter.get("equalising") else []
        if counter.get("frozen"):       # until the next stroke LP takes turns with the inning (RULES 1.2, 1.7)
            pages = ["inning", "frozen"]
        series = counter.get("series") or 0
        if self.digits < 16 and series and at is not None:     # none at the end: no one at the table
            # no digit to spare for the series (RULES 1.7): a page of its own, in the inning's
            # place, which is then never hidden for more than one page
            pages += ["series"] if pages[-1] in ("inning", "left") else ["inning", "series"]
        page = pages[scene.page(len(pages))]
        inning = {"frozen": _FROZEN, "equalising": _EQUALISING, "series": _SERIES}.get(
            page, f"{counter.get('inning', 0) % 100:>2}")
        if page == "inning" and counter.get("last_two") and not scene.blink():
            inning = "  "
        if summary.get("finished"):
            inning = {"draw": "==", "a": "--", "b": "--"}.get(summary.get("result"), "--")
        shown = {"left": f"-{left}", "series": f"{series % 1000:>3}"}.get(page)
        points = {side: shown if shown is not None and side == at else f"{p['points'] % 1000:>3}"
                  for side, p in (("a", pa), ("b", pb))}
        a, b = f"{points['a']:>3}", f"{points['b']:>3}"
        if self.digits < 16:
            # AAA.II.BBB: the points are kept apart from the inning by two decimal points that are
            # always lit (185.11.111, never 18511111). No digit is left to mark the player at the
            # table: the 16-digit board does, with the series on their side.
            return self.fit(f"{a}.{inning}.{b}")
        # AAA SSS.II.SSS BBB: the series stands on the side of the player at the table, kept apart
        # from the inning by the points either side of it; the point after the score of the player
        # at the table marks them.
        running = f"{series % 1000:>3}"
        sa, sb = (running if at == "a" else "   "), (running if at == "b" else "   ")
        return self.fit(f"{_mark(a, at == 'a')} {sa}.{inning}.{sb} {_mark(b, at == 'b')}")

    def eightball(self, scene: Scene, model: dict) -> str:
        """Games at the edges (a point after the shooter's); several sets: the sets between them as
        ``1-0`` (RULES 2.9: the match score), never two digits that read as ten."""
        summary = model["summary"]
        games, sets = summary.get("games") or {}, summary.get("sets") or {}
        shooter = (summary.get("current") or {}).get("shooter")
        ga = _mark(f"{games.get('a', 0) % 100:>2}", shooter == "a")
        gb = _mark(f"{games.get('b', 0) % 100:>2}", shooter == "b")
        several = summary.get("sets_to_win", 1) > 1
        middle = f"{sets.get('a', 0) % 10}-{sets.get('b', 0) % 10}" if several else "   "
        if self.digits < 16:
            return self.fit(f"{ga} {middle}{gb}")
        la, lb = (_balls_left(summary.get("current") or {}, side) for side in ("a", "b"))
        return self.fit(f"{ga}  {la:>2} {middle} {lb:<2} {gb}")

    def ready(self, scene: Scene, model: dict) -> str:
        time = str(model.get("time") or "").replace(":", "-")
        unsent = model.get("unsent") or 0
        status = (f"E{unsent}" if model.get("refused") else str(unsent)) if unsent else ""
        line = f"{time} {status}"       # E: the receiver refuses this device (not the network)
        return self.fit(line if len(line) <= self.digits else f"{time}{status}")

    def menu(self, scene: Scene, model: dict) -> str:
        return self.fit(f"P {int(model.get('selected') or 0) + 1}")

    def prompt(self, scene: Scene, model: dict) -> str:
        return self.fit(f"{model.get('value') or ''}_")

    def lotdraw(self, scene: Scene, model: dict) -> str:
        return self.fit(str(model.get("seed", ""))[-self.digits:])

    def match(self, scene: Scene, model: dict) -> str:
        points = model.get("points") or {}
        return self.fit(f"{points.get('home', 0)}-{points.get('away', 0)}")

    def error(self, scene: Scene, model: dict) -> str:
        """"Err conF", then where it is — a config error's section and option, a word a page."""
        words = [word[:self.digits] for word in re.split(r"[\s.\[\]:]+", str(model.get("where") or "")) if word]
        pages = [f"Err {str(model.get('code', ''))[:self.digits - 4]}"] + words
        return self.fit(pages[scene.page(len(pages))])

    def keytest(self, scene: Scene, model: dict) -> str:
        return self.fit(str(model.get("key") or "-")[-self.digits:])

    def unknown(self, scene: Scene, model: dict) -> str:
        return "-" * self.digits


def _segments(scene: Scene, text: str) -> None:
    """Encode text for a 7-segment board the way luma's sevensegment does (column = digit,
    bit 7 the decimal point, which luma's emulator does not draw)."""
    from luma.led_matrix.segment_mapper import dot_muncher

    data = bytearray(dot_muncher(text, notfound="_"))[:scene.width].ljust(scene.width, b"\0")
    for x, byte in enumerate(reversed(data)):
        for y in range(8):
            if byte >> y & 1:
                scene.draw.point((x, y), fill=scene.fill["text"])
