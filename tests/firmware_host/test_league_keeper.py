"""The device's league from the receiver (firmware_host/league_keeper.py, issue 16): fetched and
verified, cached durably so a night without network still has it, league.toml the fallback; the
setup menu offers the fixture that is really tonight's, with the receiver's rosters."""
import json
import logging
import os

import pytest

from delivery.outbox import Outbox
from firmware_host.league import EMPTY, load_league
from firmware_host.league_keeper import CACHE, LeagueKeeper
from firmware_host.match_night import Night
from firmware_host.settings import load
from league_fetch_helpers import LVA, ROSTERS, fetcher_for, league_document, league_receiver
from sync_helpers import DEVICE, SECRET

# the receiver's rosters differ from league.toml's: the menus show whose they are
FETCHED = {"Sokol Dvůr": ("Král", "Kníže", "Vévoda", "Hrabě"), "Jiskra Hořice": ("Kučera", "Veselý", "Horák", "Němec"),
           "Slavoj Bílá Třemešná": ("Marek", "Pospíšil", "Hájek", "Jelínek")}
# a week ago, tonight and next week at U Lva (days from tonight, home, away)
WEEKS = ((-7, "Slavoj Bílá Třemešná", "Sokol Dvůr"), (0, "Sokol Dvůr", "Jiskra Hořice"),
         (7, "Jiskra Hořice", "Sokol Dvůr"))


@pytest.fixture
def device(tmp_path, league_file, clock):
    """A counter at U Lva: config.toml with league.toml (tonight: Sokol – Slavoj, bundled rosters)."""
    league_file(((0, "Sokol Dvůr", "Slavoj Bílá Třemešná"),),
                teams=[(name, LVA, players) for name, players in ROSTERS.items()])
    (tmp_path / "config.toml").write_text(
        f'[device]\nvenue = "{LVA}"\nleague = "league.toml"\ndata_dir = "data"\n[journal]\nfsync = false\n',
        encoding="utf-8")
    return load(tmp_path / "config.toml")


@pytest.fixture
def receiver(tmp_path, evening):
    document = league_document(evening.today(), WEEKS, rosters=FETCHED)
    with league_receiver(tmp_path / "league.sqlite", evening, {LVA: document}) as running:
        yield running


def keeper_of(config, port, clock, monotonic=None, game=None, **kw):
    return LeagueKeeper(load_league(config.device.league), cache_path=os.path.join(config.device.data_dir, CACHE),
                        venue=config.device.venue, device=DEVICE, secret=SECRET,
                        fetcher=fetcher_for(port, clock, game=game, **kw), monotonic=monotonic or clock.monotonic,
                        game=game)


def setup_menu(config, keeper, clock):
    night = Night(config, EMPTY, outbox=Outbox(os.path.join(config.device.data_dir, "outbox")),
                  clock=clock, keeper=keeper)
    night.ui("confirm")               # ready -> the setup menu
    return night, night.screen()


def chosen(menu) -> str:
    """The selected item without its digit."""
    return menu["items"][menu["selected"]].split(" ", 1)[1]


def test_the_fetched_league_is_offered_with_tonights_fixture_selected(clock, device, receiver, evening):
    server, _, _ = receiver
    keeper = keeper_of(device, server.port, evening)
    assert keeper.refresh() and keeper.source == "receiver"
    _, menu = setup_menu(device, keeper, clock)
    assert menu["items"][3:] == ["4 Sokol Dvůr – Jiskra Hořice", "5 25.2. Slavoj Bílá Třemešná – Sokol Dvůr",
                                 "6 11.3. Jiskra Hořice – Sokol Dvůr"]
    assert chosen(menu) == "Sokol Dvůr – Jiskra Hořice"


def test_the_attendance_screen_shows_the_receivers_roster(clock, device, receiver, evening):
    server, _, _ = receiver
    keeper = keeper_of(device, server.port, evening)
    keeper.refresh()
    night, _ = setup_menu(device, keeper, clock)
    night.ui("confirm")               # tonight's fixture: the home team's players
    assert [i for i in night.screen()["items"] if any(p in i for p in FETCHED["Sokol Dvůr"])]
    assert not [i for i in night.screen()["items"] if "Novák" in i]


def test_a_week_later_the_fixture_of_that_night_is_selected(clock, device, receiver, evening):
    """Tonight is the device's clock (an injected ManualClock), never the test machine's date."""
    server, _, _ = receiver
    keeper = keeper_of(device, server.port, evening)
    keeper.refresh()
    clock.advance(7 * 86400)
    _, menu = setup_menu(device, keeper, clock)
    assert chosen(menu) == "Jiskra Hořice – Sokol Dvůr"


def test_without_a_fetch_league_toml_is_used(clock, device, evening):
    keeper = keeper_of(device, 9, evening)          # nothing listens on port 9
    assert not keeper.refresh() and keeper.source == "league.toml"
    _, menu = setup_menu(device, keeper, clock)
    assert chosen(menu) == "Sokol Dvůr – Slavoj Bílá Třemešná"


def test_the_cache_survives_a_restart_without_network(clock, device, receiver, evening, caplog):
    server, _, _ = receiver
    assert keeper_of(device, server.port, evening).refresh()
    port = server.port
    server.shutdown()
    server.server_close()                           # the venue's network is down tonight
    keeper = keeper_of(device, port, evening)
    assert keeper.source == "cache"
    with caplog.at_level(logging.WARNING, logger="pocitadlo.league"):
        assert not keeper.refresh() and not keeper.refresh()
    assert keeper.source == "cache"
    assert len([r for r in caplog.records if "league not fetched" in r.message]) == 1    # said once
    assert "Traceback" not in caplog.text
    _, menu = setup_menu(device, keeper, clock)
    assert chosen(menu) == "Sokol Dvůr – Jiskra Hořice"


def test_an_altered_cache_is_not_used(device, receiver, evening, caplog):
    server, _, _ = receiver
    keeper_of(device, server.port, evening).refresh()
    path = os.path.join(device.device.data_dir, CACHE)
    cached = json.loads(open(path, encoding="utf-8").read())
    cached["body"] = cached["body"].replace("Král", "Kral")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(cached, fh)
    with caplog.at_level(logging.WARNING, logger="pocitadlo.league"):
        keeper = keeper_of(device, 9, evening)
    assert keeper.source == "league.toml" and "bad signature" in caplog.text


def test_a_league_for_another_venue_changes_nothing(device, receiver, evening, caplog, tmp_path):
    from dataclasses import replace

    server, _, _ = receiver
    elsewhere = replace(device, device=replace(device.device, venue="Na Růžku"))
    keeper = keeper_of(elsewhere, server.port, evening)
    with caplog.at_level(logging.WARNING, logger="pocitadlo.league"):
        assert not keeper.refresh()
    assert keeper.source == "league.toml" and not os.path.exists(os.path.join(device.device.data_dir, CACHE))
    assert f"the receiver sent the league of '{LVA}', this device is at 'Na Růžku'" in caplog.text


def test_a_tampered_answer_changes_nothing(device, receiver, evening, caplog):
    server, _, _ = receiver
    keeper = keeper_of(device, server.port, evening, secret=b"not-the-device-secret-0123")
    with caplog.at_level(logging.WARNING, logger="pocitadlo.league"):
        assert not keeper.refresh()
    assert keeper.source == "league.toml" and "bad signature" in caplog.text
    assert not os.path.exists(os.path.join(device.device.data_dir, CACHE))


def test_the_cache_is_written_durably(device, receiver, evening, monkeypatch):
    import delivery.fsync as fsync

    synced = []
    monkeypatch.setattr(fsync, "sync_directory", lambda path: synced.append(str(path)))
    monkeypatch.setattr(fsync.os, "fsync", lambda fd: synced.append("file"))
    server, _, _ = receiver
    keeper_of(device, server.port, evening).refresh()
    assert synced == ["file", device.device.data_dir]
    assert os.listdir(device.device.data_dir) == [CACHE]      # no temp file left behind


def test_a_setup_menu_after_a_long_quiet_asks_the_receiver_again(clock, device, receiver, evening):
    server, source, _ = receiver
    keeper = keeper_of(device, server.port, evening, monotonic=clock.monotonic)
    keeper.refresh()
    keeper.for_setup()
    assert not keeper._wake.is_set()
    clock.advance(3600)
    keeper.for_setup()
    assert keeper._wake.is_set()


ASSEMBLED = (f'[device]\nvenue = "{LVA}"\nleague = "league.toml"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
             '[keypad]\ndevices = []\n[journal]\nfsync = false\n[sync]\noutbox = "outbox"\n{sync}')


def test_the_service_fetches_with_its_sync_identity_and_uses_the_league_from_the_next_setup(
        device, receiver, evening, tmp_path):
    from cli.commands.run import assemble

    server, _, _ = receiver
    (tmp_path / "config.toml").write_text(ASSEMBLED.format(sync=(
        f'transport = "http"\nurl = "http://127.0.0.1:{server.port}/api/v1/records"\nallow_plain_http = true\n'
        f'device_id = "{DEVICE}"\nsecret = "{SECRET.decode()}"\n')), encoding="utf-8")
    service, _, _ = assemble(load(tmp_path / "config.toml"), clock=evening)
    keeper = service.night.keeper
    assert keeper.source == "league.toml" and keeper.refresh()
    service.night.ui("confirm")
    assert chosen(service.night.screen()) == "Sokol Dvůr – Jiskra Hořice"      # the receiver's, not the file's
    for _ in range(5):                # tonight's fixture, everybody present on both rosters, the captains
        service.night.ui("confirm")
    match = service.night.match
    assert match.present == {"home": list(FETCHED["Sokol Dvůr"]), "away": list(FETCHED["Jiskra Hořice"])}
    assert match.fixture == f"{evening.today().isoformat()}-1"                # the fetched fixture's id
    assert match.id.startswith(f"{match.fixture}-")


def test_without_sync_there_is_no_fetch(device, tmp_path, evening):
    from cli.commands.run import assemble

    (tmp_path / "config.toml").write_text(ASSEMBLED.format(sync=""), encoding="utf-8")
    service, _, _ = assemble(load(tmp_path / "config.toml"), clock=evening)
    assert service.night.keeper is None
    service.night.ui("confirm")
    assert chosen(service.night.screen()) == "Sokol Dvůr – Slavoj Bílá Třemešná"


def test_a_slow_receiver_never_holds_up_the_menus(clock, device, evening):
    """The fetch runs in the keeper's thread; the menus read the league in force meanwhile."""
    import threading

    from delivery.league_fetch import FetchFailed

    class Stalled:
        def __init__(self):
            self.entered, self.release = threading.Event(), threading.Event()

        def fetch(self):
            self.entered.set()
            self.release.wait(30)
            raise FetchFailed("no answer: timed out")

    stalled = Stalled()
    keeper = LeagueKeeper(load_league(device.device.league), cache_path=os.path.join(device.device.data_dir, CACHE),
                          venue=LVA, device=DEVICE, secret=SECRET, fetcher=stalled)
    keeper.start()
    try:
        assert stalled.entered.wait(30)
        _, menu = setup_menu(device, keeper, clock)   # while the fetch hangs
        assert chosen(menu) == "Sokol Dvůr – Slavoj Bílá Třemešná"
    finally:
        stalled.release.set()
        keeper.stop()


def test_fixtures_carry_their_start_time_from_the_receiver_and_from_league_toml(device, receiver, evening, tmp_path):
    import datetime as dt

    from config.options import ConfigError

    server, _, _ = receiver
    keeper = keeper_of(device, server.port, evening)
    keeper.refresh()
    assert {f.start for f in keeper.current().fixtures} == {dt.time(17, 0)}
    text = (tmp_path / "league.toml").read_text(encoding="utf-8")
    (tmp_path / "league.toml").write_text(text.replace("away = ", "start = 18:30:00\naway = "), encoding="utf-8")
    assert [f.start for f in load_league(tmp_path / "league.toml").fixtures] == [dt.time(18, 30)]
    (tmp_path / "league.toml").write_text(text.replace("away = ", 'start = "6 pm"\naway = '), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[fixtures.1\] start: expected a TOML time like 17:00:00"):
        load_league(tmp_path / "league.toml")


def test_an_8ball_device_asks_for_the_8ball_league_and_refuses_the_carom_one(clock, device, receiver, evening):
    """A venue may host a carom and an 8-ball league (two tables): the 8-ball device asks for its
    game's league and keeps league.toml when the receiver answers with the carom one (its
    fixtures and rosters are not the 8-ball night's; the 8-ball season end-to-end test)."""
    server, source, _ = receiver
    keeper = keeper_of(device, server.port, evening, game="8ball")
    assert not keeper.refresh() and keeper.source == "league.toml"
    assert source.asked == [(LVA, evening.today(), "8ball")]
    assert not os.path.exists(os.path.join(device.device.data_dir, CACHE))
    carom = keeper_of(device, server.port, evening, game="carom")
    assert carom.refresh() and carom.source == "receiver"
    assert keeper_of(device, server.port, evening, game="8ball").source == "league.toml"   # nor from the cache
