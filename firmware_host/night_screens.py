"""The match night's screen models (docs/screens.md): ready, lot draw, partie, match result."""
from display.text import clock_text
from input.messages import Texts
from rules import night as rules_night


def ready_model(device, status: dict, now) -> dict:
    """Venue, table, the time of day, and what is not yet delivered to the league."""
    return {"screen": "ready", "venue": device.venue, "table": device.table,
            "time": now.strftime("%H:%M"), "unsent": int(status.get("unsent") or 0),
            "last_sent": clock_text(status.get("last_delivery"))}


def lotdraw_model(match) -> dict:
    """RULES 1.6: the seed is shown so both captains can repeat the draw."""
    return {"screen": "lotdraw", "seed": match.seed, "pairs": list(match.pairs)}


def partie_model(board) -> dict:
    return {"screen": board.header["game"], "summary": board.summary()}


def match_model(match, t: Texts) -> dict:
    """The team match: each closed partie's line and the team points (or the forfeit)."""
    if match.forfeit:
        lines = [t("no_show", team=match.home if match.forfeit == "home" else match.away)]
    else:
        lines = [f"{number}. {line['home']} {line['score']} {line['away']} "
                 f"({line['team_points']['home']}:{line['team_points']['away']})"
                 for number, line in enumerate(match.closed, start=1)]
    return {"screen": "match", "home": match.home or t("home"), "away": match.away or t("away"),
            "points": rules_night.points(match), "partie": lines}


def seconds_to_next_minute(now) -> float:
    """When the ready screen's time of day next changes."""
    return 60.0 - now.second - now.microsecond / 1e6
