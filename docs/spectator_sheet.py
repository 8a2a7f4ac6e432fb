"""The spectator sheet: a whole carom league match night as spectators see it on each counter.

The night is played from the referee's keys through the real service (`pocitadlo emulate --keys`'s
ScriptPlayer, on a script clock, the bundled emulator config and league), so the sheet shows what a
counter shows, not a mock-up: the ready screen, the lot draw, a partie from its first series to
its end figures, the next partie with the team score, a forfeit, the zápis with the captains'
signatures, and the ready screen again. Each moment is drawn on a 32x8 and a 64x16 MAX7219, a
128x32 MAX7219 and an 8-digit 7-segment board, with every page the counter turns to (left to right),
by luma's emulator as docs/make_images.py draws the other pictures.

    .venv/bin/python docs/make_images.py spectator-sheet.png
"""
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (label, [display] options, how many of the emulator's pixels make one of the sheet's: luma draws
# an LED 16 pixels wide, which the sheet shrinks to 4)
SIZES = [("32x8", {"width": 32, "height": 8}, 4), ("64x16", {"width": 64, "height": 16}, 4),
         ("128x32", {"width": 128, "height": 32}, 4), ("7 segmentů, 8 míst", {"emulate": "sevensegment", "digits": 8}, 1)]
PAGES_SHOWN = 4         # at most this many pages of one moment on one counter
TONIGHT = datetime(2026, 11, 29, 19, 30)        # config/examples/league.toml: Sokol Dvůr – Jiskra Hořice
CET = timezone(timedelta(hours=1), "CET")

# The night, in terminal key letters (docs/referee.md "Key scripts"): newline = Enter, h = hold.
SETUP = "\n" * 6 + "\n" + "\n"               # ready → utkání → all present ×2 → captains ×2 → lot draw → A starts
PARTIE_1 = "8870" "8720" "880" "770" "80" "880" "20" "0" "77" "0"     # A 120 : B 102 in 5 innings
CLOSE = "\n1h\n" "\n"                        # Uzavřít partii? 1 Ano, held Enter; the next partie: A starts
PARTIE_2 = "888888" "0"                      # A reaches the limit in one inning; B misses the equaliser
PARTIE_3 = "77" "h\n" "2" "1" "h\n"          # Veselý forfeits: the menu, 2, "Vzdává Veselý?" 1, held Enter
PARTIE_4 = "888888" "0"
SIGN = "\n" + "h\n" + "h\n"                  # the zápis → each captain named signs by the long press
SCRIPT = SETUP + PARTIE_1 + CLOSE + PARTIE_2 + CLOSE + PARTIE_3 + CLOSE + PARTIE_4 + "\n1h\n" + SIGN


def _carom(model: dict) -> dict | None:
    return model["summary"] if model.get("screen") == "carom" else None


def _counter(model: dict) -> dict:
    return (_carom(model) or {}).get("counter") or {}


def _points(model: dict) -> tuple:
    players = _carom(model)["players"]
    return players["a"]["points"], players["b"]["points"]


# (label, the first model of the night it picks)
MOMENTS = [
    ("Připraveno: místo, stůl, čas", lambda m, seen: m["screen"] == "ready"),
    ("Los partií (semínko pro kapitány)", lambda m, seen: m["screen"] == "lotdraw"),
    ("1. partie: série hráče u stolu", lambda m, seen: _counter(m).get("series", 0) >= 40),
    ("Trojmístné skóre 110:92, série B", lambda m, seen: _carom(m) and _points(m) == (110, 92)
     and _counter(m).get("series") == 40),
    ("Poslední 2 náběhy, zbývá 8 bodů", lambda m, seen: _counter(m).get("last_two") and _points(m) == (112, 92)),
    ("Konec 1. partie: výsledek, průměr, nejvyšší série",
     lambda m, seen: _carom(m) and _carom(m).get("finished") and (m.get("match") or {}).get("partie") == 1),
    ("2. partie: jména, číslo partie, body týmů 2:0",
     lambda m, seen: _carom(m) and (m.get("match") or {}).get("partie") == 2 and _counter(m).get("series") == 40),
    ("3. partie vzdána", lambda m, seen: _carom(m) and _carom(m).get("forfeit")),
    ("Zápis utkání (vzdaná partie označena)", lambda m, seen: m["screen"] == "match"),
    ("Podpis kapitána", lambda m, seen: m["screen"] == "menu" and str(m.get("title", "")).startswith("Podpis")),
    ("Připraveno: utkání odesílá", lambda m, seen: m["screen"] == "ready" and seen),
]


def play_night(folder: Path) -> list[dict]:
    """Every screen model the counter showed through the night, in order."""
    from argparse import Namespace

    from cli.commands import emulate
    from clock import ManualClock
    from input.terminal import keys_in

    text = (ROOT / "config" / "examples" / "emulator.toml").read_text(encoding="utf-8")
    text = text.replace('league = "league.toml"', f'league = "{(ROOT / "config" / "examples" / "league.toml").as_posix()}"')
    text = text.replace("points_limit = 200", "points_limit = 120").replace("innings_limit = 15", "innings_limit = 5")
    config = folder / "night.toml"
    config.write_text(text, encoding="utf-8")
    args = Namespace(config=str(config), data=str(folder / "data"), keys="script", frames=None)
    player = emulate.ScriptPlayer(emulate.emulator_config(args), clock=ManualClock(TONIGHT, zone=CET))
    drawn = iter(range(1, 1000))
    player.service.night.urandom = lambda size: bytes([next(drawn) * 37 % 256] * size)     # a known seed and ids
    models = [player.service.screen()]
    for key, held in keys_in(SCRIPT):
        models.append(player.key(key, held))
    return models


def moments(models: list[dict]) -> list[tuple[str, dict]]:
    picked, seen = [], False
    for label, wanted in MOMENTS:
        found = next((i for i, m in enumerate(models) if wanted(m, seen) and (not picked or i > picked[-1][0])), None)
        if found is None:
            raise RuntimeError(f"the night never showed: {label}")
        picked.append((found, label, models[found]))
        seen = True
    return [(label, {key: value for key, value in model.items() if key != "message"}) for _, label, model in picked]


def pages(model: dict, size: dict, shrink: int, folder: Path) -> list:
    """The counter's distinct pictures of ``model`` over its page cycle, as luma's emulator draws
    them, ``shrink`` times smaller."""
    from PIL import Image

    from display.counter import Counter
    from display.devices import open_device
    from display.settings import DisplaySettings

    settings = DisplaySettings(driver="capture", emulator_transform="led_matrix",
                               file_template=str(folder / "page-{0:06}.png"), **size)
    device = open_device(settings)
    counter = Counter(device, settings)
    shown, pictures = set(), []
    for page in range(20):
        image = counter.render(model, page * settings.page_seconds).image
        if image.tobytes() in shown:
            continue
        shown.add(image.tobytes())
        device.display(image)
        with Image.open(folder / f"page-{device._count:06}.png") as drawn:
            picture = drawn.convert("RGB")
        pictures.append(picture.resize((picture.width // shrink, picture.height // shrink), Image.Resampling.BOX))
        if len(pictures) == PAGES_SHOWN:
            break
    return pictures


def draw(path: Path) -> Path:
    from PIL import Image, ImageDraw

    from input.keycard import _font, find_font

    font_path = find_font()
    title, label_font = _font(font_path, 26), _font(font_path, 18)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = []           # (moment label, [(size label, [pictures])])
        for label, model in moments(play_night(folder)):
            rows.append((label, [(name, pages(model, size, shrink, folder)) for name, size, shrink in SIZES]))
    gap, left, margin = 10, 200, 20
    width = margin + left + max(sum(p.width + gap for p in pictures) for _, cells in rows for _, pictures in cells)
    height = margin + 50 + sum(40 + sum(max(p.height for p in pictures) + gap for _, pictures in cells) + 20
                               for _, cells in rows)
    sheet = Image.new("RGB", (width + margin, height), (24, 24, 24))
    pen = ImageDraw.Draw(sheet)
    pen.text((margin, margin), "Utkání Sokol Dvůr – Jiskra Hořice, jak ho vidí diváci", font=title, fill=(240, 240, 240))
    y = margin + 50
    for label, cells in rows:
        pen.text((margin, y + 8), label, font=title, fill=(255, 200, 80))
        y += 40
        for name, pictures in cells:
            pen.text((margin, y + 4), name, font=label_font, fill=(170, 170, 170))
            x = margin + left
            for picture in pictures:
                sheet.paste(picture, (x, y))
                x += picture.width + gap
            y += max(p.height for p in pictures) + gap
        y += 20
    sheet.save(path, format="PNG", optimize=True)
    return path
