"""Acceptance: an SD card that damaged the journals, as the referee meets it in `pocitadlo emulate`
started again on the same data (issue 12, "The journal never drops good strokes in silence";
docs/record-format.md, docs/referee.md "A partie the night journal lost")."""
from firmware_host.match_night import TAKE_BACK_SECONDS

SETUP = "\n" * 6        # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)


def spoil_both_copies(path, number: int) -> None:
    """Damage both copies of line ``number`` of a journal (each line is written twice)."""
    with open(path, "rb") as fh:
        lines = fh.read().rstrip(b"\0").splitlines(keepends=True)
    for copy in (2 * number - 2, 2 * number - 1):
        lines[copy] = b"?" + lines[copy][1:]
    with open(path, "wb") as fh:
        fh.write(b"".join(lines))


def test_a_stroke_lost_in_both_copies_is_named_at_start_and_the_strokes_after_it_are_kept(emulator):
    first = emulator(points_limit=30, innings_limit=5)
    first.play(SETUP + "\n\n" + "12" "0" "7" "0" "1")
    history = first.service.night.board.history
    spoil_both_copies(first.service.night.partie_journal.path, 3)       # line 3: the 2nd stroke, "2"
    again = emulator(points_limit=30, innings_limit=5)
    screen = again.service.screen()
    assert screen["message"]["text"] == "Úder 2 nečitelný: zkontrolujte zápis"
    assert again.service.night.board.history == history[:1] + history[2:]
    menu = again.key("enter")                                         # where the referee checks it
    assert menu["title"] == "Zápis partie" and menu["items"][0] == "1 Opravit náběh"


def test_a_partie_whose_match_line_was_lost_is_offered_on_the_ready_screen_and_played_on(emulator):
    first = emulator(points_limit=30, innings_limit=5)
    first.play(SETUP + "\n\n" + "870" "\n1h\n" "\n" "12")                # partie 1 closed, partie 2 begun
    partie = first.service.night.board.header
    spoil_both_copies(first.service.night.store.journal.path, 1)         # the match line
    again = emulator(points_limit=30, innings_limit=5)
    offer = again.service.screen()
    assert offer["title"] == f"Nedohraná partie {partie['a']} – {partie['b']}"
    assert offer["items"] == ["1 Hrát dál", "2 Odložit do archivu"] and offer["selected"] == 0
    assert [item.id[-3:] for item in again.syncer.outbox.pending()] == ["-p1"]   # the finished one is sent
    resumed = again.key("enter")                                        # 1 Hrát dál
    assert resumed["summary"]["counter"]["series"] == 3                 # every stroke is there
    again.play("870" "\n1h\n")                                          # A reaches 30, B misses; closed
    again.clock.advance(TAKE_BACK_SECONDS)
    again.service.tick()
    assert again.service.screen()["screen"] == "ready"
    assert sorted(item.id[-3:] for item in again.syncer.outbox.pending()) == ["-p1", "-p2"]
