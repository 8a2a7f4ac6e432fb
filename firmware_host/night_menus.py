"""The match night's menus, built on the one menu engine (input.overlays.Menu, NumberPrompt).

A night menu moves its cursor with digits and up/down and chooses with Enter; cancel goes
``back`` to the menu before. Its items carry no callbacks: a chosen item is the outcome
ui "night" with (what to do, with what) as its value, which Night.choose carries out.
"""
import datetime as dt
from dataclasses import dataclass, field, replace

from firmware_host.night_screens import objection_texts
from input import overlays
from input.messages import Said, Texts, refusal
from input.overlays import Menu, MenuItem, NumberPrompt
from rules.errors import RuleError
from rules.games import game_for
from rules.night import INTERRUPTIONS

FIXTURE_DAYS = 7          # fixtures this many days either side of tonight are offered too
# The setup menu's fixed items keep their digits whatever else the menu offers; fixtures follow.
SINGLE_ITEM, KEYTEST_ITEM, OTHER_MATCH_ITEM, FIRST_FIXTURE_ITEM = 1, 2, 3, 4


@dataclass(frozen=True)
class Setup:
    """A match being set up (not yet a decision: nothing is journalled until it is complete)."""
    home: str
    away: str
    fixture: str | None = None
    present: dict = field(default_factory=dict)
    captains: dict = field(default_factory=dict)     # side -> the captain chosen after attendance

    @property
    def side(self) -> str | None:
        """The team whose players are marked next, or None once both are done."""
        return next((s for s in ("home", "away") if s not in self.present), None)

    @property
    def captain_side(self) -> str | None:
        """The team whose captain is chosen next (after attendance), or None once both are."""
        return next((s for s in ("home", "away") if s not in self.captains), None)

    @property
    def marking(self) -> str:
        """The side whose players are marked now: its menus are shown only while one is left."""
        return _left(self.side, "attendance")

    @property
    def naming(self) -> str:
        """The side whose captain is chosen now: its menu is shown only while one is left."""
        return _left(self.captain_side, "captains")

    def team(self, side: str) -> str:
        return self.home if side == "home" else self.away


def _left(side: str | None, step: str) -> str:
    if side is None:
        raise ValueError(f"both teams' {step} is done")
    return side


def item(text: str, action: str | None = None, value=None, *, hold: bool = False) -> MenuItem:
    """A night item: chosen, it is the outcome ui "night" with (action, value) for Night.choose;
    without an action it only closes the menu. ``hold``: taken only by the long press."""
    return MenuItem(text, ui=action and "night", value=action and (action, value), confirm=False, hold=hold)


def menu(t: Texts, title: str, items: list, *, back: str | None = None, back_value=None,
         selected: int = 0, numbers: tuple | None = None, undo: str | None = None) -> Menu:
    """``undo``: the action the undo key performs here (taking back the last decision)."""
    last = numbers[-1] if numbers else len(items)
    return Menu(title, tuple(items), selected, t.language, numbers=numbers, digit_selects=True,
                leave_on=("cancel",), back=None if back is None else item("", back, back_value),
                hint=t("hint_menu", n=last), undo=None if undo is None else item("", undo))


def yes_no(t: Texts, title: str, ui: str, value=None, *, no: tuple = (None, None)) -> Menu:
    """An irreversible choice of the night (closing, a team's forfeit, giving a match up): the one
    yes/no question (input.overlays.yes_no); ``no``: the (action, value) "Ne" leads to (none: the
    menu closes)."""
    return overlays.yes_no(title, item(t("yes"), ui, value), t.language, no=item(t("no"), *no))


def setup_menu(t: Texts, game: str, league, venue: str, today: dt.date, *, on_keytest: bool = False,
               played: frozenset = frozenset()) -> Menu:
    """A single partie, the key test and another match keep their digits (1, 2, 3) on any
    night; the venue's fixtures follow from 4, tonight's first and selected, then those within
    a week either side (a postponed match, a night begun before midnight) with their dates.
    A fixture in ``played`` (closed at this table) is marked ✓, not selected, and asks before it
    is set up again (issue 24)."""
    entries = [(SINGLE_ITEM, item(t.game("single", game), "single")), (KEYTEST_ITEM, item(t("keytest"), "keytest"))]
    if len(league.teams) >= 2:
        entries.append((OTHER_MATCH_ITEM, item(t("other_match"), "home_menu")))
    fixtures = league.fixtures_for(venue, today, FIXTURE_DAYS)
    for number, fixture in enumerate(fixtures, start=FIRST_FIXTURE_ITEM):
        when = "" if fixture.date == today else f"{fixture.date.day}.{fixture.date.month}. "
        setup = Setup(fixture.home, fixture.away, fixture.id)
        if fixture.id in played:
            entries.append((number, item(f"✓ {when}{fixture.home} – {fixture.away}", "played_q", setup)))
        else:
            entries.append((number, item(f"{when}{fixture.home} – {fixture.away}", "present", setup)))
    tonight = bool(fixtures) and fixtures[0].date == today and fixtures[0].id not in played
    selected = len(entries) - len(fixtures) if tonight else 0
    if on_keytest:                        # under the key test, so leaving it returns there
        selected = KEYTEST_ITEM - 1
    title = t("setup") if league.rules else t("setup_config_rules")     # the league's rules, or the config's
    return menu(t, title, [entry for _, entry in entries], selected=selected,
                numbers=tuple(number for number, _ in entries))


def played_question(t: Texts, setup: Setup) -> Menu:
    """A fixture already closed at this table: set up again only on purpose (it starts on "Ne",
    which goes back to the setup menu)."""
    return yes_no(t, t("played_again_q", home=setup.home, away=setup.away), "present", setup,
                  no=("setup_menu", None))


def home_menu(t: Texts, league) -> Menu:
    return menu(t, t("home_team"), [item(team.name, "away_menu", team.name) for team in league.teams],
                back="setup_menu")


def away_menu(t: Texts, league, home: str) -> Menu:
    return menu(t, t("away_team"), [item(team.name, "present", Setup(home, team.name))
                                    for team in league.teams if team.name != home],
                back="home_menu")


def present_menu(t: Texts, league, setup: Setup, marked: list[str] | None = None, selected: int | None = None,
                 title: str | None = None) -> Menu:
    """Mark who is present, home team first; everybody is marked to start with. Enter on
    "done" (where the cursor starts) takes them all."""
    team = league.team(setup.team(setup.marking))
    marked = list(team.players) if marked is None else marked
    toggles = [item(("✓ " if p in marked else "  ") + p, "toggle", (setup, marked, i))
               for i, p in enumerate(team.players)]
    items = toggles + [item(t("done"), "present_done", (setup, marked)),
                       item(t("absent"), "no_show", (setup, marked))]
    return menu(t, title or t("present", team=team.name), items, back="setup_menu",
                selected=len(items) - 2 if selected is None else selected)


def toggled(t: Texts, league, setup: Setup, marked: list[str], index: int) -> Menu:
    """The presence menu with one player marked or unmarked."""
    players = league.team(setup.team(setup.marking)).players
    now = [p for p in players if (p in marked) != (p == players[index])]
    return present_menu(t, league, setup, now, index)


def present_done(t: Texts, league, setup: Setup, marked: list[str], need: int) -> Menu | Setup:
    """The next team's presence menu, the same again when too few are marked, or the Setup
    complete with who is present."""
    if len(marked) < need:
        done = len(league.team(setup.team(setup.marking)).players)
        return present_menu(t, league, setup, marked, done, t("too_few", n=need))
    setup = replace(setup, present={**setup.present, setup.marking: marked})
    return setup if setup.side is None else present_menu(t, league, setup)


def captain_pick_menu(t: Texts, setup: Setup) -> Menu:
    """A.6.1: after attendance, before the first partie, each team (home first) names its captain
    from its players present; the sign-off then asks that captain."""
    side = setup.naming
    return menu(t, t("captain_of", team=setup.team(side)),
                [item(name, "captain_chosen", (setup, name)) for name in setup.present[side]], back="setup_menu")


def with_captain(setup: Setup, name: str) -> Setup:
    return replace(setup, captains={**setup.captains, setup.naming: name})


def next_partie_menu(t: Texts, match, *, take_back: bool = False, league=None,
                     abandonable: bool = False) -> Menu:
    """The menu that starts the next partie: the lag winner (carom) or the pairing (8-ball);
    ``take_back``: the partie before was just closed, and the undo key reopens it; once a partie
    is closed the undo key never moves the cursor here, but says "Není co vrátit" when the closing
    is final (a restart, the next partie begun): one key, one meaning on this screen. A single
    partie offers the players of ``league``'s rosters too (single_names_menu). ``abandonable``
    (Night.abandonable): cancel gives up the match set up wrongly — a single partie too."""
    number = match.number
    back = "abandon_q" if abandonable else None      # cancel: give up a match set up wrongly
    undo = "reopen" if take_back or match.closed else None
    if not match.league:
        players = [t("player", n=1), t("player", n=2)]
        title = t.game("starts", match.game, n=number)       # 8-ball: who breaks, in sets and games
        names = [item(t("names"), "single_names")] if roster(league) else []
        return menu(t, title, [item(p, "start", (p, players[1 - i], None)) for i, p in enumerate(players)] + names,
                    back=back, undo=undo)
    interrupt = item(t("interrupt"), "interrupt_q")          # A.6.5: the match cannot go on
    if match.pairs is not None:                            # drawn by lot (carom, RULES 1.6)
        pair = match.pairs[number - 1]
        lag = [pair["home"], pair["away"]]
        return menu(t, t("lag", n=number),
                    [item(n, "start", (n, lag[1 - i], "ab"[i])) for i, n in enumerate(lag)] + [interrupt],
                    back=back, undo=undo)
    return menu(t, t("home_player", n=number),
                [item(p, "pick_away", p) for p in match.present["home"]] + [interrupt], back=back, undo=undo)


# -- an interrupted match (A.6.5) ---------------------------------------------------------

def interrupt_menu(t: Texts) -> Menu:
    """Why the match cannot go on: a short list (rules.night.INTERRUPTIONS); Back leaves it."""
    return menu(t, t("interrupt_reason"), [item(t("interrupt." + reason), "interrupt_confirm", reason)
                                          for reason in INTERRUPTIONS])


def interrupt_question(t: Texts, match, reason: str) -> Menu:
    """The home team's captain confirms the interruption (A.6.5: the home captain writes it up): the
    one yes/no question, "Ano" by the long press."""
    captain = match.captains.get("home")
    title = t("interrupt_q", name=captain, team=match.home) if captain else t("interrupt_q_team", team=match.home)
    return yes_no(t, title, "interrupt", reason)


def roster(league) -> list[str]:
    """Every player of the league's teams, each once, in the league file's order."""
    return list(dict.fromkeys(p for team in getattr(league, "teams", ()) for p in team.players))


def single_names_menu(t: Texts, league, first: str | None = None) -> Menu:
    """A single partie's players from the league's rosters instead of "Hráč 1" / "Hráč 2" (the
    end then says who won, not "VYHRÁL 1"): the player who starts, then the other; Back goes back
    one step."""
    if first is None:
        return menu(t, t("names_first"), [item(p, "single_names", p) for p in roster(league)], back="next_menu")
    return menu(t, t("names_second", name=first),
                [item(p, "start", (first, p, None)) for p in roster(league) if p != first], back="single_names")


def orphan_menu(t: Texts, header: dict) -> Menu:
    """An unfinished partie no match owns (the match's line lost from the night journal): play it
    on, or set it aside to the archive (unsent). Enter plays on."""
    return menu(t, t("orphan", a=header["a"], b=header["b"]),
                [item(t("orphan_resume"), "adopt"), item(t("orphan_set_aside"), "set_aside", hold=True)])


def away_player_menu(t: Texts, match, home_player: str) -> Menu:
    return menu(t, t("away_player"), [item(p, "start", (home_player, p, "a")) for p in match.present["away"]],
                back="next_menu")


def partie_text(t: Texts, board, key: str) -> str:
    """The text for the partie in play, in its game's word (8-ball: "zápas")."""
    return t.game(key, board.header["game"])


def screen_hint(t: Texts, phase: str, board) -> str:
    """What to press on a screen without a menu, for a key that does nothing there."""
    if phase == "partie":
        if board.finished:
            return partie_text(t, board, "hint_finished")
        return t("hint_partie" if game_for(board.header["game"]).protocol else "hint_hold_menu")
    return t("hint_" + phase)


def abandon_text(t: Texts, game: str, league: bool, text_id: str) -> str:
    """Giving up (``text_id``: "abandon", "abandon_q", "abandon_taken_back") a league match
    ("utkání"), or a single partie (8-ball: "zápas") picked by mistake."""
    return t(text_id) if league else t.game(text_id + "_single", game)


def partie_menu(t: Texts, board, *, abandonable: bool = False, league: bool = True) -> Menu | None:
    """Enter during a partie: once it is over, the one question that closes it (the held menu's
    "Uzavřít partii" asks the same, issue 24); before that, correct its protocol (a game with one:
    carom), or — before anything is entered — start it again (the wrong player picked as the
    starter); ``abandonable``: the match's first partie, so the whole match may still be given up
    (``league``: a team match; else a single partie, with nothing entered yet)."""
    if board.finished:          # an irreversible choice: it starts on "Ne", "Ano" by the long press
        return yes_no(t, partie_text(t, board, "close_partie"), "close_partie")
    items, game = [], board.header["game"]
    if not board.history:
        items.append(item(t.game("restart", game), "take_back"))
    elif game_for(board.header["game"]).protocol:
        items += [item(t("correct"), "protocol", "correct"), item(t("insert"), "protocol", "insert")]
    if abandonable:
        items.append(item(abandon_text(t, board.header["game"], league, "abandon"), "abandon_q"))
    return menu(t, t.game("protocol", game), items) if items else None


# What the rule core says before a correction's arguments when the record takes none now
# (rules/carom/corrections.py: a series running; the end, RULES 1.4 item 9).
PROTOCOL_CLOSED = ("series_running", "end_stands")


def protocol_menu(t: Texts, board, kind: str) -> Menu:
    """Pick the player, then the inning, then type the points: a journalled correction. Refused at
    once — not after the five steps — while the record takes no correction (issue 24 item 9)."""
    try:
        board.check({"cmd": kind, "player": "a", "inning": 1, "points": 0})
    except RuleError as exc:
        if exc.code in PROTOCOL_CLOSED:
            raise Said(refusal(exc, t.language, board.header), code=exc.code) from None
    return menu(t, t(kind), [item(board.header[side], "protocol_inning", (kind, side)) for side in "ab"],
                back="partie_menu")


def inning_menu(t: Texts, board, kind: str, player: str) -> Menu | None:
    """The innings to correct, or the places to insert one; None when there is none yet.

    Insert offers only the places where a forgotten inning can fit (RULES 1.4, B.4.1): one of no
    points is the easiest to fit, so a place the rule core refuses it at can never take one —
    "na konec" for the player who would then have more innings than the opener, say. Where none
    fits, the refusal says why (which rule it would break)."""
    series = board.summary()["players"][player]["series"]
    if kind == "insert":
        return _insert_menu(t, board, player, len(series))
    texts = [t("inning_points", n=n, points=p) for n, p in enumerate(series, start=1)]
    if not texts:
        return None
    return menu(t, t(kind), [item(text, "points", (kind, player, n)) for n, text in enumerate(texts, start=1)],
                back="protocol", back_value=kind)


def _insert_menu(t: Texts, board, player: str, innings: int) -> Menu:
    places: list[int] = []
    refused: list[RuleError] = []
    for n in range(1, innings + 2):
        try:
            board.check({"cmd": "insert", "player": player, "inning": n, "points": 0})
        except RuleError as exc:
            refused.append(exc)
            continue
        places.append(n)
    if not places:
        raise Said(t("no_insert", why=refusal(refused[0], t.language, board.header)), code="no_insert")
    texts = {n: t("before", n=n) if n <= innings else t("at_end") for n in places}
    return menu(t, t("insert"), [item(texts[n], "points", ("insert", player, n)) for n in places],
                back="protocol", back_value="insert", numbers=tuple(places))


def points_prompt(t: Texts, kind: str, player: str, inning: int) -> NumberPrompt:
    return NumberPrompt(t("points_of", n=inning), t("points_hint"),
                        lambda points: {"cmd": kind, "player": player, "inning": inning, "points": points},
                        language=t.language)


# -- the captains answer the zápis (A.6.9d, A.6.3, A.6.5) ----------------------------------

@dataclass(frozen=True)
class Answer:
    """A captain's answer being given (menu state, not a decision until journalled)."""
    side: str
    captain: str
    kind: str | None = None


def captain_menu(t: Texts, match, side: str, names: list[str]) -> Menu:
    """A match whose captain of ``side`` was not chosen at setup (a team that did not come, a
    match set up by an older version): the captain picks their name (A.6.1: a player of the team);
    the last item is the referee's escape, "not signed", asked again with "Ne" first."""
    team = match.team(side)
    items = [item(name, "sign_as", Answer(side, name)) for name in names]
    items.append(item(t("unsigned"), "unsigned_q", side))
    return menu(t, t("captain_of", team=team), items)


def sign_menu(t: Texts, match, answer: Answer, *, chosen: bool = False) -> Menu:
    """The captain named confirms the zápis — a deliberate act, so "Podepisuji" is taken only by
    the long press and habitual Enter presses never sign (issue 24) — or objects instead;
    ``chosen``: the captain was chosen at setup, so the referee's escape, "not signed", is here."""
    team = match.team(answer.side)
    items = [item(t("sign"), "sign", answer, hold=True), item(t("objection"), "objection_kind", answer)]
    if chosen:
        items.append(item(t("unsigned"), "unsigned_q", answer.side))
    return menu(t, t("sign_q", name=answer.captain, team=team), items,
                back=None if chosen else "captain", back_value=answer.side)


def objection_kind_menu(t: Texts, answer: Answer) -> Menu:
    return menu(t, t("objection_kind"), [item(text, "objection_partie", replace(answer, kind=kind))
                                         for kind, text in objection_texts(t).items()],
                back="sign_as", back_value=answer)


def objection_partie_menu(t: Texts, match, answer: Answer) -> Menu:
    """Which partie the objection concerns (by its players), or the whole match (the last item)."""
    items = [item(t("partie_of", home=line["home"], away=line["away"]), "object", (answer, n))
             for n, line in enumerate(match.closed, start=1)]
    items.append(item(t("whole_match"), "object", (answer, None)))
    return menu(t, t("objection_partie"), items, back="objection_kind", back_value=answer)


def unsigned_question(t: Texts, match, side: str) -> Menu:
    """The escape is not a habitual Enter: the question starts on "Ne", which goes back."""
    team = match.team(side)
    return yes_no(t, t("unsigned_q", team=team), "unsigned", side, no=("captain", side))
