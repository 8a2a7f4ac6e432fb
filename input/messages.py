"""Short texts the referee sees: refusals (by rules.errors code), prompts, menus. Czech default.

Texts are short on purpose: the wall counter shows a message line of a few words.
"""
from rules.errors import RuleError

LANGUAGES = ("cs", "en")

# Refusals, by the ``code`` of the rule core's error.
REFUSALS = {
    "cs": {
        "nothing_to_undo": "Není co vrátit",
        "nothing_to_redo": "Není co obnovit",
        "bad_value": "Jen 1, 2, 10 nebo 20",
        "frozen": "Lpí: jen 1 nebo 2",
        "partie_over": "Partie skončila",
        "match_over": "Zápas skončil",
        "series_running": "Nejdřív ukončete náběh",
        "pocket_required": "Zadejte kapsu 1–6",
        "bad_pocket": "Kapsa jen 1–6",
        "must_choose": "Nejdřív zvolte skupinu",
        "nothing_to_choose": "Není co volit",
        "no_pocket_choice": "Kapsu pro 8 teď volit nelze",
        "not_in_play": "Hra ještě nezačala",
        "shot_open": "Nejdřív ukončete šťouch",
        "no_balls_left": "Tahle skupina je dohraná",
        "already_entered": "Už zadáno",
        "not_a_foul": "Tohle není faul",
        "not_break": "Jen při rozstřelu",
        "nocushion_with_pot": "Rozstřel s padlou koulí je platný",
        "unknown_command": "Neznámý povel",
        "bad_argument": "Chybný povel",
        "bad_command": "Chybný povel",
        "inconsistent": "Oprava nesedí s náběhy",
        "over_limit": "Oprava přes limit bodů",
        "limit_kept": "Dosažený limit nelze vzít",
    },
    "en": {
        "nothing_to_undo": "Nothing to undo",
        "nothing_to_redo": "Nothing to redo",
        "bad_value": "Only 1, 2, 10 or 20",
        "frozen": "Frozen: only 1 or 2",
        "partie_over": "The partie is over",
        "match_over": "The match is over",
        "series_running": "End the inning first",
        "pocket_required": "Enter the pocket 1-6",
        "bad_pocket": "Pocket 1-6 only",
        "must_choose": "Choose a group first",
        "nothing_to_choose": "Nothing to choose",
        "no_pocket_choice": "No pocket to name now",
        "not_in_play": "The game has not started",
        "shot_open": "Close the shot first",
        "no_balls_left": "That group is cleared",
        "already_entered": "Already entered",
        "not_a_foul": "That is not a foul",
        "not_break": "On the break only",
        "nocushion_with_pot": "A break with a pot is legal",
        "unknown_command": "Unknown command",
        "bad_argument": "Bad command",
        "bad_command": "Bad command",
        "inconsistent": "Correction breaks innings",
        "over_limit": "Correction over the limit",
        "limit_kept": "A reached limit stays",
    },
}
REFUSED = {"cs": "Teď nelze", "en": "Not now"}

# Everything else the keypad layer says, by key; {placeholders} are filled by ``say``.
TEXTS = {
    "cs": {
        "unbound": "Klávesa {key} nemá funkci",
        "hold_longer": "Podržte klávesu déle",
        "pocket_title": "Kapsa?",
        "pocket_last_solid": "Kapsa poslední plné?",
        "pocket_last_stripe": "Kapsa poslední půlené?",
        "pocket8_title": "Kapsa 8?",
        "pocket_named_title": "Ohlášená kapsa 8?",
        "pocket_hint": "1–6, Zpět = zrušit",
        "choose_title": "Skupina?",
        "choose_hint": "1 plné, 2 půlené",
        "prompt_waiting": "Nejdřív odpovězte, Zpět = zrušit",
        "menu_title": "Menu",
        "menu_hint": "číslo nebo Enter",
        "confirm_hint": "Enter = ano, jiná = ne",
        "cancelled": "Zrušeno",
        "forfeit": "Vzdává {name}",
        "game_won": "Hru vyhrál {name}",
        "stalemate": "PAT – opakovat hru",
        "nocushion": "Neplatný rozstřel",
        "pocket8": "Ohlásit kapsu 8",
        "close_carom": "Uzavřít partii",
        "close_8ball": "Uzavřít zápas",
        "not_over_carom": "Partie neskončila",
        "not_over_8ball": "Zápas neskončil",
        "keytest": "Test kláves",
        "keytest_hint": "Podržte Enter = konec",
        "togo": "Zbývá {a}:{b}",
        "confirm_title": "{item}?",
        "not_in_game": "Jen během hry",
        "pocket_first": "Nejdřív koule, pak kapsa",
        "keypad_lost": "Klávesnice odpojena",
        "keypad_back": "Klávesnice připojena",
    },
    "en": {
        "unbound": "Key {key} does nothing",
        "hold_longer": "Hold the key longer",
        "pocket_title": "Pocket?",
        "pocket_last_solid": "Pocket of last solid?",
        "pocket_last_stripe": "Pocket of last stripe?",
        "pocket8_title": "Pocket of the 8?",
        "pocket_named_title": "Named pocket for 8?",
        "pocket_hint": "1-6, Undo = cancel",
        "choose_title": "Group?",
        "choose_hint": "1 solids, 2 stripes",
        "prompt_waiting": "Answer first, Undo = cancel",
        "menu_title": "Menu",
        "menu_hint": "number or Enter",
        "confirm_hint": "Enter = yes, other = no",
        "cancelled": "Cancelled",
        "forfeit": "{name} forfeits",
        "game_won": "Game to {name}",
        "stalemate": "Stalemate - replay",
        "nocushion": "Illegal break",
        "pocket8": "Name the 8's pocket",
        "close_carom": "Close the partie",
        "close_8ball": "Close the match",
        "not_over_carom": "The partie is not over",
        "not_over_8ball": "The match is not over",
        "keytest": "Key test",
        "keytest_hint": "Hold Enter = end",
        "togo": "To go {a}:{b}",
        "confirm_title": "{item}?",
        "not_in_game": "Only during a game",
        "pocket_first": "Ball first, then the pocket",
        "keypad_lost": "Keypad disconnected",
        "keypad_back": "Keypad connected",
    },
}

# Short action labels for the key card and hints.
ACTION_LABELS = {
    "cs": {
        "score1": "+1", "score2": "+2 (mantinel)", "score10": "+10", "score20": "+20 (mantinel)",
        "miss": "chyba – konec náběhu", "foul": "faul", "frozen": "zamrzlé koule",
        "togo": "kolik zbývá do limitu",
        "pot_solid": "padla plná", "pot_stripe": "padla půlená", "pot8": "padla 8",
        "scratch": "padla bílá", "shot": "konec šťouchu", "choose": "volba skupiny",
        "nocushion": "neplatný rozstřel", "pocket8": "ohlásit kapsu 8",
        "stalemate": "PAT", "game": "výsledek hry",
        "undo": "zpět", "redo": "znovu", "confirm": "potvrdit", "cancel": "zrušit",
        "menu": "menu", "up": "nahoru", "down": "dolů", "keytest": "test kláves",
        "forfeit": "vzdání", "new_partie": "uzavřít partii", "end_match": "uzavřít partii",
        **{f"pocket{n}": f"kapsa {n}" for n in range(1, 7)},
    },
    "en": {
        "score1": "+1", "score2": "+2 (cushion)", "score10": "+10", "score20": "+20 (cushion)",
        "miss": "miss - end inning", "foul": "foul", "frozen": "frozen balls",
        "togo": "points to go",
        "pot_solid": "solid potted", "pot_stripe": "stripe potted", "pot8": "8 potted",
        "scratch": "scratch", "shot": "end of shot", "choose": "choose group",
        "nocushion": "illegal break", "pocket8": "name the 8's pocket",
        "stalemate": "stalemate", "game": "game result",
        "undo": "undo", "redo": "redo", "confirm": "confirm", "cancel": "cancel",
        "menu": "menu", "up": "up", "down": "down", "keytest": "key test",
        "forfeit": "forfeit", "new_partie": "close the partie", "end_match": "close the partie",
        **{f"pocket{n}": f"pocket {n}" for n in range(1, 7)},
    },
}


def _lang(language: str) -> str:
    return language if language in LANGUAGES else "cs"


def refusal(error: RuleError, language: str = "cs") -> str:
    lang = _lang(language)
    return REFUSALS[lang].get(getattr(error, "code", None), REFUSED[lang])


def say(text_id: str, language: str = "cs", **values) -> str:
    return TEXTS[_lang(language)][text_id].format(**values)


def label(action: str, language: str = "cs") -> str:
    return ACTION_LABELS[_lang(language)].get(action, action)
