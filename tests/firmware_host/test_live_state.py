"""[live] settings and what the live page is told of each screen model (issue 15, part 1)."""
import pytest

from config.options import ConfigError, Section
from firmware_host.live.settings import LiveSettings, read
from firmware_host.live.state import live_view, match_context
from live_helpers import MATCH, START_PARTIE


def test_live_is_off_by_default_and_listens_on_the_lan_when_on():
    assert read(Section({}, "live", "c.toml")) == LiveSettings(False, "0.0.0.0", 8080, 32)
    on = read(Section({"enabled": True, "bind": "127.0.0.1", "port": 8099}, "live", "c.toml"))
    assert on == LiveSettings(True, "127.0.0.1", 8099, 32)


@pytest.mark.parametrize("table, message", [
    ({"bind": "the bar"}, "[live] bind: not an IP address: 'the bar'"),
    ({"port": 70000}, "[live] port: must be at most 65535, got 70000"),
    ({"enabled": "yes"}, "[live] enabled:"),
    ({"prot": 80}, "[live] prot: unknown option"),
])
def test_a_bad_live_section_names_the_option(table, message):
    with pytest.raises(ConfigError) as caught:
        read(Section(table, "live", "c.toml"))
    assert message in str(caught.value)


def test_the_referees_screens_are_not_for_spectators():
    for screen in ("menu", "prompt", "keytest", "error", "nonsense"):
        assert live_view({"screen": screen, "title": "x"}) is None
    assert live_view("not a model") is None


def test_info_messages_ride_along_refusals_do_not():
    summary = {"game": "8ball"}
    said = live_view({"screen": "8ball", "summary": summary, "message": {"text": "Set: A", "level": "info", "n": 3}})
    assert said == {"view": "8ball", "summary": summary, "match": None, "message": {"text": "Set: A", "n": 3}}
    refused = live_view({"screen": "8ball", "summary": summary, "message": {"text": "Nelze", "level": "warn", "n": 4}})
    assert "message" not in refused


def test_a_single_partie_has_no_match_around_it(emulator):
    player = emulator()
    model = player.play(START_PARTIE + "1")[-1]
    view = live_view(model, match_context(player.service.night))
    assert view["view"] == "carom" and view["match"] is None
    assert view["summary"]["players"]["a"]["points"] == 1


def test_a_match_night_tells_the_teams_their_points_and_the_partie_number(emulator):
    player = emulator(points_limit=2, innings_limit=2)
    models = player.play(MATCH)
    assert live_view(models[-3], match_context(player.service.night))["view"] == "lotdraw"
    player.play("2")                                   # partie 1: A (home) reaches the limit ...
    player.play("0")                                   # ... B's equalising inning: a miss, A wins
    context = match_context(player.service.night)
    assert context["home"] == "Sokol Dvůr" and context["away"] == "Jiskra Hořice"
    assert context["partie"] == 1 and context["partie_count"] == 4 and context["home_side"] == "a"
    player.play("\n1h\n\n")                            # next partie: close it (Ano: 1, held Enter), B starts
    context = match_context(player.service.night)
    assert context["partie"] == 2 and context["points"] == {"home": 2, "away": 0}


def test_an_eightball_view_carries_the_summary(emulator):
    player = emulator(game="8ball")
    model = player.play(START_PARTIE)[-1]
    view = live_view(model, match_context(player.service.night))
    assert view["view"] == "8ball" and view["summary"]["names"] == {"a": "Hráč 1", "b": "Hráč 2"}


def test_every_word_of_the_page_is_there_in_czech_and_english():
    from firmware_host.live.pages import texts

    words = texts()
    assert set(words) == {"cs", "en"} and set(words["cs"]) == set(words["en"])
    assert words["cs"]["inning"] == "náběh" and all(words["cs"].values()) and all(words["en"].values())


def test_the_service_tells_its_observers_each_new_model_after_the_counter_drew_it(emulator):
    player = emulator()
    service, told = player.service, []
    service.observers.append(lambda model: told.append((model, service.display.model is model)))
    player.play(START_PARTIE + "1")
    assert told and all(drawn for _, drawn in told)
    assert [m for m, _ in told][-1]["summary"]["players"]["a"]["points"] == 1
    count = len(told)
    service.show()                                     # nothing changed: nobody is told
    assert len(told) == count


def test_the_live_part_listens_only_from_the_first_frame(tmp_path):
    from dataclasses import replace

    from cli.commands.run import assemble
    from firmware_host.live.server import attach
    from firmware_host.settings import load
    from live_helpers import state

    path = tmp_path / "config.toml"
    path.write_text('[device]\nvenue = "U Lva"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
                    '[keypad]\ndevices = []\n[sync]\noutbox = "outbox"\n'
                    '[live]\nenabled = true\nbind = "127.0.0.1"\n', encoding="utf-8")
    config = load(path)
    config = replace(config, parts=dict(config.parts, live=replace(config.parts["live"], port=0)))
    service, _, _ = assemble(config)
    live = attach(config, service)
    assert live.address is None and not live.listening(0)
    service.display.start(0.0)
    service.show()                                     # the first frame
    try:
        assert live.listening(10), live.error
        assert state(live.address)["view"] == "ready" and state(live.address)["venue"] == "U Lva"
    finally:
        live.stop()
