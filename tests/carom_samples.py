"""Realistic carom partie and matches built by playing random legal strokes (the tests and the bench)."""
import json
import random

from rules.board import Board
from rules.record import encode_line, replay_lines

STROKES = ([{"cmd": "score", "value": 1}] * 6 + [{"cmd": "score", "value": 2}] * 2
           + [{"cmd": "score", "value": 10}, {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "foul"}])


def partie(item_id: str, a: str, b: str, *, seed: int = 0, match: dict | None = None, number: int | None = None,
           home: str = "a", points_limit: int = 200, innings_limit: int = 15, date: str = "2026-11-27",
           strokes: list[dict] | None = None, rules: dict | None = None) -> tuple[str, dict]:
    """A finished carom partie: (record text with checksummed lines, its replay summary); random
    legal strokes, or ``strokes`` in order (each must be accepted and they must finish the partie);
    ``rules``: more rules of play for the header (the team points, A.5.3-A.5.5)."""
    header = {"game": "carom", "id": item_id, "a": a, "b": b, "points_limit": points_limit,
              "innings_limit": innings_limit, **(rules or {}), "date": date}
    if match is not None:
        header.update({"match": match, "partie": number, "home": home})
    rng = random.Random(seed)
    board = Board({k: v for k, v in header.items()})
    lines = [encode_line(header)]
    minute = 0
    given = iter(strokes) if strokes is not None else None
    while not board.finished:
        cmd = next(given) if given is not None else rng.choice(STROKES)
        try:
            board.push(cmd)
        except Exception:
            if given is not None:
                raise
            continue
        minute += 1
        lines.append(encode_line({**cmd, "at": f"{date}T19:{minute // 60 % 60:02d}:{minute % 60:02d}+01:00"},
                                 checksum=True))
    text = "".join(lines)
    return text, json.loads(json.dumps(replay_lines(text.splitlines()).summary(), ensure_ascii=False))


def match(match_id: str, home: str, away: str, *, seed: int = 0, venue: str = "Hostinec U Lva",
          date: str = "2026-11-27", points_limit: int = 200, innings_limit: int = 15,
          fixture: str | None = None, rules: dict | None = None):
    """Four partie of a league match (RULES 1.6) and the match item that closes it.

    Returns ``(partie, match_item)``: partie is a list of (id, record text, summary); match_item is
    (id, record text, summary) of kind "match". ``fixture``: the league fixture it was set up from.
    """
    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date, "seed": seed}
    if fixture is not None:
        info["fixture"] = fixture
    played = []
    for number in range(1, 5):
        pid = f"{match_id}-p{number}"
        side = "a" if number % 2 else "b"
        text, summary = partie(pid, f"{home} hráč {number}" if side == "a" else f"{away} hráč {number}",
                               f"{away} hráč {number}" if side == "a" else f"{home} hráč {number}",
                               seed=seed * 10 + number, match=info, number=number, home=side, date=date,
                               points_limit=points_limit, innings_limit=innings_limit, rules=rules)
        played.append((pid, text, summary))
    return played, closing(info, played)


def closing(info: dict, played: list[tuple[str, str, dict]]) -> tuple[str, str, dict]:
    """The match item (id, record text, summary) that closes a carom match of these partie."""
    from rules.carom.match import match_result

    result = match_result((json.loads(text.splitlines()[0]), summary) for _, text, summary in played)
    # the shape firmware_host.match_night writes when it closes a match
    summary = {**info, "game": "carom", "table": "1",
               "points": {"home": result.home_points, "away": result.away_points},
               "partie": [{"id": pid, "team_points": None} for pid, _, _ in played]}
    return info["id"], json.dumps(info, ensure_ascii=False) + "\n", summary


def eightball(item_id: str, a: str, b: str, games: str, *, match: dict | None = None, number: int | None = None,
              home: str = "a", games_to_win: int = 3, sets_to_win: int = 2, date: str = "2026-11-27",
              forfeit: str | None = None, commands: list[dict] | None = None,
              win_points: int | None = None) -> tuple[str, dict]:
    """A finished 8-ball individual match (RULES 2.9) from ``games``, the winner of each game in
    order ("abba..."), quick-scored; ``forfeit`` ("a"/"b") ends it by a forfeit after those games;
    ``commands``: the record's commands instead (shots, fouls, games), which must finish it;
    ``win_points``: the competition's team points per match won in the header (RULES 2.9)."""
    header = {"game": "8ball", "id": item_id, "a": a, "b": b, "games_to_win": games_to_win,
              "sets_to_win": sets_to_win, "date": date}
    if win_points is not None:
        header["win_points"] = win_points
    if match is not None:
        header.update({"match": match, "partie": number, "home": home})
    board = Board(dict(header))
    lines = [encode_line(header)]
    if commands is None:
        commands = [{"cmd": "game", "winner": w} for w in games] + ([{"cmd": "forfeit", "by": forfeit}] if forfeit else [])
    for cmd in commands:
        board.push(cmd)
        lines.append(encode_line(cmd, checksum=True))
    if not board.finished:
        raise ValueError(f"{games!r} does not finish an 8-ball match")
    text = "".join(lines)
    return text, json.loads(json.dumps(replay_lines(text.splitlines()).summary(), ensure_ascii=False))


def eightball_match(match_id: str, home: str, away: str, results: list[str], *, venue: str = "Hospoda U Koule",
                    date: str = "2026-11-27", **race):
    """An 8-ball team match: one individual match per entry of ``results`` (games won, in order, by
    "h" home or "w" away, e.g. "hhwhh"). Returns ``(individual, match_item)`` like ``match``."""
    from rules.eightball.match import team_score

    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date}
    played = []
    for number, result in enumerate(results, start=1):
        side = "a" if number % 2 else "b"          # alternate which of a/b plays for the home team
        other = "b" if side == "a" else "a"
        games = result.replace("h", side.upper()).replace("w", other.upper()).lower()
        names = {side: f"{home} hráč {number}", other: f"{away} hráč {number}"}
        pid = f"{match_id}-m{number}"
        text, summary = eightball(pid, names["a"], names["b"], games, match=info, number=number, home=side,
                                  date=date, **race)
        played.append((pid, text, summary))
    score = team_score([s for _, _, s in played], points_per_match=race.get("win_points") or 1)
    summary = {**info, "game": "8ball", "table": "1", "points": {"home": score["home"], "away": score["away"]},
               "partie": [{"id": pid} for pid, _, _ in played]}
    return played, (match_id, json.dumps(info, ensure_ascii=False) + "\n", summary)


def no_show(match_id: str, home: str, away: str, absent: str, *, venue: str = "Hostinec U Lva",
            date: str = "2026-11-27", fixture: str | None = None) -> tuple[str, str, dict]:
    """The match item of a match a team did not turn up to ("Tým nepřišel", A.3.7), as
    firmware_host.match_night sends it at once: no partie, the forfeit's points, the absent side."""
    from rules.carom.match import forfeited_match

    info = {"id": match_id, "home": home, "away": away, "venue": venue, "date": date}
    if fixture is not None:
        info["fixture"] = fixture
    summary = {**info, "game": "carom", "table": "1", "points": forfeited_match(absent).as_dict()["points"],
               "partie": [], "forfeit": absent}
    return match_id, json.dumps(info, ensure_ascii=False) + "\n", summary
