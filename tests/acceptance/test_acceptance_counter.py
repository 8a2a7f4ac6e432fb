"""Acceptance: what the counter shows a spectator through a referee's match night (issue 12,
RULES 1.6 / A.3.6: the partie of the match and the team score; RULES 1.7: the inning)."""
from display_helpers import Said

SETUP = "\n" * 6        # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)
PARTIE = "870"          # A: 20 + 10 = 30, the limit (RULES 1.4.1); B misses the equalising inning
CLOSE_AND_NEXT = "\n1h\n\n"   # Enter → close the partie? → 1 (Ano), held Enter → the next partie's lag


def test_a_match_night_counter_shows_the_partie_and_the_team_score(emulator, monkeypatch):
    """The referee plays partie 1 and starts partie 2: the 64x16 counter of the emulator shows the
    names, "2. partie" and the team score with the team of the player on the left first, taking
    turns with the scores and "inning/limit"."""
    player = emulator(points_limit=30, innings_limit=5)
    player.play(SETUP + "\n\n")
    first = player.service.screen()
    assert first["match"] == {"partie": 1, "partie_count": 4, "points": {"a": 0, "b": 0}}
    player.play(PARTIE + CLOSE_AND_NEXT)
    second = player.service.screen()
    assert second["screen"] == "carom" and second["match"]["partie"] == 2
    points = second["match"]["points"]
    assert sorted(points.values()) == [0, 2]                    # partie 1's winner's team: 2 points (A.3.6)
    said = Said(monkeypatch)
    texts = [text for page in said.pages(player.service.display.counter.settings, second) for text in page]
    assert "2. partie" in texts and f"zápas {points['a']}:{points['b']}" in texts
    assert "1/5" in texts                                       # RULES 1.7: the inning of the limit
    names = second["summary"]["players"]
    assert names["a"]["name"].split()[-1] in texts and names["b"]["name"].split()[-1] in texts
