"""The live snapshot a device posts to the league's receiver (``POST /api/v1/live``), both ends.

A snapshot is the spectators' view of one table (firmware_host/live's state, trimmed to what the
league's /live page shows): where, a sequence number, the view, the rule core's summary, the match
context and the id of the partie on the counter (the league page links a stored one to its record).
It is never a record: the receiver keeps the latest per table for a few minutes (server/live/board.py).
"""
import json

from rules.core import JSONObject

VIEWS = ("carom", "8ball", "match", "lotdraw", "ready")
MAX_SNAPSHOT = 16 * 1024        # bytes; a snapshot is a few hundred
MAX_TEXT = 200
MAX_SEQ = 2**63 - 1            # a device's seq counts its changes; the receiver's store keeps it in 64 bits


# what the league page shows of a rule core's summary (docs/record-format.md), per game: for carom
# what the wall counter shows (RULES 1.7: who is at the table and the running series, each player's
# points and innings, the last 2 innings and the equalising inning, the points left to the limit)
# and how the partie ended. An older device's snapshot lacks the keys added since (a player's
# innings; points_left, last_two, equalising): the receiver takes it as it is, and the page leaves
# out what it does not say; an older page ignores keys it does not know.
KEPT = {"carom": {"": ("game", "finished", "result", "forfeit", "innings_limit", "players", "counter"),
                  "player": ("name", "points", "innings"),
                  "counter": ("at_table", "inning", "series", "points_left", "last_two", "equalising")},
        "8ball": {"": ("game", "finished", "winner", "forfeit", "names", "set", "sets", "games", "current"),
                  "current": ("shooter",)}}
MATCH_KEPT = ("home", "away", "points", "partie", "partie_count", "home_side")


def snapshot(*, venue: str, table: str, seq: int, view: JSONObject, record: str | None = None) -> bytes:
    """The body of one snapshot from a live view (firmware_host.live.state.live_view)."""
    match = view.get("match")
    obj = {"venue": venue, "table": table, "seq": seq, "view": view.get("view"),
           "summary": trimmed(view.get("summary")), "record": record,
           "match": {key: match.get(key) for key in MATCH_KEPT} if isinstance(match, dict) else None}
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def trimmed(summary: object) -> JSONObject | None:
    """The parts of a summary the league page shows (None stays None)."""
    if not isinstance(summary, dict) or summary.get("game") not in KEPT:
        return None
    kept = KEPT[summary["game"]]
    out: JSONObject = {key: summary.get(key) for key in kept[""]}
    if isinstance(out.get("players"), dict):
        out["players"] = {side: {key: p.get(key) for key in kept["player"]}
                          for side, p in out["players"].items() if isinstance(p, dict)}
    for part in ("counter", "current"):
        if part in kept and isinstance(out.get(part), dict):
            out[part] = {key: out[part].get(key) for key in kept[part]}
    return out


def parse(body: bytes) -> JSONObject:
    """The snapshot in ``body``, checked; ValueError says what is wrong."""
    if len(body) > MAX_SNAPSHOT:
        raise ValueError(f"snapshot too large ({len(body)} bytes, at most {MAX_SNAPSHOT})")
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        raise ValueError("a snapshot is a JSON object") from None
    if not isinstance(obj, dict):
        raise ValueError("a snapshot is a JSON object")
    for key in ("venue", "table"):
        if not printable(obj.get(key)):
            raise ValueError(f"{key!r} must be printable text of 1 to {MAX_TEXT} characters")
    if obj.get("record") is not None and not printable(obj["record"]):
        raise ValueError("'record' must be printable text or null")
    seq = obj.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEQ:
        raise ValueError(f"'seq' must be a whole number from 0 to {MAX_SEQ}")
    if obj.get("view") not in VIEWS:
        raise ValueError(f"'view' must be one of {', '.join(VIEWS)}")
    for key in ("summary", "match"):
        if obj.get(key) is not None and not isinstance(obj[key], dict):
            raise ValueError(f"{key!r} must be an object or null")
    return {key: obj.get(key) for key in ("venue", "table", "seq", "view", "summary", "match", "record")}


def printable(value: object) -> bool:
    """Text of 1 to MAX_TEXT printable characters (no lone surrogates from a crafted escape)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT and value.isprintable()
