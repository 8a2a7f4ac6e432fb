"""The match night's screen models (docs/screens.md): ready, lot draw, partie, match result."""
from display.text import clock_text
from input.messages import Texts
from rules import night as rules_night


def ready_model(device, status: dict, now, t: Texts) -> dict:
    """Venue, table, the time of day, and what is not yet delivered to the league; when the
    receiver refuses this device (a wrong secret, not registered), ``refused`` says so: that is
    no network fault, and waiting will not mend it."""
    model = {"screen": "ready", "venue": device.venue, "table": device.table,
             "time": now.strftime("%H:%M"), "unsent": int(status.get("unsent") or 0),
             "last_sent": clock_text(status.get("last_delivery"))}
    if status.get("device_refused"):
        model["refused"] = t("sync_device_refused")
    return model


def lotdraw_model(match) -> dict:
    """RULES 1.6: the seed is shown so both captains can repeat the draw."""
    return {"screen": "lotdraw", "seed": match.seed, "pairs": list(match.pairs)}


def partie_model(board, match=None, summary=None) -> dict:
    """The partie in play; on a league match night also ``match``: which partie of how many,
    and the team points so far by side (the team of player A under ``a``) — docs/screens.md.
    ``summary``: the board's, unless given (a stroke's drawn ahead: Night.screens_ahead)."""
    model = {"screen": board.header["game"], "summary": board.summary() if summary is None else summary}
    home = board.header.get("home")
    if match is not None and match.league and home in ("a", "b"):
        points = rules_night.points(match)
        away = "b" if home == "a" else "a"
        model["match"] = {"partie": board.header.get("partie", match.number), "partie_count": match.partie_count,
                          "points": {home: points["home"], away: points["away"]}}
    return model


def match_model(match, t: Texts) -> dict:
    """The team match: each closed partie's line and the team points (or the forfeit)."""
    if match.forfeit:
        lines = [t("no_show", team=match.team(match.forfeit))]
    else:
        lines = [f"{number}. {line['home']} {line['score']} {line['away']}{_forfeited(t, line)} "
                 f"({line['team_points']['home']}:{line['team_points']['away']})"
                 for number, line in enumerate(match.closed, start=1)]
    return {"screen": "match", "home": match.home or t("home"), "away": match.away or t("away"),
            "points": rules_night.points(match), "partie": lines + interruption_lines(match, t) + answer_lines(match, t)}


def interruption_lines(match, t: Texts) -> list[str]:
    """A.6.5: where and why the match was interrupted, and the partie in play as it stood."""
    interrupted = match.interrupted
    if interrupted is None:
        return []
    number = interrupted["partie"]
    lines = []
    if interrupted.get("in_play"):
        lines.append(t("unfinished_line", n=number, **{k: interrupted["in_play"][k] for k in ("home", "score", "away")}))
    what = partie_number(t, match.game, number)
    return lines + [t("interrupted_line", what=what, reason=t("interrupt." + interrupted["reason"]))]


def _forfeited(t: Texts, line: dict) -> str:
    """", vzdal Novák" after a forfeited partie's line of the zápis (RULES 1.4.8): its score is
    what was played, not a result."""
    side = line.get("forfeit")
    return f", {t('forfeited_by', name=line[side])}" if side in ("home", "away") else ""


def objection_texts(t: Texts) -> dict:
    """The objection kinds as the counter names them: A.6.3 (referee, scorer), A.6.5 (interrupted)."""
    return {"referee": t("objection_referee"), "scoring": t("objection_scoring"),
            "interrupted": t("objection_interrupted")}


def partie_number(t: Texts, game: str, number: int) -> str:
    """"partie 2" (carom), "zápas 2" (8-ball: an individual match)."""
    return t.game("partie_n", game, n=number)


def answer_lines(match, t: Texts) -> list[str]:
    """The captains' answers given so far (A.6.9d, A.6.3, A.6.5), after the partie lines of the zápis."""
    kinds = objection_texts(t)
    lines = []
    for answer in match.answers:
        team = match.team(answer["side"])
        if answer["ev"] == "sign":
            lines.append(t("signed_line", team=team, name=answer["captain"]))
        elif answer["ev"] == "object":
            what = t("whole_match") if answer["partie"] is None else partie_number(t, match.game, answer["partie"])
            lines.append(t("objection_line", team=team, name=answer["captain"], kind=kinds[answer["kind"]], what=what))
        else:
            lines.append(t("unsigned_line", team=team))
    return lines


def seconds_to_next_minute(now) -> float:
    """When the ready screen's time of day next changes."""
    return 60.0 - now.second - now.microsecond / 1e6


def journal_notice(t: Texts, night, partie) -> tuple[str, str] | None:
    """(text, level) for journals read back damaged (firmware_host/journal.Damage of the night's and
    of the partie in play's): which stroke is in doubt, that the match's journal lost a decision,
    or that everything was read whole from the second copies."""
    if partie is not None and partie.doubts:
        return t("stroke_in_doubt", strokes=", ".join(str(n - 1) for n in partie.doubts)), "warn"
    if night.doubts:
        return t("night_in_doubt"), "warn"
    if night.copies or (partie is not None and partie.copies):
        return t("journal_repaired"), "info"
    return None


def rack_news_text(t: Texts, news, names: dict) -> str | None:
    """8-ball's news (rules.night.rack_news) as the counter says it: who took the game or set —
    and how, when it was lost on the 8 — or that the same player breaks again."""
    if news is None:
        return None
    key, side, how = news
    said = t(key, name=names.get(side, side))
    return f"{said}: {t('loss.' + how)}" if how else said
