"""The match night on the device: ready → match setup → (carom: lot draw) → partie after partie
→ match result → records closed.

``Night`` joins the pure fold (rules.night), its store on the SD card (night_store), the
night's menus on the one menu engine (night_menus, input.overlays) and the screen models
(night_screens). Every decision is journalled and fsync'd before ``screen()`` can show it, so
after a power cut ``Night(...)`` comes back to the same state. Menu cursors are not decisions:
after a restart a menu starts at its first item.

Inputs: ``ui(action)`` for menus ("confirm", "cancel", "menu", "up", "down", "undo", or a digit)
and ``command(cmd)`` for the record commands of the partie being played. Taking a decision back
and making it final: night_take_back; partie files no match owns: night_orphans.
"""
import os

from clock import SystemClock
from firmware_host import night_menus as menus
from firmware_host import night_screens as screens
from firmware_host.league import EMPTY, League, slug
from firmware_host.night_orphans import Orphans
from firmware_host.night_store import NightStore
from firmware_host.night_take_back import TAKE_BACK_SECONDS, TakeBack
from input.messages import Said, Texts
from input.overlays import Fired, OnSlot, Slot
from rules import night as rules_night

__all__ = ["Night", "TAKE_BACK_SECONDS"]

class Night(OnSlot, TakeBack, Orphans):
    def __init__(self, config, league: League = EMPTY, *, outbox=None, status=None,
                 clock=None, urandom=os.urandom, on_record=None, slot: Slot | None = None, keeper=None):
        self.config = config
        self.device = config.device
        self.keeper = keeper                # league_keeper.LeagueKeeper: the fetched league (or None)
        self.league = keeper.current() if keeper is not None else league
        self.outbox = outbox
        self.on_record = on_record          # called after a record entered the outbox
        self.status = status or (lambda: {"unsent": 0, "last_delivery": None})
        self.clock = clock or SystemClock()
        self.urandom = urandom
        self.t = Texts(self.device.language)
        self.store = NightStore(self.device.data_dir, fsync=config.journal.fsync)
        self.state = self.store.fold()
        self.partie = None                  # night_store.OpenPartie in play
        self.slot = slot or Slot()          # the overlay in force, shared with the referee
        self.show_lot = False
        self.window_ends = None             # clock.monotonic() when decisions not yet final become so
        self.held_records = {}              # partie id -> (record text, summary) closed, not yet final
        self.orphans = []                   # unfinished partie files no match owns (night journal damaged)
        self.finalize()                      # a restart ends the take-back window
        self.orphans = self._take_in_orphans()
        self._resume()
        match = self.match
        if match is not None and match.league and not match.forfeit and match.over and match.signed_off:
            self._close_match()             # the power went after the last captain answered …
            self.finalize()                 # … and a restart ends the take-back window

    def _resume(self) -> None:
        """Reopen the partie in play, if any, from its record file."""
        self.partie = None
        match = self.match
        if match is None or match.forfeit:
            return
        if match.needs_lot:
            self._draw_lot()                # the power went between the match and its lot draw
            return
        if match.over:
            return
        self.partie = self.store.resume(match.partie_id(match.number))
        self.show_lot = self.partie is None and match.pairs is not None and match.number == 1

    def startup_notice(self) -> tuple[str, str] | None:
        """What the counter says at start about journals read back damaged, if anything."""
        return screens.journal_notice(self.t, self.store.journal.damage,
                                      self.partie.journal.damage if self.partie else None)

    # -- reading ---------------------------------------------------------
    @property
    def match(self) -> rules_night.Match | None:
        return self.state.match

    @property
    def board(self):
        return self.partie.board if self.partie is not None else None

    @property
    def partie_journal(self):
        return self.partie.journal if self.partie is not None else None

    @property
    def partie_bytes(self) -> int:
        """Bytes journalled for the partie in play (SD wear)."""
        return self.partie.size if self.partie is not None else 0

    @property
    def phase(self) -> str:
        if self.overlay is not None:
            return "prompt" if self.overlay.model()["screen"] == "prompt" else "menu"
        if self.match is None:
            return "orphan" if self.orphans else "ready"
        if self.show_lot:
            return "lotdraw"
        if self.partie is not None:
            return "partie"
        return "result" if self.match.over else "next"

    def screen(self) -> dict:
        phase = self.phase
        if phase in ("menu", "prompt"):
            return self.overlay.model()
        if phase == "ready":
            return screens.ready_model(self.device, self.status(), self.clock.now())
        if phase == "orphan":
            return self._orphan_menu().model()
        if phase == "lotdraw":
            return screens.lotdraw_model(self.match)
        if phase == "partie":
            return screens.partie_model(self.board, self.match)
        if phase == "result":
            return screens.match_model(self.match, self.t)
        return self._next_menu().model()

    def seconds_to_next_minute(self) -> float:
        return screens.seconds_to_next_minute(self.clock.now())

    # -- input -------------------------------------------------------------
    def command(self, cmd: dict) -> str | None:
        """A record command from outside the referee's keys (a scripted feed): checked against
        the partie in play, then entered. Returns what the counter should say about it."""
        if self.board is None or self.overlay is not None:
            raise Said(self.t("no_partie"), code="no_partie")
        self.board.check(cmd)
        return self.enter(cmd)

    def enter(self, cmd: dict) -> str | None:
        """A command the referee's overlays checked against this board (input.overlays.checked):
        journalled (fsync), then pushed — not checked a second time. Returns what the counter
        should say about it, if anything (an 8-ball game won, a re-rack)."""
        board = self.board
        if board is None:
            raise Said(self.t("no_partie"), code="no_partie")
        if self.state.previous is not None:
            self.finalize()                  # the next partie's first stroke: the partie before is final
        eightball = board.header["game"] == "8ball"
        before = board.summary() if eightball else None
        self.partie.append(dict(cmd, at=self._now_iso()))
        board.push(cmd)
        if not eightball:
            return None
        after = board.summary()
        return screens.rack_news_text(self.t, rules_night.rack_news(cmd, before, after), after.get("names", {}))

    def ui(self, action) -> str | None:
        """A menu action: "confirm", "cancel", "menu", "up", "down" or a digit (int). One that
        does nothing here is refused with what to press instead (a wrong key must say why).
        Returns "keytest" when the key test was asked for (the referee's keys run it), or what the
        counter says about what was done (a decision taken back)."""
        if self.overlay is None:
            self.overlay = self._phase_menu()
        if self.overlay is None:
            return self._screen_action(action)
        digit = isinstance(action, int) and not isinstance(action, bool)
        fired = Fired(str(action), "night", None) if digit else Fired("", "night", action)
        outcome, self.overlay = self.overlay.handle(fired, self.board)
        if outcome.message and not (outcome.commands or outcome.ui):
            raise Said(outcome.message["text"], code="no_effect")
        if action == "cancel" and self.overlay is None and not (outcome.commands or outcome.ui):
            self._stays()
        for cmd in outcome.commands:
            self.enter(cmd)
        return self.choose(*outcome.value) if outcome.ui == "night" else None

    def _stays(self) -> None:
        """Cancel left a menu the night cannot do without (who starts the next partie, an orphaned
        partie): it stays, and the counter says what it wants instead of saying nothing."""
        menu = self._phase_menu()
        if menu is not None:
            self.overlay = menu
            raise Said(menu.hint, code="no_effect")

    def _phase_menu(self):
        """The menu that is the phase itself (who starts the next partie, an orphaned partie), or None."""
        phase = self.phase
        if phase == "next":
            return self._next_menu()
        return self._orphan_menu() if phase == "orphan" else None

    def _screen_action(self, action) -> str | None:
        """A key on a screen without a menu: the menu it opens, or what to press instead."""
        phase = self.phase
        if action == "undo":
            return self._undo_on_screen()
        if phase == "lotdraw" and action == "confirm":
            self.show_lot = False
            return
        if phase == "lotdraw" and action == "cancel" and self.match.abandonable:
            self.overlay = self._abandon_question()
            return
        opened = None
        if phase == "ready" and action in ("confirm", "menu"):
            opened = self._setup_menu()
        elif phase == "partie" and action == "confirm":
            opened = self._partie_menu()
        elif phase == "result" and action == "confirm":
            side = self.match.awaiting          # a league match: its captains answer the zápis
            opened = self._captain_menu(side) if side else menus.yes_no(self.t, self.t("close_match"), "close_match")
        if opened is None:
            raise Said(self._hint(), code="no_effect")
        self.overlay = opened

    def _hint(self) -> str:
        return menus.screen_hint(self.t, self.phase, self.board)

    def finish_partie(self) -> None:
        """The referee's confirmed "new partie" / "end match": close the partie once it is over."""
        if self.board is None:
            return
        if not self.board.finished:
            raise Said(menus.partie_text(self.t, self.board, "not_finished"), code="not_finished")
        self._close_partie()

    # -- what a chosen item does -----------------------------------------------
    def choose(self, action: str, value) -> str | None:
        """Carry out a night menu's chosen item (night_menus.item): open the next menu, or decide.
        Returns "keytest" when the key test was asked for (the referee's keys run it)."""
        t, league = self.t, self.league
        if action == "keytest":
            self.overlay = self._setup_menu(on_keytest=True)
            return "keytest"
        opened = {
            "setup_menu": self._setup_menu,
            "home_menu": lambda: menus.home_menu(t, league),
            "away_menu": lambda: menus.away_menu(t, league, value),
            "present": lambda: menus.present_menu(t, league, value),
            "toggle": lambda: menus.toggled(t, league, *value),
            "present_done": lambda: self._present_done(*value),
            "no_show": lambda: menus.yes_no(t, t("no_show_q", team=value.team(value.side)),
                                            "forfeit_match", value, no=("present", value)),
            "forfeit_match": lambda: self._start_match(value, forfeit=value.side),
            "single": self._start_single,
            "next_menu": self._next_menu,
            "pick_away": lambda: menus.away_player_menu(t, self.match, value),
            "single_names": lambda: menus.single_names_menu(t, league, value),
            "start": lambda: self._start_partie(*value),
            "partie_menu": self._partie_menu,
            "take_back": self._take_back_start,
            "close_partie": self._close_partie,
            "protocol": lambda: menus.protocol_menu(t, self.board, value),
            "protocol_inning": lambda: self._inning_menu(*value),
            "points": lambda: menus.points_prompt(t, *value),
            "captain": lambda: self._captain_menu(value),
            "sign_as": lambda: menus.sign_menu(t, value),
            "sign": lambda: self._answer(rules_night.sign_event(value.side, value.captain, self._now_iso())),
            "objection_kind": lambda: menus.objection_kind_menu(t, value),
            "objection_partie": lambda: menus.objection_partie_menu(t, self.match, value),
            "object": lambda: self._answer(rules_night.object_event(
                value[0].side, value[0].captain, value[0].kind, value[1], self._now_iso())),
            "unsigned_q": lambda: menus.unsigned_question(t, self.match, value),
            "unsigned": lambda: self._answer(rules_night.unsigned_event(value, self._now_iso())),
            "close_match": self._close_match,
            "abandon_q": self._abandon_question,
            "abandon": self._abandon,
            "reopen": self._reopen,
            "adopt": self._adopt,
            "set_aside": self._set_aside,
        }[action]()
        if isinstance(opened, str):
            return opened                   # what the counter says about it (a decision taken back)
        if opened is not None:
            self.overlay = opened
        return None

    def _setup_menu(self, on_keytest: bool = False):
        if self.keeper is not None:         # the newest league, fixed for this setup's menus
            self.league = self.keeper.for_setup()
        return menus.setup_menu(self.t, self.device.game, self.league, self.device.venue,
                                self.clock.today(), on_keytest=on_keytest)

    def _present_done(self, setup: menus.Setup, marked: list):
        done = menus.present_done(self.t, self.league, setup, marked, rules_night.min_players(self.device.game))
        return self._start_match(done) if isinstance(done, menus.Setup) else done

    def _next_menu(self):
        return menus.next_partie_menu(self.t, self.match, take_back=self.state.previous is not None,
                                      league=self.league)

    def _partie_menu(self):
        return menus.partie_menu(self.t, self.board, abandonable=self.match.abandonable)

    def _abandon_question(self):
        return menus.yes_no(self.t, self.t("abandon_q"), "abandon")

    def _abandon(self) -> None:
        """Give up a match set up wrongly: journalled, nothing sent; its files go to the archive
        once it is final (it can be taken back until then)."""
        if self.partie is not None:
            self.partie.journal.close()
            self.partie = None
        self._record({"ev": "abandon"})

    def _captain_menu(self, side: str):
        """The captain of ``side`` answers the zápis: picks their name from the players present
        (a forfeited match: the team's list in the league file)."""
        names = list(self.match.present.get(side) or ())
        if not names:
            try:
                names = list(self.league.team(self.match.home if side == "home" else self.match.away).players)
            except KeyError:                # a league file changed since: only "Nepodepsáno" is left
                names = []
        return menus.captain_menu(self.t, self.match, side, names)

    def _answer(self, event: dict):
        """A captain's answer: checked by the fold, journalled (fsync) before it is shown; the next
        captain's menu, or — both answered — the match closed and sent."""
        rules_night.apply(self.state, event)             # refused before anything is journalled
        self._record(event)
        if self.match.signed_off:
            self._close_match()
            return None
        return self._captain_menu(self.match.awaiting)

    def _inning_menu(self, kind: str, player: str):
        opened = menus.inning_menu(self.t, self.board, kind, player)
        if opened is None:
            raise Said(self.t("no_innings"), code="no_innings")
        return opened

    # -- decisions -------------------------------------------------------------
    def _record(self, event: dict) -> None:
        self.state = self.store.record(self.state, event)
        self._open_window(event)

    def _start_match(self, setup: menus.Setup, forfeit: str | None = None) -> None:
        """Journal the match; ``forfeit``: the team that did not turn up, and the match goes to its result."""
        self.finalize()                      # the match before is final now
        game = self.device.game
        count = rules_night.partie_count(game, self.league.rules.get("partie_per_match",
                                                                   self.config.eightball.individual_matches))
        self._record(rules_night.match_event(self._new_id(setup.fixture), game, self._today(), count,
                                             home=setup.home, away=setup.away, present=setup.present,
                                             forfeit=forfeit, fixture=setup.fixture))
        if self.match.needs_lot:
            self._draw_lot()

    def _start_single(self) -> None:
        self.finalize()
        self._record(rules_night.match_event(self._new_id(None), self.device.game, self._today(), 1))

    def _draw_lot(self) -> None:
        self._record(rules_night.lot_event(self.match, int.from_bytes(self.urandom(4), "big")))
        self.show_lot = True

    def _start_partie(self, a: str, b: str, home: str | None) -> None:
        rules = self.config.rules_header(self.match.game)
        if self.match.league:               # the competition's rules, when the receiver sent them
            rules = self.league.rules_header(self.match.game, rules)
        header = rules_night.partie_header(self.match, a, b, home, rules,
                                           {"device": self.device.name, **self._place()})
        self.partie = self.store.start_partie(header, self._now_iso())

    def _take_back_start(self) -> None:
        """Nothing entered yet: the partie's header-only file goes, and who starts is asked again."""
        self.store.take_back(self.partie)
        self.partie = None

    def _close_partie(self) -> None:
        """Journal that the finished partie is closed; its record goes to the outbox once that is
        final (the next partie's first stroke, the next match, a restart or TAKE_BACK_SECONDS)."""
        partie, number = self.partie, self.match.number
        summary = partie.board.summary()
        self.held_records[partie.board.header["id"]] = (partie.text, summary)   # sent from memory when final
        self.store.close_partie(partie)
        self.partie = None
        self._record(rules_night.closed_event(number, partie.board.header, summary))
        if not self.match.league:
            self._record({"ev": "end"})

    def _close_match(self) -> None:
        """Journal that the match is closed; its record goes out once that is final."""
        self._record({"ev": "end"})

    def _archive(self) -> None:
        self.store.archive(self._stamp(), keep=[partie.board.header["id"] for partie in self.orphans])

    def _stamp(self) -> str:
        return self.clock.now().strftime("%Y%m%d-%H%M%S")

    # -- ids and times ---------------------------------------------------------
    def _place(self) -> dict:
        return {"venue": self.device.venue, "table": self.device.table}

    def _new_id(self, fixture_id: str | None) -> str:
        base = slug(fixture_id) if fixture_id else f"{self._today()}-{slug(self.device.venue)}-{slug(self.device.table)}"
        return f"{base}-{self.urandom(3).hex()}"

    def _today(self) -> str:
        return self.clock.today().isoformat()

    def _now_iso(self) -> str:
        return self.clock.now().isoformat(timespec="seconds")
