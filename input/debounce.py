"""Raw key transitions → clean gestures: press, hold (long press), release.

Our own debouncing, because gpiozero's mock pins ignore ``bounce_time`` and a referee's keypad
must behave the same in tests as at the table. Time comes from the events (``KeyEvent.t``) and
from ``poll(now)``: nothing here sleeps or reads a clock.

* After an accepted edge a key is locked for ``bounce`` seconds; what the contact does meanwhile
  is ignored, and if it ends up in the other state, ``poll`` accepts that once the lock ends.
* No auto-repeat: a key held down gives one ``press`` and, after ``long_press`` seconds, one
  ``hold`` — a stuck key never floods.
* ``deadline()`` tells the service when to call ``poll`` next (or None): no busy loop.
"""
from dataclasses import dataclass

from input.events import KeyEvent

BOUNCE = 0.03          # s: a contact is locked this long after an accepted edge ([keypad] debounce)
LONG_PRESS = 0.8       # s: a key held this long is a long press ([keypad] long_press)
HOLD_MARGIN = 0.2      # s: a hold typed in the terminal or a script lasts this much longer, so it surely counts


def held_for(long_press: float) -> float:
    """How long the terminal keypad and a key script hold a key for a long press of ``long_press``."""
    return long_press + HOLD_MARGIN


@dataclass(frozen=True)
class Gesture:
    """A debounced key gesture: a press, a hold or a release of one key."""
    kind: str          # "press" | "hold" | "release"
    key: str
    device: str
    t: float
    held: bool = False  # on "release": a "hold" was already given for this press


@dataclass
class _Contact:
    """One key's contact as the debouncer tracks it."""
    raw: bool = False        # what the contact says now
    stable: bool = False     # what we accepted
    edge_t: float = float("-inf")
    lock: float = 0.0        # bounce time of the last accepted edge
    held: bool = False       # "hold" already given for the current press


class Debouncer:
    def __init__(self, bounce: float = BOUNCE, long_press: float = LONG_PRESS):
        self.bounce = bounce
        self.long_press = long_press
        self._contacts: dict[tuple[str, str], _Contact] = {}

    def feed(self, event: KeyEvent) -> list[Gesture]:
        out = self.poll(event.t)
        ident = (event.device, event.key)
        contact = self._contacts.setdefault(ident, _Contact())
        contact.raw = event.pressed
        if contact.raw != contact.stable and event.t - contact.edge_t >= contact.lock:
            out.append(self._accept(ident, contact, event.t, 0.0 if event.debounced
                                    else self.bounce))
        return out

    def poll(self, now: float) -> list[Gesture]:
        """Settle contacts whose lock has ended and give holds that are due, in time order."""
        due = []
        for ident, contact in self._contacts.items():
            when = self._due(contact)
            if when is not None and when <= now:
                due.append((when, ident, contact))
        out = []
        for when, ident, contact in sorted(due, key=lambda d: (d[0], d[1])):
            if contact.raw != contact.stable:
                out.append(self._accept(ident, contact, when, contact.lock))
                when = self._due(contact)     # a settled press may already be a hold
            if contact.stable and not contact.held and when is not None and when <= now:
                contact.held = True
                out.append(Gesture("hold", ident[1], ident[0], when))
        return out

    def deadline(self) -> float | None:
        times = [w for w in (self._due(c) for c in self._contacts.values()) if w is not None]
        return min(times) if times else None

    def pressed(self) -> list[tuple[str, str]]:
        """(device, key) of every key currently held down."""
        return [ident for ident, c in self._contacts.items() if c.stable]

    def reset(self, device: str | None = None) -> None:
        """Forget keys (of one device): used when a device disconnects mid-press."""
        for ident in [i for i in self._contacts if device is None or i[0] == device]:
            del self._contacts[ident]

    def _due(self, contact: _Contact) -> float | None:
        if contact.raw != contact.stable:
            return contact.edge_t + contact.lock
        if contact.stable and not contact.held:
            return contact.edge_t + self.long_press
        return None

    @staticmethod
    def _accept(ident, contact: _Contact, t: float, lock: float) -> Gesture:
        contact.stable = contact.raw
        contact.edge_t = t
        contact.lock = lock
        if contact.stable:
            contact.held = False
            return Gesture("press", ident[1], ident[0], t)
        gesture = Gesture("release", ident[1], ident[0], t, held=contact.held)
        contact.held = False
        return gesture
