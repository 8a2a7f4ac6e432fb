"""The match night as a small state machine that journals every decision.

ready → match setup → (carom: lot draw) → partie after partie → match result → records closed.

Decisions are events in ``journal/night.jsonl`` (the match set up, the lot drawn, a partie closed,
the match closed); each partie is its own record file ``journal/<partie id>.jsonl`` whose header
carries the lag winner as ``a``. Every line is fsync'd before ``screen()`` can show it, so after a
power cut ``Night(...)`` folds the files back into the same state. Menu cursors are not decisions:
after a restart a menu starts at its first item.

Inputs: ``ui(action)`` for menus ("confirm", "cancel", "menu", "up", "down", or a digit 1-9) and
``command(cmd)`` for the record commands of the partie being played. ``screen()`` is the screen
model to show (docs/screens.md).
"""
import logging
import os
from dataclasses import dataclass, field
from typing import Callable

from clock import SystemClock
from display.text import clock_text
from delivery.fsync import sync_directory
from firmware_host.journal import Journal
from firmware_host.league import EMPTY, League, slug
from rules.board import Board
from rules.carom.match import PARTIE_PER_MATCH as CAROM_PARTIE, PLAYERS_PER_TEAM as CAROM_MIN_PLAYERS
from rules.errors import IllegalCommand, RuleError
from rules.record import encode_line, strip_meta

log = logging.getLogger("pocitadlo.night")

FIXTURE_DAYS = 7          # fixtures this many days either side of tonight are offered too

# The setup menu's fixed items keep their digits whatever else the menu offers; fixtures follow.
SINGLE_ITEM, KEYTEST_ITEM, OTHER_MATCH_ITEM, FIRST_FIXTURE_ITEM = 1, 2, 3, 4


TEXTS = {
    "cs": {
        "setup": "Utkání", "other_match": "Jiné utkání", "single_carom": "Jedna partie",
        "single_8ball": "Jeden zápas", "home_team": "Domácí tým", "away_team": "Hostující tým",
        "present": "Přítomni: {team}", "done": "Hotovo", "too_few": "Málo hráčů (min. {n})",
        "lag": "Partie {n}: kdo začíná?", "starts": "Partie {n}: kdo začíná?",
        "home_player": "Zápas {n}: domácí", "away_player": "Hosté", "player": "Hráč {n}",
        "home": "Domácí", "away": "Hosté", "yes": "Ano", "no": "Ne",
        "close_partie": "Uzavřít partii?", "close_match": "Uzavřít utkání?",
        "no_partie": "Žádná rozehraná partie", "protocol": "Zápis partie",
        "correct": "Opravit náběh", "insert": "Vložit náběh", "inning_points": "{n}. náběh: {points}",
        "before": "před {n}. náběh", "at_end": "na konec", "points_of": "Body v {n}. náběhu?",
        "points_hint": "číslice, Enter", "no_innings": "Zatím žádný náběh",
        "keytest": "Test kláves", "not_finished": "Partie neskončila (vzdání v menu)",
        "absent": "Tým nepřišel", "no_show_q": "{team} nepřišel: kontumace?", "no_show": "{team} nepřišel (kontumace)",
        "hint_ready": "Enter = utkání", "hint_lotdraw": "Enter = dál", "hint_result": "Enter = uzavřít utkání",
        "hint_partie": "Enter = zápis partie", "hint_finished": "Enter = uzavřít partii",
        "hint_menu": "Vyberte 1–{n}, Enter", "hint_hold_menu": "Podržte Enter = menu",
        "restart": "Začít znovu (jiný začínající)",
        "game_won": "Hru vyhrál {name}", "set_won": "Set vyhrál {name}", "rerack": "Znovu rozstřel",
        # 8-ball's individual match is a "zápas" (RULES 2, 8B:8), not a partie
        "close_partie_8ball": "Uzavřít zápas?", "not_finished_8ball": "Zápas neskončil (vzdání v menu)",
        "hint_finished_8ball": "Enter = uzavřít zápas",
    },
    "en": {
        "setup": "Match", "other_match": "Other match", "single_carom": "Single partie",
        "single_8ball": "Single match", "home_team": "Home team", "away_team": "Away team",
        "present": "Present: {team}", "done": "Done", "too_few": "Too few players (min. {n})",
        "lag": "Partie {n}: who starts?", "starts": "Partie {n}: who starts?",
        "home_player": "Match {n}: home", "away_player": "Away", "player": "Player {n}",
        "home": "Home", "away": "Away", "yes": "Yes", "no": "No",
        "close_partie": "Close the partie?", "close_match": "Close the match?",
        "no_partie": "No partie in play", "protocol": "Partie record",
        "correct": "Correct an inning", "insert": "Insert an inning", "inning_points": "inning {n}: {points}",
        "before": "before inning {n}", "at_end": "at the end", "points_of": "Points of inning {n}?",
        "points_hint": "digits, Enter", "no_innings": "No inning yet",
        "keytest": "Key test", "not_finished": "The partie is not over (forfeit is in the menu)",
        "absent": "Team did not come", "no_show_q": "{team} did not come: forfeit?",
        "no_show": "{team} did not come (forfeit)",
        "hint_ready": "Enter = match", "hint_lotdraw": "Enter = go on", "hint_result": "Enter = close the match",
        "hint_partie": "Enter = partie record", "hint_finished": "Enter = close the partie",
        "hint_menu": "Pick 1–{n}, Enter", "hint_hold_menu": "Hold Enter = menu",
        "restart": "Start again (other starter)",
        "game_won": "Game to {name}", "set_won": "Set to {name}", "rerack": "Break again",
        "close_partie_8ball": "Close the match?", "not_finished_8ball": "The match is not over (forfeit is in the menu)",
        "hint_finished_8ball": "Enter = close the match",
    },
}


@dataclass
class Menu:
    title: str
    items: list[str]
    choose: Callable[[int], None]           # called with the confirmed index
    cancel: Callable[[], None] | None = None
    selected: int = 0
    numbers: list[int] | None = None        # each item's digit; 1, 2, 3, … unless given

    def number(self, index: int) -> int:
        return self.numbers[index] if self.numbers else index + 1

    def index(self, number: int) -> int | None:
        """The item that digit picks, if any."""
        return next((i for i in range(len(self.items)) if self.number(i) == number), None)

    def model(self) -> dict:
        return {"screen": "menu", "title": self.title, "selected": self.selected,
                "items": [f"{self.number(i)} {item}" for i, item in enumerate(self.items)]}


@dataclass
class Prompt:
    """A number typed digit by digit (points of an inning in the protocol)."""
    title: str
    hint: str
    done: Callable[[int], None]
    value: str = ""

    def model(self) -> dict:
        return {"screen": "prompt", "title": self.title, "value": self.value, "hint": self.hint}


@dataclass
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


@dataclass
class Match:
    """What the ``match`` event decided."""
    id: str
    game: str
    date: str
    home: str | None = None          # team names; None for a single partie outside a league
    away: str | None = None
    present: dict = field(default_factory=dict)
    partie_count: int = 1
    seed: int | None = None
    pairs: list[dict] | None = None  # the lot draw (carom)
    closed: list[dict] = field(default_factory=list)   # summaries of closed partie, in order
    forfeit: str | None = None       # "home"/"away": the team that did not turn up (A.3.7)

    @property
    def league(self) -> bool:
        return self.home is not None


class Night:
    def __init__(self, config, league: League = EMPTY, *, outbox=None, status=None,
                 clock=None, urandom=os.urandom, on_record=None):
        self.config = config
        self.device = config.device
        self.league = league
        self.outbox = outbox
        self.on_record = on_record          # called after a record entered the outbox
        self.status = status or (lambda: {"unsent": 0, "last_delivery": None})
        self.clock = clock or SystemClock()
        self.urandom = urandom
        self.t = TEXTS[self.device.language]
        self.dir = os.path.join(self.device.data_dir, "journal")
        os.makedirs(self.dir, exist_ok=True)
        fsync = config.journal.fsync
        self.fsync = fsync
        self.journal = Journal.open(os.path.join(self.dir, "night.jsonl"), fsync=fsync)
        self.match: Match | None = None
        self.board: Board | None = None
        self.partie_journal: Journal | None = None
        self.menu: Menu | None = None
        self.prompt: Prompt | None = None
        self.show_lot = False
        self.keytest_wanted = False
        for line in self.journal.lines:
            try:
                self._apply(strip_meta(line))
            except (KeyError, TypeError, AttributeError) as exc:
                log.error("night journal: event %r cannot be applied (%r); skipped", line, exc)
        self._resume()

    # -- the durable events ------------------------------------------------
    def _record(self, event: dict) -> None:
        self.journal.append(event)
        self._apply(event)

    def _apply(self, event: dict) -> None:
        kind = event.get("ev")
        if kind == "match":
            self.match = Match(event["id"], event["game"], event["date"], event.get("home"),
                               event.get("away"), event.get("present", {}), event["partie_count"],
                               forfeit=event.get("forfeit"))
        elif kind == "lot":
            self.match.seed, self.match.pairs = event["seed"], event["pairs"]
        elif kind == "closed":
            self.match.closed.append(event["summary"])
        elif kind == "end":
            self.match = None
        else:
            log.warning("night journal: unknown event %r ignored", kind)

    def _resume(self) -> None:
        """Reopen the partie in play, if any, from its record file."""
        if self.match is None or self.match.forfeit:
            return
        if self.match.game == "carom" and self.match.league and self.match.pairs is None:
            self._draw_lot()             # the power went between the match and its lot draw
            return
        number = len(self.match.closed) + 1
        if number > self.match.partie_count:
            return
        path = self._partie_path(number)
        journal = Journal.open(path, fsync=self.fsync)
        if not journal.lines:
            self.show_lot = self.match.pairs is not None and number == 1
            return
        try:
            board = Board(strip_meta(journal.lines[0]))
        except RuleError as exc:            # e.g. written by a version whose header this one refuses
            journal.close()
            os.replace(path, path + ".unreadable")
            log.error("%s: header refused (%s); set aside as .unreadable, the partie starts again", path, exc)
            return
        for line in journal.lines[1:]:
            try:
                board.push(strip_meta(line))
            except RuleError as exc:
                log.error("%s: a journalled command is refused on replay: %s", path, exc)
        self.board, self.partie_journal = board, journal

    # -- reading ---------------------------------------------------------
    @property
    def phase(self) -> str:
        if self.prompt is not None:
            return "prompt"
        if self.menu is not None:
            return "menu"
        if self.match is None:
            return "ready"
        if self.show_lot:
            return "lotdraw"
        if self.board is not None:
            return "partie"
        if self.match.forfeit or len(self.match.closed) >= self.match.partie_count:
            return "result"
        return "next"

    def screen(self) -> dict:
        phase = self.phase
        if phase == "prompt":
            return self.prompt.model()
        if phase == "menu":
            return self.menu.model()
        if phase == "ready":
            return self.ready_model()
        if phase == "lotdraw":
            return {"screen": "lotdraw", "seed": self.match.seed, "pairs": self.match.pairs}
        if phase == "partie":
            return {"screen": self.board.header["game"], "summary": self.board.summary()}
        if phase == "result":
            return self.match_model()
        self._open_next_menu()
        return self.menu.model()

    def ready_model(self) -> dict:
        status = self.status()
        return {"screen": "ready", "venue": self.device.venue, "table": self.device.table,
                "time": self.clock.now().strftime("%H:%M"), "unsent": int(status.get("unsent") or 0),
                "last_sent": clock_text(status.get("last_delivery"))}

    def seconds_to_next_minute(self) -> float:
        """When the ready screen's time of day next changes."""
        now = self.clock.now()
        return 60.0 - now.second - now.microsecond / 1e6

    def match_model(self) -> dict:
        match = self.match
        if match.forfeit:
            points = self._match_result()["points"]
            lines = [self.t["no_show"].format(team=match.home if match.forfeit == "home" else match.away)]
        else:
            points = self._closed_points()
            lines = [f"{number}. {line['home']} {line['score']} {line['away']} "
                     f"({line['team_points']['home']}:{line['team_points']['away']})"
                     for number, line in enumerate(match.closed, start=1)]
        return {"screen": "match", "home": match.home or self.t["home"], "away": match.away or self.t["away"],
                "points": points, "partie": lines}

    @property
    def partie_bytes(self) -> int:
        """Bytes journalled for the partie in play (SD wear)."""
        return self.partie_journal.size if self.partie_journal else 0

    # -- input -------------------------------------------------------------
    def command(self, cmd: dict) -> str | None:
        """Apply a record command to the partie in play: checked, journalled (fsync), applied.
        Returns what the counter should say about it, if anything (an 8-ball game won, a re-rack)."""
        if self.board is None or self.menu is not None or self.prompt is not None:
            raise IllegalCommand(self.t["no_partie"], code="no_partie")
        self.board.check(cmd)
        eightball = self.board.header["game"] == "8ball"
        before = self.board.summary() if eightball else None
        self.partie_journal.append(dict(cmd, at=self._now_iso()))
        self.board.push(cmd)
        return self._notice(cmd, before, self.board.summary()) if eightball else None

    def _notice(self, cmd: dict, before: dict, after: dict) -> str | None:
        """8-ball: the counter starts the next rack at once, so say who took the game or set, or
        that the same player breaks again (RULES 2.3) — the picture alone barely changes."""
        names = after.get("names", {})
        for side in ("a", "b"):
            if after["sets"][side] > before["sets"][side]:
                return self.t["set_won"].format(name=names.get(side, side))
            if after["games"][side] > before["games"][side]:
                return self.t["game_won"].format(name=names.get(side, side))
        was, now = before["current"], after["current"]
        if cmd.get("cmd") == "shot" and was["break_shot"] and now["break_shot"] and not after["finished"]:
            return self.t["rerack"]
        return None

    def ui(self, action) -> None:
        """A menu action: "confirm", "cancel", "menu", "up", "down" or a digit (int 1-9). One that
        does nothing here is refused with what to press instead (a wrong key must say why)."""
        if self.phase == "next":
            self._open_next_menu()
        if self.prompt is not None:
            done = self._prompt_action(action)
        elif self.menu is not None:
            done = self._menu_action(action)
        else:
            done = self._screen_action(action)
        if not done:
            raise IllegalCommand(self._hint(), code="no_effect")

    def _screen_action(self, action) -> bool:
        phase = self.phase
        if phase == "ready" and action in ("confirm", "menu"):
            self._setup_menu()
        elif phase == "lotdraw" and action == "confirm":
            self.show_lot = False
        elif phase == "partie" and action == "confirm":
            return self._partie_menu()
        elif phase == "result" and action == "confirm":
            self._confirm(self.t["close_match"], self._close_match)
        else:
            return False
        return True

    def _hint(self) -> str:
        if self.prompt is not None:
            return self.prompt.hint
        if self.menu is not None:
            return self.t["hint_menu"].format(n=self.menu.number(len(self.menu.items) - 1))
        if self.phase == "partie":
            if self.board.finished:
                return self._partie_text("hint_finished")
            return self.t["hint_partie" if self.board.header["game"] == "carom" else "hint_hold_menu"]
        return self.t["hint_" + self.phase]

    def _partie_text(self, key: str) -> str:
        """The text for the partie in play, in its game's word (8-ball: "zápas")."""
        return self.t.get(f"{key}_{self.board.header['game']}", self.t[key])

    def finish_partie(self) -> None:
        """The referee's confirmed "new partie" / "end match": close the partie once it is over."""
        if self.board is None:
            return
        if not self.board.finished:
            raise IllegalCommand(self._partie_text("not_finished"), code="not_finished")
        self._close_partie()

    def _menu_action(self, action) -> bool:
        menu = self.menu
        if isinstance(action, int) and not isinstance(action, bool):
            index = menu.index(action)
            if index is None:
                return False
            menu.selected = index
        elif action == "up":
            menu.selected = (menu.selected - 1) % len(menu.items)
        elif action == "down":
            menu.selected = (menu.selected + 1) % len(menu.items)
        elif action == "confirm":
            self.menu = None
            menu.choose(menu.selected)
        elif action == "cancel":
            self.menu = None
            if menu.cancel:
                menu.cancel()
        else:
            return False
        return True

    def _prompt_action(self, action) -> bool:
        prompt = self.prompt
        if isinstance(action, int) and not isinstance(action, bool):
            prompt.value = (prompt.value + str(action))[-4:]
        elif action == "cancel":
            if prompt.value:
                prompt.value = ""
            else:
                self.prompt = None
        elif action == "confirm" and prompt.value:
            self.prompt = None
            prompt.done(int(prompt.value))
        else:
            return False
        return True

    def _confirm(self, title: str, then: Callable[[], None]) -> None:
        self.menu = Menu(title, [self.t["yes"], self.t["no"]], lambda i: then() if i == 0 else None)

    # -- setup ---------------------------------------------------------------
    def _setup_menu(self) -> None:
        """A single partie, the key test and another match keep their digits (1, 2, 3) on any
        night; the venue's fixtures follow from 4, tonight's first and selected, then those within
        a week either side (a postponed match, a night begun before midnight) with their dates."""
        today = self.clock.today()
        entries = [(SINGLE_ITEM, self.t["single_" + self.device.game], self._start_single),
                   (KEYTEST_ITEM, self.t["keytest"], self._want_keytest)]
        if len(self.league.teams) >= 2:
            entries.append((OTHER_MATCH_ITEM, self.t["other_match"], self._home_menu))
        fixtures = self.league.fixtures_for(self.device.venue, today, FIXTURE_DAYS) if self.league else []
        for number, fixture in enumerate(fixtures, start=FIRST_FIXTURE_ITEM):
            when = "" if fixture.date == today else f"{fixture.date.day}.{fixture.date.month}. "
            entries.append((number, f"{when}{fixture.home} – {fixture.away}",
                            lambda f=fixture: self._present_menu(Setup(f.home, f.away, f.id))))
        tonight = bool(fixtures) and fixtures[0].date == today
        self.menu = Menu(self.t["setup"], [text for _, text, _ in entries], lambda i: entries[i][2](),
                         selected=len(entries) - len(fixtures) if tonight else 0,
                         numbers=[number for number, _, _ in entries])

    def _want_keytest(self) -> None:
        self.keytest_wanted = True          # the service hands the keys to the referee's key test
        self._setup_menu()                  # under it the setup menu waits, so leaving returns there
        self.menu.selected = self.menu.index(KEYTEST_ITEM)

    def _home_menu(self) -> None:
        names = [t.name for t in self.league.teams]
        self.menu = Menu(self.t["home_team"], names, lambda i: self._away_menu(names[i]), self._setup_menu)

    def _away_menu(self, home: str) -> None:
        names = [t.name for t in self.league.teams if t.name != home]
        self.menu = Menu(self.t["away_team"], names,
                         lambda i: self._present_menu(Setup(home, names[i])), self._home_menu)

    def _present_menu(self, setup: "Setup", marked: list[str] | None = None, selected: int | None = None,
                      title: str | None = None) -> None:
        """Mark who is present, home team first; everybody is marked to start with."""
        side = setup.side
        team = self.league.team(setup.team(side))
        marked = list(team.players) if marked is None else marked
        items = [("✓ " if p in marked else "  ") + p for p in team.players] + [self.t["done"], self.t["absent"]]

        def choose(i: int) -> None:
            if i == len(team.players) + 1:          # the whole team did not turn up (A.3.7)
                self._confirm(self.t["no_show_q"].format(team=team.name), lambda: self._start_match(setup, side))
            elif i < len(team.players):             # toggle one player
                player = team.players[i]
                now = [p for p in team.players if (p in marked) != (p == player)]
                self._present_menu(setup, now, i)
            elif len(marked) < self._min_players():
                self._present_menu(setup, marked, i, self.t["too_few"].format(n=self._min_players()))
            else:
                setup.present[side] = marked
                if setup.side is not None:
                    self._present_menu(setup)
                else:
                    self._start_match(setup)

        self.menu = Menu(title or self.t["present"].format(team=team.name), items, choose, self._setup_menu,
                         selected=len(items) - 2 if selected is None else selected)   # Enter: all here


    def _partie_count(self) -> int:
        return CAROM_PARTIE if self.device.game == "carom" else self.config.eightball.individual_matches

    def _min_players(self) -> int:
        return CAROM_MIN_PLAYERS if self.device.game == "carom" else 1

    def _start_match(self, setup: "Setup", forfeit: str | None = None) -> None:
        """Journal the match; ``forfeit``: the team that did not turn up, and the match goes to its result."""
        game = self.device.game
        event = {"ev": "match", "id": self._new_id(setup.fixture), "game": game, "date": self._today(),
                 "home": setup.home, "away": setup.away, "present": {} if forfeit else setup.present,
                 "partie_count": self._partie_count()}
        if forfeit:
            event["forfeit"] = forfeit
        if setup.fixture:
            event["fixture"] = setup.fixture
        self._record(event)
        if game == "carom" and not forfeit:
            self._draw_lot()

    def _start_single(self) -> None:
        self._record({"ev": "match", "id": self._new_id(None), "game": self.device.game,
                      "date": self._today(), "partie_count": 1})

    def _draw_lot(self) -> None:
        from rules.carom.match import draw_lot

        seed = int.from_bytes(self.urandom(4), "big")
        pairs = draw_lot(self.match.present["home"], self.match.present["away"], seed)
        self._record({"ev": "lot", "seed": seed, "pairs": [_pair(n, p) for n, p in enumerate(pairs, start=1)]})
        self.show_lot = True

    # -- partie ---------------------------------------------------------------
    def _open_next_menu(self) -> None:
        """The menu that starts the next partie: the lag winner (carom) or the pairing (8-ball)."""
        match = self.match
        number = len(match.closed) + 1
        if not match.league:
            players = [self.t["player"].format(n=1), self.t["player"].format(n=2)]
            self.menu = Menu(self.t["starts"].format(n=number), players,
                             lambda i: self._start_partie(players[i], players[1 - i], None))
        elif match.game == "carom":
            pair = match.pairs[number - 1]
            names = [pair["home"], pair["away"]]
            self.menu = Menu(self.t["lag"].format(n=number), names,
                             lambda i: self._start_partie(names[i], names[1 - i], "a" if i == 0 else "b"))
        else:
            home_players = match.present["home"]
            self.menu = Menu(self.t["home_player"].format(n=number), list(home_players),
                             lambda i: self._pick_away(home_players[i]))

    def _partie_menu(self) -> bool:
        """Enter during a partie: close it (once finished), correct its protocol (carom), or —
        before anything is entered — start it again (the wrong player picked as the starter)."""
        items, actions = [], []
        if self.board.finished:
            items += [self.t["yes"], self.t["no"]]
            actions += [self._close_partie, lambda: None]
        if not self.board.history:
            items.append(self.t["restart"])
            actions.append(self._take_back_start)
        elif self.board.header["game"] == "carom":
            items += [self.t["correct"], self.t["insert"]]
            actions += [lambda: self._protocol("correct"), lambda: self._protocol("insert")]
        if not items:
            return False
        title = self._partie_text("close_partie") if self.board.finished else self.t["protocol"]
        self.menu = Menu(title, items, lambda i: actions[i]())
        return True

    def _take_back_start(self) -> None:
        """Nothing entered yet: the partie's header-only file goes, and who starts is asked again."""
        number = len(self.match.closed) + 1
        self.partie_journal.close()
        os.remove(self._partie_path(number))
        if self.fsync:
            sync_directory(self.dir)
        self.board, self.partie_journal = None, None

    def _protocol(self, kind: str) -> None:
        """Pick the player, then the inning, then type the points: a journalled correction."""
        header = self.board.header
        names = [header["a"], header["b"]]
        self.menu = Menu(self.t[kind], names, lambda i: self._protocol_inning(kind, "ab"[i]), self._partie_menu)

    def _protocol_inning(self, kind: str, player: str) -> None:
        series = self.board.summary()["players"][player]["series"]
        items = [self.t["inning_points"].format(n=n, points=p) for n, p in enumerate(series, start=1)]
        if kind == "insert":
            items = [self.t["before"].format(n=n) for n in range(1, len(series) + 1)] + [self.t["at_end"]]
        if not items:
            self.menu = None
            raise IllegalCommand(self.t["no_innings"], code="no_innings")

        def typed(inning: int):
            return lambda points: self.command({"cmd": kind, "player": player, "inning": inning, "points": points})

        self.menu = Menu(self.t[kind], items, lambda i: self._ask_points(i + 1, typed(i + 1)),
                         lambda: self._protocol(kind))

    def _ask_points(self, inning: int, done: Callable[[int], None]) -> None:
        self.prompt = Prompt(self.t["points_of"].format(n=inning), self.t["points_hint"], done)

    def _pick_away(self, home_player: str) -> None:
        away_players = self.match.present["away"]
        self.menu = Menu(self.t["away_player"], list(away_players),
                         lambda i: self._start_partie(home_player, away_players[i], "a"),
                         self._open_next_menu)

    def _start_partie(self, a: str, b: str, home: str | None) -> None:
        match = self.match
        number = len(match.closed) + 1
        header = {"game": match.game, "a": a, "b": b}
        header.update(self.config.rules_header(match.game))
        if match.game == "8ball":
            # 8B:2b: in a match the home player racks and the away player breaks; a single
            # match outside the league is broken by the player picked to start
            header["first_break"] = "a" if home is None else ("b" if home == "a" else "a")
        header.update({"id": self._partie_id(number), "device": self.device.name,
                       "venue": self.device.venue, "table": self.device.table, "date": match.date})
        if match.league:
            header["match"] = {"id": match.id, "home": match.home, "away": match.away}
            if match.seed is not None:
                header["match"]["seed"] = match.seed
            header["partie"] = number
            header["home"] = home
        board = Board(header)                  # validates the header before it is journalled
        journal = Journal.open(self._partie_path(number), fsync=self.fsync)
        journal.append(dict(header, at=self._now_iso()))
        self.board, self.partie_journal = board, journal

    def _close_partie(self) -> None:
        """Hand the finished partie to the outbox, then journal that it is closed."""
        number = len(self.match.closed) + 1
        summary = self.board.summary()
        with open(self._partie_path(number), encoding="utf-8") as fh:
            record_text = fh.read()
        self._send(self._partie_id(number), "partie", record_text, summary)
        line = self._partie_line(summary)
        log.info("partie %s closed; its journal holds %d bytes (SD wear)", self._partie_id(number),
                 self.partie_journal.size)
        self.partie_journal.close()
        self.board, self.partie_journal = None, None
        self._record({"ev": "closed", "partie": number, "summary": line})
        if not self.match.league:
            self._record({"ev": "end"})
            self._archive()

    def _partie_line(self, summary: dict) -> dict:
        """What the match result needs of a partie: names, score, team points by side."""
        header = self.board.header
        home_side = header.get("home") or "a"
        away_side = "b" if home_side == "a" else "a"
        if header["game"] == "carom":
            players = summary["players"]
            points = {s: players[s].get("team_points") or 0 for s in ("a", "b")}
            score = f"{players[home_side]['points']}:{players[away_side]['points']}"
        else:
            winner = summary.get("winner")
            points = {s: 1 if winner == s else 0 for s in ("a", "b")}
            sets = summary.get("sets", {"a": 0, "b": 0})
            score = f"{sets[home_side]}:{sets[away_side]}"
        return {"id": header["id"], "home": header[home_side], "away": header[away_side], "score": score,
                "team_points": {"home": points[home_side], "away": points[away_side]}}

    def _close_match(self) -> None:
        match = self.match
        summary = {"id": match.id, "game": match.game, "date": match.date, "venue": self.device.venue,
                   "table": self.device.table, "home": match.home, "away": match.away, "seed": match.seed,
                   "partie_ids": [line["id"] for line in match.closed]}
        summary.update(self._match_result())
        # docs/sync.md: the receiver groups the match by the ids of its partie lines
        summary["partie"] = [dict(line, id=pid) for line, pid in zip(summary["partie"], summary["partie_ids"])]
        self._send(match.id, "match", encode_line(summary), summary)
        self._record({"ev": "end"})
        self._archive()

    def _match_result(self) -> dict:
        """RULES 1.6 through rules.carom.match for carom; 8-ball: individual matches won (RULES 2.9)."""
        from rules.carom.match import forfeited_match, match_result

        match = self.match
        if match.game == "carom":
            if match.forfeit:
                return forfeited_match(match.forfeit).as_dict()
            return match_result(self._closed_records()).as_dict()
        points = self._closed_points()
        if match.forfeit:
            points["away" if match.forfeit == "home" else "home"] += match.partie_count
        return {"points": points, "finished": True, "forfeit": match.forfeit, "partie": list(match.closed)}

    def _closed_points(self) -> dict:
        """Team points of the closed partie, summed."""
        return {side: sum(line["team_points"][side] for line in self.match.closed) for side in ("home", "away")}

    def _closed_records(self) -> list[tuple[dict, dict]]:
        """(header, summary) of each closed partie, replayed from its record file."""
        out = []
        for number in range(1, len(self.match.closed) + 1):
            journal = Journal.open(self._partie_path(number), fsync=self.fsync)
            board = Board(strip_meta(journal.lines[0]))
            for line in journal.lines[1:]:
                board.push(strip_meta(line))
            out.append((board.header, board.summary()))
        return out

    def _send(self, item_id: str, kind: str, record_text: str, summary: dict) -> None:
        if self.outbox is not None:
            self.outbox.add(item_id, kind, record_text, summary)
            if self.on_record is not None:
                self.on_record()

    def _archive(self) -> None:
        """Move the night's files aside so the next match starts with an empty journal."""
        self.journal.close()
        target = os.path.join(self.device.data_dir, "archive", self._archive_name())
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(self.dir)):
            os.replace(os.path.join(self.dir, name), os.path.join(target, name))
        if self.fsync:
            sync_directory(target)
            sync_directory(self.dir)
        self.journal = Journal.open(os.path.join(self.dir, "night.jsonl"), fsync=self.fsync)

    def _archive_name(self) -> str:
        stamp = self.clock.now().strftime("%Y%m%d-%H%M%S")
        return f"{stamp}-{os.getpid()}-{self.journal.size}"

    # -- ids and times ---------------------------------------------------------
    def _new_id(self, fixture_id: str | None) -> str:
        base = slug(fixture_id) if fixture_id else f"{self._today()}-{slug(self.device.venue)}-{slug(self.device.table)}"
        return f"{base}-{self.urandom(3).hex()}"

    def _partie_id(self, number: int) -> str:
        return f"{self.match.id}-p{number}"

    def _partie_path(self, number: int) -> str:
        return os.path.join(self.dir, self._partie_id(number) + ".jsonl")

    def _today(self) -> str:
        return self.clock.today().isoformat()

    def _now_iso(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")


def _pair(number: int, pair) -> dict:
    return {"partie": number, "home": pair.home, "away": pair.away}
