"""The match night's menus, built on the one menu engine (input.overlays.Menu, NumberPrompt).

A night menu moves its cursor with digits and up/down and chooses with Enter; cancel goes
``back`` to the menu before. Its items carry no callbacks: a chosen item is the outcome
ui "night" with (what to do, with what) as its value, which Night.choose carries out.
"""
import datetime as dt
from dataclasses import dataclass, field, replace

from firmware_host.night_screens import objection_texts
from input.messages import Said, Texts, refusal
from input.overlays import Menu, MenuItem, NumberPrompt
from rules.errors import RuleError

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

    @property
    def side(self) -> str | None:
        """The team whose players are marked next, or None once both are done."""
        return next((s for s in ("home", "away") if s not in self.present), None)

    def team(self, side: str) -> str:
        return self.home if side == "home" else self.away


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
    """An irreversible choice (closing, a forfeit, giving a match up): it starts on "Ne", and "Ano"
    is taken only by the long press, so a habitual Enter, Enter never takes it; ``no``: the
    (action, value) "Ne" leads to (none: the menu closes)."""
    return menu(t, title, [item(t("yes"), ui, value, hold=True), item(t("no"), *no)], selected=1)


def setup_menu(t: Texts, game: str, league, venue: str, today: dt.date, *, on_keytest: bool = False) -> Menu:
    """A single partie, the key test and another match keep their digits (1, 2, 3) on any
    night; the venue's fixtures follow from 4, tonight's first and selected, then those within
    a week either side (a postponed match, a night begun before midnight) with their dates."""
    entries = [(SINGLE_ITEM, item(t("single_" + game), "single")), (KEYTEST_ITEM, item(t("keytest"), "keytest"))]
    if len(league.teams) >= 2:
        entries.append((OTHER_MATCH_ITEM, item(t("other_match"), "home_menu")))
    fixtures = league.fixtures_for(venue, today, FIXTURE_DAYS)
    for number, fixture in enumerate(fixtures, start=FIRST_FIXTURE_ITEM):
        when = "" if fixture.date == today else f"{fixture.date.day}.{fixture.date.month}. "
        entries.append((number, item(f"{when}{fixture.home} – {fixture.away}", "present",
                                     Setup(fixture.home, fixture.away, fixture.id))))
    tonight = bool(fixtures) and fixtures[0].date == today
    selected = len(entries) - len(fixtures) if tonight else 0
    if on_keytest:                        # under the key test, so leaving it returns there
        selected = KEYTEST_ITEM - 1
    title = t("setup") if league.rules else t("setup_config_rules")     # the league's rules, or the config's
    return menu(t, title, [entry for _, entry in entries], selected=selected,
                numbers=tuple(number for number, _ in entries))


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
    team = league.team(setup.team(setup.side))
    marked = list(team.players) if marked is None else marked
    toggles = [item(("✓ " if p in marked else "  ") + p, "toggle", (setup, marked, i))
               for i, p in enumerate(team.players)]
    items = toggles + [item(t("done"), "present_done", (setup, marked)),
                       item(t("absent"), "no_show", setup)]
    return menu(t, title or t("present", team=team.name), items, back="setup_menu",
                selected=len(items) - 2 if selected is None else selected)


def toggled(t: Texts, league, setup: Setup, marked: list[str], index: int) -> Menu:
    """The presence menu with one player marked or unmarked."""
    players = league.team(setup.team(setup.side)).players
    now = [p for p in players if (p in marked) != (p == players[index])]
    return present_menu(t, league, setup, now, index)


def present_done(t: Texts, league, setup: Setup, marked: list[str], need: int) -> Menu | Setup:
    """The next team's presence menu, the same again when too few are marked, or the Setup
    complete with who is present."""
    if len(marked) < need:
        done = len(league.team(setup.team(setup.side)).players)
        return present_menu(t, league, setup, marked, done, t("too_few", n=need))
    setup = replace(setup, present={**setup.present, setup.side: marked})
    return setup if setup.side is None else present_menu(t, league, setup)


def next_partie_menu(t: Texts, match, *, take_back: bool = False, league=None) -> Menu:
    """The menu that starts the next partie: the lag winner (carom) or the pairing (8-ball);
    ``take_back``: the partie before was just closed, and the undo key reopens it. A single
    partie offers the players of ``league``'s rosters too (single_names_menu)."""
    number = match.number
    back = "abandon_q" if match.abandonable else None      # cancel: give up a match set up wrongly
    undo = "reopen" if take_back else None
    if not match.league:
        players = [t("player", n=1), t("player", n=2)]
        game_key = f"starts_{match.game}"         # 8-ball: who breaks, in sets and games
        title = t(game_key if t.has(game_key) else "starts", n=number)
        names = [item(t("names"), "single_names")] if roster(league) else []
        return menu(t, title, [item(p, "start", (p, players[1 - i], None)) for i, p in enumerate(players)] + names,
                    undo=undo)
    if match.game == "carom":
        pair = match.pairs[number - 1]
        names = [pair["home"], pair["away"]]
        return menu(t, t("lag", n=number),
                    [item(n, "start", (n, names[1 - i], "ab"[i])) for i, n in enumerate(names)], back=back,
                    undo=undo)
    return menu(t, t("home_player", n=number),
                [item(p, "pick_away", p) for p in match.present["home"]], back=back, undo=undo)


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
    game_key = f"{key}_{board.header['game']}"
    return t(game_key if t.has(game_key) else key)


def screen_hint(t: Texts, phase: str, board) -> str:
    """What to press on a screen without a menu, for a key that does nothing there."""
    if phase == "partie":
        if board.finished:
            return partie_text(t, board, "hint_finished")
        return t("hint_partie" if board.header["game"] == "carom" else "hint_hold_menu")
    return t("hint_" + phase)


def partie_menu(t: Texts, board, *, abandonable: bool = False) -> Menu | None:
    """Enter during a partie: close it (once finished), correct its protocol (carom), or —
    before anything is entered — start it again (the wrong player picked as the starter);
    ``abandonable``: the match's first partie, so the whole match may still be given up."""
    items = []
    if board.finished:          # an irreversible choice: it starts on "Ne", "Ano" by the long press
        items += [item(t("yes"), "close_partie", hold=True), item(t("no"))]
    if not board.history:
        items.append(item(t("restart"), "take_back"))
    elif board.header["game"] == "carom":
        items += [item(t("correct"), "protocol", "correct"), item(t("insert"), "protocol", "insert")]
    if abandonable:
        items.append(item(t("abandon"), "abandon_q"))
    if not items:
        return None
    return menu(t, partie_text(t, board, "close_partie") if board.finished else t("protocol"), items,
                selected=1 if board.finished else 0)


def protocol_menu(t: Texts, board, kind: str) -> Menu:
    """Pick the player, then the inning, then type the points: a journalled correction."""
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
    places, refused = [], None
    for n in range(1, innings + 2):
        try:
            board.check({"cmd": "insert", "player": player, "inning": n, "points": 0})
        except RuleError as exc:
            refused = refused or exc
            continue
        places.append(n)
    if not places:
        raise Said(t("no_insert", why=refusal(refused, t.language, board.header)), code="no_insert")
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
    captain: str | None = None
    kind: str | None = None


def captain_menu(t: Texts, match, side: str, names: list[str]) -> Menu:
    """The captain of ``side`` picks their name (A.6.1: a player of the team in the match); the
    last item is the referee's escape, "not signed", asked again with "Ne" first."""
    team = match.home if side == "home" else match.away
    items = [item(name, "sign_as", Answer(side, name)) for name in names]
    items.append(item(t("unsigned"), "unsigned_q", side))
    return menu(t, t("captain_of", team=team), items)


def sign_menu(t: Texts, answer: Answer) -> Menu:
    """The captain confirms the zápis, or objects instead."""
    return menu(t, t("sign_q", name=answer.captain),
                [item(t("sign"), "sign", answer), item(t("objection"), "objection_kind", answer)],
                back="captain", back_value=answer.side)


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
    team = match.home if side == "home" else match.away
    return yes_no(t, t("unsigned_q", team=team), "unsigned", side, no=("captain", side))
