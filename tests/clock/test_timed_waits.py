"""A timed wait waits its time, also in CI's shifted-clock run (.ci/run: libfaketime preloaded,
the monotonic clock left real).

CPython's threads wait for the interpreter's lock (the GIL) on a condition variable on the
monotonic clock, for its switch interval (5 ms) at a time. libfaketime's pthread_cond_timedwait,
on glibc 2.30 and later, measured such a wait's time left against a faked monotonic clock though
FAKETIME_DONT_FAKE_MONOTONIC keeps the caller's real (fixed upstream in libfaketime's PR #503,
which the wheel's library predates): every wait ended at once, so every thread waiting for the
GIL spun on a CPU. A receiver with twenty refusals in its thread pool then starved its event loop
for seconds (test_clients_that_hang_up_mid_answer_leave_no_traceback's answer timed out at 10 s).
"""
import ctypes
import errno
import sys
import time

import pytest

CLOCK_MONOTONIC = 1
WAIT = 0.2      # seconds


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX threads through glibc")
def test_a_timed_wait_on_the_monotonic_clock_waits_its_time():
    libc = ctypes.CDLL(None)        # the process's symbols: a preloaded libfaketime's before glibc's
    attr, cond, mutex = (ctypes.create_string_buffer(64) for _ in range(3))     # each bigger than glibc's type
    assert libc.pthread_condattr_init(attr) == 0
    assert libc.pthread_condattr_setclock(attr, CLOCK_MONOTONIC) == 0
    assert libc.pthread_cond_init(cond, attr) == 0
    assert libc.pthread_mutex_init(mutex, None) == 0
    assert libc.pthread_mutex_lock(mutex) == 0
    try:
        start = time.monotonic_ns()             # the clock CPython's GIL deadlines are read from
        deadline = start + int(WAIT * 1e9)
        until = _Timespec(deadline // 10**9, deadline % 10**9)
        result = 0
        while result == 0:                      # a wake-up without a signal waits again
            result = libc.pthread_cond_timedwait(cond, mutex, ctypes.byref(until))
        waited = (time.monotonic_ns() - start) / 1e9
    finally:
        libc.pthread_mutex_unlock(mutex)
        libc.pthread_cond_destroy(cond)
        libc.pthread_mutex_destroy(mutex)
        libc.pthread_condattr_destroy(attr)
    assert result == errno.ETIMEDOUT
    assert waited >= WAIT * 0.95, f"a {WAIT} s wait ended after {waited:.4f} s"
