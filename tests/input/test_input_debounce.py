"""Our own debouncing and long press, time injected (gpiozero's mock pins ignore bounce_time)."""
from input.debounce import Debouncer
from input.events import KeyEvent


def ev(key, pressed, t, device="matrix", debounced=False):
    return KeyEvent(key, pressed, t, device, debounced)


def kinds(gestures):
    return [(g.kind, g.key) for g in gestures]


def test_press_is_given_at_once_and_bounces_are_ignored():
    d = Debouncer(bounce=0.03, long_press=0.8)
    assert kinds(d.feed(ev("1", True, 0.0))) == [("press", "1")]
    for i, level in enumerate([False, True, False, True]):
        assert d.feed(ev("1", level, 0.001 * (i + 1))) == []
    assert d.poll(0.1) == []
    assert kinds(d.feed(ev("1", False, 0.2))) == [("release", "1")]
    assert d.feed(ev("1", True, 0.205)) == [] and d.feed(ev("1", False, 0.207)) == []
    assert d.poll(1.0) == [] and d.deadline() is None


def test_a_quick_release_inside_the_lock_is_settled_by_poll():
    d = Debouncer(bounce=0.03, long_press=0.8)
    d.feed(ev("1", True, 0.0))
    d.feed(ev("1", False, 0.01))          # a real, very short tap
    assert d.deadline() == 0.03
    assert kinds(d.poll(0.03)) == [("release", "1")]
    assert kinds(d.feed(ev("1", True, 0.5))) == [("press", "1")]


def test_held_key_gives_one_hold_and_never_repeats():
    d = Debouncer(bounce=0.03, long_press=0.8)
    d.feed(ev("enter", True, 0.0))
    assert d.deadline() == 0.8
    assert d.poll(0.5) == []
    assert kinds(d.poll(0.8)) == [("hold", "enter")]
    assert d.deadline() is None            # a stuck key: nothing more, ever
    assert d.poll(3600.0) == []
    release = d.feed(ev("enter", False, 3601.0))
    assert kinds(release) == [("release", "enter")] and release[0].held


def test_due_gestures_come_before_a_later_event():
    d = Debouncer(bounce=0.03, long_press=0.8)
    d.feed(ev("A", True, 0.0))
    out = d.feed(ev("B", True, 1.0))       # the service never polled: the hold is still given first
    assert kinds(out) == [("hold", "A"), ("press", "B")]


def test_keyboard_events_are_not_locked_so_fast_repeats_count():
    d = Debouncer(bounce=0.03, long_press=0.8)
    out = []
    for pressed in (True, False, True, False):
        out += d.feed(ev("1", pressed, 5.0, "kbd", debounced=True))
    assert kinds(out) == [("press", "1"), ("release", "1")] * 2


def test_same_key_on_two_devices_is_two_contacts():
    d = Debouncer()
    assert kinds(d.feed(ev("1", True, 0.0, "a")) + d.feed(ev("1", True, 0.0, "b"))) == \
        [("press", "1"), ("press", "1")]
    d.reset("a")
    assert d.pressed() == [("b", "1")]
