"""Realistic carom partie and matches built by playing random legal strokes (tests, bench, demos)."""
import json
import random

from rules.board import Board
from rules.record import encode_line, replay_lines

STROKES = ([{"cmd": "score", "value": 1}] * 6 + [{"cmd": "score", "value": 2}] * 2
           + [{"cmd": "score", "value": 10}, {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "foul"}])


def partie(item_id: str, a: str, b: str, *, seed: int = 0, match: dict | None = None, number: int | None = None,
           home: str = "a", points_limit: int = 200, innings_limit: int = 15, date: str = "2026-11-27") -> tuple[str, dict]:
    """A finished carom partie: (record text with checksummed lines, its replay summary)."""
    header = {"game": "carom", "id": item_id, "a": a, "b": b, "points_limit": points_limit,
              "innings_limit": innings_limit, "date": date}
    if match is not None:
        header.update({"match": match, "partie": number, "home": home})
    rng = random.Random(seed)
    board = Board({k: v for k, v in header.items()})
    lines = [encode_line(header)]
    minute = 0
    while not board.finished:
        cmd = rng.choice(STROKES)
        try:
            board.push(cmd)
        except Exception:
            continue
        minute += 1
        lines.append(encode_line({**cmd, "at": f"{date}T19:{minute // 60 % 60:02d}:{minute % 60:02d}+01:00"},
                                 checksum=True))
    text = "".join(lines)
    return text, json.loads(json.dumps(replay_lines(text.splitlines()).summary(), ensure_ascii=False))


def match(match_id: str, home: str, away: str, *, seed: int = 0, venue: str = "Hostinec U Lva",
          date: str = "2026-11-27", points_limit: int = 200, innings_limit: int = 15):
    """Four partie of a league match (RULES 1.6) and the match item that closes it.

    Returns ``(partie, match_item)``: partie is a list of (id, record text, summary); match_item is
    (id, record text, summary) of kind "match".
    """
    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date, "seed": seed}
    played = []
    points = {"home": 0, "away": 0}
    for number in range(1, 5):
        pid = f"{match_id}-p{number}"
        side = "a" if number % 2 else "b"
        text, summary = partie(pid, f"{home} hráč {number}" if side == "a" else f"{away} hráč {number}",
                               f"{away} hráč {number}" if side == "a" else f"{home} hráč {number}",
                               seed=seed * 10 + number, match=info, number=number, home=side, date=date,
                               points_limit=points_limit, innings_limit=innings_limit)
        played.append((pid, text, summary))
        other = "b" if side == "a" else "a"
        points["home"] += summary["players"][side]["team_points"]
        points["away"] += summary["players"][other]["team_points"]
    # the shape firmware_host.night writes when it closes a match
    summary = {**info, "game": "carom", "table": "1", "points": points,
               "partie": [{"id": pid, "team_points": None} for pid, _, _ in played]}
    return played, (match_id, json.dumps(info, ensure_ascii=False) + "\n", summary)
