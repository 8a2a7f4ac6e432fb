"""The device service at a table, as the end-to-end tests drive it (issue 7, issue 16): the service
``cli.commands.run.assemble`` builds from a config, its syncer in its thread and the loop run by hand;
the referee's actions and record commands as its keypads post them; a carom match night's partie;
and reading the receiver's pages over HTTP.

Import it from a test module (``from device_table_helpers import ...``; tests/ is on sys.path).
"""
import json

from gpiozero.pins.mock import MockFactory

from cli.commands.run import assemble
from firmware_host.service import Command, Ui
from firmware_host.settings import load
from rules.record import replay_lines
from sync_helpers import records_url


def http_sync(port: int) -> str:
    return f'transport = "http"\nurl = "{records_url(port)}"\nallow_plain_http = true\n'


def device_config(path, device: str, secret: str, sync: str, *, game: str = "carom", league: str = "",
                  pins: str = '"enter" = 25', eightball: tuple[int, int, int] = (2, 1, 3)):
    """The table's config file at ``path`` (Hospoda U Lva, table 1, short limits, a dummy 64x16
    display, mock buttons), signing as ``device`` with ``secret``; ``sync``: the transport's options;
    ``league``: its league file (none: the league comes from the receiver); ``eightball``: games to
    win a set, sets to win a match, individual matches in a team match (RULES 2.9). Returns the config."""
    league_line = f'league = "{league}"' if league else ""
    games_to_win, sets_to_win, individual_matches = eightball
    path.write_text(f"""
[device]
venue = "Hospoda U Lva"
table = "1"
name = "{device}"
game = "{game}"
{league_line}
data_dir = "data"
[rules.carom]
points_limit = 20
innings_limit = 3
[rules.8ball]
games_to_win = {games_to_win}
sets_to_win = {sets_to_win}
individual_matches = {individual_matches}
[display]
driver = "dummy"
width = 64
height = 16
[keypad]
devices = ["buttons"]
[keypad.buttons.pins]
{pins}
[sync]
device_id = "{device}"
secret = "{secret}"
outbox = "outbox"
backoff_initial = 0.05
backoff_max = 0.2
timeout = 2.0
{sync}""", encoding="utf-8")
    return load(path)


class Table:
    """The service as ``serve`` assembles it: the syncer in its thread, the loop run by hand."""

    def __init__(self, config, clock):
        self.service, self.devices, self.syncer = assemble(config, pin_factory=MockFactory(), clock=clock)
        self.outbox = self.syncer.outbox
        self.service.display.start(clock.monotonic())
        self.service.show()
        self.sync_thread = self.syncer.start()

    def post(self, *events):
        for event in events:
            self.service.post(event)
            while not self.service.queue.empty():
                self.service.handle(self.service.queue.get())
            self.service.tick()

    def ui(self, *actions):
        self.post(*(Ui(a) for a in actions))

    def play(self, *cmds):
        self.post(*(Command(c) for c in cmds))

    @property
    def screen(self) -> dict:
        self.service.tick()
        return self.service.screen()

    def sent(self) -> bool:
        """Nothing waits and the last delivery is written (it follows the item's move by a moment)."""
        return not self.outbox.pending() and self.outbox.last_delivery() is not None

    def close(self):
        self.syncer.stop()
        self.sync_thread.join(10)
        for device in self.devices:
            device.close()


def score(*values):
    return [{"cmd": "score", "value": v} for v in values]


MISS = {"cmd": "miss"}
# (lag won by the home player?, commands, team points home:away) — RULES 1.4 / 1.5
HOME_WINS = (True, [*score(10, 2, 1), MISS, *score(1), MISS, *score(2, 2, 2, 1), MISS], (2, 0))
UNDO, REDO = {"cmd": "undo"}, {"cmd": "redo"}
CORRECT_B1 = {"cmd": "correct", "player": "b", "inning": 1, "points": 2}   # a journalled correction
# the away player won the lag and plays a; the record holds an undo/redo and a correction
AWAY_WINS = (False, [*score(10), UNDO, REDO, *score(2, 1), MISS, *score(1), MISS, CORRECT_B1,
                     *score(2, 2, 2, 1), MISS], (0, 2))
DRAW = (True, [*score(20), *score(20)], (1, 1))                # both reach the limit: draw (1.4.4)
B_WINS_ON_INNINGS = (True, [MISS, *score(1), MISS, MISS, MISS, MISS, MISS], (0, 2))   # 1.4.5
A_FORFEITS = (True, [MISS, *score(1), MISS, {"cmd": "forfeit", "by": "a"}], (0, 2))  # 1.4.8
NIGHT = [HOME_WINS, AWAY_WINS, DRAW, A_FORFEITS]


# Closing (a partie, the match): Enter asks, the question starts on "Ne"; 1 moves to "Ano" and the
# long press of Enter (the "menu" action) takes it (issue 12).
CLOSE = ("confirm", 1, "menu")


def play_partie(table: Table, home_lag: bool, cmds) -> None:
    assert table.screen["screen"] == "menu"                    # who won the lag?
    table.ui(*(("confirm",) if home_lag else ("down", "confirm")))
    table.play(*cmds)
    assert table.service.night.board.finished, table.screen
    table.ui(*CLOSE)                                           # close the partie? yes


def close_match(table: Table) -> dict:
    result = table.screen
    assert result["screen"] == "match"
    table.ui("confirm")                                        # A.6.9d: the home captain is asked to sign
    while table.screen["screen"] == "menu":                    # each captain chosen at setup (A.6.1)
        table.ui("menu")                                       # signs by the long press (issue 24)
    assert table.screen["screen"] == "ready"
    table.service.night.finalize()                             # not taken back: final (issue 12)
    table.service.show()
    return result


def assert_arrived_once_and_intact(table: Table, store) -> dict:
    """Every device item is stored exactly once, byte for byte, and each partie replays to its summary."""
    assert table.outbox.pending() == [] and table.outbox.held() == []
    sent = {p.stem: p.read_bytes() for p in (table.outbox.directory / "delivered").glob("*.json")}
    rows = store.items.all()
    assert sorted(r["id"] for r in rows) == sorted(sent)               # nothing lost, nothing doubled
    assert store.refusals.latest() == []                                      # nothing refused on the way
    for row in rows:
        assert row["body"] == sent[row["id"]]                          # byte-identical
        content = json.loads(row["body"])
        if row["kind"] == "partie":
            replayed = replay_lines(content["record"].splitlines())
            assert replayed.rejected == [] and replayed.board.finished
            assert replayed.board.summary() == content["summary"]
    return {row["id"]: json.loads(row["body"]) for row in rows}


def fetch_html(port: int, path: str) -> str:
    """A page of the receiver, read over HTTP as the league organiser reads it."""
    from urllib.parse import quote
    from urllib.request import urlopen

    with urlopen(f"http://127.0.0.1:{port}{quote(path, safe='/?=&')}", timeout=60) as answer:   # a net for a hang
        assert answer.status == 200
        return answer.read().decode("utf-8")


def fetch(port: int, path: str):
    """The receiver's own JSON export."""
    return json.loads(fetch_html(port, path))
