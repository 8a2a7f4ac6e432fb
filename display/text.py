"""The few words the display itself adds to a screen (everything else comes in the model,
already in the configured language). Short forms first: the smallest counters fit 8 letters."""

TEXTS = {
    "cs": {
        "left": "Z",              # points left to the limit: "Z 18"
        "equalising": "DOH",      # dohrávka, B's equalising inning
        "equalising_long": "dohrávka",
        "end": "KONEC",
        "draw": "REMÍZA",
        "wins": "VYHRÁL",
        "forfeit": "VZDAL",
        "average": "PR",          # průměr
        "best": "NS",             # nejvyšší série
        "inning": "náběh",
        "series": "série",
        "in_hand": "BIH",         # ball in hand
        "in_hand_long": "koule v ruce",
        "open": "OTEV",           # open table
        "open_long": "otevřený stůl",
        "pocket": "K",            # kapsa: the required 8 pocket, "K4"
        "pocket_long": "kapsa 8",
        "solids": "PLNÉ",
        "stripes": "PŮLK",
        "set": "SET",
        "unsent": "neodesl.",
        "sent": "odesl.",
        "ready": "PŘIPRAVENO",
        "error": "CHYBA",
        "key": "klávesa",
        "press_key": "stiskni",
        "lot": "LOS",
        "match": "ZÁPAS",
        "break": "ROZB",          # rozstřel: the break shot is next
        "choose": "VOLBA",        # the shooter must choose a group (RULES 2.4)
    },
    "en": {
        "left": "L",
        "equalising": "EQ",
        "equalising_long": "equalising",
        "end": "END",
        "draw": "DRAW",
        "wins": "WINS",
        "forfeit": "FORFEIT",
        "average": "AV",
        "best": "HS",
        "inning": "inning",
        "series": "series",
        "in_hand": "BIH",
        "in_hand_long": "ball in hand",
        "open": "OPEN",
        "open_long": "open table",
        "pocket": "P",
        "pocket_long": "8 pocket",
        "solids": "SOLID",
        "stripes": "STRIPE",
        "set": "SET",
        "unsent": "unsent",
        "sent": "sent",
        "ready": "READY",
        "error": "ERROR",
        "key": "key",
        "press_key": "press",
        "lot": "DRAW",
        "match": "MATCH",
        "break": "BREAK",
        "choose": "CHOOSE",
    },
}


def texts(language: str) -> dict[str, str]:
    return TEXTS.get(language, TEXTS["cs"])
