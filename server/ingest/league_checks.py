"""An incoming item held to its league (issue 22), in the receiver's transaction: its date (not
after the receiver's: 422), the competition's rules (server.league.competition_rules: 422 naming
the rule and the value), and a no-show entered at the table counted as the organiser's (A.3.7).

An item is held to a competition's rules when it is of a league match: one that names a fixture,
or one between two teams of the competition (a match off the schedule that the organiser may yet
assign to a fixture). A single partie, and a match of teams the league does not know, are not.
"""
import datetime as dt

from server.league import competition_rules
from server.league.errors import Refused
from server.league.fixture_claims import CONTINUATION
from server.tables import exports
from server.tables.sums import season_of

AHEAD = dt.timedelta(days=1)      # a counter's date may run a day ahead of the receiver's (midnight, zones)


def not_dated_ahead(parsed, today: dt.date) -> None:
    """Refused (422) when an item of a match is dated more than a day after the receiver's ``today``
    (its store's clock): a match is sent on the night it is played, so a later date is a counter's
    clock or setup gone wrong, and stored it would make its fixture played before its day."""
    day = (parsed.match or {}).get("date")
    try:
        dated = dt.date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        return
    if dated is not None and dated > today + AHEAD:
        raise Refused(422, f"the match is dated {day}, after the receiver's date ({today.isoformat()}): a match is "
                           "sent on the day it is played (is the counter's date right?)")


def hold_to_rules(store, parsed, claim: tuple[str, int | None] | None) -> None:
    """Refused (422) when a league match's partie or match item breaks its competition's rules."""
    facts = parsed.match
    if facts is None or parsed.game is None:
        return
    season = season_of(facts.get("date"))
    rules = store.league.competition_rules(season, parsed.game)
    if rules is None or season is None:
        return
    if claim is None and not all(_league_team(store, season, parsed.game, facts.get(side)) for side in ("home", "away")):
        return
    competition = f"{parsed.game} {season}"
    if parsed.kind == "partie":
        competition_rules.check_partie(parsed.game, rules, parsed.header, competition)
        return
    if claim is not None and _part(store, parsed.match_id, claim) == CONTINUATION:   # the rest (A.6.5)
        rules = dict(rules, partie_per_match=rules["partie_per_match"] - _played_before(store, claim[0]))
    competition_rules.check_match(rules, facts.get("partie") or [], forfeit=facts.get("forfeit") is not None,
                                  interrupted=facts.get("interrupted"), competition=competition)


def _part(store, match_id: str, claim: tuple[str, int | None]) -> int | None:
    """The part the match is of its fixture: the claim's for its first item, else the stored one."""
    if claim[1] is not None:
        return claim[1]
    assignment = store.results.assignment(match_id)
    return assignment["part"] if assignment else None


def _league_team(store, season: str, game: str, name) -> bool:
    return isinstance(name, str) and store.league.team_named(season, game, name) is not None


def _played_before(store, fixture_id: str) -> int:
    """The partie the interrupted match of a fixture closed before it was interrupted (A.6.5)."""
    record = exports.match_record(store, store.fixtures.get(fixture_id)["match"])
    interruption = (record or {}).get("interruption") or {}
    return interruption.get("closed") or 0


def no_show_at_table(store, parsed, fixture_id: str) -> None:
    """A match item saying a team did not turn up ("Tým nepřišel") for a fixture: that team's
    no-show, counted exactly as the organiser's (the competition's limit expels it, A.3.7)."""
    absent = (parsed.match or {}).get("forfeit")
    if absent not in ("home", "away"):
        return
    store.departures.no_show_at_table(fixture_id, absent, parsed.match_id)

