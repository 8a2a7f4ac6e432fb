"""``pocitadlo replay FILE`` (issue 2): the state after a record as one JSON object."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from rules.record import encode_line

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
POCITADLO = Path(sys.executable).with_name("pocitadlo")
HEADER = '{"game":"carom","a":"Novák","b":"Dvořák","points_limit":30,"innings_limit":2}'


def replay(capsys, *args):
    code = main(["replay", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, text: str, name="partie.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("indent", ["100000000", "-5", "x"])
def test_an_indent_out_of_range_is_one_line_and_exit_2(capsys, indent):
    """A huge --indent ran out of memory ("internal error … a bug"); a negative one was taken."""
    with pytest.raises(SystemExit) as exit_:
        main(["replay", "--indent", indent, str(EXAMPLES / "carom-draw.jsonl")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "expected 0 to 16 spaces" in err and "Traceback" not in err


def test_replay_of_the_bundled_draw(capsys):
    """The README's run command: a full partie ending in a draw (RULES 1.4.4, B.9.4)."""
    code, out, err = replay(capsys, "--indent", "2", EXAMPLES / "carom-draw.jsonl")
    assert code == 0 and err == ""
    s = json.loads(out)
    assert s["game"] == "carom" and s["finished"] is True and s["result"] == "draw"
    assert s["to_play"] is None and s["rejected"] == []
    a, b = s["players"]["a"], s["players"]["b"]
    assert (a["name"], a["points"], a["team_points"]) == ("Jiří Novák", 200, 1)
    assert (b["points"], b["team_points"]) == (200, 1)
    assert a["innings"] == b["innings"] == len(a["series"]) == len(b["series"])
    assert out.count("\n") > 20                     # --indent pretty-prints


@pytest.mark.parametrize("name, result, forfeit", [
    ("carom-points-limit.jsonl", "a", None),
    ("carom-innings.jsonl", "b", None),
    ("carom-forfeit.jsonl", "a", "b"),
    ("carom-rejected.jsonl", "a", None),
])
def test_every_bundled_example_replays_to_a_finished_partie(capsys, name, result, forfeit):
    code, out, _ = replay(capsys, EXAMPLES / name)
    s = json.loads(out)
    assert code == 0 and s["finished"] and s["result"] == result and s["forfeit"] == forfeit


def test_output_shape(tmp_path, capsys):
    """Issue 2 / docs/record-format.md: the fields the replay prints."""
    path = write(tmp_path, HEADER + '\n{"cmd":"score","value":10}\n')
    s = json.loads(replay(capsys, path)[1])
    assert set(s) == {"game", "finished", "result", "to_play", "forfeit", "points_limit",
                      "innings_limit", "players", "counter", "rejected"}
    assert s["players"]["a"] == {"name": "Novák", "points": 10, "innings": 0, "best_series": 0,
                                 "average": "0.000", "series": [], "team_points": None}
    assert s["to_play"] == "a" and s["result"] is None and s["finished"] is False


def test_rejected_lines_are_listed_with_1_based_file_line_numbers(capsys):
    """A refused command is listed and the replay carries on."""
    s = json.loads(replay(capsys, EXAMPLES / "carom-rejected.jsonl")[1])
    assert [r["line"] for r in s["rejected"]] == [3, 7, 12, 17, 21, 22, 23, 24]
    assert "not 7" in s["rejected"][0]["error"]
    assert "frozen" in s["rejected"][1]["error"]


def test_blank_lines_count_in_the_line_numbers(tmp_path, capsys):
    path = write(tmp_path, HEADER + '\n\n{"cmd":"score","value":3}\n{"cmd":"miss"}\n')
    s = json.loads(replay(capsys, path)[1])
    assert s["rejected"] == [{"line": 3, "error": "a stroke scores 1, 2, 10 or 20, not 3"}]
    assert s["to_play"] == "b"


def test_checksummed_journal_lines_are_accepted(tmp_path, capsys):
    text = encode_line(json.loads(HEADER), checksum=True) + encode_line(
        {"cmd": "score", "value": 20, "at": "2026-11-12T17:08:00+01:00"}, checksum=True)
    s = json.loads(replay(capsys, write(tmp_path, text))[1])
    assert s["counter"]["series"] == 20


@pytest.mark.parametrize("text, fault", [
    (HEADER + '\n{"cmd": "miss"\n', "line 2: not valid JSON"),
    (HEADER + '\n[1]\n', "line 2: a record line must be a JSON object"),
    ('{"game":"snooker","a":"X","b":"Y"}\n', "line 1: bad header: unknown game 'snooker'"),
    ('{"game":"carom","a":"X"}\n', 'line 1: bad header: player "b" must be a non-empty name'),
    ('{"game":"carom","a":"X","b":"Y","points_limit":-5}\n', "points_limit must be a whole number"),
    ('{"cmd":"miss"}\n', "line 1: the first line must be a header"),
    ("", "empty record"),
    (HEADER + '\n{"cmd":"miss","crc":"00000000"}\n', "line 2: checksum mismatch"),
    (HEADER + '\n{"cmd":"miss","at":"\\ud800","crc":"00000000"}\n', "line 2: holds text that is not valid Unicode"),
    (HEADER[:-1] + ',"crc":"00000000","x":"\\udfff"}\n', "line 1: holds text that is not valid Unicode"),
    (HEADER.replace("Dvořák", "Dvo\\ud800ák") + "\n", "line 1: holds text that is not valid Unicode"),
])
def test_unreadable_records_exit_2_with_one_line(tmp_path, capsys, text, fault):
    code, out, err = replay(capsys, write(tmp_path, text))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fault in err and err.startswith("pocitadlo replay: ")


def test_a_missing_file_exits_2(tmp_path, capsys):
    code, out, err = replay(capsys, tmp_path / "nowhere.jsonl")
    assert code == 2 and err.count("\n") == 1 and "nowhere.jsonl" in err


def test_not_utf8_exits_2(tmp_path, capsys):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"game":"carom","a":"Novák","b":"Y"}\n'.encode("latin-1"))
    code, _, err = replay(capsys, path)
    assert code == 2 and "not UTF-8" in err and err.count("\n") == 1


# -- the installed console script -----------------------------------------------------------
def run_script(*args, stdin: str | None = None):
    assert POCITADLO.exists(), f"{POCITADLO} is not installed (pip install -e .)"
    return subprocess.run([str(POCITADLO), "replay", *map(str, args)], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_console_script_replays_the_readme_example():
    """README: .venv/bin/pocitadlo replay --indent 2 examples/carom-draw.jsonl."""
    done = run_script("--indent", "2", "examples/carom-draw.jsonl")
    assert done.returncode == 0 and done.stderr == ""
    s = json.loads(done.stdout)
    assert s["finished"] is True and s["result"] == "draw"


def test_console_script_reads_standard_input():
    done = run_script("-", stdin=HEADER + '\n{"cmd":"score","value":20}\n{"cmd":"score","value":7}\n')
    s = json.loads(done.stdout)
    assert done.returncode == 0 and s["counter"]["series"] == 20
    assert s["rejected"] == [{"line": 3, "error": "a stroke scores 1, 2, 10 or 20, not 7"}]


@pytest.mark.parametrize("text, fault", [
    ('{"game":"carom","a":"X","b":"Y"}\n{oops}\n', "line 2: not valid JSON"),
    ('{"game":"pool","a":"X","b":"Y"}\n', "unknown game 'pool'"),
])
def test_console_script_faults_are_one_line_without_traceback(tmp_path, text, fault):
    done = run_script(write(tmp_path, text))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and fault in done.stderr
    assert "Traceback" not in done.stderr


def test_console_script_missing_file():
    done = run_script("examples/no-such-partie.jsonl")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "no-such-partie.jsonl" in done.stderr


def run_bounded(command: str, *args, stdin=None):
    """The console script with its memory capped at 1 GiB (a record read whole would hit the cap)."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([str(POCITADLO), command, *map(str, args)], stdin=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120, preexec_fn=cap)


@pytest.mark.parametrize("command, options", [("replay", []), ("render", ["--png", "out.png"])])
def test_a_record_over_16_mib_is_refused_in_one_line(tmp_path, command, options):
    """A symlink to /dev/zero (or a disk image) is no record: refused at 16 MiB, not read to the end."""
    (tmp_path / "endless.jsonl").symlink_to("/dev/zero")
    done = run_bounded(command, tmp_path / "endless.jsonl", *[o if o != "out.png" else tmp_path / o for o in options])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "larger than 16 MiB: not a partie record" in done.stderr
    with open("/dev/zero", "rb") as zero:
        done = run_bounded(command, "-", *[o if o != "out.png" else tmp_path / o for o in options], stdin=zero)
    assert done.returncode == 2 and "larger than 16 MiB" in done.stderr and done.stderr.count("\n") == 1


def test_render_of_a_line_with_a_lone_surrogate_exits_2(tmp_path):
    path = write(tmp_path, HEADER + '\n{"cmd":"miss","at":"\\ud800","crc":"00000000"}\n')
    done = run_bounded("render", path, "--png", tmp_path / "out.png")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not valid Unicode" in done.stderr
