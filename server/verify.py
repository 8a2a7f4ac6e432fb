"""Checking an item's content before it is stored: shape, record id, and that the record replays.

Body: ``{"id": ..., "kind": "partie"|"match", "record": "<JSON Lines text>", "summary": {...}}``.
A partie's record must replay (rules.record.replay_lines) to a finished partie whose summary agrees
with the posted one on every key the replay produces (extra posted keys are metadata). A match
item's summary names the match and its partie (docs/sync.md).
"""
import json
from dataclasses import dataclass

from rules.errors import RuleError
from rules.record import parse_json

KINDS = ("partie", "match")


class Refused(Exception):
    """An item the receiver will not store: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


@dataclass(frozen=True)
class Parsed:
    id: str
    kind: str
    record: str
    summary: dict
    header: dict | None = None      # a partie's first record line
    game: str | None = None
    match_id: str | None = None


def parse_body(body: bytes) -> Parsed:
    """The item's outer shape (400 when it is not what a device sends)."""
    try:
        obj = parse_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(400, "the body is not UTF-8") from None
    except ValueError as exc:
        raise Refused(400, f"malformed JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise Refused(400, "the body must be a JSON object")
    item_id, kind, record, summary = obj.get("id"), obj.get("kind"), obj.get("record"), obj.get("summary")
    if not isinstance(item_id, str) or not item_id or len(item_id) > 200:
        raise Refused(400, "\"id\" must be a non-empty text (at most 200 characters)")
    if kind not in KINDS:
        raise Refused(400, f"\"kind\" must be \"partie\" or \"match\", got {kind!r}")
    if not isinstance(record, str):
        raise Refused(400, "\"record\" must be the record's text")
    if not isinstance(summary, dict):
        raise Refused(400, "\"summary\" must be a JSON object")
    return Parsed(item_id, kind, record, summary)


def check(parsed: Parsed) -> Parsed:
    """Verify the content (422 when it does not hold together); return it with game and match id."""
    if parsed.kind == "partie":
        return _check_partie(parsed)
    return _check_match(parsed)


def _check_partie(p: Parsed) -> Parsed:
    from rules.record import replay_lines

    try:
        replay = replay_lines(p.record.splitlines())
    except RuleError as exc:
        raise Refused(422, f"the record does not replay: {exc}") from None
    header = replay.board.header        # the first line, as the replay read it (without "at"/"crc")
    if header.get("id") != p.id:
        raise Refused(422, f"the record's header id {header.get('id')!r} is not the item id {p.id!r}")
    if not replay.board.finished:
        raise Refused(422, "the record is not a finished partie")
    replayed = json.loads(json.dumps(replay.summary(), ensure_ascii=False))
    if "rejected" not in p.summary:
        replayed.pop("rejected")
    for key, value in replayed.items():
        if p.summary.get(key, _ABSENT) != value:
            raise Refused(422, f"the record does not replay to its own summary (\"{key}\" differs)")
    match = header.get("match")
    match_id = match.get("id") if isinstance(match, dict) else None
    return Parsed(p.id, p.kind, p.record, p.summary, header, header.get("game"),
                  match_id if isinstance(match_id, str) else None)


_ABSENT = object()


MATCH_INFO = ("id", "home", "away", "venue", "date", "seed", "table")


def match_summary(summary: dict) -> tuple[dict, list[str], dict]:
    """(match info, partie ids, team points) of a match item's summary.

    The service writes the match fields at the top level (``{"id", "home", "away", "venue", "date",
    "seed", "points": {"home", "away"}, "partie": [{"id": ...}, ...]}``); ``"match": {...}`` holding
    the fields and ``"partie"`` as plain ids are read too. Raises Refused (422) when it does not fit.
    """
    nested = summary.get("match")
    source = nested if isinstance(nested, dict) else summary
    info = {key: source.get(key) for key in MATCH_INFO if source.get(key) is not None}
    if not isinstance(info.get("id"), str) or not info["id"]:
        raise Refused(422, "a match item's summary needs the match \"id\"")
    partie = summary.get("partie")
    ids = [p.get("id") if isinstance(p, dict) else p for p in partie] if isinstance(partie, list) else None
    if ids is None or not all(isinstance(x, str) for x in ids):
        raise Refused(422, "a match item's summary needs \"partie\": the partie (ids or objects with \"id\")")
    points = summary.get("points")
    if not isinstance(points, dict) or not all(isinstance(points.get(side), int) for side in ("home", "away")):
        raise Refused(422, "a match item's summary needs \"points\": {\"home\": n, \"away\": n}")
    return info, ids, {"home": points["home"], "away": points["away"]}


def _check_match(p: Parsed) -> Parsed:
    info, _, _ = match_summary(p.summary)
    return Parsed(p.id, p.kind, p.record, p.summary, None, p.summary.get("game"), info["id"])
