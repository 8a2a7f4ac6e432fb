"""docs/record-format.md is a contract: its summary examples are what `replay` prints for a real
record, and its refusal codes and game-log reasons are exactly the ones the cores use."""
import json
import re
from pathlib import Path

from carom_helpers import command as carom_command
from eightball_helpers import B_NEEDS_EIGHT
from eightball_helpers import cmd as eightball_command

from rules.record import replay_lines

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")


def section(start: str, end: str) -> str:
    return DOC[DOC.index(start):DOC.index(end, DOC.index(start))]


def json_example(after: str) -> dict:
    text = DOC[DOC.index(after):]
    return json.loads(text[text.index("```json") + 7:text.index("```", text.index("```json") + 7)])


def replay(header: dict, commands: list[dict]) -> dict:
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(c) for c in commands]
    return replay_lines(lines).summary()


def test_the_carom_summary_example_is_what_replay_prints():
    """docs "Carom summary": A 13, 0 and a running 10; B 10, 0 (RULES 1.5, 1.7)."""
    doc = json_example("### Carom summary")
    tokens = "10 2 1 m 10 m m m 10".split()
    got = replay({"game": "carom", "a": "Novák", "b": "Dvořák"},
                 [carom_command(t) for t in tokens])
    assert doc["players"]["b"] == {"...": "..."}            # the doc elides B
    assert set(got["players"]["b"]) == set(doc["players"]["a"])
    got["players"]["b"] = doc["players"]["b"]
    doc["rejected"] = []
    assert got == doc


def test_the_8ball_summary_example_is_what_replay_prints():
    """docs "8-ball summary": a won game 1 on b's 8 with a scratch; a broke game 2, three solids
    down, a fourth being entered (RULES 2.3, 2.7, 2.9)."""
    doc = json_example("### 8-ball summary")
    tokens = (B_NEEDS_EIGHT + " f . x 8@6 . s s s . s").split()
    header = {"game": "8ball", "a": "Novák", "b": "Dvořák", "games_to_win": 3, "sets_to_win": 2,
              "first_break": "b"}
    assert replay(header, [eightball_command(t) for t in tokens]) == doc


def codes_in(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


def codes_in_source(*patterns: str) -> set[str]:
    found = set()
    for pattern in patterns:
        for path in (ROOT / "rules").glob(pattern):
            found |= set(re.findall(r'code ?= ?"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


CAROM_PARTIE_MODULES = [f"carom/{name}.py" for name in ("core", "state", "errors", "corrections", "figures")]
BOARD_CODES = {"nothing_to_undo", "nothing_to_redo", "bad_command"}
BASE_CODES = {"rule", "illegal", "bad_header", "bad_record"}      # rules/errors.py base classes
EIGHTBALL_HEADER_CODES = {"bad_player", "bad_race", "bad_side", "bad_opposite", "bad_team_points"}


def test_carom_refusal_codes_in_the_doc_are_the_cores():
    """docs "Refusals (codes)" lists every code the carom core raises and no other."""
    words = codes_in(section("### Refusals (codes)", "### Corrections"))
    not_codes = {"code", "forfeit", "value", "by", "player", "inning", "points"}   # other words
    assert words - not_codes == codes_in_source(*CAROM_PARTIE_MODULES) | BOARD_CODES


def test_8ball_refusal_codes_in_the_doc_are_the_cores():
    """docs 8-ball refusal table lists every command refusal of the 8-ball core; the header
    errors line lists its header codes."""
    table = section("Refusal codes (`IllegalCommand.code`", "### 8-ball summary")
    documented = set(re.findall(r"^\| `([a-z_]+)`(?: / `([a-z_]+)`)? \|", table, re.M))
    documented = {c for pair in documented for c in pair if c}
    source = codes_in_source("eightball/*.py")
    assert documented == (source - EIGHTBALL_HEADER_CODES) | BOARD_CODES - {"bad_command"}
    header_line = section("Header errors (`HeaderError.code`)", "\n\n")
    assert codes_in(header_line) - {"HeaderError"} == EIGHTBALL_HEADER_CODES


def test_8ball_game_log_reasons_in_the_doc_are_the_cores():
    """docs games_log `reason` list = issue 3's list = what rules/eightball/ can write."""
    text = section("`reason` (", ")")
    documented = set(re.findall(r'"([a-z_]+)"', text))
    issue = {"eight", "eight_early", "eight_scratch", "eight_foul", "eight_with_opponent_ball",
             "eight_wrong_pocket", "reported", "forfeit"}
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules").glob("eightball/*.py"))
    produced = set(re.findall(r'return "(eight[a-z_]*)"', source))          # eight_reason
    produced |= set(re.findall(r'"(reported|forfeit)"\)', source))          # game, forfeit
    assert documented == issue == produced


def test_replay_prints_every_field_the_issues_state():
    """Issues 2 and 3 state replay's output fields; the summaries (and the doc examples checked
    above) carry every one of them under the same name."""
    carom = replay({"game": "carom", "a": "A", "b": "B"}, [carom_command("10")])
    assert {"game", "finished", "result", "to_play", "players", "rejected"} <= set(carom)
    assert {"name", "points", "innings", "best_series", "average", "series",
            "team_points"} <= set(carom["players"]["a"])
    tokens = "g:a s .".split()
    eight = replay({"game": "8ball", "a": "A", "b": "B"}, [eightball_command(t) for t in tokens])
    assert {"game", "finished", "winner", "sets", "games", "games_log", "current",
            "rejected"} <= set(eight)
    assert {"set", "game", "breaker", "winner", "reason"} <= set(eight["games_log"][0])
    assert {"shooter", "breaker", "break_shot", "open_table", "groups", "left", "ball_in_hand",
            "must_choose", "eight_pocket"} <= set(eight["current"])


def test_every_test_named_in_the_rules_coverage_table_exists():
    """docs/rules-coverage.md (clause → test traceability) names only tests that exist, and every
    clause row names at least one."""
    text = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    files = dict(re.findall(r"\*\*([A-Z]+)\*\* `(test_[a-z_0-9]+\.py)`", text))
    paths = {path.name: path for path in (ROOT / "tests").rglob("test_*.py")}   # basenames are unique
    defined = {abbr: set(re.findall(r"^def (test_\w+)", paths[name].read_text(encoding="utf-8"), re.M))
               for abbr, name in files.items()}
    named = re.findall(r"\b([A-Z]+)::(test_\w+)", text)
    missing = [f"{abbr}::{test}" for abbr, test in named if test not in defined.get(abbr, ())]
    assert named and not missing
    rows = [line for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| clause") and "---" not in line
            and not line.startswith("| contract")]
    assert all("::" in row or "not core behaviour" in row for row in rows)
