"""Power cut at 200+ random points of a scripted partie: nothing acknowledged is ever lost.

A child process runs the service headless (config file, night, service loop, journal — no
display) and reads record commands from a pipe; after each one is durable it writes ``ack``.
The parent feeds a few commands, then one more and SIGKILLs the child at a random moment —
mid-write, between fsync and ack, or idle — and starts the next child on the same data dir.
Each child first reports the state it resumed: it must be the state after every acknowledged
command (or one more: the command being written when the power went may have made it to disk),
equal to replaying those commands fresh, and the screen must be that state's screen.

Most children are forked from the test process (modules already imported, so 200+ restarts take
seconds); every tenth is a fresh interpreter started with subprocess, as after a real reboot.
Either way the child is a separate process killed with SIGKILL and the next one knows only the disk.
"""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import traceback

from config.load import load
from firmware_host.night import Night
from firmware_host.service import Command, DisplayLink, Service, Stop
from rules.board import Board
from rules.errors import RuleError

KILL_POINTS = 210
SPAWN_EVERY = 10
LIMITS = {"points_limit": 1000, "innings_limit": 200}


def child_main(config_path: str, commands_in, acks_out) -> None:
    """The service as the child runs it: resume from disk, report, then take commands."""
    night = Night(load(config_path))
    for _ in range(5):                      # ready -> setup -> single partie -> who starts
        if night.board is not None:
            break
        night.ui("confirm")
    acks_out.write(f"resume {len(night.board.history)} {json.dumps(night.screen(), ensure_ascii=False)}\n")
    acks_out.flush()

    def ack(cmd):
        acks_out.write("ack\n")
        acks_out.flush()

    service = Service(night, DisplayLink(None), on_durable=ack)

    def feed():
        for line in commands_in:
            service.post(Command(json.loads(line)))
        service.post(Stop())

    threading.Thread(target=feed, daemon=True).start()
    service.run()


SPAWNED = """
import sys
sys.path.insert(0, sys.argv[2])
from tests.test_killpoints import child_main
child_main(sys.argv[1], sys.stdin, sys.stdout)
"""


class Child:
    """One service process: forked (fast) or spawned (a fresh interpreter)."""

    def __init__(self, config_path, spawn: bool):
        if spawn:
            env = dict(os.environ, PYTHONPATH=os.getcwd())
            self.proc = subprocess.Popen([sys.executable, "-c", SPAWNED, str(config_path), os.getcwd()],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                         text=True, bufsize=1)
            self.pid, self.stdin, self.stdout = self.proc.pid, self.proc.stdin, self.proc.stdout
            return
        self.proc = None
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        pid = os.fork()
        if pid == 0:                                        # the child
            status = 0
            try:
                os.close(down_w), os.close(up_r)
                child_main(str(config_path), os.fdopen(down_r, encoding="utf-8"),
                           os.fdopen(up_w, "w", encoding="utf-8"))
            except BaseException:
                traceback.print_exc()
                status = 1
            finally:
                os._exit(status)
        os.close(down_r), os.close(up_w)
        self.pid = pid
        self.stdin = os.fdopen(down_w, "w", encoding="utf-8", buffering=1)
        self.stdout = os.fdopen(up_r, encoding="utf-8")

    def kill(self) -> str:
        """SIGKILL, reap, and return what the child had written before it died."""
        os.kill(self.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        else:
            os.waitpid(self.pid, 0)
        rest = self.stdout.read()
        self.stdout.close()
        try:
            self.stdin.close()
        except BrokenPipeError:
            pass
        return rest


def script(seed: int, length: int) -> list[dict]:
    """A long carom partie of accepted commands, undo and redo included."""
    rng = random.Random(seed)
    board = Board({"game": "carom", "a": "Hráč 1", "b": "Hráč 2", **LIMITS})
    choices = ([{"cmd": "score", "value": 1}] * 6 + [{"cmd": "score", "value": 2}] * 2
               + [{"cmd": "score", "value": 10}, {"cmd": "score", "value": 20}, {"cmd": "frozen"},
                  {"cmd": "miss"}, {"cmd": "miss"}, {"cmd": "foul"}, {"cmd": "undo"}, {"cmd": "redo"}])
    out = []
    while len(out) < length and not board.finished:
        cmd = rng.choice(choices)
        try:
            board.push(cmd)
        except RuleError:
            continue
        out.append(cmd)
    return out


def expected_screens(commands: list[dict]) -> list[dict]:
    board = Board({"game": "carom", "a": "Hráč 1", "b": "Hráč 2", **LIMITS})
    screens = [{"screen": "carom", "summary": board.summary()}]
    for cmd in commands:
        board.push(cmd)
        screens.append({"screen": "carom", "summary": board.summary()})
    return screens


def test_sigkill_at_random_points_loses_no_acknowledged_command(tmp_path):
    """The issue's crash test: kill -9, restart, the resumed state equals the durable state."""
    config = tmp_path / "config.toml"
    config.write_text(f'[device]\nvenue = "Test"\ndata_dir = "{tmp_path / "data"}"\nlanguage = "cs"\n'
                      f'[rules.carom]\npoints_limit = {LIMITS["points_limit"]}\n'
                      f'innings_limit = {LIMITS["innings_limit"]}\n', encoding="utf-8")
    rng = random.Random(20261129)
    commands = script(7, 4 * KILL_POINTS)
    screens = expected_screens(commands)
    acked = 0
    resumed_above_acked = 0
    for point in range(KILL_POINTS):
        child = Child(config, spawn=point % SPAWN_EVERY == 0)
        head = child.stdout.readline().split(" ", 2)
        assert head[0] == "resume", f"kill point {point}: the child did not start"
        resumed = int(head[1])
        assert acked <= resumed <= acked + 1, f"kill point {point}: resumed {resumed}, acknowledged {acked}"
        resumed_above_acked += resumed - acked
        assert json.loads(head[2]) == screens[resumed], f"kill point {point}: wrong state after restart"
        position = resumed
        for _ in range(rng.randint(0, 3)):                 # a few commands, each acknowledged
            child.stdin.write(json.dumps(commands[position]) + "\n")
            assert child.stdout.readline() == "ack\n"
            position += 1
        burst = rng.randint(1, 3)                          # then more, and the power goes
        child.stdin.write("".join(json.dumps(c) + "\n" for c in commands[position:position + burst]))
        time.sleep(rng.choice([0, 0, 0.0002, 0.0005, 0.001, 0.003]))
        rest = child.kill()
        acked = position + rest.count("ack\n")
        assert acked <= position + burst
    # the kills really landed in different places: sometimes before, sometimes after the write
    assert 0 < resumed_above_acked < KILL_POINTS
    assert acked > KILL_POINTS
