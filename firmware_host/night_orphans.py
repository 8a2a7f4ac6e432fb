"""Partie files no match owns — the night journal's match line lost in both copies (issue 12).

They are never left behind: at start a finished one goes to the outbox (the outbox keeps an id
once) and to the archive; an unfinished one is offered on the ready screen, to play on (a
one-partie match adopting that file) or to set aside to the archive, unsent. ``match_night.Night``
holds the unfinished ones in an ``Orphans``.
"""
from firmware_host import night_menus as menus


class Orphans:
    """The unfinished partie files no match owns, the first offered first."""

    def __init__(self, files=()):
        self.files = list(files)            # night_store.OpenPartie, their journals closed

    @classmethod
    def take_in(cls, store, outgoing, record, stamp: str) -> "Orphans":
        """Read the partie files no match owns at start: each finished one goes to the outbox
        (``outgoing``) and, journalled by ``record``, to the archive; the unfinished stay."""
        orphans = store.orphans(None)
        finished = [partie for partie in orphans if partie.board.finished]
        for partie in finished:
            partie_id = partie.board.header["id"]
            outgoing.send(partie_id, "partie", partie.text, partie.board.summary())
            record({"ev": "set_aside", "partie": partie_id})
        if finished:
            store.set_aside([partie.board.header["id"] for partie in finished], stamp)
        return cls(partie for partie in orphans if not partie.board.finished)

    def __len__(self) -> int:
        return len(self.files)

    def ids(self) -> list[str]:
        return [partie.board.header["id"] for partie in self.files]

    def menu(self, t):
        """Play the first one on, or set it aside."""
        return menus.orphan_menu(t, self.files[0].board.header)

    def take_first(self):
        """The first one, no longer offered (played on or set aside)."""
        return self.files.pop(0)
