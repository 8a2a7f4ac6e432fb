"""Matches with chosen players and strokes for the statistics tests (tests/server/tables/test_stats*.py,
tests/e2e/test_stats_browser.py): carom partie from a stroke notation, 8-ball individual matches
from commands, posted to a receiver as the devices post them."""
import carom_samples
from delivery.outbox import item_body

LVA, KOULE = "Hostinec U Lva", "Hospoda U Koule"
CAROM_TOKENS = {"0": {"cmd": "miss"}, "f": {"cmd": "foul"}}
EIGHTBALL_TOKENS = {".": {"cmd": "shot"}, "f": {"cmd": "foul"}, "x": {"cmd": "scratch"}}


def carom_strokes(text: str) -> list[dict]:
    """"2 1 0 10": score 2, score 1, a miss, score 10 ("f": a foul)."""
    return [CAROM_TOKENS.get(t) or {"cmd": "score", "value": int(t)} for t in text.split()]


def eightball_commands(text: str) -> list[dict]:
    """". f . g:a": a shot, a foul (closed by the next shot), a game won by a."""
    return [EIGHTBALL_TOKENS.get(t) or {"cmd": "game", "winner": t.split(":")[1]} for t in text.split()]


def carom_match(match_id: str, home: str, away: str, partie, *, date: str, venue: str = LVA,
                points_limit: int = 10, innings_limit: int = 2, close: bool = True) -> list[bytes]:
    """Item bodies of a carom match: ``partie`` = (home player, away player, strokes) each, the home
    player starting (player a); then the match item when ``close``."""
    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date, "seed": 1}
    played = []
    for number, (home_player, away_player, strokes) in enumerate(partie, start=1):
        pid = f"{match_id}-p{number}"
        text, summary = carom_samples.partie(pid, home_player, away_player, match=info, number=number, home="a", date=date,
                                       points_limit=points_limit, innings_limit=innings_limit,
                                       strokes=carom_strokes(strokes))
        played.append((pid, text, summary))
    bodies = [item_body(pid, "partie", text, summary) for pid, text, summary in played]
    if close:
        mid, text, summary = carom_samples.closing(info, played)
        bodies.append(item_body(mid, "match", text, summary))
    return bodies


def eightball_match(match_id: str, home: str, away: str, individual, *, date: str, venue: str = KOULE,
                    games_to_win: int = 1, sets_to_win: int = 2) -> list[bytes]:
    """Item bodies of an 8-ball team match's individual matches: (home player, away player,
    commands) each, the home player as a."""
    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date}
    bodies = []
    for number, (home_player, away_player, commands) in enumerate(individual, start=1):
        pid = f"{match_id}-m{number}"
        text, summary = carom_samples.eightball(pid, home_player, away_player, "", match=info, number=number, home="a",
                                          date=date, games_to_win=games_to_win, sets_to_win=sets_to_win,
                                          commands=eightball_commands(commands))
        bodies.append(item_body(pid, "partie", text, summary))
    return bodies


def post(receiver, signer, bodies) -> None:
    """Each body, signed, through the receiver's one decision (as HTTP and serial do)."""
    for body in bodies:
        status, answer = receiver.handle(signer.sign(body), via="test")
        assert status == 200 and answer["status"] == "stored", answer


# Two seasons of a small carom league, every figure computed by hand in tests/server/tables/test_stats.py
SEASON_2025 = (("KD-0", "Lvi", "Orli", [("Novák", "Svoboda", "20 0")], "2026-03-01"),)
SEASON_2026 = (("KD-1", "Lvi", "Orli", [("Novák", "Svoboda", "2 1 0 10"), ("Dvořák", "Černý", "0 0 1 1 0 2 0")],
                "2026-11-27"),
               ("KD-2", "Orli", "Lvi", [("Svoboda", "Novák", "1 0 2 2 2 0 0 1 0")], "2026-12-04"))
# One 8-ball match: Hrubý beats Malý 2:1 in sets (fouls 2:1), Král loses to Malý 0:2
EIGHTBALL = ("8B-1", "Koule", "Tágo", [("Hrubý", "Malý", ". f . g:a . f . x . g:b g:a"),
                                       ("Král", "Malý", "g:b g:b")], "2026-11-28")


def hand_league(receiver, signer_lva, signer_koule=None) -> None:
    """The matches above, posted."""
    for match_id, home, away, partie, date in SEASON_2025 + SEASON_2026:
        post(receiver, signer_lva, carom_match(match_id, home, away, partie, date=date))
    if signer_koule is not None:
        match_id, home, away, individual, date = EIGHTBALL
        post(receiver, signer_koule, eightball_match(match_id, home, away, individual, date=date))


HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;"'
# names a page must show as text and a link must carry whole: markup, a slash, a dot-dot, ? and #
HOSTILE_PLAYER = HOSTILE + " a/../b?x=1#y"
HOSTILE_TEAM = "<b>Tým</b> & 50% /.."


def hostile_match(receiver, signer, match_id: str = "KD-H") -> None:
    """A carom match whose home team and one player have hostile names."""
    post(receiver, signer, carom_match(match_id, HOSTILE_TEAM, "Orli", [(HOSTILE_PLAYER, "Svoboda", "2 1 0 10")],
                                       date="2026-11-29"))


def hrefs(page: str) -> list[str]:
    """Every link's target on an HTML page, unescaped as a browser reads it."""
    from html.parser import HTMLParser

    found = []

    class Links(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "a":
                found.append(dict(attrs).get("href"))
    Links().feed(page)
    return found
