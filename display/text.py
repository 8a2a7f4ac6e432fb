"""The few words the display itself adds to a screen (everything else comes in the model,
already in the configured language). Short forms first: the smallest counters fit 8 letters.

``clock_text`` turns the sync part's ISO UTC times into the ``"HH:MM"`` local time screens show."""
from datetime import datetime, timezone, tzinfo

TEXTS = {
    "cs": {
        "left": "Z",              # points left to the limit: "Z 18"
        "equalising": "DOH",      # dohrávka, B's equalising inning
        "equalising_long": "dohrávka",
        "frozen": "LPÍ",          # koule lpí: frozen balls announced, 10 and 20 refused (RULES 1.2)
        "end": "KONEC",
        "draw": "REMÍZA",
        "wins": "VYHRÁL",
        "forfeit": "VZDAL",
        "average": "průměr",      # beside the two averages when it fits, else on its own line above
        "best": "nejvyšší série",
        "average_short": "JP",    # jednotlivý průměr (the partie's average) where "průměr" does not fit
        "best_short": "NS",       # nejvyšší série where the words do not fit
        "partie_number": "{n}. partie",     # match night: the partie being played, "2. partie"
        "partie_short": "P{n}",   # the same on 8-px counters, before the team score: "P2 3:5"
        "partie_number_8ball": "{n}. zápas",    # 8-ball: the individual match (zápas) of the team match
        "match_score_8ball": "utkání {a}:{b}",  # 8-ball: the team match (utkání)
        "partie_short_8ball": "Z{n}",
        "match_score": "zápas {a}:{b}",     # match night: team points so far, A's team first
        "inning": "náběh",
        "series": "série",
        "in_hand": "BÍLÁ V RUCE",     # ball in hand (8B:4)
        "open": "OTEVŘENÝ STŮL",     # open table: no groups yet (RULES 2.4)
        "pocket": "K",            # kapsa: the required 8 pocket, "K4"
        "pocket_long": "kapsa 8",
        "pocket_choice": "?",     # 8B:6f: the shooter may name the 8's pocket: "K5?" / "K?"
        "solids": "PLNÉ",
        "stripes": "PŮLK",
        "set": "SET",
        "unsent": "neodesl.",
        "refused": "odmítnuto",   # unsent, and the receiver refuses this device: "odmítnuto 3"
        "sent": "odesl.",
        "ready": "PŘIPRAVENO",
        "table": "stůl",          # a bare table number on the ready screen: "stůl 1"
        "error": "CHYBA",
        "error_config": "nastavení",      # the error screen's title: CHYBA nastavení (the code, in words)
        "error_keypad": "klávesnice",
        "error_display": "displej",
        "error_storage": "SD karta",
        "error_sync": "odesílání",
        "draw_failed": "obraz nelze vykreslit, hraje se dál: nahlaste chybu",   # a screen the display cannot draw
        "spi_off": "SPI vypnuté: raspi-config → Interface → SPI",     # the display's SPI device is missing
        "rolled_back": "Nová verze nenaběhla: zpět na {version}",      # systemd/install.sh rolled back
        "key": "klávesa",
        "press_key": "stiskni",
        "lot": "LOS",
        "match": "ZÁPAS",
        "break": "ROZSTŘEL",      # the break shot is next (RULES 2.3)
        "choose": "VOLBA",        # the shooter must choose a group (RULES 2.4)
        "foul": "FAUL",           # entered in the open shot
        "scratch": "BÍLÁ",        # the cue ball potted, entered in the open shot
        "nocushion": "NEPL",      # illegal break entered (nothing potted, < 2 balls to a cushion)
    },
    "en": {
        "left": "L",
        "equalising": "EQ",
        "equalising_long": "equalising",
        "frozen": "FROZEN",
        "end": "END",
        "draw": "DRAW",
        "wins": "WINS",
        "forfeit": "FORFEIT",
        "average": "average",
        "best": "high series",
        "average_short": "AVG",
        "best_short": "HS",
        "partie_number": "partie {n}",
        "partie_short": "P{n}",
        "match_score": "match {a}:{b}",
        "partie_number_8ball": "match {n}",
        "match_score_8ball": "team {a}:{b}",
        "partie_short_8ball": "M{n}",
        "inning": "inning",
        "series": "series",
        "in_hand": "BALL IN HAND",
        "open": "OPEN TABLE",
        "pocket": "P",
        "pocket_long": "8 pocket",
        "pocket_choice": "?",
        "solids": "SOLID",
        "stripes": "STRIPE",
        "set": "SET",
        "unsent": "unsent",
        "refused": "refused",
        "sent": "sent",
        "ready": "READY",
        "table": "table",
        "error": "ERROR",
        "error_config": "config",
        "error_keypad": "keypad",
        "error_display": "display",
        "error_storage": "storage",
        "error_sync": "sync",
        "draw_failed": "cannot draw the screen, scoring goes on: report it",
        "spi_off": "SPI off: raspi-config → Interface → SPI",
        "rolled_back": "The new version did not start: back on {version}",
        "key": "key",
        "press_key": "press",
        "lot": "DRAW",
        "match": "MATCH",
        "break": "BREAK",
        "choose": "CHOOSE",
        "foul": "FOUL",
        "scratch": "SCR",
        "nocushion": "ILL",
    },
}


def texts(language: str) -> dict[str, str]:
    return TEXTS.get(language, TEXTS["cs"])


def clock_text(iso_utc: str | None, tz: tzinfo | None = None) -> str | None:
    """``"2026-11-29T18:05:00Z"`` -> ``"19:05"``: an ISO time (UTC when it names no offset) as
    ``HH:MM`` in ``tz`` (default: the machine's local time zone). None for None or a text that
    is not an ISO time, so a bad value leaves the screen without a time instead of failing."""
    if not isinstance(iso_utc, str):
        return None
    try:
        moment = datetime.fromisoformat(iso_utc.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(tz).strftime("%H:%M")
