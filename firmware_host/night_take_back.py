"""Taking back the match night's irreversible decisions, and making them final (issue 12).

Closing a partie, closing the match, giving a match up and interrupting it are journalled at once but can be
taken back with the undo key until they are final: the next partie's first stroke, the next
match, ``TAKE_BACK_SECONDS`` without either, or a restart. Only then do their records go to the
outbox — a record the referee took back is never sent (docs/record-format.md, "The match
night's journal"). ``match_night.Night`` holds a ``Window`` (when the decisions become final by
time) and an ``Outgoing`` (the records on their way to the outbox).
"""
from clock import Clock
from rules import night as rules_night
from rules.games import game_for
from rules.record import encode_line

TAKE_BACK_SECONDS = 600.0   # a closing not taken back within this long is final (docs/referee.md)
REOPENED = {"closed": "partie_reopened", "end": "match_reopened", "abandon": "abandon_taken_back",
            "interrupt": "interrupt_taken_back"}


class Window:
    """The take-back window: when the decisions not yet final become final by time."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self.ends: float | None = None      # clock.monotonic() when they become final

    def opened(self, event: dict) -> None:
        """A decision was journalled: one that can be taken back starts the window again."""
        if event["ev"] in rules_night.TAKE_BACK:
            self.ends = self.clock.monotonic() + TAKE_BACK_SECONDS

    def closed(self) -> None:
        self.ends = None

    def left(self, state: rules_night.NightState) -> float | None:
        """Seconds until the decisions not yet final become final by time, if there are any."""
        if state.previous is None or self.ends is None:
            return None
        return max(0.0, self.ends - self.clock.monotonic())


class Outgoing:
    """The night's records on their way to the outbox: each closed partie's record (held in memory
    from its closing until it is final) and a closed league match's item."""

    def __init__(self, store, outbox, place: dict, on_record=None):
        self.store, self.outbox, self.place = store, outbox, place
        self.on_record = on_record          # called after a record entered the outbox
        self.held: dict[str, tuple[str, dict]] = {}    # partie id -> (record text, summary), closed, not final
        self._played: set[str] | None = None            # fixtures whose match item is in the outbox

    def hold(self, partie) -> None:
        """A partie just closed: its record is sent from memory once the closing is final."""
        self.held[partie.board.header["id"]] = (partie.text, partie.board.summary())

    def release(self, partie_id: str) -> None:
        """A closing taken back: the partie may change again."""
        self.held.pop(partie_id, None)

    def send_final(self, held: list) -> None:
        """The records of the decisions that just became final (rules.night.NightState.held)."""
        for decision, before in held:
            if decision == "closed":
                self.send_partie(before.partie_id(before.number))
            elif decision == "end" and before.league:
                self.send_match(before)

    def send_partie(self, partie_id: str) -> None:
        """A closed partie's record: as closed in this run, or read back (after a restart)."""
        held = self.held.pop(partie_id, None)
        if held is None:
            partie = self.store.closed_partie(partie_id)
            if partie is None:
                return
            held = partie.text, partie.board.summary()
        self.send(partie_id, "partie", *held)

    def played(self) -> set[str]:
        """The league fixtures closed at this table: their match items are in the outbox (read
        once, then kept up to date)."""
        if self._played is None:
            self._played = self.outbox.match_fixtures() if self.outbox is not None else set()
        return set(self._played)

    def send_match(self, match: rules_night.Match) -> None:
        records = None
        kept = game_for(match.game).match_facts is not None
        if kept and not match.forfeit and len(match.records) < len(match.closed):
            records = self.store.replay_closed(match)   # closed by a version that did not keep them
        summary = rules_night.match_summary(match, self.place, records)
        self.send(match.id, "match", encode_line(summary), summary)
        if self._played is not None and match.fixture is not None:
            self._played.add(match.fixture)

    def send(self, item_id: str, kind: str, record_text: str, summary: dict) -> None:
        if self.outbox is not None:
            self.outbox.add(item_id, kind, record_text, summary)
            if self.on_record is not None:
                self.on_record()
