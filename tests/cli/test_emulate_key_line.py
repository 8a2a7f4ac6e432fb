"""The emulator's key line (input/key_line.py, cli/commands/emulate.py): on every screen only the
keys that work there (issue 12), from the active key map, in the counter's language."""
from cli.commands.emulate import BUNDLED, help_writer, key_help
from firmware_host.settings import load

SETUP = "\n" * 6        # ready → setup → tonight's fixture → home, away all present → their captains (A.6.1)


def line(player, model=None) -> str:
    service = player.service
    return key_help(service.night.config, service, model or service.screen())


def test_each_carom_screen_shows_only_its_keys(emulator):
    """Issue 12: setup, attendance, lot draw, partie, hold menu, protocol, close question, result."""
    player = emulator(points_limit=30, innings_limit=5)
    assert line(player) == "Enter utkání · q konec"
    player.key("enter")
    assert line(player) == "1–4 položka · - + posun · Enter OK · Esc zpět · q konec"          # setup
    player.key("enter")
    assert line(player) == "1–7 položka · - + posun · Enter OK · Esc zpět · q konec"          # attendance
    player.play("\n\n")
    assert line(player) == "1–5 položka · - + posun · Enter OK · Esc zpět · q konec"          # the home captain
    player.play("\n\n")
    assert line(player) == "Enter dál · Esc zrušit utkání · q konec"                          # the lot draw
    player.play("\n\n")
    fresh = line(player)                                                                      # partie 1
    assert fresh == ("1 +1 · 2 +2 · 7 +10 · 8 +20 · 0 chyba · . faul · * lpí · 3 zbývá · "
                     "Enter zápis partie · h Enter menu · q konec")           # nothing to undo or redo yet
    player.key("*")
    frozen = line(player)
    assert "7 +10" not in frozen and "8 +20" not in frozen and "1 +1" in frozen and "- zpět" in frozen
    player.key("-")
    assert "+ znovu" in line(player)
    player.key("enter", held=True)
    assert line(player) == "1–5 vybrat · Esc zavřít · q konec"                                # the hold menu
    player.key("1")
    assert line(player) == "1–2 položka · - + posun · Enter OK · h Enter ano · Esc zpět · q konec"  # Vzdává Novák?
    player.key("esc")                                                                         # Back: no
    player.play("20" "\n")
    assert line(player) == "1–3 položka · - + posun · Enter OK · Esc zpět · q konec"          # Zápis partie
    player.play("\n\n\n")                                                                    # correct, A, 1.
    assert line(player) == "0–9 body · Enter OK · Esc smazat · q konec"                       # points prompt
    player.play("\x1b")
    player.play("8" "8" "8" "2" "0" "0")                                                       # A: 30, B misses
    assert player.service.night.board.finished
    assert line(player) == "- zpět · Enter uzavřít · h Enter menu · q konec"
    player.key("enter")
    assert line(player) == "1–2 položka · - + posun · Enter OK · h Enter ano · Esc zpět · q konec"  # close?
    player.play("1h\n")
    assert line(player) == "1–3 položka · + posun · Enter OK · - vrátit uzavření · q konec"  # partie 2
    for _ in range(3):
        player.play("\n" "888" "2" "0" "\n1h\n")
    assert player.service.screen()["screen"] == "match"
    assert line(player) == "Enter podpisy kapitánů · - vrátit uzavření · q konec"             # the result: A.6.9d


def test_the_eightball_partie_shows_the_group_choice_and_the_illegal_break_never_8_twice(emulator):
    """Issue 12: the 8-ball key line had no group choice and no illegal break, and read "8 8"."""
    player = emulator(game="8ball", games_to_win=2, sets_to_win=2)
    player.play("\n3" + "\n" * 9)                  # other match, teams, all present, captains, players
    on_break = line(player)
    assert on_break == ("7 plná · 9 půlená · 8 osmička · * bílá · . faul · 0 konec šťouchu · "
                        "h 0 neplatný rozstřel · h Enter menu · q konec")
    assert "8 8" not in on_break and "skupina" not in on_break        # no group to choose on the break
    player.play("790")                                                # a ball of each group on the break
    open_groups = line(player)
    assert "/ skupina" in open_groups and "neplatný rozstřel" not in open_groups
    player.key("/")
    assert line(player) == "1 plné · 2 půlené · Esc zrušit · q konec"
    player.play("1")
    player.key("8")
    assert line(player).startswith("1–6 kapsa")


def test_the_key_line_is_english_with_an_english_counter(tmp_path):
    config = load(BUNDLED)
    from dataclasses import replace
    english = replace(config, device=replace(config.device, language="en"))
    assert key_help(english) == "Enter match · q quit"


def test_the_emulator_rewrites_the_key_line_when_the_screen_changes(emulator):
    import io

    player = emulator()
    stream = io.StringIO()
    observe = help_writer(player.service.night.config, 10, stream)(player.service)
    player.service.observers.append(observe)
    player.key("enter")
    assert stream.getvalue().endswith("\x1b[10;1H\x1b[J1–4 položka · - + posun · Enter OK · Esc zpět · q konec\x1b[H")


def test_a_resized_window_redraws_the_counter_at_once(emulator):
    """Issue 12: a terminal too small for the counter says so when the window is resized (SIGWINCH),
    not at the next frame, which on the ready screen may be a minute away; the key line too."""
    import io
    import os
    import signal

    from cli.commands.emulate import emulator_observer
    from display.terminal import TerminalDevice

    player = emulator()
    service = player.service
    out, size, lines = io.StringIO(), [(200, 50)], io.StringIO()
    service.display.counter.attach(TerminalDevice(width=64, height=16, stream=out, terminal_size=lambda: size[0]))
    service.display.forget()
    service.show()
    assert "▀" in out.getvalue()
    previous = signal.getsignal(signal.SIGWINCH)
    try:
        service.observers.append(emulator_observer(service.night.config, 10, lines)(service))
        size[0] = (40, 24)
        out.seek(0), out.truncate()
        os.kill(os.getpid(), signal.SIGWINCH)
        service.handle(service.queue.get(timeout=10))
    finally:
        signal.signal(signal.SIGWINCH, previous)
    assert "terminal too small" in out.getvalue() and "▀" not in out.getvalue()
    assert lines.getvalue().endswith("Enter utkání · q konec\x1b[H")
