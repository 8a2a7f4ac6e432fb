"""What the match night's screens and menus say, by language (Czech default, English)."""

TEXTS = {
    "cs": {
        "setup": "Utkání", "other_match": "Jiné utkání", "single_carom": "Jedna partie",
        "single_8ball": "Jeden zápas", "home_team": "Domácí tým", "away_team": "Hostující tým",
        "present": "Přítomni: {team}", "done": "Hotovo", "too_few": "Málo hráčů (min. {n})",
        "lag": "Partie {n}: kdo začíná?", "starts": "Partie {n}: kdo začíná?",
        "home_player": "Zápas {n}: domácí", "away_player": "Hosté", "player": "Hráč {n}",
        "home": "Domácí", "away": "Hosté", "yes": "Ano", "no": "Ne",
        "close_partie": "Uzavřít partii?", "close_match": "Uzavřít utkání?",
        "no_partie": "Žádná rozehraná partie", "protocol": "Zápis partie",
        "correct": "Opravit náběh", "insert": "Vložit náběh", "inning_points": "{n}. náběh: {points}",
        "before": "před {n}. náběh", "at_end": "na konec", "points_of": "Body v {n}. náběhu?",
        "points_hint": "číslice, Enter", "no_innings": "Zatím žádný náběh",
        "keytest": "Test kláves", "not_finished": "Partie neskončila (vzdání v menu)",
        "absent": "Tým nepřišel", "no_show_q": "{team} nepřišel: kontumace?", "no_show": "{team} nepřišel (kontumace)",
        "hint_ready": "Enter = utkání", "hint_lotdraw": "Enter = dál", "hint_result": "Enter = uzavřít utkání",
        "hint_partie": "Enter = zápis partie", "hint_finished": "Enter = uzavřít partii",
        "hint_menu": "Vyberte 1–{n}, Enter", "hint_hold_menu": "Podržte Enter = menu",
        "restart": "Začít znovu (jiný začínající)",
        "game_won": "Hru vyhrál {name}", "set_won": "Set vyhrál {name}", "rerack": "Znovu rozstřel",
        # 8-ball's individual match is a "zápas" (RULES 2, 8B:8), not a partie
        "close_partie_8ball": "Uzavřít zápas?", "not_finished_8ball": "Zápas neskončil (vzdání v menu)",
        "hint_finished_8ball": "Enter = uzavřít zápas",
    },
    "en": {
        "setup": "Match", "other_match": "Other match", "single_carom": "Single partie",
        "single_8ball": "Single match", "home_team": "Home team", "away_team": "Away team",
        "present": "Present: {team}", "done": "Done", "too_few": "Too few players (min. {n})",
        "lag": "Partie {n}: who starts?", "starts": "Partie {n}: who starts?",
        "home_player": "Match {n}: home", "away_player": "Away", "player": "Player {n}",
        "home": "Home", "away": "Away", "yes": "Yes", "no": "No",
        "close_partie": "Close the partie?", "close_match": "Close the match?",
        "no_partie": "No partie in play", "protocol": "Partie record",
        "correct": "Correct an inning", "insert": "Insert an inning", "inning_points": "inning {n}: {points}",
        "before": "before inning {n}", "at_end": "at the end", "points_of": "Points of inning {n}?",
        "points_hint": "digits, Enter", "no_innings": "No inning yet",
        "keytest": "Key test", "not_finished": "The partie is not over (forfeit is in the menu)",
        "absent": "Team did not come", "no_show_q": "{team} did not come: forfeit?",
        "no_show": "{team} did not come (forfeit)",
        "hint_ready": "Enter = match", "hint_lotdraw": "Enter = go on", "hint_result": "Enter = close the match",
        "hint_partie": "Enter = partie record", "hint_finished": "Enter = close the partie",
        "hint_menu": "Pick 1–{n}, Enter", "hint_hold_menu": "Hold Enter = menu",
        "restart": "Start again (other starter)",
        "game_won": "Game to {name}", "set_won": "Set to {name}", "rerack": "Break again",
        "close_partie_8ball": "Close the match?", "not_finished_8ball": "The match is not over (forfeit is in the menu)",
        "hint_finished_8ball": "Enter = close the match",
    },
}


def night_texts(language: str) -> dict:
    """The night's texts in ``language``, Czech for a language it does not have."""
    return TEXTS.get(language, TEXTS["cs"])
