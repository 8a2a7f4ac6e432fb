"""Taking back the match night's irreversible decisions, and making them final (issue 12).

Closing a partie, closing the match and giving a match up are journalled at once but can be
taken back with the undo key until they are final: the next partie's first stroke, the next
match, ``TAKE_BACK_SECONDS`` without either, or a restart. Only then do their records go to the
outbox — a record the referee took back is never sent (docs/record-format.md, "The match
night's journal"). A mixin of ``match_night.Night``: it uses the night's state, store, outbox
and clock.
"""
from input.messages import Said, refusal
from rules import night as rules_night
from rules.errors import RuleError
from rules.games import game_for
from rules.record import encode_line

TAKE_BACK_SECONDS = 600.0   # a closing not taken back within this long is final (docs/referee.md)
REOPENED = {"closed": "partie_reopened", "end": "match_reopened", "abandon": "abandon_taken_back"}


class TakeBack:
    """The take-back window of ``match_night.Night``."""

    def _open_window(self, event: dict) -> None:
        if event["ev"] in rules_night.TAKE_BACK:
            self.window_ends = self.clock.monotonic() + TAKE_BACK_SECONDS

    def window_left(self) -> float | None:
        """Seconds until the decisions not yet final become final by time, if there are any."""
        if self.state.previous is None or self.window_ends is None:
            return None
        return max(0.0, self.window_ends - self.clock.monotonic())

    def tick(self) -> None:
        """The take-back window has run out: the decisions are final, their records go out."""
        if self.window_left() == 0.0:
            self.finalize()

    def _reopen(self) -> str:
        """Take back the last decision not yet final (journalled as its own event, nothing deleted):
        a closed partie is in play again, a closed or abandoned match is back. A single partie's
        close also ended its match: both are taken back."""
        decision = self.state.decision
        if decision is None:
            raise Said(self.t("nothing_to_take_back"), code="no_effect")
        if self.partie is not None:             # the next partie was started, nothing entered yet
            self._take_back_start()
        self._record({"ev": "reopen"})
        if decision == "end" and not self.match.league and self.state.decision == "closed":
            self._record({"ev": "reopen"})
        self.overlay = None
        self._resume()
        if self.partie is not None:
            self.held_records.pop(self.partie.board.header["id"], None)    # it may change now
        return self.t(REOPENED[decision])

    def finalize(self) -> None:
        """Make the decisions not yet final final: each closed partie's record and a closed league
        match's record into the outbox, then ``final`` journalled, then an ended match's files to
        the archive. Safe to repeat after a power cut anywhere in it (the outbox keeps an id once)."""
        held = self.state.held()
        if not held:
            return
        for decision, before in held:
            if decision == "closed":
                self._send_partie(before.partie_id(before.number))
            elif decision == "end" and before.league:
                self._send_match(before)
        self._record({"ev": "final"})
        self.window_ends = None
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
        if self.phase == "result" and self.match.forfeit:
            self.overlay = self._abandon_question()         # the forfeit is taken back by giving the match up
            return
        if self.board is not None:
            try:
                self.board.check({"cmd": "undo"})
            except RuleError as exc:                        # the rule core's own refusal: nothing to undo
                raise Said(refusal(exc, self.t.language), code=exc.code) from None
        raise Said(self.t("nothing_to_take_back"), code="no_effect")

    def _send_partie(self, partie_id: str) -> None:
        """A closed partie's record: as closed in this run, or read back (after a restart)."""
        held = self.held_records.pop(partie_id, None)
        if held is None:
            partie = self.store.closed_partie(partie_id)
            if partie is None:
                return
            held = partie.text, partie.board.summary()
        self._send(partie_id, "partie", *held)

    def _send_match(self, match: rules_night.Match) -> None:
        records = None
        kept = game_for(match.game).match_facts is not None
        if kept and not match.forfeit and len(match.records) < len(match.closed):
            records = self.store.replay_closed(match)   # closed by a version that did not keep them
        summary = rules_night.match_summary(match, self._place(), records)
        self._send(match.id, "match", encode_line(summary), summary)

    def _send(self, item_id: str, kind: str, record_text: str, summary: dict) -> None:
        if self.outbox is not None:
            self.outbox.add(item_id, kind, record_text, summary)
            if self.on_record is not None:
                self.on_record()

