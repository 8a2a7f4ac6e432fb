"""Checking an item's content before it is stored: shape, record id, and that the record replays.

Body: ``{"id": ..., "kind": "partie"|"match", "record": "<JSON Lines text>", "summary": {...}}``.
A partie's record must replay (rules.record.replay_lines) to a finished partie whose summary agrees
with the posted one on every key the replay produces (extra posted keys are metadata). A match
item's summary names the match and its partie (docs/sync.md).
"""
from dataclasses import dataclass

from rules.errors import RuleError
from rules.record import canonical, parse_json, replay_lines
from server.league import captains, match_fields
from server.league.errors import Refused
from server.league.item_fields import MAX_POINTS, MAX_SEED, all_unicode, name, number, safe_id, surrogate_escape, whole

KINDS = ("partie", "match")
TEXTS = ("home", "away", "venue", "date", "table")


@dataclass(frozen=True)
class Parsed:
    id: str
    kind: str
    record: str
    summary: dict
    header: dict | None = None      # a partie's first record line
    game: str | None = None
    match_id: str | None = None
    venue: str | None = None
    escaped: bool = True            # the body may spell a lone surrogate (server.league.item_fields.surrogate_escape)
    match: dict | None = None       # what the item says of its match: home, away, date, fixture (issue 22)
    unicode_escape: bool = True     # the body holds a "\u" escape: its record's text may spell one


def parse_body(body: bytes) -> Parsed:
    """The item's outer shape (400 when it is not what a device sends)."""
    try:
        text = body.decode("utf-8")
        obj = parse_json(text)
    except UnicodeDecodeError:
        raise Refused(400, "the body is not UTF-8") from None
    except ValueError as exc:
        raise Refused(400, f"malformed JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise Refused(400, "the body must be a JSON object")
    item_id, kind, record, summary = obj.get("id"), obj.get("kind"), obj.get("record"), obj.get("summary")
    if not isinstance(item_id, str) or not item_id:
        raise Refused(400, "\"id\" must be a non-empty text")
    safe_id(item_id, "\"id\"")
    if kind not in KINDS:
        raise Refused(400, f"\"kind\" must be \"partie\" or \"match\", got {kind!r}")
    if not isinstance(record, str):
        raise Refused(400, "\"record\" must be the record's text")
    if not isinstance(summary, dict):
        raise Refused(400, "\"summary\" must be a JSON object")
    # a body without "\u" spells no surrogate, and its record none either: a backslash in the
    # record is a "\\" or "\u005c" of the body, so its "\ud" would be the body's "\\ud" or a "\u"
    unicode_escape = "\\u" in text
    return Parsed(item_id, kind, record, summary, escaped=unicode_escape and surrogate_escape(text),
                  unicode_escape=unicode_escape)


def check(parsed: Parsed) -> Parsed:
    """Verify the content (422 when it does not hold together); return it with game and match id."""
    if parsed.kind == "partie":
        return _check_partie(parsed)
    return _check_match(parsed)


def _check_partie(p: Parsed) -> Parsed:
    try:
        replay = replay_lines(p.record.splitlines())
    except RuleError as exc:
        raise Refused(422, f"the record does not replay: {exc}") from None
    header = replay.board.header        # the first line, as the replay read it (without "at"/"crc")
    if header.get("id") != p.id:
        raise Refused(422, f"the record's header id {header.get('id')!r} is not the item id {p.id!r}")
    if not replay.board.finished:
        raise Refused(422, "the record is not a finished partie")
    replayed = replay.summary()
    if "rejected" not in p.summary:
        replayed.pop("rejected")
    if _differing(p.summary, replayed) is not None:     # compared again as the device's JSON carries it
        key = _differing(p.summary, parse_json(canonical(replayed)))
        if key is not None:
            raise Refused(422, f"the record does not replay to its own summary (\"{key}\" differs)")
    # the header is JSON inside the body's JSON: a surrogate in the body, or an escape in the record
    all_unicode(header, "the record's header", escaped=p.escaped or (p.unicode_escape and surrogate_escape(p.record)))
    all_unicode(p.summary, "the summary", escaped=p.escaped)
    for letter in ("a", "b"):
        name(header.get(letter), f"player {letter!r}")
    match = header.get("match")
    if match is None:
        return Parsed(p.id, p.kind, p.record, p.summary, header, header.get("game"))
    if not isinstance(match, dict):
        raise Refused(422, "the record's \"match\" must be an object")
    info = _match_fields(match, "the record's match")
    number(header.get("partie"), "the partie number (\"partie\")", optional=False)
    if header.get("home", "a") not in ("a", "b"):
        raise Refused(422, "the record's \"home\" must be \"a\" or \"b\"")
    facts = {**info, "date": header.get("date")} if header.get("date") is not None else dict(info)
    return Parsed(p.id, p.kind, p.record, p.summary, header, header.get("game"), info["id"], info.get("venue"),
                  match=facts)


def _match_fields(info: dict, what: str) -> dict:
    safe_id(info.get("id"), f"{what} \"id\"")
    if info.get("fixture") is not None:        # the league's fixture it was set up from (issue 16)
        safe_id(info["fixture"], f"{what} \"fixture\"")
    for key in TEXTS:
        name(info.get(key), f"{what} \"{key}\"")
    whole(info.get("seed"), f"{what} \"seed\"", 0, MAX_SEED, optional=True)
    return info


_ABSENT = object()


def _differing(posted: dict, replayed: dict) -> str | None:
    """The first key of ``replayed`` whose value ``posted`` does not have. Values equal as they
    stand are equal after a JSON round trip too (a summary's values are JSON's own types, and a
    posted value is never a tuple nor has keys other than texts): only a difference is checked
    again through the round trip."""
    for key, value in replayed.items():
        if posted.get(key, _ABSENT) != value:
            return key
    return None


MATCH_INFO = ("id", "home", "away", "venue", "date", "seed", "table", "fixture")


def match_summary(summary: dict) -> tuple[dict, list, dict]:
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
    if not isinstance(points, dict):
        raise Refused(422, "a match item's summary needs \"points\": {\"home\": n, \"away\": n}")
    for side in ("home", "away"):
        whole(points.get(side), f"the match's \"points\" of {side}", 0, MAX_POINTS)
    return info, ids, {"home": points["home"], "away": points["away"]}


def _check_match(p: Parsed) -> Parsed:
    all_unicode(p.summary, "the summary", escaped=p.escaped)
    info, ids, _ = match_summary(p.summary)
    _match_fields({**info, "fixture": p.summary.get("fixture")}, "the match")
    for pid in ids:
        safe_id(pid, "a partie id of the match")
    if p.summary.get("forfeit") not in (None, "home", "away"):
        raise Refused(422, "\"forfeit\" must be \"home\" or \"away\"")
    game = p.summary.get("game")
    if game not in (None, "carom", "8ball"):
        raise Refused(422, "\"game\" must be \"carom\" or \"8ball\"")
    captains.check(p.summary)
    match_fields.check(p.summary)
    facts = {**info, "fixture": p.summary.get("fixture"), "forfeit": p.summary.get("forfeit"),
             "interrupted": _closed_before(p.summary.get("interrupted")), "partie": ids}
    return Parsed(p.id, p.kind, p.record, p.summary, None, game, info["id"], info.get("venue"), match=facts)


def _closed_before(interrupted) -> int | None:
    """The partie an interrupted match closed (its ``partie`` is the one in play or next, A.6.5)."""
    return interrupted["partie"] - 1 if isinstance(interrupted, dict) else None
