"""Acceptance: the captains answer the zápis from the referee's keypad, as `pocitadlo emulate --keys`
plays it (terminal key letters; newline = Enter, h before a key = a long press): the captains are
chosen after attendance (A.6.1); one script signs (A.6.9d, by the long press), one objects (A.6.3,
A.6.5) — and the league's receiver shows what they answered on its zápis page."""
import pytest

from server.ingest.receiver import Receiver
from server.site import pages
from server.tables import exports
from sync_helpers import league_store
from wire.signing import Signer

SETUP = "\n" * 4 + "2\n" "3\n" "\n"     # ready → fixture → home, away present → captains: Dvořák (the 2nd
                                      # present) and Horák (the 3rd), A.6.1 → lot draw seen
PARTIE = "\n" "00" "\n1h\n"           # lag: home starts; both miss their one inning (a draw, 1.4.5); close
                                      # (Ano: 1 and the long press, issue 12)
SECRET = b"captains-secret-0123456789"


@pytest.fixture
def night(emulator):
    """A carom league match played to its result: four drawn partie of one inning each."""
    player = emulator(points_limit=30, innings_limit=1)
    shown = player.play(SETUP + PARTIE * 4)
    assert shown[-1]["screen"] == "match" and shown[-1]["points"] == {"home": 4, "away": 4}
    return player


def match_item(player) -> dict | None:
    return next((i.content for i in player.syncer.outbox.pending() if i.kind == "match"), None)


def final_match_item(player) -> dict | None:
    """The match item once nobody took the closing back within the window (issue 12)."""
    from firmware_host.match_night import TAKE_BACK_SECONDS

    player.clock.advance(TAKE_BACK_SECONDS)
    player.service.tick()
    return match_item(player)


def test_a_6_9d_both_captains_sign_from_the_keypad(night):
    assert night.service.night.match.captains == {"home": "Dvořák", "away": "Horák"}
    home = night.key("enter")
    assert home["title"] == "Podpis kapitána Sokol Dvůr: Dvořák?" and home["items"][0] == "1 Podepisuji"
    assert night.play("\n")[-1]["message"]["text"] == "Podepisuji = podržet Enter"     # Enter never signs
    away = night.play("h\n")[-1]
    assert away["title"] == "Podpis kapitána Jiskra Hořice: Horák?" and match_item(night) is None
    assert night.play("h\n")[-1]["screen"] == "ready"
    summary = final_match_item(night)["summary"]
    assert [(s["side"], s["captain"]) for s in summary["signatures"]] == [("home", "Dvořák"), ("away", "Horák")]
    assert summary["captains"] == {"home": "Dvořák", "away": "Horák"}
    assert summary["objections"] == [] and summary["unsigned"] == []


def test_a_6_3_and_a_6_5_a_captain_objects_and_the_league_page_shows_it(night, tmp_path):
    night.play("\n" "2\n")                                         # Dvořák: "Námitka"
    assert night.service.screen()["title"] == "Námitka proti"
    assert night.play("3\n")[-1]["title"] == "Které partie se týká?"    # A.6.5: the match interrupted …
    assert night.play("5\n")[-1]["title"] == "Podpis kapitána Jiskra Hořice: Horák?"   # … as a whole
    night.play("2\n" "1\n" "4\n")                                   # Horák: the referee's decision, partie 4
    assert night.service.screen()["screen"] == "ready"
    summary = final_match_item(night)["summary"]
    items = night.syncer.outbox.pending()
    assert summary["objections"] == [
        {"side": "home", "captain": "Dvořák", "kind": "interrupted", "partie": None, "at": summary["objections"][0]["at"]},
        {"side": "away", "captain": "Horák", "kind": "referee", "partie": 4, "at": summary["objections"][1]["at"]}]

    with league_store(tmp_path / "league.sqlite", SECRET, device="emulator", venue="Hospoda U Lva") as store:
        receiver, signer = Receiver(store), Signer("emulator", SECRET)
        for item in sorted(items, key=lambda i: i.kind != "partie"):      # the partie first, then the match
            status, answer = receiver.handle(signer.sign(item.body), via="test")
            assert status == 200, answer
        record = exports.match_record(store, summary["id"])
        assert record["interrupted"] is True and [o["captain"] for o in record["objections"]] == ["Dvořák", "Horák"]
        html = pages.match(record)
        assert "přerušeno (A.6.5)" in html and "námitka: rozhodnutí rozhodčího (A.6.3)" in html
        assert "partie 4" in html and "Horák" in html


def test_a_6_9d_quit_in_the_middle_of_signing_and_start_again(night, emulator):
    """The home captain's signature is durable before the away captain's menu shows; the emulator
    started again on the same data shows it in the zápis and asks the away captain on Enter."""
    night.play("\n" "h\n")                                         # Dvořák signs
    again = emulator(points_limit=30, innings_limit=1)              # the same --data
    zapis = again.service.screen()
    assert zapis["screen"] == "match" and zapis["partie"][-1] == "Sokol Dvůr: podepsal Dvořák"
    assert match_item(again) is None
    assert again.key("enter")["title"] == "Podpis kapitána Jiskra Hořice: Horák?"
    assert again.play("h\n")[-1]["screen"] == "ready"
    summary = final_match_item(again)["summary"]
    assert [(s["side"], s["captain"]) for s in summary["signatures"]] == [("home", "Dvořák"), ("away", "Horák")]
