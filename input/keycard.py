"""A printable key reference card drawn from the active key map (PIL).

The numeric keypad is drawn in its usual layout; a 4x4 matrix keypad and GPIO buttons are drawn
too when [keypad] uses them; keys bound elsewhere are listed. Each key shows its tap action and,
in red, what holding it does.
"""
import glob

from PIL import Image, ImageDraw, ImageFont

from input.keymap import KeyMap, key_label
from input.messages import label
from input.settings import KeypadSettings

# (key, column, row, width, height) in key units: the common 17-key numeric keypad.
NUMPAD = [
    ("numlock", 0, 0, 1, 1), ("/", 1, 0, 1, 1), ("*", 2, 0, 1, 1), ("-", 3, 0, 1, 1),
    ("7", 0, 1, 1, 1), ("8", 1, 1, 1, 1), ("9", 2, 1, 1, 1), ("+", 3, 1, 1, 2),
    ("4", 0, 2, 1, 1), ("5", 1, 2, 1, 1), ("6", 2, 2, 1, 1),
    ("1", 0, 3, 1, 1), ("2", 1, 3, 1, 1), ("3", 2, 3, 1, 1), ("enter", 3, 3, 1, 2),
    ("0", 0, 4, 2, 1), ("dot", 2, 4, 1, 1),
]
TITLES = {
    "cs": {"carom": "Karambol – klávesy rozhodčího", "8ball": "8-ball – klávesy rozhodčího",
           "hold": "podržet", "numpad": "Numerická klávesnice", "matrix": "Maticová klávesnice 4×4",
           "buttons": "Tlačítka (BCM pin)", "other": "Další klávesy",
           "foot": "Podržet = stisk delší než {s:g} s. Vzdání, uzavření skončené partie (zápasu): "
                   "podržet Enter → menu → číslo → 1 → podržet Enter (Ano). Uzavření vrátí - do dalšího úderu.",
           "foot_carom": " Enter mezi údery: Zápis partie – oprava náběhu, vložení zapomenutého náběhu.",
           "foot_8ball": " Padly koule obou skupin: skupinu volí / → 1 / 2, nebo (i bez /, maticová) podržet Enter "
                         "→ 1 Skupina: plné (1–7), 2 Skupina: půlené (9–15).",
           "marks_carom": "Na počítadle: 3/15 – náběh z limitu (v posledních 2 bliká); ◄13 – série hráče u stolu "
                          "(na 32x8 i pruh pod ní od jeho skóre); Z 18, -18 – zbývá 18 bodů; DOH – dohrávka; LPÍ – "
                          "koule lpí (jen 1 nebo 2); 2. partie, zápas 3:5 (32x8: P2 3:5) – partie utkání a body "
                          "týmů (tým hráče vlevo první); JP – průměr partie, NS – nejvyšší série. Sedmisegmentovka: "
                          "185.11.111 – body A. náběh. body B. 175.Sr.111 – série hráče u stolu (místo jeho bodů).",
           "marks_8ball": "Na počítadle: velká čísla – sety (jediný set: hry), malá – hry v rozehraném setu; PŮ7 "
                          "PL0 – půlené/plné, kolik jich zbývá; K4 – osmička do kapsy 4; K5? – kapsu pro osmičku "
                          "lze zvolit (jinak 5); 2. zápas, utkání 3:5 (32x8: Z2 3:5) – zápas utkání a body týmů. "
                          "Sedmisegmentovka: hry, sety 1-0, hry.",
           "pockets": "Kapsy – pohled od rozstřelu (číslo = klávesa kapsy)",
           "pockets_note": "Na otázku „Kapsa 8?“ (nebo kapsa poslední koule skupiny) stiskněte klávesu kapsy, do "
                           "které koule padla. Osmička musí do kapsy naproti té, kam padla poslední koule skupiny: "
                           "1↔4, 3↔6, 2↔5.",
           "break_end": "rozstřel"},
    "en": {"carom": "Carom – referee keys", "8ball": "8-ball – referee keys", "hold": "hold",
           "numpad": "Numeric keypad", "matrix": "4x4 matrix keypad", "buttons": "Buttons (BCM pin)",
           "other": "Other keys",
           "foot": "Hold = press longer than {s:g} s. Forfeit, closing a finished partie (match): "
                   "hold Enter → menu → number → 1 → hold Enter (yes). - takes a closing back until the next stroke.",
           "foot_carom": " Enter between strokes: the partie record – correct an inning, insert a forgotten one.",
           "foot_8ball": " Balls of both groups dropped: choose the group with / → 1 / 2, or (also without /, the "
                         "matrix) hold Enter → 1 Group: solids (1–7), 2 Group: stripes (9–15).",
           "marks_carom": "On the counter: 3/15 – inning of the limit (blinks in the last 2); ◄13 – series of the "
                          "player at the table (on 32x8 also a bar under it from their score); L 18, -18 – 18 "
                          "points to go; EQ – equalising inning; FROZEN – frozen balls (1 or 2 only); partie 2, "
                          "match 3:5 (32x8: P2 3:5) – the match's partie and team points (the left player's team "
                          "first); AVG – the partie's average, HS – high series. 7-segment: 185.11.111 – points A. "
                          "inning. points B. 175.Sr.111 – the series of the player at the table (in place of their points).",
           "marks_8ball": "On the counter: big digits – sets (one set: games), small – games in the set in play; "
                          "ST7 SO0 – stripes/solids and how many are left; P4 – the 8 into pocket 4; P5? – the "
                          "pocket for the 8 may be named (else 5); match 2, team 3:5 (32x8: M2 3:5) – the "
                          "individual match and team points. 7-segment: games, sets 1-0, games.",
           "pockets": "Pockets seen from the breaking end (number = the pocket's key)",
           "pockets_note": "When the counter asks \"8 pocket?\" (or for a group's last ball), press the key of the "
                           "pocket the ball dropped into. The 8 must go into the pocket opposite the one the group's "
                           "last ball dropped into: 1↔4, 3↔6, 2↔5.",
           "break_end": "break"},
}
MATRIX_ONLY = {"A", "B", "C", "D", "#"}
UNIT_W, UNIT_H, GAP, MARGIN = 250, 150, 12, 40
INK, TAP, HOLD, FRAME, PAPER = (0, 0, 0), (0, 60, 140), (190, 0, 0), (90, 90, 90), (255, 255, 255)
FONT_NAMES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LiberationSans-Regular.ttf",
              "FreeSans.ttf")


def find_font() -> str | None:
    """A TrueType font with Czech diacritics if one is installed, else None."""
    for name in FONT_NAMES:
        found = sorted(glob.glob(f"/usr/share/fonts/**/{name}", recursive=True))
        if found:
            return found[0]
    return None


def _font(path, size):
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


class Card:
    def __init__(self, keymap: KeyMap, settings: KeypadSettings, language: str = "cs",
                 font_path: str | None = None):
        self.keymap, self.settings = keymap, settings
        self.texts = TITLES.get(language, TITLES["cs"])
        self.language = language
        path = font_path if font_path is not None else find_font()
        self.big, self.small, self.title = _font(path, 40), _font(path, 24), _font(path, 44)
        self.shown: set[str] = set()
        self.pockets = any(key for _, _, key in pocket_map(keymap))     # a game entered by pocket (8-ball)

    def render(self) -> Image.Image:
        blocks = [(self.texts["numpad"], NUMPAD)]
        if "matrix" in self.settings.devices:
            blocks.append((self.texts["matrix"], self._matrix_layout()))
        if "buttons" in self.settings.devices:
            blocks.append((self.texts["buttons"], self._buttons_layout()))
        width = MARGIN * 2 + 4 * (UNIT_W + GAP)
        heights = [self._block_height(layout) for _, layout in blocks]
        others = self._others(blocks)
        height = MARGIN * 2 + 70 + sum(heights) + 60 * len(blocks) + 40 * (len(others) + 1) + 90
        height += 300 + (POCKET_MAP_HEIGHT if self.pockets else 0)      # the marks, the pockets; cropped
        image = Image.new("RGB", (width, height), PAPER)
        draw = ImageDraw.Draw(image)
        draw.text((MARGIN, MARGIN), self.texts[self.keymap.game], font=self.title, fill=INK)
        y = MARGIN + 80
        for (heading, layout), block_height in zip(blocks, heights):
            draw.text((MARGIN, y), heading, font=self.small, fill=FRAME)
            self._keys(draw, layout, y + 40)
            y += block_height + 60
        if self.pockets:
            y = self._pocket_map(draw, y)
        if others:
            draw.text((MARGIN, y), self.texts["other"], font=self.small, fill=FRAME)
            for key in others:
                y += 40
                draw.text((MARGIN, y), f"{key_label(key)}: {self._describe(key)}",
                          font=self.small, fill=INK)
            y += 50
        foot = self.texts["foot"].format(s=self.settings.long_press) + self.texts.get(f"foot_{self.keymap.game}", "")
        y = self._wrapped(draw, foot, (MARGIN, y), width - 2 * MARGIN, INK)
        y = self._wrapped(draw, marks(self.keymap.game, self.language), (MARGIN, y + 20), width - 2 * MARGIN, FRAME)
        return image.crop((0, 0, width, min(height, y + MARGIN)))

    def _pocket_map(self, draw, top: int) -> int:
        """The table seen from the breaking end (RULES 2.1), each pocket labelled with the key that
        enters it, as the keypad's digits are bound: 1 top left … 6 top right. Returns the y below."""
        draw.text((MARGIN, top), self.texts["pockets"], font=self.small, fill=FRAME)
        x0, y0 = MARGIN + 60, top + 70
        width, height, radius = TABLE_W, 2 * TABLE_W, 34
        draw.rectangle((x0, y0, x0 + width, y0 + height), outline=FRAME, width=6)
        draw.line((x0 + 20, y0 + height * 3 // 4, x0 + width - 20, y0 + height * 3 // 4), fill=FRAME, width=2)
        for _, (col, row), key in pocket_map(self.keymap):
            cx, cy = x0 + col * width, y0 + row * height // 2
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PAPER, outline=INK, width=4)
            text = key_label(key) if key else "–"
            draw.text((cx - draw.textlength(text, font=self.big) / 2, cy - 25), text, font=self.big, fill=TAP)
        note_x = x0 + width + 90
        self._wrapped(draw, self.texts["pockets_note"], (note_x, y0), MARGIN + 4 * (UNIT_W + GAP) - note_x, INK)
        label_w = draw.textlength(self.texts["break_end"], font=self.small)
        draw.text((x0 + (width - label_w) / 2, y0 + height + 40), self.texts["break_end"], font=self.small, fill=FRAME)
        return y0 + height + 100

    def _matrix_layout(self):
        m = self.settings.matrix
        cols = len(m.cols)
        return [(key, i % cols, i // cols, 1, 1) for i, key in enumerate(m.keys)]

    def _buttons_layout(self):
        return [(f"{key}@{pin}", i % 4, i // 4, 1, 1)
                for i, (key, pin) in enumerate(self.settings.buttons.pins)]

    @staticmethod
    def _block_height(layout) -> int:
        rows = max(r + h for _, _, r, _, h in layout) if layout else 0
        return rows * (UNIT_H + GAP)

    def _others(self, blocks) -> list[str]:
        drawn = {name.split("@")[0] for _, layout in blocks for name, *_ in layout}
        bound = list(self.keymap.tap) + [k for k in self.keymap.hold if k not in self.keymap.tap]
        if "matrix" not in self.settings.devices:
            drawn |= MATRIX_ONLY
        return [k for k in bound if k not in drawn]

    def _describe(self, key: str) -> str:
        parts = [label(self.keymap.tap[key], self.language)] if key in self.keymap.tap else []
        if key in self.keymap.hold:
            parts.append(f"{self.texts['hold']}: {label(self.keymap.hold[key], self.language)}")
        return "; ".join(parts) or "–"

    def _keys(self, draw, layout, top: int) -> None:
        for name, col, row, w, h in layout:
            key, _, pin = name.partition("@")
            x0, y0 = MARGIN + col * (UNIT_W + GAP), top + row * (UNIT_H + GAP)
            x1, y1 = x0 + w * UNIT_W + (w - 1) * GAP, y0 + h * UNIT_H + (h - 1) * GAP
            draw.rounded_rectangle((x0, y0, x1, y1), radius=14, outline=FRAME, width=3)
            text = key_label(key) + (f"  ({pin})" if pin else "")
            draw.text((x0 + 14, y0 + 6), text, font=self.big, fill=INK)
            y = y0 + 58
            if key in self.keymap.tap:
                y = self._wrapped(draw, label(self.keymap.tap[key], self.language),
                                  (x0 + 14, y), x1 - x0 - 24, TAP)
            if key in self.keymap.hold:
                self._wrapped(draw, f"{self.texts['hold']}: "
                              f"{label(self.keymap.hold[key], self.language)}",
                              (x0 + 14, y), x1 - x0 - 24, HOLD)

    def _wrapped(self, draw, text: str, at, width: int, fill) -> int:
        """Draw ``text`` word-wrapped to ``width``; return the y below it."""
        x, y = at
        line = ""
        for word in text.split(" "):        # a no-break space keeps "Z 18" on one line
            trial = f"{line} {word}".strip()
            if line and draw.textlength(trial, font=self.small) > width:
                draw.text((x, y), line, font=self.small, fill=fill)
                y, line = y + 30, word
            else:
                line = trial
        if line:
            draw.text((x, y), line, font=self.small, fill=fill)
            y += 30
        return y


# RULES 2.1: pockets seen from the breaking end (the bottom): (column, row) on a table 1 wide, 2 long.
POCKETS = {1: (0, 0), 2: (0, 1), 3: (0, 2), 4: (1, 2), 5: (1, 1), 6: (1, 0)}
TABLE_W = 220
POCKET_MAP_HEIGHT = 2 * TABLE_W + 240


def pocket_map(keymap: KeyMap) -> list[tuple[int, tuple[int, int], str | None]]:
    """(pocket, its place on the table, the key bound to enter it) for pockets 1–6."""
    return [(pocket, place, next(iter(keymap.keys_for(f"pocket{pocket}")), None))
            for pocket, place in POCKETS.items()]


def marks(game: str, language: str = "cs") -> str:
    """What the marks on the counter that are not whole words mean (display/text.py says them)."""
    return TITLES.get(language, TITLES["cs"]).get(f"marks_{game}", "")


def render(keymap: KeyMap, settings: KeypadSettings, language: str = "cs",
           font_path: str | None = None) -> Image.Image:
    return Card(keymap, settings, language, font_path).render()
