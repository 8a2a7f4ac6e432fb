"""Drive a Referee and a Board by script with a fake clock: the input tests' and the service's tests'.

    desk = Desk(Board(header), "carom")
    desk.tap("1"); desk.hold("enter"); desk.tap("1"); desk.tap("enter")
    desk.board.summary()      # every accepted command was pushed, as the service would
"""
from input.debounce import held_for
from input.events import KeyEvent
from input.keymap import KeyMap
from input.referee import Referee


class FakeClock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


class Desk:
    """A referee at a table: keys in, commands pushed onto the board, outcomes kept."""

    def __init__(self, board, game: str | None = None, keymap: KeyMap | None = None, *,
                 device: str = "kp", debounced: bool = True, **referee_options):
        self.board = board
        self.clock = FakeClock()
        self.referee = Referee(game or board.header["game"], keymap, self.clock,
                               **referee_options)
        self.device, self.debounced = device, debounced
        self.outcomes: list = []

    def event(self, key: str, pressed: bool):
        self.feed(KeyEvent(key, pressed, self.clock(), self.device, self.debounced))

    def feed(self, event):
        """A KeyEvent or DeviceStatus from a device, as the service hands it on."""
        self._take(self.referee.press(event, self.board))
        self.settle()

    def settle(self):
        """Poll every deadline that is due now (the service's timer)."""
        for _ in range(100):
            due = self.referee.deadline()
            if due is None or due > self.clock():
                return
            self._take(self.referee.poll(self.clock(), self.board))

    def wait(self, seconds: float):
        """Let time pass, polling deadlines on the way as the service's loop would."""
        end = self.clock() + seconds
        while True:
            due = self.referee.deadline()
            if due is None or due > end:
                break
            self.clock.t = max(self.clock.t, due)
            self._take(self.referee.poll(self.clock(), self.board))
        self.clock.t = end

    def tap(self, key: str, duration: float = 0.1):
        self.event(key, True)
        self.wait(duration)
        self.event(key, False)
        self.wait(0.1)
        return self

    def hold(self, key: str):
        return self.tap(key, held_for(self.referee.debouncer.long_press))

    def keys(self, text: str):
        """Space-separated key names; "hold:enter" holds."""
        for word in text.split():
            if word.startswith("hold:"):
                self.hold(word[5:])
            else:
                self.tap(word)
        return self

    def _take(self, outcome):
        self.outcomes.append(outcome)
        for cmd in outcome.commands:
            self.board.push(cmd)

    # -- what happened ----------------------------------------------------------
    @property
    def commands(self) -> list:
        return [c for o in self.outcomes for c in o.commands]

    @property
    def messages(self) -> list:
        return [o.message["text"] for o in self.outcomes if o.message]

    @property
    def ui(self) -> list:
        return [o.ui for o in self.outcomes if o.ui]

    @property
    def screen(self):
        return self.referee.screen
