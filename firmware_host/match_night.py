"""The match night on the device: ready → match setup → (carom: lot draw) → partie after partie
→ match result → records closed.

``Night`` joins the pure fold (rules.night), its store on the SD card (night_store), the
night's menus on the one menu engine (night_menus, input.overlays) and the screen models
(night_screens). Every decision is journalled and fsync'd before ``screen()`` can show it, so
after a power cut ``Night(...)`` comes back to the same state. Menu cursors are not decisions:
after a restart a menu starts at its first item.

Inputs: ``ui(action)`` for menus ("confirm", "cancel", "menu", "up", "down", "undo", or a digit)
and ``command(cmd)`` for the record commands of the partie being played; an item chosen in a
night menu is ``choose(action, value)``, carried out by its handler in ``CHOICES``. The night
holds the overlay's ``Slot`` (shared with the referee's keys), the take-back ``Window`` and the
``Outgoing`` records (night_take_back) and the ``Orphans`` (night_orphans).
"""
import os
from collections.abc import Callable, Iterator
from typing import Any

from clock import SystemClock
from firmware_host import night_menus as menus
from firmware_host import night_screens as screens
from firmware_host.league import EMPTY, League, slug
from firmware_host.night_ahead import ScreensAhead
from firmware_host.night_orphans import Orphans
from firmware_host.night_store import NightStore, OpenPartie
from firmware_host.night_take_back import REOPENED, TAKE_BACK_SECONDS, Outgoing, Window
from input.messages import Said, Texts, refusal
from input.overlays import Fired, Slot
from rules import night as rules_night
from rules.errors import RuleError
from rules.games import game_for

__all__ = ["Night", "TAKE_BACK_SECONDS"]


class Night:
    def __init__(self, config, league: League = EMPTY, *, outbox=None, status=None,
                 clock=None, urandom=os.urandom, on_record=None, slot: Slot | None = None, keeper=None):
        self.config = config
        self.device = config.device
        self.keeper = keeper                # league_keeper.LeagueKeeper: the fetched league (or None)
        self.league = keeper.current() if keeper is not None else league
        self.status = status or (lambda: {"unsent": 0, "last_delivery": None})
        self.clock = clock or SystemClock()
        self.urandom = urandom
        self.t = Texts(self.device.language)
        self.store = NightStore(self.device.data_dir, fsync=config.journal.fsync)
        self.state = self.store.fold()
        self.partie: OpenPartie | None = None   # the partie in play
        self.slot = slot or Slot()          # the overlay in force, shared with the referee
        self.ahead = ScreensAhead()         # the partie's screens after its everyday strokes
        self.show_lot = False
        self.window = Window(self.clock)
        self.outgoing = Outgoing(self.store, outbox, self._place(), on_record)
        self.orphans = Orphans()            # unfinished partie files no match owns (night journal damaged)
        self.finalize()                      # a restart ends the take-back window
        if self.match is None:
            self.orphans = Orphans.take_in(self.store, self.outgoing, self._record, self._stamp())
        self._resume()
        match = self.match
        if match is not None and match.league and not match.forfeit and match.over and match.signed_off:
            self._close_match()             # the power went after the last captain answered …
            self.finalize()                 # … and a restart ends the take-back window

    def _resume(self) -> None:
        """Reopen the partie in play, if any, from its record file."""
        self.partie = None
        self.show_lot = False
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
        """What the counter says at start: about journals read back damaged, else that a partie
        in play came back ("Obnoveno: úder 12": the strokes in effect, what undo took back not
        counted), if anything."""
        notice = screens.journal_notice(self.t, self.store.journal.damage,
                                        self.partie.journal.damage if self.partie else None)
        if notice is None and self.partie is not None and self.partie.board.move_stack:
            notice = self.t("resumed", n=len(self.partie.board.move_stack)), "info"
        return notice

    # -- reading ---------------------------------------------------------
    @property
    def match(self) -> rules_night.Match | None:
        return self.state.match

    @property
    def current(self) -> rules_night.Match:
        """The match in play, for what only its screens and menus reach (a bug otherwise)."""
        match = self.state.match
        if match is None:
            raise LookupError("no match in play")
        return match

    @property
    def playing(self) -> OpenPartie:
        """The partie in play, for what only its screens and menus reach (a bug otherwise)."""
        if self.partie is None:
            raise LookupError("no partie in play")
        return self.partie

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
        if self.slot.overlay is not None:
            return "prompt" if self.slot.overlay.model()["screen"] == "prompt" else "menu"
        match = self.match
        if match is None:
            return "orphan" if self.orphans else "ready"
        if self.show_lot:
            return "lotdraw"
        if self.partie is not None:
            return "partie"
        return "result" if match.over else "next"

    def screen(self) -> dict:
        phase = self.phase
        if phase in ("menu", "prompt"):
            return self.slot.overlay.model()
        if phase == "ready":
            return screens.ready_model(self.device, self.status(), self.clock.now(), self.t)
        if phase == "orphan":
            return self.orphans.menu(self.t).model()
        if phase == "lotdraw":
            return screens.lotdraw_model(self.match)
        if phase == "partie":
            known = self.ahead.screen(self.state, self.board)
            return known if known is not None else screens.partie_model(self.board, self.match)
        if phase == "result":
            return screens.match_model(self.match, self.t)
        return self._next_menu().model()

    def screens_ahead(self) -> Iterator[dict]:
        """The partie's screens after its everyday strokes (the game's ``Keys.ahead``), one at a
        time, for the counter to draw while it waits: the likeliest next frames. None where a
        stroke would change more than the partie (a menu up, the partie before still to close)."""
        if self.phase != "partie" or self.state.previous is not None:
            return iter(())
        return self.ahead.screens(self.state, self.board, self.match)

    def seconds_to_next_minute(self) -> float:
        return screens.seconds_to_next_minute(self.clock.now())

    # -- input -------------------------------------------------------------
    def command(self, cmd: dict) -> str | None:
        """A record command from outside the referee's keys (a scripted feed): checked against
        the partie in play, then entered. Returns what the counter should say about it."""
        if self.board is None or self.slot.overlay is not None:
            raise Said(self.t("no_partie"), code="no_partie")
        self.board.check(cmd)
        return self.enter(cmd)

    def enter(self, cmd: dict) -> str | None:
        """A command the referee's overlays checked against this board (input.overlays.checked):
        journalled (fsync), then pushed — not checked a second time. Returns what the counter
        should say about it, if anything (an 8-ball game won, a re-rack)."""
        partie = self.partie
        if partie is None:
            raise Said(self.t("no_partie"), code="no_partie")
        if self.state.previous is not None:
            self.finalize()                  # the next partie's first stroke: the partie before is final
        news = game_for(partie.board.header["game"]).news
        if news is None:
            self._push(partie, cmd)
            return None
        before = partie.board.summary()
        self._push(partie, cmd)
        after = partie.board.summary()
        return screens.rack_news_text(self.t, news(cmd, before, after), after.get("names", {}))

    def _push(self, partie: OpenPartie, cmd: dict) -> None:
        partie.append(dict(cmd, at=self._now_iso()))
        partie.board.push(cmd)

    def ui(self, action) -> str | None:
        """A menu action: "confirm", "cancel", "menu", "up", "down" or a digit (int). One that
        does nothing here is refused with what to press instead (a wrong key must say why).
        Returns "keytest" when the key test was asked for (the referee's keys run it), or what the
        counter says about what was done (a decision taken back)."""
        if self.slot.overlay is None:
            self.slot.overlay = self._phase_menu()
        if self.slot.overlay is None:
            return self._screen_action(action)
        digit = isinstance(action, int) and not isinstance(action, bool)
        fired = Fired(str(action), "night", None) if digit else Fired("", "night", action)
        outcome, self.slot.overlay = self.slot.overlay.handle(fired, self.board)
        if outcome.message and not (outcome.commands or outcome.ui):
            raise Said(outcome.message["text"], code="no_effect")
        if action == "cancel" and self.slot.overlay is None and not (outcome.commands or outcome.ui):
            self._stays()
        for cmd in outcome.commands:
            self.enter(cmd)
        return self.choose(*outcome.value) if outcome.ui == "night" else None

    def _stays(self) -> None:
        """Cancel left a menu the night cannot do without (who starts the next partie, an orphaned
        partie): it stays, and the counter says what it wants instead of saying nothing."""
        menu = self._phase_menu()
        if menu is not None:
            self.slot.overlay = menu
            raise Said(menu.hint, code="no_effect")

    def _phase_menu(self):
        """The menu that is the phase itself (who starts the next partie, an orphaned partie), or None."""
        phase = self.phase
        if phase == "next":
            return self._next_menu()
        return self.orphans.menu(self.t) if phase == "orphan" else None

    def _screen_action(self, action) -> str | None:
        """A key on a screen without a menu: the menu it opens, or what to press instead."""
        phase = self.phase
        if action == "undo":
            return self._undo_on_screen()
        if phase == "lotdraw" and action == "confirm":
            self.show_lot = False
            return None
        if phase == "lotdraw" and action == "cancel" and self.abandonable():
            self.slot.overlay = self._abandon_question()
            return None
        opened = None
        if phase == "ready" and action in ("confirm", "menu"):
            opened = self._setup_menu()
        elif phase == "partie" and action == "confirm":
            opened = self._partie_menu()
        elif phase == "result" and action == "confirm":
            side = self.current.awaiting          # a league match: its captains answer the zápis
            opened = self._captain_menu(side) if side else menus.yes_no(self.t, self.t("close_match"), "close_match")
        if opened is None:
            raise Said(self._hint(), code="no_effect")
        self.slot.overlay = opened
        return None

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
        """Carry out a night menu's chosen item (night_menus.item) by its handler in ``CHOICES``:
        open the next menu, or decide. Returns what the counter says about it, or "keytest" when
        the key test was asked for (the referee's keys run it)."""
        opened = self.CHOICES[action](self, value)
        if isinstance(opened, str):
            return opened                   # what the counter says about it (a decision taken back)
        if opened is not None:
            self.slot.overlay = opened
        return None

    # -- the menus a handler opens ----------------------------------------------
    def _setup_menu(self, on_keytest: bool = False):
        if self.keeper is not None:         # the newest league, fixed for this setup's menus
            self.league = self.keeper.for_setup()
        return menus.setup_menu(self.t, self.device.game, self.league, self.device.venue,
                                self.clock.today(), on_keytest=on_keytest, played=self._played())

    def _played(self) -> frozenset:
        """The fixtures closed at this table: their match items in the outbox, and a match closed
        but not final yet."""
        held = {match.fixture for decision, match in self.state.held() if decision == "end" and match.fixture}
        return frozenset(self.outgoing.played() | held)

    def _next_menu(self, _=None):
        return menus.next_partie_menu(self.t, self.match, take_back=self.state.previous is not None,
                                      league=self.league, abandonable=self.abandonable())

    def _partie_menu(self, _=None):
        return menus.partie_menu(self.t, self.board, abandonable=self.abandonable(), league=self.current.league)

    def _abandon_question(self, _=None):
        match = self.current
        return menus.yes_no(self.t, menus.abandon_text(self.t, match.game, match.league, "abandon_q"), "abandon")

    def abandonable(self) -> bool:
        """The match in play may be given up (rules.night.Match.abandonable): a league match until
        its first partie is closed; a single partie only while nothing is entered in it, so giving
        up never drops a partie played (its forfeit, sent, is the way then)."""
        match = self.match
        if match is None or not match.abandonable:
            return False
        return match.league or self.board is None or not self.board.history

    def _captain_menu(self, side: str):
        """The captain of ``side`` answers the zápis: the one chosen after attendance (A.6.1) is
        asked for their signature; without one, the captain picks their name from the players
        present (a forfeited match: the team's list in the league file)."""
        match = self.current
        chosen = match.captains.get(side)
        if chosen is not None:
            return menus.sign_menu(self.t, match, menus.Answer(side, chosen), chosen=True)
        names = list(match.present.get(side) or ())
        if not names:
            try:
                names = list(self.league.team(match.team(side)).players)
            except KeyError:                # a league file changed since: only "Nepodepsáno" is left
                names = []
        return menus.captain_menu(self.t, match, side, names)

    def _inning_menu(self, value):
        opened = menus.inning_menu(self.t, self.board, *value)
        if opened is None:
            raise Said(self.t("no_innings"), code="no_innings")
        return opened

    # -- the handlers of chosen items: (value) → the menu opened, a text to say, or None ----------
    def _keytest(self, _) -> str:
        self.slot.overlay = self._setup_menu(on_keytest=True)
        return "keytest"

    def _open_setup(self, _):
        return self._setup_menu()

    def _home_menu(self, _):
        return menus.home_menu(self.t, self.league)

    def _away_menu(self, home: str):
        return menus.away_menu(self.t, self.league, home)

    def _present(self, value):
        """Attendance: ``value`` a Setup (everybody marked to start with) or (Setup, the marks so
        far: back from "Tým nepřišel" answered no, nothing the referee unmarked is lost)."""
        setup, marked = value if isinstance(value, tuple) else (value, None)
        return menus.present_menu(self.t, self.league, setup, marked)

    def _toggle(self, value):
        return menus.toggled(self.t, self.league, *value)

    def _present_done(self, value):
        setup, marked = value
        done = menus.present_done(self.t, self.league, setup, marked, rules_night.min_players(self.device.game))
        return menus.captain_pick_menu(self.t, done) if isinstance(done, menus.Setup) else done

    def _captain_chosen(self, value):
        """A.6.1: a team's captain chosen; the next team's, or the match starts."""
        setup = menus.with_captain(*value)
        return self._start_match(setup) if setup.captain_side is None else menus.captain_pick_menu(self.t, setup)

    def _played_question(self, setup: menus.Setup):
        return menus.played_question(self.t, setup)

    def _no_show(self, value):
        setup, marked = value
        return menus.yes_no(self.t, self.t("no_show_q", team=setup.team(setup.marking)), "forfeit_match", setup,
                            no=("present", (setup, marked)))

    def _forfeit_match(self, setup: menus.Setup) -> None:
        self._start_match(setup, forfeit=setup.marking)

    def _single(self, _) -> None:
        self._start_single()

    def _pick_away(self, home_player: str):
        return menus.away_player_menu(self.t, self.match, home_player)

    def _single_names(self, first: str | None):
        return menus.single_names_menu(self.t, self.league, first)

    def _start(self, value) -> None:
        self._start_partie(*value)

    def _take_back(self, _) -> None:
        self._take_back_start()

    def _close(self, _) -> None:
        self._close_partie()

    def _protocol(self, kind: str):
        return menus.protocol_menu(self.t, self.board, kind)

    def _points(self, value):
        return menus.points_prompt(self.t, *value)

    def _sign_as(self, answer: menus.Answer):
        chosen = self.current.captains.get(answer.side) == answer.captain
        return menus.sign_menu(self.t, self.current, answer, chosen=chosen)

    def _sign(self, answer: menus.Answer):
        return self._answer(rules_night.sign_event(answer.side, answer.captain, self._now_iso()))

    def _objection_kind(self, answer: menus.Answer):
        return menus.objection_kind_menu(self.t, answer)

    def _objection_partie(self, answer: menus.Answer):
        return menus.objection_partie_menu(self.t, self.match, answer)

    def _object(self, value):
        answer, partie = value
        return self._answer(rules_night.object_event(answer.side, answer.captain, answer.kind, partie,
                                                     self._now_iso()))

    def _unsigned_question(self, side: str):
        return menus.unsigned_question(self.t, self.match, side)

    def _unsigned(self, side: str):
        return self._answer(rules_night.unsigned_event(side, self._now_iso()))

    def _end_match(self, _) -> None:
        self._close_match()

    def _abandon(self, _=None) -> None:
        """Give up a match set up wrongly: journalled, nothing sent; its files go to the archive
        once it is final (it can be taken back until then)."""
        if not self.current.league and self.board is not None and self.board.history:
            raise Said(self.t("not_abandonable"), code="no_effect")     # a single partie played is never dropped
        if self.partie is not None:
            self.partie.journal.close()
            self.partie = None
        self.show_lot = False               # issue 24: a lot draw given up is not the next match's
        self._record({"ev": "abandon"})

    def _reopen(self, _=None) -> str:
        """Take back the last decision not yet final (journalled as its own event, nothing deleted):
        a closed partie is in play again, a closed or abandoned match is back. A single partie's
        close also ended its match: both are taken back."""
        decision = self.state.decision
        if decision is None:
            raise Said(self.t("nothing_to_take_back"), code="no_effect")
        said = self._reopened_text(decision)
        if self.partie is not None:             # the next partie was started, nothing entered yet
            self._take_back_start()
        self._record({"ev": "reopen"})
        if decision == "end" and not self.current.league and self.state.decision == "closed":
            self._record({"ev": "reopen"})
        self.slot.overlay = None
        self._resume()
        if self.partie is not None:
            self.outgoing.release(self.partie.board.header["id"])    # it may change now
        return said

    def _reopened_text(self, decision: str) -> str:
        """What the counter says of a decision taken back; a single partie given up is "Partie
        obnovena" (8-ball: "Zápas obnoven"), not the team match's word."""
        before = self.state.held()[-1][1]
        if decision == "abandon":
            return menus.abandon_text(self.t, before.game, before.league, REOPENED[decision])
        return self.t(REOPENED[decision])

    def _interrupt_menu(self, _):
        """A.6.5, at any partie of a league match (the held menu in a partie, or "kdo začíná?")."""
        match = self.match
        if match is None or not match.league or match.over:
            raise Said(self.t("not_interruptible"), code="no_effect")
        return menus.interrupt_menu(self.t)

    def _interrupt_confirm(self, reason: str):
        return menus.interrupt_question(self.t, self.match, reason)

    def _interrupt(self, reason: str) -> None:
        """A.6.5: journal the interruption — the partie it came at, the reason, the home captain who
        confirmed it, the partie in play as it stood (its file is kept, unsent: it is unfinished).
        It is taken back like a closing (the partie in play then goes on) until it is final; the
        captains then answer the zápis as at the end of any match."""
        in_play = None
        if self.partie is not None:
            board = self.partie.board
            in_play = rules_night.partie_line(board.header, board.summary())
            self.partie.journal.close()
            self.partie = None
        match = self.current
        self._record(rules_night.interrupt_event(match, reason, match.captains.get("home"),
                                                 self._now_iso(), in_play))
        self.slot.overlay = None

    def _adopt(self, _) -> None:
        """Play the first orphan on: a one-partie match whose partie is that file."""
        partie = self.orphans.take_first()
        self._record(rules_night.adopt_event(partie.board.header, self._today()))
        self._resume()

    def _set_aside(self, _) -> None:
        """The first orphan to the archive, unsent (it is unfinished); journalled."""
        partie_id = self.orphans.take_first().board.header["id"]
        self._record({"ev": "set_aside", "partie": partie_id})
        self.store.set_aside([partie_id], self._stamp())

    # action → handler(night, value): the menu it opens, what the counter says, or None
    CHOICES: dict[str, Callable[["Night", Any], Any]] = {
        # setting a match up
        "keytest": _keytest, "setup_menu": _open_setup, "home_menu": _home_menu, "away_menu": _away_menu,
        "present": _present, "toggle": _toggle, "present_done": _present_done, "no_show": _no_show,
        "captain_chosen": _captain_chosen, "played_q": _played_question,
        "forfeit_match": _forfeit_match, "single": _single,
        # partie after partie
        "next_menu": _next_menu, "pick_away": _pick_away, "single_names": _single_names, "start": _start,
        "partie_menu": _partie_menu,
        "take_back": _take_back, "close_partie": _close, "protocol": _protocol, "protocol_inning": _inning_menu,
        "points": _points,
        # the captains answer the zápis
        "captain": _captain_menu, "sign_as": _sign_as, "sign": _sign, "objection_kind": _objection_kind,
        "objection_partie": _objection_partie, "object": _object, "unsigned_q": _unsigned_question,
        "unsigned": _unsigned, "close_match": _end_match,
        # an interrupted match (A.6.5)
        "interrupt_q": _interrupt_menu, "interrupt_confirm": _interrupt_confirm, "interrupt": _interrupt,
        # giving up, taking back, partie files no match owns
        "abandon_q": _abandon_question, "abandon": _abandon, "reopen": _reopen, "adopt": _adopt,
        "set_aside": _set_aside,
    }

    def _answer(self, event: dict):
        """A captain's answer: checked by the fold, journalled (fsync) before it is shown; the next
        captain's menu, or — both answered — the match closed and sent."""
        rules_night.apply(self.state, event)             # refused before anything is journalled
        self._record(event)
        match = self.current
        if match.awaiting is None:          # signed off: both captains answered
            self._close_match()
            return None
        return self._captain_menu(match.awaiting)

    # -- taking decisions back, making them final ----------------------------------
    def window_left(self) -> float | None:
        """Seconds until the decisions not yet final become final by time, if there are any."""
        return self.window.left(self.state)

    def tick(self) -> None:
        """The take-back window has run out: the decisions are final, their records go out."""
        if self.window_left() == 0.0:
            self.finalize()

    def finalize(self) -> None:
        """Make the decisions not yet final final: each closed partie's record and a closed league
        match's record into the outbox, then ``final`` journalled, then an ended match's files to
        the archive. Safe to repeat after a power cut anywhere in it (the outbox keeps an id once)."""
        held = self.state.held()
        if not held:
            return
        self.outgoing.send_final(held)
        self._record({"ev": "final"})
        self.window.closed()
        if any(decision in ("end", "abandon") for decision, _ in held):
            self._archive()

    def can_take_back(self) -> bool:
        """A decision not yet final, and no stroke since (the next partie may be started, empty)."""
        return self.state.previous is not None and (self.board is None or not self.board.history)

    def _undo_on_screen(self) -> str | None:
        """The undo key with no menu open and nothing to undo in a partie: take back the last
        decision that is not final yet (closing a partie or the match, giving a match up, a partie
        started but with nothing entered yet), or the team forfeit on its result screen."""
        if self.can_take_back():
            return self._reopen()
        if self.phase == "result" and self.current.forfeit:
            self.slot.overlay = self._abandon_question()         # the forfeit is taken back by giving the match up
            return None
        if self.board is not None:
            try:
                self.board.check({"cmd": "undo"})
            except RuleError as exc:                        # the rule core's own refusal: nothing to undo
                raise Said(refusal(exc, self.t.language), code=exc.code) from None
        raise Said(self.t("nothing_to_take_back"), code="no_effect")

    # -- decisions -------------------------------------------------------------
    def _record(self, event: dict) -> None:
        self.state = self.store.record(self.state, event)
        self.window.opened(event)

    def _start_match(self, setup: menus.Setup, forfeit: str | None = None) -> None:
        """Journal the match; ``forfeit``: the team that did not turn up, and the match goes to its result."""
        self.finalize()                      # the match before is final now
        self.show_lot = False
        game = self.device.game
        # the competition's partie per match when the receiver sent its rules, else the config's
        count = rules_night.partie_count(game, self.league.rules.get("partie_per_match", self.config.partie_count(game)))
        # the team points of a partie won (A.5.3, RULES 2.9): the competition's, else the config's
        win_points = self._rules(game, league=setup.home is not None).get("win_points")
        self._record(rules_night.match_event(self._new_id(setup.fixture), game, self._today(), count,
                                             home=setup.home, away=setup.away, present=setup.present,
                                             forfeit=forfeit, fixture=setup.fixture, captains=setup.captains,
                                             win_points=win_points))
        if self.current.needs_lot:
            self._draw_lot()

    def _start_single(self) -> None:
        """A single partie: a match of one partie, no teams."""
        self.finalize()
        self._record(rules_night.match_event(self._new_id(None), self.device.game, self._today(), 1))

    def _draw_lot(self) -> None:
        self._record(rules_night.lot_event(self.current, int.from_bytes(self.urandom(4), "big")))
        self.show_lot = True

    def _start_partie(self, a: str, b: str, home: str | None) -> None:
        match = self.current
        rules = self._rules(match.game, league=match.league)
        header = rules_night.partie_header(match, a, b, home, rules,
                                           {"device": self.device.name, **self._place()})
        self.partie = self.store.start_partie(header, self._now_iso())

    def _rules(self, game: str, *, league: bool) -> dict:
        """The rules of play: the config's; in a league match the competition's over them, when the
        receiver sent them."""
        rules = self.config.rules_header(game)
        return self.league.rules_header(game, rules) if league else rules

    def _take_back_start(self) -> None:
        """Nothing entered yet: the partie's header-only file goes, and who starts is asked again."""
        self.store.take_back(self.playing)
        self.partie = None

    def _close_partie(self) -> None:
        """Journal that the finished partie is closed; its record goes to the outbox once that is
        final (the next partie's first stroke, the next match, a restart or TAKE_BACK_SECONDS)."""
        partie, match = self.playing, self.current
        self.outgoing.hold(partie)              # sent from memory when final
        self.store.close_partie(partie)
        self.partie = None
        self._record(rules_night.closed_event(match.number, partie.board.header, partie.board.summary()))
        if not match.league:
            self._record({"ev": "end"})

    def _close_match(self) -> None:
        """Journal that the match is closed; its record goes out once that is final."""
        self._record({"ev": "end"})

    def _archive(self) -> None:
        self.store.archive(self._stamp(), keep=self.orphans.ids())

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
        return self.clock.iso_seconds()
