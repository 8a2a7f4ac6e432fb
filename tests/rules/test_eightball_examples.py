"""The 8-ball example records replay to the expected matches, in Python and through the CLI."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.record import replay_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CLI = Path(sys.executable).parent / "pocitadlo"

# file -> (winner, sets, games in the last set, reasons of the games in order)
EXPECTED = {
    "8ball-sets-2-1.jsonl": ("b", {"a": 1, "b": 2}, {"a": 1, "b": 2},
                             ["eight"] * 4 + ["eight_wrong_pocket"] + ["eight"] * 3),
    "8ball-fouls.jsonl": ("a", {"a": 1, "b": 0}, {"a": 2, "b": 1},
                          ["eight_scratch", "eight_early", "eight"]),
    "8ball-break-rerack.jsonl": ("a", {"a": 1, "b": 0}, {"a": 2, "b": 0}, ["eight", "eight"]),
    "8ball-stalemate.jsonl": ("b", {"a": 0, "b": 1}, {"a": 1, "b": 2}, ["eight", "eight", "reported"]),
    "8ball-quick.jsonl": ("b", {"a": 1, "b": 2}, {"a": 1, "b": 3}, ["reported"] * 12),
    "8ball-pocket-choice.jsonl": ("a", {"a": 1, "b": 0}, {"a": 1, "b": 0}, ["eight"]),
}


def test_every_8ball_example_is_checked():
    assert sorted(p.name for p in EXAMPLES.glob("8ball-*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_replays_to_the_expected_match(name):
    """RULES 2.9: whole matches, finished, no refused line."""
    winner, sets, games, reasons = EXPECTED[name]
    s = replay_file(EXAMPLES / name).summary()
    assert (s["finished"], s["winner"], s["sets"], s["games"]) == (True, winner, sets, games)
    assert [g["reason"] for g in s["games_log"]] == reasons
    assert s["rejected"] == []


def test_example_fouls_keeps_fouls_per_player():
    """RULES 2.6, 2.9: the game record keeps fouls per player and the loser's balls left."""
    log = replay_file(EXAMPLES / "8ball-fouls.jsonl").summary()["games_log"]
    assert log[0]["fouls"] == {"a": 2, "b": 2} and log[0]["loser_left"] == 0
    assert log[1]["fouls"] == {"a": 0, "b": 1}


def test_example_quick_derives_the_first_break_from_home():
    """RULES 2.3 / 8B:2b: home "a" and no first_break: b (away) breaks the first game."""
    s = replay_file(EXAMPLES / "8ball-quick.jsonl").summary()
    assert s["home"] == "a" and s["games_log"][0]["breaker"] == "b"
    assert (s["games_to_win"], s["sets_to_win"]) == (3, 2)


@pytest.mark.parametrize("name", ["8ball-sets-2-1.jsonl", "8ball-fouls.jsonl"])
def test_cli_replay_prints_the_summary(name):
    out = subprocess.run([str(CLI), "replay", str(EXAMPLES / name)], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == replay_file(EXAMPLES / name).summary()


def test_cli_replay_of_a_torn_8ball_line_fails_cleanly(tmp_path):
    lines = (EXAMPLES / "8ball-fouls.jsonl").read_text(encoding="utf-8").splitlines()
    first_shot = next(i for i, line in enumerate(lines) if '"cmd":"shot"' in line)
    lines[first_shot] = lines[first_shot].replace('"shot"', '"scratch"')
    record = tmp_path / "torn.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = subprocess.run([str(CLI), "replay", str(record)], capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 2 and f"line {first_shot + 1}: checksum mismatch" in out.stderr
    assert "Traceback" not in out.stderr
