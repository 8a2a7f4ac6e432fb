"""Every screen model of docs/screens.md renders on every layout, and a record renders to PNG."""
import json

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from PIL import Image

import display.counter
from cli.main import main
from display.counter import Counter
from display.devices import open_device
from display.settings import DisplaySettings
from rules.record import replay_lines

LAYOUTS = [dict(width=32, height=8), dict(width=64, height=16), dict(width=96, height=16),
           dict(width=128, height=32), dict(width=40, height=24), dict(width=64, height=16, emulate="ws2812"),
           dict(emulate="sevensegment", digits=8), dict(emulate="sevensegment", digits=16)]

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzáčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ ABCXYZ0123456789:-./?↵",
                max_size=40)
counts = st.integers(min_value=0, max_value=99999)
names = words.filter(str.strip)
message = st.none() | st.fixed_dictionaries({"text": words, "level": st.sampled_from(["info", "warn", "error"])})

CAROM_CMDS = st.sampled_from([{"cmd": "score", "value": v} for v in (1, 2, 10, 20)]
                             + [{"cmd": c} for c in ("miss", "foul", "frozen", "undo", "redo")]
                             + [{"cmd": "forfeit", "by": "a"}])
EIGHT_CMDS = st.sampled_from([{"cmd": "pot", "ball": "solid"}, {"cmd": "pot", "ball": "stripe"},
                              {"cmd": "pot", "ball": "solid", "pocket": 2}, {"cmd": "pot8", "pocket": 4},
                              {"cmd": "scratch"}, {"cmd": "foul"}, {"cmd": "shot"}, {"cmd": "shot"},
                              {"cmd": "nocushion"}, {"cmd": "choose", "group": "solids"}, {"cmd": "undo"},
                              {"cmd": "game", "winner": "a"}, {"cmd": "game", "winner": "b"}])


def _game(header, commands):
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(c) for c in commands]
    summary = replay_lines(lines).board.summary()
    return {"screen": summary["game"], "summary": summary}


carom = st.builds(lambda a, b, limit, innings, cmds: _game(
    {"game": "carom", "a": a, "b": b, "points_limit": limit, "innings_limit": innings}, cmds),
    names, names, st.integers(10, 400), st.integers(1, 30), st.lists(CAROM_CMDS, max_size=40))
eightball = st.builds(lambda a, b, cmds: _game(
    {"game": "8ball", "a": a, "b": b, "games_to_win": 2, "sets_to_win": 2, "first_break": "a"}, cmds),
    names, names, st.lists(EIGHT_CMDS, max_size=40))
others = st.one_of(
    st.fixed_dictionaries({"screen": st.just("ready"), "venue": words, "table": words, "time": words,
                           "unsent": counts, "last_sent": st.none() | words}),
    st.fixed_dictionaries({"screen": st.just("menu"), "title": words, "items": st.lists(words, max_size=8),
                           "selected": st.integers(0, 9)}),
    st.fixed_dictionaries({"screen": st.just("prompt"), "title": words, "value": words, "hint": words}),
    st.fixed_dictionaries({"screen": st.just("lotdraw"), "seed": counts, "pairs": st.lists(
        st.fixed_dictionaries({"partie": st.integers(1, 4), "home": words, "away": words}), max_size=4)}),
    st.fixed_dictionaries({"screen": st.just("match"), "home": words, "away": words,
                           "points": st.fixed_dictionaries({"home": st.integers(0, 8), "away": st.integers(0, 8)}),
                           "partie": st.lists(words, max_size=4)}),
    st.fixed_dictionaries({"screen": st.just("error"), "code": st.sampled_from(["config", "keypad", "display", "sync"]),
                           "text": words}),
    st.fixed_dictionaries({"screen": st.just("keytest"), "key": st.none() | words, "device": words}),
)
models = st.builds(lambda model, msg: dict(model, **({"message": msg} if msg else {})),
                   st.one_of(carom, eightball, others), message)


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=models, layout=st.sampled_from(LAYOUTS), now=st.floats(0, 1000))
def test_every_screen_model_renders_on_every_layout(model, layout, now, monkeypatch):
    monkeypatch.setattr(display.counter, "_MODEL_FAULTS", ())      # a drawing bug must fail here
    settings = DisplaySettings(driver="dummy", **layout)
    device = open_device(settings)
    counter = Counter(device, settings)
    deadline = counter.show(model, now)
    assert device.image.size == settings.size
    assert deadline is None or deadline > now


def record(tmp_path, *commands, **header):
    path = tmp_path / "partie.jsonl"
    head = {"game": "carom", "a": "Jan Novák", "b": "Petr Dvořák", "points_limit": 30, "innings_limit": 3}
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [dict(head, **header), *commands]) + "\n",
                    encoding="utf-8")
    return path


def test_render_writes_a_png_of_the_counter(tmp_path):
    out = tmp_path / "counter.png"
    assert main(["render", str(record(tmp_path, {"cmd": "score", "value": 10})), "--size", "64x16",
                 "--png", str(out), "--pixels", "--scale", "2"]) == 0
    with Image.open(out) as image:
        assert image.size == (128, 32) and image.getbbox() is not None


def test_render_takes_the_language_as_keycard_does(tmp_path):
    """Issue 12: one spelling for both commands (--lang stays as an alias); the finished partie's
    screen says its words in the language asked for."""
    finished = record(tmp_path, {"cmd": "score", "value": 10}, {"cmd": "score", "value": 10},
                      {"cmd": "score", "value": 10}, {"cmd": "miss"})
    pictures = {}
    for flag, language in (("--language", "cs"), ("--language", "en"), ("--lang", "en")):
        out = tmp_path / f"{flag}-{language}.png"
        assert main(["render", str(finished), "--size", "128x32", "--png", str(out), "--pixels", flag, language]) == 0
        pictures[flag, language] = out.read_bytes()
    assert pictures["--language", "en"] == pictures["--lang", "en"] != pictures["--language", "cs"]


def test_render_draws_round_leds_by_default(tmp_path):
    out = tmp_path / "counter.png"
    assert main(["render", str(record(tmp_path)), "--size", "32x8", "--png", str(out)]) == 0
    with Image.open(out) as image:
        assert image.width % 32 == 0 and image.width > 32 * 4


def test_render_gif_animates_the_last_two_innings(tmp_path):
    """RULES 1.7: the blinking inning number shows in the animation."""
    out = tmp_path / "counter.gif"
    path = record(tmp_path, {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "miss"})
    assert main(["render", str(path), "--size", "32x8", "--gif", str(out), "--pixels", "--scale", "1"]) == 0
    with Image.open(out) as image:
        assert image.n_frames >= 2


def test_render_gif_turns_every_page_of_a_page_that_has_pages(tmp_path):
    """RULES 1.6 / A.3.6 on a match night: the names' page takes turns with the partie and the team
    score, so the animation holds four pages (scores, names + partie, scores, names + score), not
    only the two the first frame asks for."""
    from PIL import ImageSequence

    from cli.commands.render import draw_gif
    from cli.parser import build_parser
    from display_samples import sample

    out = tmp_path / "night.gif"
    args = build_parser().parse_args(["render", "-", "--size", "64x16", "--gif", str(out), "--pixels", "--scale", "1"])
    draw_gif(args, sample("carom-match-night"))
    with Image.open(out) as image:
        pictures = [frame.convert("1").tobytes() for frame in ImageSequence.Iterator(image)]
    assert len(pictures) == 4 and len(set(pictures)) >= 3


def test_render_sevensegment_board(tmp_path):
    out = tmp_path / "board.png"
    assert main(["render", str(record(tmp_path)), "--driver", "sevensegment", "--digits", "16",
                 "--png", str(out)]) == 0
    assert out.stat().st_size > 0


@pytest.mark.parametrize("argv,words", [
    (["--size", "64x16"], "--png"),
    (["--png", "{out}", "--size", "64x16"], "not valid JSON"),
])
def test_render_errors_are_one_line_and_exit_2(tmp_path, capsys, argv, words):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    argv = [a.replace("{out}", str(tmp_path / "x.png")) for a in argv]
    assert main(["render", str(bad), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_render_rejects_a_bad_size(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["render", "x.jsonl", "--size", "wide", "--png", "x.png"])
    assert caught.value.code == 2 and "WIDTHxHEIGHT" in capsys.readouterr().err


def test_render_of_a_match_partie_draws_it_as_the_live_counter_does(emulator, tmp_path):
    """`pocitadlo render` of a league partie's record: the names, the partie number and the team
    points before it, as the counter showed them — from the night journal beside the record."""
    from cli.commands.render import partie_model
    from rules.record import replay_file

    player = emulator(points_limit=30, innings_limit=5)
    player.play("\n" * 6 + "\n\n" + "87" "0" "0" "2" "0" "0")       # captains; partie 1: A 30 … B misses
    player.play("\n1h\n\n")                                          # closed; partie 2: the home player starts
    live = player.play("12")[-1]
    assert live["match"]["partie"] == 2 and sum(live["match"]["points"].values()) == 2
    path = player.service.night.partie_journal.path
    board = replay_file(path).board
    assert partie_model(board, str(path)) == {key: live[key] for key in ("screen", "summary", "match")}
    out = tmp_path / "partie.gif"
    assert main(["render", str(path), "--size", "64x16", "--gif", str(out), "--pixels", "--scale", "1"]) == 0
    alone = tmp_path / "alone.jsonl"
    alone.write_bytes(open(path, "rb").read())                        # no night journal beside it
    assert "match" not in partie_model(replay_file(alone).board, str(alone))
