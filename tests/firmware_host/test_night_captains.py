"""The captains answer the zápis on the counter (firmware_host/match_night.py): A.6.9d (sign),
A.6.3 / A.6.5 (object), the referee's escape (unsigned); durable before shown, also mid-signing."""
import datetime as dt

import pytest
from night_helpers import TONIGHT, sign_off, write_night

from clock import ManualClock
from delivery.outbox import Outbox
from firmware_host.league import load_league
from firmware_host.match_night import Night
from firmware_host.settings import load
from rules.errors import IllegalCommand

AT = ManualClock(TONIGHT).now().isoformat(timespec="seconds")


@pytest.fixture
def path(tmp_path):
    write_night(tmp_path, points_limit=20)
    return tmp_path


def night_of(path):
    config = load(path / "config.toml")
    outbox = Outbox(path / "outbox")
    return Night(config, load_league(config.device.league), outbox=outbox, clock=ManualClock(TONIGHT),
                 urandom=lambda n: b"\x07" * n), outbox


def to_result(night) -> None:
    """Tonight's fixture, everybody present, 4 partie in which a makes 20 at once (RULES 1.4.1)."""
    night.ui("confirm"), night.ui("confirm"), night.ui("confirm"), night.ui("confirm")   # fixture, present
    night.ui(2), night.ui("confirm"), night.ui(2), night.ui("confirm")                   # A.6.1: A2, B2 captains
    night.ui("confirm")                                                                  # the lot draw seen
    for _ in range(4):
        night.ui("confirm")                                                              # a won the lag
        for cmd in ({"cmd": "score", "value": 10}, {"cmd": "score", "value": 10}, {"cmd": "miss"}):
            night.command(cmd)
        night.ui("confirm"), night.ui(1), night.ui("menu")                               # close it: Ano, held
    assert night.phase == "result"


def match_item(outbox) -> dict | None:
    return next((i.content["summary"] for i in outbox.pending() if i.kind == "match"), None)


def sent_match(night, outbox) -> dict | None:
    """The match item once the match's closing is final (issue 12: nobody took it back)."""
    night.finalize()
    return match_item(outbox)


def test_a_6_1_and_a_6_9d_the_captains_chosen_after_attendance_sign_by_the_long_press(path):
    """A.6.1: each team's captain is chosen after attendance, from its players present; A.6.9d:
    the zápis is shown, then each captain — named, home first — is asked for their signature, and
    signing takes the long press: five habitual Enter presses sign nothing (issue 24 item 2)."""
    night, outbox = night_of(path)
    to_result(night)
    assert night.match.captains == {"home": "A2", "away": "B2"}
    zapis = night.screen()
    assert zapis["screen"] == "match" and len(zapis["partie"]) == 4
    assert zapis["partie"][0].startswith("1. ") and zapis["partie"][0].endswith("(2:0)")
    night.ui("confirm")
    home = night.screen()
    assert home["title"] == "Podpis kapitána Sokol: A2?"
    assert home["items"] == ["1 Podepisuji", "2 Námitka", "3 Nepodepsáno"] and home["selected"] == 0
    for _ in range(5):
        with pytest.raises(IllegalCommand, match="^Podepisuji = podržet Enter$"):
            night.ui("confirm")
    assert night.match.answers == () and match_item(outbox) is None
    night.ui("menu")                                             # the long press signs
    assert night.match.answers[0] == {"ev": "sign", "side": "home", "captain": "A2", "at": AT}
    assert night.screen()["title"] == "Podpis kapitána Jiskra: B2?" and match_item(outbox) is None
    night.ui("cancel")                                           # back to the zápis: it shows who signed
    assert night.screen()["partie"][-1] == "Sokol: podepsal A2"
    night.ui("confirm"), night.ui("menu")
    summary = sent_match(night, outbox)
    assert summary["signatures"] == [{"side": "home", "captain": "A2", "at": AT},
                                     {"side": "away", "captain": "B2", "at": AT}]
    assert summary["captains"] == {"home": "A2", "away": "B2"}
    assert summary["objections"] == [] and summary["unsigned"] == []
    assert night.phase == "ready"


def test_a_6_3_the_away_captain_objects_to_the_referee_in_partie_3(path):
    night, outbox = night_of(path)
    to_result(night)
    night.ui("confirm"), night.ui("menu")                                   # A2 signs
    night.ui(2), night.ui("confirm")                                        # B2: Námitka
    kinds = night.screen()
    assert kinds["title"] == "Námitka proti" and kinds["items"] == [
        "1 rozhodnutí rozhodčího", "2 zápisu", "3 přerušení utkání"]
    night.ui("confirm")
    partie = night.screen()
    assert partie["title"] == "Které partie se týká?" and partie["items"][-1] == "5 celé utkání"
    pair = night.match.pairs[2]                           # the lot paired them in partie 3
    assert partie["items"][2] == f"3 {pair['home']} – {pair['away']}"
    night.ui(3), night.ui("confirm")
    summary = sent_match(night, outbox)
    assert summary["objections"] == [{"side": "away", "captain": "B2", "kind": "referee", "partie": 3, "at": AT}]
    assert [s["captain"] for s in summary["signatures"]] == ["A2"]


def test_a_6_5_an_interrupted_match_objection_for_the_whole_match(path):
    night, outbox = night_of(path)
    to_result(night)
    night.ui("confirm"), night.ui(2), night.ui("confirm")                            # A2: Námitka
    night.ui(3), night.ui("confirm"), night.ui(5), night.ui("confirm")              # interrupted, whole match
    assert night.screen()["title"] == "Podpis kapitána Jiskra: B2?"
    night.ui("cancel")
    assert night.screen()["partie"][-1] == "Sokol: A2 – námitka proti přerušení utkání, celé utkání"


def test_the_referee_escape_starts_on_ne_and_sends_the_match_unsigned(path):
    """A match must never be stuck unsent: "Nepodepsáno", confirmed explicitly (Ne is preselected)."""
    night, outbox = night_of(path)
    to_result(night)
    night.ui("confirm"), night.ui(3), night.ui("confirm")
    question = night.screen()
    assert question["title"] == "Sokol: odeslat nepodepsané?" and question["selected"] == 1
    night.ui("confirm")                                               # a habitual Enter: "Ne", back
    assert night.screen()["title"] == "Podpis kapitána Sokol: A2?" and night.match.answers == ()
    night.ui(3), night.ui("confirm"), night.ui(1), night.ui("menu")      # Ano by the long press (issue 12)
    night.ui(3), night.ui("confirm"), night.ui(1), night.ui("menu")
    assert sent_match(night, outbox)["unsigned"] == ["home", "away"]


def test_a_6_9d_restart_in_the_middle_of_signing_keeps_the_answer_given(path):
    """The home captain's signature is journalled before the away captain is asked: after a power
    cut the zápis shows it and Enter asks the away captain; nothing was sent meanwhile."""
    night, outbox = night_of(path)
    to_result(night)
    night.ui("confirm"), night.ui("menu")                                            # A2 signs
    del night                                                                        # the power goes
    again, outbox = night_of(path)
    assert again.phase == "result" and match_item(outbox) is None
    assert again.screen()["partie"][-1] == "Sokol: podepsal A2"
    again.ui("confirm")
    assert again.screen()["title"] == "Podpis kapitána Jiskra: B2?"
    again.ui("menu")
    summary = sent_match(again, outbox)
    assert [(s["side"], s["captain"]) for s in summary["signatures"]] == [("home", "A2"), ("away", "B2")]


def test_the_signature_time_is_kept_across_a_restart(path):
    """Issue 22: the captains' signature time is in the match item — also when the item is made
    after a restart from the night journal, whose lines keep their time."""
    night, outbox = night_of(path)
    to_result(night)
    night.ui("confirm"), night.ui("menu")                                            # A2 signs at 19:30
    night.clock.advance(120)
    night.ui("menu")                                                                 # B2 at 19:32
    del night                                                                        # before it is final
    again, outbox = night_of(path)
    times = [s["at"] for s in sent_match(again, outbox)["signatures"]]
    assert times == [AT, ManualClock(TONIGHT + dt.timedelta(seconds=120)).now().isoformat(timespec="seconds")]


def test_restart_after_the_last_answer_sends_the_match_it_was_about_to_send(path, monkeypatch):
    night, outbox = night_of(path)
    to_result(night)
    monkeypatch.setattr(Night, "_close_match", lambda self: None)       # the power goes right after the answer
    sign_off(night)
    assert night.match.signed_off and match_item(outbox) is None
    monkeypatch.undo()
    again, outbox = night_of(path)
    assert again.phase == "ready" and len(match_item(outbox)["signatures"]) == 2


def test_a_wrong_digit_in_a_captains_menu_says_what_to_press(path):
    night, _ = night_of(path)
    to_result(night)
    night.ui("confirm")
    with pytest.raises(IllegalCommand, match="1–3"):
        night.ui(7)
    assert night.match.answers == ()


def test_the_captains_menu_in_english(path):
    text = (path / "config.toml").read_text(encoding="utf-8").replace("[device]\n", '[device]\nlanguage = "en"\n')
    (path / "config.toml").write_text(text, encoding="utf-8")
    night, _ = night_of(path)
    to_result(night)
    night.ui("confirm")
    assert night.screen()["title"] == "Signature of Sokol's captain: A2?"
    assert night.screen()["items"] == ["1 I sign", "2 Objection", "3 Not signed"]


SIZES = [dict(width=32, height=8), dict(width=64, height=16), dict(width=128, height=32),
         dict(emulate="sevensegment", digits=8)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(str(v) for v in s.values()))
def test_the_zapis_and_every_signing_screen_draw_on_each_counter_size(path, size, monkeypatch):
    """The zápis with its answers and the captains' menus are plain screen models (docs/screens.md):
    every counter size draws each of them, page after page, without a drawing fault."""
    import display.counter
    from display.counter import Counter
    from display.devices import open_device
    from display.settings import DisplaySettings

    monkeypatch.setattr(display.counter, "_MODEL_FAULTS", ())       # a drawing bug must fail here
    settings = DisplaySettings(driver="dummy", **size)
    counter = Counter(open_device(settings), settings)
    night, _ = night_of(path)
    to_result(night)
    screens = [night.screen()]
    for step in ("confirm", "menu", 2, "confirm", 3, "confirm"):
        night.ui(step)
        screens.append(night.screen())
    night.ui("cancel"), night.ui("cancel"), night.ui("cancel")
    screens.append(night.screen())
    assert screens[-1]["screen"] == "match" and screens[-1]["partie"][-1] == "Sokol: podepsal A2"
    for now, model in enumerate(screens):
        for page in range(4):
            counter.show(model, now * 10.0 + page * 3)
