"""The match night (firmware_host/match_night.py and the modules it joins): setup, lot draw, partie after partie, records closed."""
import datetime as dt
import json
import os
import shutil

import pytest
from night_helpers import TONIGHT, sign_off

from clock import ManualClock
from delivery.outbox import Outbox
from firmware_host.league import load_league
from firmware_host.match_night import TAKE_BACK_SECONDS, Night
from firmware_host.settings import load
from input.messages import Said
from rules.board import Board
from rules.carom.match import draw_lot
from rules.errors import IllegalCommand
from rules.record import replay_file

# the bundled league's first two teams, Jiskra one player short
TEAMS = (("Sokol Dvůr", "Hospoda U Lva", ("Novák", "Dvořák", "Svoboda", "Černý", "Procházka")),
         ("Jiskra Hořice", "Na Růžku", ("Kučera", "Veselý", "Horák", "Němec")))


class Urandom:
    """os.urandom's place: a known byte sequence, so the seed and ids are known."""

    def __init__(self):
        self.n = 0

    def __call__(self, size: int) -> bytes:
        self.n += 1
        return bytes([self.n] * size)


@pytest.fixture
def setup(tmp_path, league_file):
    league_file(((0, "Sokol Dvůr", "Jiskra Hořice"),), teams=TEAMS, tonight=TONIGHT.date())
    (tmp_path / "config.toml").write_text(
        '[device]\nvenue = "Hospoda U Lva"\ntable = "2"\nname = "lev-2"\nleague = "league.toml"\n'
        'data_dir = "data"\n[rules.carom]\npoints_limit = 20\ninnings_limit = 2\n'
        '[rules.8ball]\ngames_to_win = 1\nsets_to_win = 1\nindividual_matches = 2\n', encoding="utf-8")
    return tmp_path


def night_of(path, game="carom", clock=None, status=None, **kw):
    config = load(path / "config.toml")
    if game != "carom":
        from dataclasses import replace
        config = replace(config, device=replace(config.device, game=game))
    outbox = Outbox(path / "outbox")
    night = Night(config, load_league(config.device.league), outbox=outbox, status=status or (lambda: {
        "unsent": outbox.unsent(), "last_delivery": None}), clock=clock or ManualClock(TONIGHT), urandom=Urandom(),
        **kw)
    return night, outbox


def close(night):
    """Close the finished partie (or the match): issue 12, the question starts on "Ne" and "Ano"
    is taken only by the long press (1 moves to Ano, the held Enter is "menu")."""
    night.ui("confirm"), night.ui(1), night.ui("menu")


def settle(night):
    """Let the take-back window run out (issue 12): the closed records go to the outbox."""
    night.clock.advance(TAKE_BACK_SECONDS)
    night.tick()


def play(night, *commands):
    for cmd in commands:
        night.command(cmd)


def test_ready_screen_names_venue_table_time_and_unsent(setup):
    night, _ = night_of(setup)
    assert night.screen() == {"screen": "ready", "venue": "Hospoda U Lva", "table": "2", "time": "19:30",
                              "unsent": 0, "last_sent": None}


def test_ready_screen_says_when_the_receiver_refuses_this_device(setup):
    """A 401/403 (a wrong secret, a device not registered) is no network fault: the ready screen
    says what to check, where an outage shows the unsent count alone."""
    night, _ = night_of(setup, status=lambda: {"unsent": 3, "last_delivery": None, "device_refused": True})
    assert night.screen()["refused"] == "Server odmítá toto zařízení: zkontrolujte device_id a secret"
    night, _ = night_of(setup, status=lambda: {"unsent": 3, "last_delivery": None, "device_refused": False})
    assert "refused" not in night.screen()


def test_tonights_fixture_for_this_venue_is_offered_first(setup):
    night, _ = night_of(setup)
    night.ui("confirm")
    menu = night.screen()
    assert menu["items"] == ["1 Jedna partie", "2 Test kláves", "3 Jiné utkání", "4 Sokol Dvůr – Jiskra Hořice"]
    assert menu["selected"] == 3


def start_league_match(night):
    night.ui("confirm")            # ready -> setup
    night.ui("confirm")            # tonight's fixture
    night.ui("confirm")            # home: everybody present (cursor starts on "Hotovo")
    night.ui("confirm")            # away: everybody present
    night.ui("confirm")            # A.6.1: the home team's captain (the first present)
    night.ui("confirm")            # … and the away team's: the match starts


def test_lot_draw_is_seeded_shown_and_recorded(setup):
    """RULES 1.6: the seed is shown and recorded so both captains can verify the draw."""
    night, _ = night_of(setup)
    start_league_match(night)
    screen = night.screen()
    seed = int.from_bytes(bytes([2] * 4), "big")         # urandom call 1 made the match id
    expected = [p.as_dict() for p in draw_lot(["Novák", "Dvořák", "Svoboda", "Černý", "Procházka"],
                                               ["Kučera", "Veselý", "Horák", "Němec"], seed)]
    assert screen == {"screen": "lotdraw", "seed": seed, "pairs": expected}
    night.ui("confirm")
    assert night.screen()["title"] == "Partie 1: kdo začíná?"
    assert night.screen()["items"] == ["1 " + expected[0]["home"], "2 " + expected[0]["away"], "3 Přerušit utkání"]


def test_absent_player_is_not_drawn_and_too_few_players_are_refused(setup):
    """RULES 1.6: each team needs at least 4 players present."""
    night, _ = night_of(setup)
    night.ui("confirm"), night.ui("confirm")
    night.ui(1), night.ui("confirm")                      # Novák is not here tonight
    night.ui(6), night.ui("confirm")                      # home done
    night.ui(1), night.ui("confirm")                      # Kučera is not here: 3 left
    night.ui(5), night.ui("confirm")
    assert night.screen()["title"] == "Málo hráčů (min. 4)"
    assert night.match is None


def finish_partie(night):
    """Player a makes 20 in the first inning: the limit (RULES 1.4.1); b misses the equaliser."""
    play(night, {"cmd": "score", "value": 10}, {"cmd": "score", "value": 10}, {"cmd": "miss"})
    assert night.board.finished


def test_whole_carom_match_night_closes_every_record(setup):
    night, outbox = night_of(setup)
    start_league_match(night)
    pairs = night.screen()["pairs"]
    night.ui("confirm")
    for number in range(1, 5):
        night.ui(2 if number % 2 else 1)                  # the lag: away starts in odd partie
        night.ui("confirm")
        header = night.board.header
        starter = pairs[number - 1]["away" if number % 2 else "home"]
        assert header["a"] == starter and header["partie"] == number
        assert header["home"] == ("b" if number % 2 else "a")
        assert header["match"]["seed"] == night.match.seed
        assert header["points_limit"] == 20 and header["innings_limit"] == 2 and header["cap_points_at_limit"]
        assert (header["venue"], header["table"], header["date"], header["device"]) == \
            ("Hospoda U Lva", "2", "2026-11-29", "lev-2")
        finish_partie(night)
        close(night)  # close the partie? yes
    result = night.screen()
    assert result["screen"] == "match"
    assert result["points"] == {"home": 4, "away": 4}     # a won each partie: away, home, away, home
    assert len(result["partie"]) == 4
    sign_off(night)                                       # both captains sign: the match is sent
    assert night.screen()["screen"] == "ready"
    settle(night)
    items = {item.id: item for item in outbox.pending()}
    match_id = next(i for i, item in items.items() if item.kind == "match")
    assert sorted(items) == sorted([match_id] + [f"{match_id}-p{n}" for n in range(1, 5)])
    partie = items[f"{match_id}-p1"].content
    assert partie["summary"]["result"] == "a"
    board = Board(json.loads(partie["record"].splitlines()[0]))
    assert board.header["id"] == f"{match_id}-p1"
    assert items[match_id].content["summary"]["points"] == {"home": 4, "away": 4}
    assert night.screen()["unsent"] == 5


def test_finished_partie_can_still_be_undone_before_it_is_closed(setup):
    night, outbox = night_of(setup)
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")   # single partie
    finish_partie(night)
    night.ui("confirm"), night.ui("cancel")               # close? ... not yet
    night.command({"cmd": "undo"})
    assert not night.board.finished and outbox.unsent() == 0


def test_commands_outside_a_partie_are_refused(setup):
    night, _ = night_of(setup)
    with pytest.raises(IllegalCommand):
        night.command({"cmd": "score", "value": 1})


def test_restart_mid_series_resumes_the_same_screen(setup):
    night, _ = night_of(setup)
    start_league_match(night)
    night.ui("confirm"), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2}, {"cmd": "score", "value": 1})
    before = night.screen()
    again, _ = night_of(setup)
    assert again.screen() == before and before["summary"]["counter"]["series"] == 3


def test_restart_after_the_lot_shows_the_draw_again(setup):
    night, _ = night_of(setup)
    start_league_match(night)
    assert night_of(setup)[0].screen() == night.screen()


def test_restart_between_closing_and_journalling_adds_the_partie_once(setup):
    """The outbox is idempotent by id: closing again after a crash does not double it."""
    night, outbox = night_of(setup)
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")
    finish_partie(night)
    partie_id = night.board.header["id"]
    outbox.add(partie_id, "partie", "x", {})               # the crash came right after outbox.add
    again, _ = night_of(setup)
    close(again)
    assert [item.id for item in outbox.pending()] == [partie_id]
    assert again.screen()["screen"] == "ready"


def test_single_8ball_match_outside_the_league(setup):
    """RULES 2.3: the record says who breaks first; a single match has no teams."""
    night, outbox = night_of(setup, game="8ball")
    night.ui("confirm")
    assert night.screen()["items"][0] == "1 Jeden zápas"            # 1 on any night
    night.ui(1), night.ui("confirm"), night.ui("confirm")
    assert night.screen()["screen"] == "8ball"
    assert night.board.header["games_to_win"] == 1 and "match" not in night.board.header
    assert night.board.header["first_break"] == "a"           # the player picked to start breaks
    with pytest.raises(IllegalCommand, match="Zápas neskončil"):    # 8-ball's unit is a zápas (8B:8)
        night.finish_partie()
    night.command({"cmd": "game", "winner": "a"})
    assert night.board.finished
    with pytest.raises(IllegalCommand, match="Enter = uzavřít zápas"):
        night.ui("cancel")
    night.ui("confirm")
    assert night.screen()["title"] == "Uzavřít zápas?"
    night.ui(1), night.ui("menu")
    settle(night)
    assert [i.kind for i in outbox.pending()] == ["partie"]


def test_8ball_team_game_picks_each_individual_match(setup):
    night, outbox = night_of(setup, game="8ball")
    start_league_match(night)
    assert night.screen()["title"] == "Zápas 1: domácí"
    night.ui(2), night.ui("confirm"), night.ui(3), night.ui("confirm")
    header = night.board.header
    assert (header["a"], header["b"], header["home"], header["first_break"]) == ("Dvořák", "Horák", "a", "b")
    night.command({"cmd": "game", "winner": "b"})
    close(night)
    night.ui("confirm"), night.ui("confirm")
    night.command({"cmd": "game", "winner": "a"})
    close(night)
    assert night.screen()["points"] == {"home": 1, "away": 1}


def test_partie_journal_is_the_record_replay_reads(setup):
    night, _ = night_of(setup)
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"})
    path = night.partie_journal.path
    assert replay_file(path).summary()["players"]["a"]["series"] == [2]     # the zero room is no line
    data = open(path, "rb").read()
    assert night.partie_bytes == len(data.rstrip(b"\0")) < len(data)        # room kept ahead (issue 14)


def start_single(night):
    night.ui("confirm"), night.ui(1), night.ui("confirm"), night.ui("confirm")
    assert night.phase == "partie"


def test_protocol_correction_is_a_journalled_command(setup):
    """Issue 6: change the points of a past inning from the protocol screen; history stays auditable."""
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"}, {"cmd": "miss"})
    night.ui("confirm")                                   # Enter between strokes: the protocol menu
    assert night.screen() == {"screen": "menu", "title": "Zápis partie",
                              "items": ["1 Opravit náběh", "2 Vložit náběh"], "selected": 0}
    night.ui("confirm"), night.ui("confirm")              # correct → player a
    assert night.screen()["items"] == ["1 1. náběh: 2"]
    night.ui("confirm")
    night.ui(1), night.ui(2)
    assert night.screen() == {"screen": "prompt", "title": "Body v 1. náběhu?", "value": "12",
                              "hint": "číslice, Enter"}
    night.ui("confirm")
    assert night.board.summary()["players"]["a"]["series"] == [12]
    assert night.board.history[-1] == {"cmd": "correct", "player": "a", "inning": 1, "points": 12}
    lines = open(night.partie_journal.path, "rb").read().rstrip(b"\0").decode("utf-8").splitlines()
    assert '"cmd":"correct"' in lines[-1]
    assert night_of(setup)[0].board.summary()["players"]["a"]["series"] == [12]   # survives a restart


def test_protocol_insert_of_a_forgotten_inning(setup):
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"})
    night.ui("confirm"), night.ui(2), night.ui("confirm")    # insert
    night.ui(2), night.ui("confirm")                          # player b
    assert night.screen()["items"] == ["1 na konec"]
    night.ui("confirm"), night.ui(5), night.ui("confirm")
    assert night.board.summary()["players"]["b"]["series"] == [5]


def test_refused_correction_changes_nothing(setup):
    """A correction the core refuses (RULES 1.4.6: over the limit) is an error and changes nothing."""
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"}, {"cmd": "miss"})
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm"), night.ui("confirm")
    night.ui(9), night.ui(9)
    size = night.partie_bytes
    with pytest.raises(IllegalCommand):
        night.ui("confirm")
    assert night.board.summary()["players"]["a"]["series"] == [2] and night.partie_bytes == size


def test_cancel_in_a_prompt_clears_then_leaves(setup):
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "miss"})
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm"), night.ui("confirm")
    night.ui(4)
    night.ui("cancel")
    assert night.screen()["value"] == ""
    night.ui("cancel")
    assert night.phase == "partie"


def test_new_partie_closes_only_a_finished_partie(setup):
    night, outbox = night_of(setup)
    start_single(night)
    with pytest.raises(IllegalCommand, match="Partie neskončila"):
        night.finish_partie()
    finish_partie(night)
    night.finish_partie()
    assert night.phase == "ready" and outbox.unsent() == 0     # issue 12: held while it can be taken back
    settle(night)
    assert outbox.unsent() == 1


def test_key_test_is_offered_in_setup(setup):
    night, _ = night_of(setup)
    night.ui("confirm"), night.ui(2)                            # the key test is 2 on any night
    assert night.ui("confirm") == "keytest"                     # the referee's keys run it
    # the setup menu waits under the key test, on its item, so leaving the test returns there
    assert night.phase == "menu" and night.screen()["selected"] == 1
    night.ui("cancel")
    assert night.phase == "ready"


def test_a_partie_file_with_a_refused_header_is_set_aside_not_a_crash(setup, caplog):
    night, _ = night_of(setup)
    start_single(night)
    path = night.partie_journal.path
    night.partie_journal.close()
    from firmware_host.journal import Journal
    with open(path, "w", encoding="utf-8"):
        pass
    with Journal.open(path) as journal:
        journal.append({"game": "snooker", "a": "X", "b": "Y"})
    again, _ = night_of(setup)
    assert again.phase == "next" and "header refused" in caplog.text
    assert open(path + ".unreadable", encoding="utf-8").read().startswith('{"game":"snooker"')


def test_a_night_event_that_makes_no_sense_is_skipped(setup, caplog):
    from firmware_host.journal import Journal
    (setup / "data" / "journal").mkdir(parents=True)
    with Journal.open(setup / "data" / "journal" / "night.jsonl") as journal:
        journal.append({"ev": "lot", "seed": 1, "pairs": []})      # a lot without a match
    night, _ = night_of(setup)
    assert night.phase == "ready" and "cannot be applied" in caplog.text


def test_tym_neprisel_answered_no_keeps_the_players_unmarked_before(setup):
    """Attendance: a player unmarked, then "Tým nepřišel" chosen by mistake and answered no: the
    attendance comes back as it was, not with everybody marked again."""
    night, _ = night_of(setup)
    night.ui("confirm"), night.ui("confirm")                         # the fixture; its home team's attendance
    before = night.screen()["items"]
    night.ui(2), night.ui("confirm")                                 # the second player unmarked
    unmarked = night.screen()["items"]
    assert unmarked != before and unmarked[1] == "2   Dvořák" and unmarked[-1] == "7 Tým nepřišel"
    night.ui(7), night.ui("confirm"), night.ui("confirm")            # Tým nepřišel? … Ne (a habitual Enter)
    assert night.screen()["items"] == unmarked


@pytest.mark.parametrize("game, expected", [("carom", {"home": 8, "away": 0}), ("8ball", {"home": 2, "away": 0})])
def test_a_team_that_does_not_turn_up_forfeits_the_match(setup, game, expected):
    """RULES 1.6 / A.3.7: the match is forfeited to the team present (8-ball: every individual match)."""
    night, outbox = night_of(setup, game=game)
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm")    # fixture; home all present
    assert night.screen()["items"][-1] == "6 Tým nepřišel"
    night.ui(6), night.ui("confirm")                                 # Jiskra did not come …
    assert night.screen()["items"] == ["1 Ano", "2 Ne"] and night.screen()["selected"] == 1   # … starts on Ne
    night.ui("confirm")                                             # a habitual Enter takes nothing
    assert night.phase == "menu" and night.screen()["items"][-1] == "6 Tým nepřišel" and night.match is None
    night.ui(6), night.ui("confirm"), night.ui(1), night.ui("menu")          # yes, explicitly: a long press
    screen = night.screen()
    assert screen["screen"] == "match" and screen["points"] == expected
    assert screen["partie"] == ["Jiskra Hořice nepřišel (kontumace)"]
    night.ui("confirm")                                             # only Sokol's captain signs (A.3.7)
    assert night.screen()["title"] == "Kapitán: Sokol Dvůr" and night.screen()["items"][0] == "1 Novák"
    night.ui("confirm"), night.ui("menu")                          # Novák signs by the long press
    settle(night)
    [item] = outbox.pending()
    summary = item.content["summary"]
    assert item.kind == "match" and summary["forfeit"] == "away" and summary["points"] == expected
    assert night.phase == "ready"


def play_carom_match_to_its_result(night):
    start_league_match(night)
    night.ui("confirm")
    for _ in range(4):
        night.ui("confirm")
        finish_partie(night)
        close(night)
    assert night.phase == "result"


def close_match(night, outbox) -> dict:
    sign_off(night)
    settle(night)
    return next(i.content["summary"] for i in outbox.pending() if i.kind == "match")


def test_carom_match_record_is_rules_match_result_over_the_partie_records(setup):
    """RULES 1.6: the match summary comes from rules.carom.match over the partie records."""
    night, outbox = night_of(setup)
    play_carom_match_to_its_result(night)
    summary = close_match(night, outbox)
    assert summary["finished"] and summary["forfeit"] is None and len(summary["partie"]) == 4
    assert summary["partie"][0]["points"] == {"home": 20, "away": 0}
    assert summary["partie_ids"] == [f"{summary['id']}-p{n}" for n in range(1, 5)]


def test_power_cut_between_match_and_lot_draw_draws_the_lot_on_restart(setup):
    night, _ = night_of(setup)
    start_league_match(night)
    path = setup / "data" / "journal" / "night.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(lines[0], encoding="utf-8")     # cut after the match line's first copy: no lot line
    again, _ = night_of(setup)
    assert again.screen()["screen"] == "lotdraw" and len(again.screen()["pairs"]) == 4
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and lines[1] == lines[2] and '"ev":"lot"' in lines[1]   # journalled now, twice


def test_a_night_past_midnight_keeps_the_date_and_fixture_it_started_with(setup):
    """Issue 10: a match started at 23:40 and finished at 00:50 is the fixture's match of its date."""
    clock = ManualClock(dt.datetime(2026, 11, 29, 23, 40))
    night, outbox = night_of(setup, clock=clock)
    start_league_match(night)
    night.ui("confirm")
    for _ in range(1, 5):
        clock.advance(dt.timedelta(minutes=17))            # the last two partie are played after midnight
        night.ui(1), night.ui("confirm")
        assert night.board.header["date"] == "2026-11-29"
        finish_partie(night)
        close(night)
    assert clock.now().strftime("%d %H:%M") == "30 00:48"
    clock.advance(dt.timedelta(minutes=2))
    sign_off(night)                                       # close the match at 00:50
    settle(night)
    items = outbox.pending()
    match = next(item.content["summary"] for item in items if item.kind == "match")
    assert match["date"] == "2026-11-29" and match["id"].startswith("2026-11-29-sokol-dvur-jiskra-horice")
    headers = [json.loads(item.content["record"].splitlines()[0]) for item in items if item.kind == "partie"]
    assert len(headers) == 4 and {h["date"] for h in headers} == {"2026-11-29"}
    assert {h["match"]["id"] for h in headers} == {match["id"]}


def test_after_midnight_the_evenings_fixture_is_still_offered_with_its_date(setup):
    """Issue 10: a night that began before midnight; setup after 00:00 still offers its fixture."""
    night, _ = night_of(setup, clock=ManualClock(dt.datetime(2026, 11, 30, 0, 20)))
    night.ui("confirm")
    menu = night.screen()
    assert menu["items"] == ["1 Jedna partie", "2 Test kláves", "3 Jiné utkání", "4 29.11. Sokol Dvůr – Jiskra Hořice"]
    assert menu["selected"] == 0                          # not tonight's: nothing preselected but item 1
    night.ui(4), night.ui("confirm")
    assert night.screen()["title"] == "Přítomni: Sokol Dvůr"


@pytest.mark.parametrize("days, offered", [(-7, True), (-3, True), (5, True), (7, True), (8, False), (-8, False)])
def test_fixtures_within_a_week_either_side_are_offered(setup, days, offered):
    """Issue 10: a postponed match (or one brought forward) is offered within a week of its date."""
    night, _ = night_of(setup, clock=ManualClock(TONIGHT + dt.timedelta(days=days)))
    night.ui("confirm")
    items = night.screen()["items"]
    assert items[:3] == ["1 Jedna partie", "2 Test kláves", "3 Jiné utkání"]      # their digits on any night
    assert (items[3:] == ["4 29.11. Sokol Dvůr – Jiskra Hořice"]) is offered
    assert len(items) == 3 + offered


def test_the_setup_menu_items_keep_their_digits_and_a_wrong_digit_says_which(setup):
    night, _ = night_of(setup)
    night.ui("confirm")
    with pytest.raises(IllegalCommand, match="Vyberte 1–4, Enter"):
        night.ui(5)
    night.ui(1), night.ui("confirm"), night.ui("confirm")  # 1 is a single partie, tonight's fixture or not
    assert night.phase == "partie" and "match" not in night.board.header


def test_the_ready_screen_shows_the_clocks_time_and_knows_when_it_changes(setup):
    clock = ManualClock(dt.datetime(2026, 11, 29, 19, 30, 45))
    night, _ = night_of(setup, clock=clock)
    assert night.screen()["time"] == "19:30" and night.seconds_to_next_minute() == 15
    clock.advance(15)
    assert night.screen()["time"] == "19:31" and night.seconds_to_next_minute() == 60


def test_the_match_result_is_made_from_the_closed_partie_kept_in_memory(setup):
    """RULES 1.6: closing the match does not replay the partie files (their summaries are known)."""
    night, outbox = night_of(setup)
    play_carom_match_to_its_result(night)
    for path in (setup / "data" / "journal").glob("*-p?.jsonl"):
        path.unlink()
    summary = close_match(night, outbox)
    assert summary["finished"] and summary["points"] == {"home": 8, "away": 0}
    assert [line["points"] for line in summary["partie"]] == [{"home": 20, "away": 0}] * 4


def test_a_night_journal_of_the_version_before_still_closes_its_match(setup):
    """Closed events written without the partie summaries: the result replays the partie files."""
    from firmware_host.journal import Journal
    from rules.record import strip_meta

    night, outbox = night_of(setup)
    play_carom_match_to_its_result(night)
    expected = close_match(night, outbox)
    archived = next((setup / "data" / "archive").iterdir())
    journal_dir = setup / "data" / "journal"
    for path in archived.iterdir():
        path.rename(journal_dir / path.name)
    old = journal_dir / "night.jsonl"
    events = [strip_meta(line) for line in Journal.open(old).lines if line["ev"] not in ("end", "sign")]
    old.unlink()
    with Journal.open(old) as journal:
        for event in events:
            event.pop("record", None)
            journal.append(event)
    shutil.rmtree(setup / "outbox")                       # the match is sent afresh
    again, outbox_again = night_of(setup)
    assert again.phase == "result" and len(again.match.records) == 0
    assert close_match(again, outbox_again) == expected


def test_a_match_set_up_wrongly_is_abandoned_journalled_and_never_sent(setup):
    """Issue 12: wrong away team or attendance — given up, with a question that starts on "Ne",
    before the first partie is closed; the night journal keeps it, the archive keeps the files."""
    night, outbox = night_of(setup)
    start_league_match(night)
    night.ui("cancel")                                        # on the lot draw: give the match up?
    assert night.screen()["title"] == "Zrušit utkání? Zůstane v archivu" and night.screen()["selected"] == 1
    night.ui("confirm")                                       # a habitual Enter: Ne
    assert night.phase == "lotdraw" and night.match is not None
    night.ui("confirm")                                       # on to partie 1, a few strokes
    night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"})
    night.ui("confirm")                                       # the partie menu offers it too
    assert night.screen()["items"][-1] == "3 Zrušit utkání"
    night.ui(3), night.ui("confirm"), night.ui(1), night.ui("menu")
    assert night.phase == "ready" and night.match is None and outbox.pending() == []
    settle(night)
    [archived] = (setup / "data" / "archive").iterdir()
    events = [json.loads(line)["ev"] for line in (archived / "night.jsonl").read_text().splitlines()]
    assert events[-4:] == ["abandon", "abandon", "final", "final"]   # journalled (each line twice), never deleted
    assert any(name.endswith("-p1.jsonl") for name in os.listdir(archived))


def give_up(night):
    """The giving-up question starts on "Ne"; "Ano" is 1 and the long press (issue 24)."""
    night.ui(1), night.ui("menu")


@pytest.mark.parametrize("game, question", [("carom", "Zrušit partii? Nic se neodešle"),
                                            ("8ball", "Zrušit zápas? Nic se neodešle")], ids=["carom", "8ball"])
def test_a_single_partie_picked_by_mistake_is_given_up_by_back_on_who_starts(setup, game, question):
    """A single partie (8-ball: "Jeden zápas") set up by mistake: Back on "kdo začíná?" gives it up
    as a league match set up wrongly is — journalled, nothing sent (a forfeit would send a false
    record, RULES 1.4.8: a forfeit is a partie a player abandons), and a restart does not bring it
    back."""
    night, outbox = night_of(setup, game=game)
    night.ui("confirm"), night.ui(1), night.ui("confirm")          # 1 Jedna partie
    assert night.phase == "next" and night.match is not None    # "kdo začíná?" ("kdo rozráží?")
    night.ui("cancel")
    assert night.screen()["title"] == question and night.screen()["selected"] == 1
    night.ui("confirm")                                           # a habitual Enter: Ne, the question stays
    assert night.match is not None
    night.ui("cancel")
    give_up(night)
    assert night.phase == "ready" and night.match is None
    assert journal_events(setup)[-2:] == ["match", "abandon"]
    again, outbox_again = night_of(setup, game=game)                # a restart: the giving up is final
    assert again.phase == "ready" and again.match is None
    [archived] = (setup / "data" / "archive").iterdir()
    lines = (archived / "night.jsonl").read_text(encoding="utf-8").splitlines()[0::2]
    assert [json.loads(line)["ev"] for line in lines] == ["match", "abandon", "final"]
    settle(again)
    assert outbox.pending() == [] and outbox_again.pending() == []


def test_an_8ball_match_menu_speaks_of_the_match_and_the_breaker(setup):
    """8-ball's unit is a zápas, and it is begun by a break: its Enter menu before the first shot
    says so, not carom's "Zápis partie" and "jiný začínající"."""
    night, _ = night_of(setup, game="8ball")
    start_single(night)
    night.ui("confirm")
    menu = night.screen()
    assert menu["title"] == "Zápis zápasu" and menu["items"][0] == "1 Začít znovu (jiný rozrážející)"


def test_a_single_partie_started_with_nothing_entered_is_given_up_from_its_menu_and_taken_back(setup):
    """Enter in the partie before its first stroke offers "Zrušit partii" beside "Začít znovu";
    `-` on the ready screen takes the giving up back until it is final ("Partie obnovena")."""
    night, outbox = night_of(setup)
    start_single(night)
    night.ui("confirm")
    assert night.screen()["items"] == ["1 Začít znovu (jiný začínající)", "2 Zrušit partii"]
    night.ui(2), night.ui("confirm")
    give_up(night)
    assert night.phase == "ready" and night.match is None
    assert night.ui("undo") == "Partie obnovena"
    assert night.phase == "partie" and night.board.history == []
    night.ui("confirm"), night.ui(2), night.ui("confirm")
    give_up(night)
    settle(night)
    assert night.phase == "ready" and outbox.pending() == []
    [archived] = (setup / "data" / "archive").iterdir()
    assert any(name.endswith("-p1.jsonl") for name in os.listdir(archived))


def test_a_single_partie_with_a_stroke_entered_is_never_given_up(setup):
    """Nothing accepted is lost: once a stroke is entered, a single partie is not offered to be
    given up (its forfeit, sent, is the way), and the question asked before the stroke does nothing."""
    night, _ = night_of(setup)
    start_single(night)
    night.ui("confirm"), night.ui(2), night.ui("confirm")       # "Zrušit partii?" asked …
    asked = night.slot.overlay
    night.ui("cancel")
    play(night, {"cmd": "score", "value": 2})
    night.ui("confirm")
    assert not any("Zrušit" in item for item in night.screen()["items"])
    night.ui("cancel")
    night.slot.overlay = asked                                  # … and answered after a stroke
    with pytest.raises(Said, match="Už nelze zrušit"):
        give_up(night)
    assert night.phase == "partie" and night.board.summary()["players"]["a"]["points"] == 2
    assert "abandon" not in journal_events(setup)


def league_night_after_the_first_partie(setup):
    """A league match whose first partie is played and closed: the next partie's lag is asked."""
    night, _ = night_of(setup)
    start_league_match(night)
    night.ui("confirm")
    night.ui(1), night.ui("confirm")
    finish_partie(night)
    close(night)
    return night


def test_after_the_first_partie_is_closed_a_match_is_no_longer_abandoned(setup):
    night = league_night_after_the_first_partie(setup)
    night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2})
    night.ui("confirm")
    assert not any("Zrušit utkání" in item for item in night.screen()["items"])


def test_back_on_who_starts_the_next_partie_says_what_it_wants_and_the_menu_stays(setup):
    """Issue 12, "a wrong key says why": once a match can no longer be given up, Back on the next
    partie's lag has nowhere to go; it says which keys choose instead of doing nothing silently."""
    night = league_night_after_the_first_partie(setup)
    settle(night)
    before = night.screen()
    with pytest.raises(Said, match="1–3"):
        night.ui("cancel")
    assert night.screen() == before and night.phase == "menu"
    night.ui(1), night.ui("confirm")
    assert night.board is not None and night.board.header["partie"] == 2


def test_insert_offers_only_the_places_a_forgotten_inning_fits_and_says_why_where_none_does(setup):
    """Issue 12, RULES 1.4 / B.4.1: B has as many innings as A, who opens every round, so no place
    fits B and the counter says why; A's places are offered. After the end (B.9.2, RULES 1.4 item 9)
    Enter only asks to close: the record is final."""
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "miss"}, {"cmd": "miss"})            # one inning each, A at the table
    night.ui("confirm"), night.ui(2), night.ui("confirm")    # Zápis partie: Opravit, Vložit náběh
    night.ui(2)
    with pytest.raises(IllegalCommand, match="Vložit nelze: Hráč 2 by měl víc náběhů než začínající"):
        night.ui("confirm")                                   # B
    night.ui("confirm"), night.ui(2), night.ui("confirm")
    night.ui(1), night.ui("confirm")                          # A
    assert night.screen()["items"] == ["1 před 1. náběh", "2 na konec"]
    night.ui("cancel"), night.ui("cancel"), night.ui("cancel")
    finish_partie(night)
    night.ui("confirm")
    assert night.screen()["items"] == ["1 Ano", "2 Ne"]


def test_a_refused_forgotten_inning_says_which_limit_it_breaks(setup):
    """Issue 12, RULES 1.4.6: B's forgotten inning of 25 would credit more than the 20-point limit."""
    night, _ = night_of(setup)
    start_single(night)
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"})
    night.ui("confirm"), night.ui(2), night.ui("confirm"), night.ui(2), night.ui("confirm")   # insert → B
    night.ui("confirm"), night.ui(2), night.ui(5)                                            # na konec: 25
    with pytest.raises(IllegalCommand, match="^Hráč 2: 25 bodů, limit 20$"):
        night.ui("confirm")
    assert night.board.summary()["players"]["b"]["series"] == []


def journal_events(setup) -> list[str]:
    path = setup / "data" / "journal" / "night.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line)["ev"] for line in lines[0::2]]     # each line is written twice


def test_a_closed_partie_is_taken_back_with_undo_until_the_next_stroke(setup):
    """Issue 12: `-` right after closing reopens the partie (journalled, nothing deleted, nothing
    sent); after the next partie's first stroke the closing is final and its record goes out."""
    night, outbox = night_of(setup)
    start_league_match(night)
    night.ui("confirm"), night.ui(1), night.ui("confirm")
    finish_partie(night)
    first = night.board.header["id"]
    close(night)
    assert night.phase == "next" and outbox.unsent() == 0
    assert night.ui("undo") == "Partie znovu otevřena"
    assert night.phase == "partie" and night.board.header["id"] == first and night.board.finished
    assert journal_events(setup)[-2:] == ["closed", "reopen"] and outbox.unsent() == 0
    night.command({"cmd": "undo"})                         # and its last stroke can be undone again
    assert not night.board.finished
    night.command({"cmd": "redo"})
    close(night)
    night.ui(1), night.ui("confirm")                        # partie 2 started: still nothing entered …
    assert night.ui("undo") == "Partie znovu otevřena"      # … so `-` takes the closing back too
    assert night.board.header["id"] == first
    assert not (setup / "data" / "journal" / f"{night.match.id}-p2.jsonl").exists()
    close(night)
    night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2})               # partie 2's first stroke: partie 1 is final
    assert [item.id for item in outbox.pending()] == [first] and journal_events(setup)[-1] == "final"
    night.command({"cmd": "undo"})                          # `-` now undoes strokes only
    with pytest.raises(IllegalCommand, match="Není co vrátit"):
        night.ui("undo")
    assert night.board.header["id"].endswith("-p2")


def test_a_closed_match_and_a_match_given_up_are_taken_back_on_the_ready_screen(setup):
    """Issue 12: `-` on the ready screen right after closing the match brings the result back; a
    match given up comes back with its partie in play. Nothing was sent or archived meanwhile."""
    night, outbox = night_of(setup)
    play_carom_match_to_its_result(night)
    sign_off(night)                                       # the last captain's answer closes the match
    assert night.phase == "ready"
    assert night.ui("undo") == "Utkání znovu otevřeno"
    assert night.phase == "result" and not (setup / "data" / "archive").exists()
    assert len(night.match.answers) == 2                  # the captains' answers stay with the result
    assert {item.id[-3:] for item in outbox.pending()} == {"-p1", "-p2", "-p3"}   # p4 and the match held
    close(night)                                          # signed: Enter asks "Uzavřít utkání?"
    settle(night)
    summary = next(i.content["summary"] for i in outbox.pending() if i.kind == "match")
    assert summary["points"] == {"home": 8, "away": 0} and outbox.unsent() == 5
    assert len(summary["signatures"]) == 2

    night.ui("confirm"), night.ui(4), night.ui("confirm")     # tonight's fixture, played: asked (issue 24) …
    night.ui(1), night.ui("menu")                             # … and set up again on purpose
    for _ in range(4):
        night.ui("confirm")                                   # everybody present; the captains
    night.ui("confirm"), night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2})
    night.ui("confirm"), night.ui(3), night.ui("confirm"), night.ui(1), night.ui("menu")   # Zrušit utkání: Ano
    assert night.phase == "ready"
    assert night.ui("undo") == "Utkání obnoveno"
    assert night.phase == "partie" and night.board.summary()["players"]["a"]["points"] == 2


def test_a_team_forfeit_is_taken_back_by_giving_that_match_up(setup):
    """Issue 12 (A.3.7): "Tým nepřišel" chosen by mistake: `-` on its result asks to give the
    match up (starting on "Ne"); then it can be set up again, nothing was sent."""
    night, outbox = night_of(setup)
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm")
    night.ui(6), night.ui("confirm"), night.ui(1), night.ui("menu")
    assert night.phase == "result" and night.match.forfeit == "away"
    night.ui("undo")
    assert night.screen()["title"] == "Zrušit utkání? Zůstane v archivu" and night.screen()["selected"] == 1
    night.ui(1), night.ui("menu")
    settle(night)
    assert night.phase == "ready" and night.match is None and outbox.unsent() == 0
    assert journal_events(setup) == []                      # archived: the next match starts a new journal
    [archived] = (setup / "data" / "archive").iterdir()
    assert "abandon" in (archived / "night.jsonl").read_text(encoding="utf-8")


def test_a_restart_makes_a_closing_final_and_sends_it_once(setup):
    """Issue 12: a power cut while a closing could still be taken back: at the start the closing
    is final — the partie record in the outbox once — and `-` no longer reopens it: it says so,
    and does not move the cursor (to "Přerušit utkání", whose next Enter would open the
    interruption: one key, one meaning on this screen)."""
    night, outbox = night_of(setup)
    start_league_match(night)
    night.ui("confirm"), night.ui(1), night.ui("confirm")
    finish_partie(night)
    close(night)
    assert outbox.unsent() == 0
    again, _ = night_of(setup)
    assert [item.kind for item in outbox.pending()] == ["partie"] and again.phase == "next"
    selected = again.screen()["selected"]
    with pytest.raises(Said, match="Není co vrátit"):
        again.ui("undo")
    assert again.screen()["selected"] == selected
    assert len(again.match.closed) == 1 and journal_events(setup)[-1] == "final"
    assert night_of(setup)[1].unsent() == 1


def test_the_take_back_window_runs_out_without_a_key(setup):
    """Issue 12: a single partie closed at the end of the night reaches the outbox after
    TAKE_BACK_SECONDS even if nobody touches the counter again."""
    night, outbox = night_of(setup)
    start_single(night)
    finish_partie(night)
    close(night)
    assert night.window_left() == TAKE_BACK_SECONDS and outbox.unsent() == 0
    night.clock.advance(TAKE_BACK_SECONDS - 1)
    night.tick()
    assert outbox.unsent() == 0
    night.clock.advance(1)
    night.tick()
    assert outbox.unsent() == 1 and night.window_left() is None


def lose_the_match_line(setup) -> None:
    """Damage both copies of the night journal's first line (the match): it is in doubt."""
    path = setup / "data" / "journal" / "night.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert '"ev":"match"' in lines[0] and lines[0] == lines[1]
    lines[0] = lines[1] = lines[0].replace('"ev":"match"', '"ev":"mXtch"')
    path.write_text("".join(lines), encoding="utf-8")


def test_partie_files_are_never_orphaned_when_the_match_line_is_lost(setup):
    """Issue 12: the night journal's match line lost in both copies. The finished partie reaches
    the outbox (once), the unfinished one is offered on the ready screen and can be played on,
    closed and sent."""
    night, outbox = night_of(setup)
    start_league_match(night)
    night.ui("confirm"), night.ui(1), night.ui("confirm")
    finish_partie(night)
    close(night)
    night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2}, {"cmd": "miss"}, {"cmd": "score", "value": 1})
    first, second = f"{night.match.id}-p1", night.board.header["id"]
    assert [item.id for item in outbox.pending()] == [first]
    lose_the_match_line(setup)

    again, outbox = night_of(setup)
    assert again.match is None and again.phase == "orphan"
    screen = again.screen()
    header = json.loads((setup / "data" / "journal" / f"{second}.jsonl").read_text().splitlines()[0])
    assert screen["title"] == f"Nedohraná partie {header['a']} – {header['b']}"
    assert screen["items"] == ["1 Hrát dál", "2 Odložit do archivu"] and screen["selected"] == 0
    assert [item.id for item in outbox.pending()] == [first]             # the finished one, once
    assert not (setup / "data" / "journal" / f"{first}.jsonl").exists()   # … and to the archive
    again.ui("confirm")                                                   # play on
    assert again.phase == "partie" and again.board.header["id"] == second
    assert again.board.summary()["counter"]["series"] == 1                # the strokes are all there
    play(again, {"cmd": "score", "value": 10}, {"cmd": "score", "value": 10})   # B reaches 20: the end
    close(again)
    settle(again)
    assert sorted(item.id for item in outbox.pending()) == sorted([first, second])
    assert again.phase == "ready"


def test_an_orphaned_partie_can_be_set_aside_unsent(setup):
    """Issue 12: setting aside never sends the partie, so it takes the long press as a forfeit does."""
    night, outbox = night_of(setup)
    start_league_match(night)
    night.ui("confirm"), night.ui(1), night.ui("confirm")
    play(night, {"cmd": "score", "value": 2})
    partie = night.board.header["id"]
    lose_the_match_line(setup)
    again, _ = night_of(setup)
    again.ui(2)
    with pytest.raises(Said, match="podržet Enter"):    # the +2 key and a habitual Enter: not taken
        again.ui("confirm")
    assert len(again.orphans) == 1                      # still offered
    again.ui("menu")                                    # the long press sets it aside
    assert again.phase == "ready" and outbox.unsent() == 0
    assert any((folder / f"{partie}.jsonl").exists() for folder in (setup / "data" / "archive").iterdir())
    assert night_of(setup)[0].phase == "ready"                            # not offered again


def test_taking_back_the_last_partie_takes_the_captains_answers_back(setup):
    """Issue 12 with A.6.9d: the captains answered a result; the last partie's closing taken back
    (after `-` reopens the match) changes that result, so they answer again."""
    night, outbox = night_of(setup)
    play_carom_match_to_its_result(night)
    sign_off(night)
    night.ui("undo")                                      # the match back on its result, signed
    assert night.ui("undo") == "Partie znovu otevřena"    # and the 4th partie's closing too
    assert night.phase == "partie" and night.match.answers == ()
    close(night)
    assert night.phase == "result" and night.match.awaiting == "home"
    sign_off(night)
    settle(night)
    assert outbox.unsent() == 5


@pytest.mark.parametrize("game", ["carom", "8ball"])
def test_a_forfeited_partie_is_marked_on_the_zapis(setup, game):
    """RULES 1.4.8 (8B: a forfeited individual match): the counter's zápis says who forfeited, so
    the score of a forfeited partie is not read as a result played to its end."""
    night, _ = night_of(setup, game=game)
    start_league_match(night)
    if game == "carom":
        night.ui("confirm")                                 # the lot draw
        night.ui("confirm")                                 # the lag: the home player starts
    else:
        night.ui("confirm"), night.ui("confirm")            # the pairing: home player, away player
    header = night.board.header
    away_side = "b" if header["home"] == "a" else "a"
    play(night, {"cmd": "forfeit", "by": away_side})
    close(night)
    line = night.match.closed[0]
    assert line["forfeit"] == "away"
    if game == "carom":
        for _ in range(3):
            night.ui("confirm"), finish_partie(night), close(night)
    else:
        night.ui("confirm"), night.ui("confirm")
        play(night, {"cmd": "forfeit", "by": "a"}), close(night)
    lines = night.screen()["partie"]
    assert lines[0].startswith(f"1. {line['home']} ") and f", vzdal {line['away']} (" in lines[0]
    assert not any("vzdal" in later for later in lines[1:] if game == "carom")
