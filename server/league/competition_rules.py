"""A competition's rules (issue 22): what the organiser sets for a season's game (A.1.2).

A competition is a season × game (carom, 8ball). Its rules are the settings below, each with the
clause it comes from; what the organiser did not set is the default, which is what the rule cores
and the counter's config use today (rules/carom, rules/eightball). The receiver keeps only the
settings changed (server/storage/league.py), sends the play rules to the venues' counters in the
signed league document (``for_device``), checks every incoming partie and match item against them
(``check_partie``, ``check_match``: 422 naming the rule and the value) and counts the tables by
them (team points per partie, the forfeit score).
"""
from dataclasses import dataclass

from rules.carom.figures import TEAM_POINTS
from rules.carom.match import PARTIE_PER_MATCH, PLAYERS_PER_TEAM
from rules.carom.state import Settings as CaromSettings
from rules.eightball.match import INDIVIDUAL_MATCHES, POINTS_PER_MATCH
from rules.eightball.match import PLAYERS_PER_TEAM as EIGHTBALL_PLAYERS
from rules.eightball.state import DEFAULT_GAMES_TO_WIN, DEFAULT_SETS_TO_WIN
from rules.game import MAX_TEAM_POINTS
from server.league.admin_fields import REASON_MAX, LeagueError
from server.league.errors import Refused
from server.league.said import Said

MAX_POSTPONEMENTS = 2          # A.3.3: a team may ask for a postponement at most twice a season
EXPELLING_NO_SHOWS = 2         # A.3.7: the second unexcused no-show expels the team


@dataclass(frozen=True)
class Setting:
    key: str
    label: str              # the admin's label (Czech)
    clause: str
    default: int | str | None
    minimum: int = 0
    maximum: int = 10_000
    play: bool = False      # a rule of play: sent to the counters, checked in every partie header
                            # (the team points too: the counter's summary and zápis count them)
    optional: bool = False  # may be unset (None): its meaning is then the default's (see ``forfeit_points``)
    text: bool = False      # a text, not a number
    counts: bool = False    # decides what a played (or forfeited) match counts, though not a rule of play

    @property
    def fixed_by_results(self) -> bool:
        """Set for the season before its first result (A.1.2): a change would rewrite the results
        stored, which the captains signed under the old value."""
        return self.play or self.counts

    def parse(self, value) -> int | str | None:
        """The setting's value from the organiser's text (or a number); SettingRefused naming it."""
        if self.text:
            value = "" if value is None else str(value).strip()
            if len(value) > REASON_MAX or not value.isprintable():
                raise SettingRefused(self, "{key} ({clause}) is one line of at most {most} characters",
                                     most=REASON_MAX)
            return value
        if value is None or (isinstance(value, str) and not value.strip()):
            if self.optional:
                return None
            raise SettingRefused(self, "{key} ({clause}) must be a whole number {minimum} to {maximum}")
        text = str(value).strip()
        if isinstance(value, bool) or not text.lstrip("-").isdigit() or len(text) > 9:
            raise SettingRefused(self, "{key} ({clause}) must be a whole number {minimum} to {maximum}, got {value}",
                                 value=repr(text[:40]), site={"value": f"„{text[:40]}“"})
        number = int(text)
        if not self.minimum <= number <= self.maximum:
            raise SettingRefused(self, "{key} ({clause}) must be {minimum} to {maximum}, got {value}", value=number)
        return number


class SettingRefused(Said, LeagueError):
    """A value a setting does not take: the English text names the setting by its key, the site by
    its label (server/site/words.py)."""

    def __init__(self, setting: Setting, template: str, *, site: dict | None = None, **values):
        super().__init__(template, key=setting.key, clause=setting.clause, minimum=setting.minimum,
                         maximum=setting.maximum, **values, site={"key": setting.label, **(site or {})})


def _common(min_players: int) -> tuple[Setting, ...]:
    return (
        Setting("forfeit_points", "Body za kontumaci (prázdné: plný počet bodů vyhraného utkání)", "A.3.7",
                None, 0, 1000, optional=True, counts=True),
        Setting("min_players", "Nejméně hráčů v družstvu", "A.3.1", min_players, 1, 100),
        Setting("postponements", "Odkladů na družstvo za sezónu", "A.3.3", MAX_POSTPONEMENTS, 0, 100),
        Setting("expelling_no_shows", "Nedostavení, které vyřadí družstvo", "A.3.7", EXPELLING_NO_SHOWS, 1, 100),
        Setting("entry_fee", "Startovné za družstvo (Kč, prázdné: žádné)", "A.1.5", None, 0, 1_000_000,
                optional=True),
        Setting("prize_key", "Klíč rozdělení cen", "A.1.5", "", text=True),
    )


SETTINGS: dict[str, tuple[Setting, ...]] = {
    "carom": (
        Setting("points_limit", "Limit bodů v partii", "A.5.1", CaromSettings.points_limit, 1, 10_000, play=True),
        Setting("innings_limit", "Limit náběhů v partii", "A.5.2", CaromSettings.innings_limit, 1, 1_000, play=True),
        Setting("partie_per_match", "Partií v utkání", "A.3.6", PARTIE_PER_MATCH, 1, 20, counts=True),
        Setting("win_points", "Body družstvu za vyhranou partii", "A.5.3", TEAM_POINTS["win"], 0, MAX_TEAM_POINTS, play=True),
        Setting("draw_points", "Body družstvu za remízu", "A.5.4", TEAM_POINTS["draw"], 0, MAX_TEAM_POINTS, play=True),
        Setting("loss_points", "Body družstvu za prohranou partii", "A.5.5", TEAM_POINTS["loss"], 0, MAX_TEAM_POINTS, play=True),
        *_common(PLAYERS_PER_TEAM),
    ),
    "8ball": (
        Setting("games_to_win", "Vyhraných her na set", "8B:8", DEFAULT_GAMES_TO_WIN, 1, 99, play=True),
        Setting("sets_to_win", "Vyhraných setů na zápas", "8B:8", DEFAULT_SETS_TO_WIN, 1, 99, play=True),
        Setting("partie_per_match", "Zápasů v utkání družstev", "RULES 2.9", INDIVIDUAL_MATCHES, 1, 20, counts=True),
        Setting("win_points", "Body družstvu za vyhraný zápas", "RULES 2.9", POINTS_PER_MATCH, 0, MAX_TEAM_POINTS, play=True),
        *_common(EIGHTBALL_PLAYERS),
    ),
}


def settings(game: str) -> tuple[Setting, ...]:
    if game not in SETTINGS:
        raise LeagueError(f"the competition must be one of {', '.join(SETTINGS)}, got {game!r}")
    return SETTINGS[game]


def defaults(game: str) -> dict:
    return {s.key: s.default for s in settings(game)}


def merged(game: str, stored: dict) -> dict:
    """The competition's rules: the stored settings over the defaults (a key this version does not
    know, or a value out of range, is left out: the default stands)."""
    rules = defaults(game)
    for setting in settings(game):
        if setting.key in stored:
            try:
                rules[setting.key] = setting.parse(stored[setting.key])
            except LeagueError:
                pass
    return rules


def changed(game: str, stored: dict, changes: dict, *, has_results: bool = False) -> dict:
    """The settings to store after the organiser's ``changes`` (key -> text); LeagueError naming
    an unknown key, a value out of its range, or (``has_results``: the season has a stored match or
    forfeit of the competition) a change of a rule that decides what those results count. A
    setting changed back to its default is dropped."""
    known = {s.key: s for s in settings(game)}
    out = {key: value for key, value in stored.items() if key in known}
    current = merged(game, stored)
    for key, value in changes.items():
        if key not in known:
            raise LeagueError(f"{game} has no rule {key!r}; its rules: {', '.join(known)}")
        parsed = known[key].parse(value)
        if has_results and known[key].fixed_by_results and parsed != current[key]:
            raise SettingRefused(known[key], "{key} ({clause}) stays {value} this season: its matches stored were "
                                             "played and signed under it (A.1.2)", value=_in_force(key, current))
        if parsed == known[key].default:
            out.pop(key, None)
        else:
            out[key] = parsed
    return out


def _in_force(key: str, rules: dict) -> int | str:
    return forfeit_points(rules) if key == "forfeit_points" else rules[key]


def forfeit_points(rules: dict) -> int:
    """The team points a forfeited match gives the team that turned up (A.3.7): as set, else the full
    score of a match won (every partie won)."""
    if rules.get("forfeit_points") is not None:
        return rules["forfeit_points"]
    return rules["partie_per_match"] * rules["win_points"]


def played_scores(rules: dict) -> frozenset[tuple[int, int]]:
    """Every team score (home, away) one match of the competition played to its end can give, each
    partie won, lost or drawn: carom's 4 partie at 2/1/0 always add up to 8 (A.5.3-A.5.5); an
    8-ball individual match is won or lost, never drawn (RULES 2.9), so 4 at 1 point add up to 4.
    With a forfeit's (``forfeit_points``, A.3.7), what an award may give (A.6.5, A.3.6)."""
    count, win = rules["partie_per_match"], rules["win_points"]
    loss, draw = rules.get("loss_points", 0), rules.get("draw_points")
    scores = set()
    for won in range(count + 1):
        for lost in range(count - won + 1):
            drawn = count - won - lost
            if drawn and draw is None:
                continue
            shared = drawn * (draw or 0)
            scores.add((won * win + lost * loss + shared, lost * win + won * loss + shared))
    return frozenset(scores)


def for_device(game: str, rules: dict) -> dict:
    """What the counters receive in the league document: the rules of play and the partie per match."""
    return {s.key: rules[s.key] for s in settings(game) if s.play or s.key == "partie_per_match"}


def described(game: str, rules: dict) -> list[dict]:
    """Each setting with its label, clause, value and default (the admin's form, the CLI's list)."""
    return [{"key": s.key, "label": s.label, "clause": s.clause, "value": rules[s.key], "default": s.default,
             "text": s.text, "optional": s.optional} for s in settings(game)]


# -- checking the items ------------------------------------------------------------------
def check_partie(game: str, rules: dict, header: dict, competition: str) -> None:
    """Refused (422) when a partie of the competition was played by other rules of play than the
    competition's (a counter misconfigured, or without its league document)."""
    from rules.games import game_for

    played = game_for(game).core.parse_header(header)
    for setting in settings(game):
        if not setting.play:
            continue
        value = getattr(played, setting.key)
        if value != rules[setting.key]:
            raise Refused(422, f"{competition} plays {setting.key} {rules[setting.key]} ({setting.clause}); this "
                               f"partie was played with {setting.key} {value} (the counter's rules: its league "
                               "document, else its config)")


def check_match(rules: dict, partie: list, *, forfeit: bool, interrupted: int | None, competition: str) -> None:
    """Refused (422) when a match item lists more partie than the competition's match has, or (a
    match played to its end) not all of them."""
    count, most = len(partie), rules["partie_per_match"]
    if forfeit:
        return
    if interrupted is not None:
        if interrupted >= most:
            raise Refused(422, f"{competition} plays partie_per_match {most}: a match interrupted after "
                               f"{interrupted} partie was over (\"interrupted\" \"partie\")")
        return
    if count != most:
        raise Refused(422, f"{competition} plays partie_per_match {most} (A.3.6, RULES 2.9); this match lists "
                           f"{count}")
