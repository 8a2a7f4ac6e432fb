"""Sample screen models for the key states, built from real records through the rule cores.

Used by the golden-image tests, the benchmark (bench/bench_display.py) and the docs' pictures
(docs/make_images.py), so all three show the same states; a test and demo helper, not part of
the device (issue 25). ``sample(name)`` returns a screen model (docs/screens.md).
"""
import json

_CAROM = {"game": "carom", "a": "Jan Novák", "b": "Petr Dvořák", "points_limit": 30, "innings_limit": 3}
_EIGHT = {"game": "8ball", "a": "Tomáš Růžička", "b": "Jiří Šťastný", "games_to_win": 3, "sets_to_win": 2,
          "first_break": "b"}


def _score(value):
    return {"cmd": "score", "value": value}


_MISS = {"cmd": "miss"}
_SHOT = {"cmd": "shot"}
# League limits, 3-digit scores: A 185 (series 175, 15 to go) against B 111.
_LEAGUE = dict(_CAROM, points_limit=200, innings_limit=15)
_LEAGUE_END = ([_score(10), _MISS] + [_score(20)] * 5 + [_score(10), _score(1), _MISS]
               + [_score(20)] * 8 + [_score(10), _score(2), _score(2), _score(1)])

RECORDS = {
    "carom-start": (_CAROM, []),
    "carom-series": (dict(_CAROM, points_limit=200, innings_limit=15),
                     [_score(10), _score(1), _MISS, _score(2), _score(1), _score(10)]),
    "carom-last-two": (_CAROM, [_score(2), _MISS, _score(1), _MISS, _MISS, _score(1)]),
    "carom-to-go": (_CAROM, [_score(10), _score(1)]),
    "carom-equalising": (_CAROM, [_score(20), _score(10), _score(2)]),
    "carom-draw": (_CAROM, [_score(20), _score(10), _score(20), _score(10)]),
    "carom-win": (dict(_CAROM, points_limit=200), [_score(20), _MISS, _score(1), _MISS, _score(10), _MISS,
                                                  _score(2), _MISS, _MISS, _score(10), _MISS]),
    "carom-forfeit": (_CAROM, [_score(2), _MISS, _score(1), {"cmd": "forfeit", "by": "b"}]),
    "carom-league-end": (_LEAGUE, _LEAGUE_END),
    "carom-frozen": (_LEAGUE, _LEAGUE_END + [{"cmd": "frozen"}]),
    "8ball-open": (_EIGHT, []),
    "8ball-in-hand": (_EIGHT, [{"cmd": "scratch"}, _SHOT]),
    "8ball-choose": (_EIGHT, [{"cmd": "pot", "ball": "solid"}, {"cmd": "pot", "ball": "stripe"}, _SHOT]),
    "8ball-pocket": (_EIGHT, [{"cmd": "pot", "ball": "solid"}] * 6
                     + [{"cmd": "pot", "ball": "solid", "pocket": 1}, _SHOT]),
    "8ball-pocket-choice": (_EIGHT, [{"cmd": "pot", "ball": "solid"}, _SHOT, _SHOT]      # 8B:6f
                            + [{"cmd": "pot", "ball": "stripe"}] * 6 + [_SHOT, _SHOT, {"cmd": "pot", "ball": "solid"},
                                                                       {"cmd": "pot", "ball": "stripe", "pocket": 2},
                                                                       _SHOT, _SHOT]),
    "8ball-won": (_EIGHT, [{"cmd": "game", "winner": "a"}, {"cmd": "game", "winner": "b"},
                           {"cmd": "game", "winner": "a"}]),
    # the first set to A (3:0), the second under way (0:1): the match score in sets, 1:0
    "8ball-sets": (_EIGHT, [{"cmd": "game", "winner": "a"}] * 3 + [{"cmd": "game", "winner": "b"}]),
}

OTHER: dict[str, dict] = {
    "ready": {"screen": "ready", "venue": "U Zlatého tága", "table": "stůl 2", "time": "19:42",
              "unsent": 2, "last_sent": "18:05"},
    "menu": {"screen": "menu", "title": "Hra", "items": ["Karambol", "8-ball", "Test kláves"], "selected": 1},
    "prompt": {"screen": "prompt", "title": "Kapsa 8?", "value": "4", "hint": "1-6, potvrď ↵"},
    "lotdraw": {"screen": "lotdraw", "seed": 48213, "pairs": [
        {"partie": 1, "home": "Novák", "away": "Dvořák"}, {"partie": 2, "home": "Černý", "away": "Říha"},
        {"partie": 3, "home": "Kubíček", "away": "Žák"}, {"partie": 4, "home": "Hruška", "away": "Šimek"}]},
    "match": {"screen": "match", "home": "Sokol Dvůr", "away": "Slavoj Žacléř",
              "points": {"home": 5, "away": 3}, "partie": ["1 Novák 200:154 Dvořák"]},
    "error": {"screen": "error", "code": "sync", "text": "3 záznamy neodeslány, server nedostupný"},
    "keytest": {"screen": "keytest", "key": "KP_PLUS", "device": "Klávesnice USB"},
    "message": {"screen": "ready", "venue": "U Zlatého tága", "table": "stůl 2", "time": "19:42",
                "unsent": 0, "last_sent": None, "message": {"text": "10 nelze", "level": "warn"}},
}

NAMES = tuple(RECORDS) + tuple(OTHER)


# A partie of a league match night: a sample state with the night's facts (docs/screens.md: the
# second partie, the team of player A 3 points, of player B 5).
MATCH_NIGHT = {"carom-match-night": "carom-series", "8ball-match-night": "8ball-in-hand"}
_NIGHT = {"partie": 2, "partie_count": 4, "points": {"a": 3, "b": 5}}


def record_lines(name: str) -> list[str]:
    header, commands = RECORDS[name]
    return [json.dumps(line, ensure_ascii=False) for line in [header, *commands]]


def sample(name: str) -> dict:
    """The screen model of a named sample state."""
    if name in OTHER:
        return dict(OTHER[name])
    if name in MATCH_NIGHT:
        return dict(sample(MATCH_NIGHT[name]), match=dict(_NIGHT))
    from rules.record import replay_lines

    replay = replay_lines(record_lines(name))
    if replay.rejected:
        raise ValueError(f"sample {name}: the rule core refused {replay.rejected}")
    summary = replay.board.summary()
    return {"screen": summary["game"], "summary": summary}
