"""Partie files no match owns — the night journal's match line lost in both copies (issue 12).

They are never left behind: at start a finished one goes to the outbox (the outbox keeps an id
once) and to the archive; an unfinished one is offered on the ready screen, to play on (a
one-partie match adopting that file) or to set aside to the archive, unsent. A mixin of
``match_night.Night``.
"""
from firmware_host import night_menus as menus
from rules import night as rules_night


class Orphans:
    """The orphaned partie files of ``match_night.Night``."""

    def _take_in_orphans(self) -> list:
        """Partie files no match owns — the night journal's match line lost in both copies — are
        never left behind: a finished one goes to the outbox (the outbox keeps an id once) and to
        the archive; an unfinished one is offered on the ready screen, to play on or set aside."""
        if self.match is not None:
            return []
        orphans = self.store.orphans(None)
        finished = [partie for partie in orphans if partie.board.finished]
        for partie in finished:
            partie_id = partie.board.header["id"]
            self._send(partie_id, "partie", partie.text, partie.board.summary())
            self._record({"ev": "set_aside", "partie": partie_id})
        if finished:
            self.store.set_aside([partie.board.header["id"] for partie in finished], self._stamp())
        return [partie for partie in orphans if not partie.board.finished]

    def _orphan_menu(self):
        return menus.orphan_menu(self.t, self.orphans[0].board.header)

    def _adopt(self) -> None:
        """Play the first orphan on: a one-partie match whose partie is that file."""
        partie = self.orphans.pop(0)
        self._record(rules_night.adopt_event(partie.board.header, self._today()))
        self._resume()

    def _set_aside(self) -> None:
        """The first orphan to the archive, unsent (it is unfinished); journalled."""
        partie_id = self.orphans.pop(0).board.header["id"]
        self._record({"ev": "set_aside", "partie": partie_id})
        self.store.set_aside([partie_id], self._stamp())

