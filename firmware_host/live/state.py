"""What the live page shows, built from the screen model the service just showed (pure).

A view is the spectators' part of a model: the partie in play (named for its game, rules.games,
with the rule core's summary), the match result between partie, the lot draw, or the ready screen.
Menus, prompts, the key test and fault screens are the referee's: they keep the view before
them, so a long press for the menu does not blank the bar's TV. A message the counter says to
everybody (``level`` "info": a won game, a won set) rides along; refusals do not.
"""
from rules.games import is_game

PASSED_ON = {"match": ("home", "away", "points", "partie"), "lotdraw": ("seed", "pairs"), "ready": ()}


def live_view(model: dict, context: dict | None = None) -> dict | None:
    """The view of ``model`` (None: not for spectators); ``context``: the match night around it."""
    screen = model.get("screen") if isinstance(model, dict) else None
    if is_game(screen):
        view = {"view": screen, "summary": model.get("summary")}
    elif screen in PASSED_ON:
        view = {"view": screen, **{key: model.get(key) for key in PASSED_ON[screen]}}
    else:
        return None
    view["match"] = context
    message = model.get("message")
    if isinstance(message, dict) and message.get("level") == "info":
        view["message"] = {"text": message.get("text"), "n": message.get("n")}
    return view


def match_context(night) -> dict | None:
    """The match night around the partie in play: team names, the team points of the closed
    partie, this partie's number of how many, and which player plays for the home team.
    None outside a league match (a single partie)."""
    match, board = night.match, night.board
    if match is None or not match.home:
        return None
    closed = list(match.closed)
    header = board.header if board is not None else {}
    return {"home": match.home, "away": match.away,
            "points": {side: sum(line["team_points"][side] for line in closed) for side in ("home", "away")},
            "partie": header.get("partie", min(len(closed) + 1, match.partie_count)),
            "partie_count": match.partie_count, "home_side": header.get("home")}
